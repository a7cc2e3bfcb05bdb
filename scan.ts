#!/usr/bin/env -S deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git
/**
 * `scan.ts` — the scanner: lists the docs in scope, drops what must never be
 * touched (excluded dirs, `.dochygiene-ignore`, frozen, append-only) and
 * attaches objective signals to the rest. Writes `.dochygiene/scan.json`
 * atomically. Run it from the project root:
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git scan.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { keepHeapNearLive } from "./lib/core/keep_heap_near_live.ts";
import { atomicWriteChunks } from "./lib/fs/atomic_write_chunks.ts";
import { scanJsonChunks } from "./lib/scan/format_scan_json.ts";
import { loadConfig } from "./lib/config/load_config.ts";
import { OVERVIEW_FORMATS, scanView } from "./lib/overview/scan_view.ts";
import { underDir } from "./lib/overview/restrict_artifact.ts";
import { parseFailOn } from "./lib/findings/parse_fail_on.ts";
import { runSeam, type SeamContext, type SeamResult } from "./lib/cli/run_seam.ts";
import { type ScanOutcome, scanRepository } from "./lib/scan/scan_repository.ts";
import { SCAN_CACHE_FILE_NAME } from "./lib/scan/scan_cache.ts";
import { staleTempFiles } from "./lib/fs/stale_temp_files.ts";
import {
  assertWritePermission,
  ensureStateDir,
  resolveStateDir,
  STATE_DIR_NAME,
} from "./lib/state/state_dir.ts";

/** File name of the scan artifact inside the state directory. */
export const SCAN_FILE_NAME = "scan.json";

const USAGE = `usage: scan.ts [options]

Lists the docs in scope, drops excluded-dir, ignored, frozen and append-only files,
attaches objective signals to the rest and writes .dochygiene/scan.json.
Run it from the project root with:
  deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git scan.ts

options:
  --no-write          only print the artifact; write nothing
  --no-cache          read and analyse every doc: neither use nor write .dochygiene/scan-cache.json
  --root DIR          start directory for root resolution (default: the current directory)
  --format FORMAT     json: the artifact; text: a summary with findings as
                      file:line:col lines; sarif: SARIF 2.1.0; github: GitHub Actions
                      annotations (default: json when stdout is not a terminal, else text);
                      overview, overview-json: per directory counts and the docs with the
                      most findings, at most 32 KiB (docs/scan.md)
  --under DIR         print only the docs in DIR (root-relative; repeatable), in any format;
                      scan.json is still the whole scan
  --fail-on KINDS     exit 1 when the shortlist has findings of these kinds (comma list:
                      broken_link,broken_anchor,missing_path,malformed_frontmatter,
                      duplicate, or all); the output is the same
  --all               text: list every finding (default: the first 20)
  -h, --help          print this help
  -V, --version       print the version

exit codes: 0 success, 1 findings of the --fail-on kinds (stderr: "--fail-on: …") or could
not do the job (git failed, no write permission), 2 usage or input error (unknown flag,
invalid .dochygiene.yml or .dochygiene-ignore)
`;

/** Show progress only for scans that last longer than this (milliseconds). */
const _PROGRESS_AFTER_MS = 1000;

/**
 * Runs `scan.ts` with `args` and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await main(["--version"]), 0);
 * ```
 */
export function main(args: string[]): Promise<number> {
  return runSeam(
    {
      name: "scan",
      usage: USAGE,
      options: {
        "no-write": { type: "boolean" },
        "no-cache": { type: "boolean" },
        "fail-on": { type: "string" },
        all: { type: "boolean" },
        under: { type: "string", multiple: true },
      },
      formats: ["sarif", "github", ...OVERVIEW_FORMATS],
    },
    args,
    _run,
  );
}

async function _run(ctx: SeamContext): Promise<SeamResult> {
  const write = ctx.values["no-write"] !== true;
  const under = ((ctx.values.under ?? []) as string[]).map((dir) => underDir(dir, ctx.root));
  const failOn = typeof ctx.values["fail-on"] === "string"
    ? parseFailOn(ctx.values["fail-on"])
    : undefined;
  const config = await loadConfig(ctx.root);
  if (write) assertWritePermission(await resolveStateDir(ctx.root), ctx.root);
  const progress = _progress();
  const cacheWarnings: string[] = [];
  let outcome: Partial<ScanOutcome>;
  try {
    outcome = await scanRepository({
      root: ctx.root,
      config,
      clock: ctx.clock,
      onProgress: progress.update,
      cacheFile: ctx.values["no-cache"] === true ? undefined : await _cacheFile(ctx.root),
      // The cache is written (and let go of) before the artifact is serialised: a lower peak.
      onCache: write
        ? async (pieces) => _writeCache(await ensureStateDir(ctx.root), pieces, cacheWarnings)
        : undefined,
    });
  } finally {
    progress.end();
  }
  const { artifact } = outcome as ScanOutcome;
  const warnings = [...(outcome as ScanOutcome).warnings, ...cacheWarnings];
  const dir = write ? await ensureStateDir(ctx.root) : undefined;
  // Let go of all the artifact was made from (every doc's facts) before it is serialised.
  outcome = {};
  keepHeapNearLive({ released: true });
  // After the cache: a warning of its write is among those printed. (The summary is only
  // rendered when it is printed: it costs ~0.1 s on 20,000 docs.)
  const written = write ? `${STATE_DIR_NAME}/${SCAN_FILE_NAME}` : undefined;
  const view = scanView(artifact, {
    format: ctx.format,
    under,
    failOn,
    all: ctx.values.all === true,
    written,
    warnings,
    color: ctx.color,
  });
  // Printed as written when it is the same document: read back, not serialised twice.
  const printWritten = ctx.format === "json" && view.shown === artifact;
  let writtenFile: Deno.FsFile | undefined;
  if (dir !== undefined) {
    // Written and printed in pieces as they are made (one line per doc), never held whole: the
    // artifact's text is ~500 bytes a doc.
    writtenFile = await atomicWriteChunks(
      join(dir, SCAN_FILE_NAME),
      _encoded(scanJsonChunks(artifact)),
      { reread: printWritten },
    );
    // Scans killed mid-write leave their temp files (each the artifact's size): the next one
    // removes them.
    for (const target of [SCAN_FILE_NAME, SCAN_CACHE_FILE_NAME]) {
      for (const name of staleTempFiles(dir, Date.now(), target)) {
        await Deno.remove(join(dir, name)).catch(() => {});
      }
    }
  }
  return {
    json: artifact,
    jsonText: writtenFile !== undefined
      ? _pieces(writtenFile)
      : ctx.format === "json"
      ? _encoded(scanJsonChunks(view.shown))
      : undefined,
    text: view.text,
    exitCode: view.exitCode,
    // Text output lists the warnings itself; the other formats' readers get them on stderr.
    stderr: view.stderr,
  };
}

/** Writes the scan cache, piece by piece as it is made: only a speed-up, so a warning when it cannot be. */
async function _writeCache(
  dir: string,
  pieces: () => Iterable<Uint8Array>,
  warnings: string[],
): Promise<void> {
  // A cache that cannot be written leaves the next scan cold, no worse.
  await atomicWriteChunks(join(dir, SCAN_CACHE_FILE_NAME), pieces()).catch((err) =>
    warnings.push(
      `${STATE_DIR_NAME}/${SCAN_CACHE_FILE_NAME} could not be written (${
        err instanceof Error ? err.message.split("\n")[0] : String(err)
      }); the next scan analyses every doc again`,
    )
  );
}

/** Each piece as UTF-8. */
function* _encoded(chunks: Iterable<string>): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const chunk of chunks) yield encoder.encode(chunk);
}

/**
 * A file's bytes from where it stands, in pieces of 1 MiB read into one buffer (each piece is
 * printed before the next is read: 51 MB of artifact is not 51 buffers); closes it at the end.
 */
function* _pieces(file: Deno.FsFile): Generator<Uint8Array> {
  const buffer = new Uint8Array(1 << 20);
  try {
    while (true) {
      const n = file.readSync(buffer);
      if (n === null) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    file.close();
  }
}

/** The scan cache's path, when the state directory is one to read from (not a symlink). */
async function _cacheFile(root: string): Promise<string | undefined> {
  try {
    return join(await resolveStateDir(root), SCAN_CACHE_FILE_NAME);
  } catch {
    return undefined; // --no-write into an invalid state directory: scanned without the cache
  }
}

/** A one-line progress counter on stderr, only on a terminal (not `TERM=dumb`) and only for slow scans. */
function _progress(): { update: (done: number, total: number) => void; end: () => void } {
  // A dumb terminal cannot clear the line it redraws.
  if (!Deno.stderr.isTerminal() || Deno.env.get("TERM") === "dumb") {
    return { update: () => {}, end: () => {} };
  }
  const started = Date.now();
  let shown = false;
  let lastDraw = 0;
  const draw = (text: string) => Deno.stderr.writeSync(new TextEncoder().encode(text));
  return {
    update(done, total) {
      const now = Date.now();
      if (now - started < _PROGRESS_AFTER_MS || now - lastDraw < 100) return;
      lastDraw = now;
      shown = true;
      draw(`\rdochygiene scan: reading docs ${done}/${total}\x1b[K`);
    },
    end() {
      if (shown) draw("\r\x1b[K");
    },
  };
}

if (import.meta.main) Deno.exit(await main(Deno.args));

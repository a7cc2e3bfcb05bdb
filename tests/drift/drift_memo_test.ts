// The drift signals a scan keeps in its cache (docs/scan.md "The scan cache"): an unchanged doc
// takes them as they were while HEAD, the config and the listing stand, `review` counts days from
// the clock, and whatever changes, a scan with the cache reports what a scan without it does.

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Config, defaultConfig } from "../../lib/config/load_config.ts";
import { fixedClock } from "../../lib/core/clock.ts";
import { scanRepository } from "../../lib/scan/scan_repository.ts";
import type { ScanArtifact, Signal } from "../../lib/scan/scan_docs.ts";
import { cacheChecksum } from "../../lib/scan/scan_cache.ts";
import { formatScanJson } from "../../lib/scan/format_scan_json.ts";
import { MAX_PARSE_BYTES } from "../../lib/scan/read_doc.ts";
import { commitFiles, git, joinPieces, tempRepo, writeFiles } from "../support/helpers.ts";

const NOW = new Date("2025-06-01T00:00:00.000Z");
const DAY = 86_400_000;

/** Code that renamed `parseConfig` away, and two docs that still name it, one pointing at code. */
async function memoRepo(root: string): Promise<void> {
  await commitFiles(root, {
    "src/config.ts": "export function parseConfig() {}\n",
    "src/cli.ts": "export const port = 1;\n",
  }, "2025-01-01T00:00:00Z");
  await commitFiles(root, {
    "src/config.ts": "export function loadConfig() {}\n",
  }, "2025-02-01T00:00:00Z");
  await commitFiles(root, {
    "docs/guide.md": "---\nlast_reviewed: 2025-01-01\n---\n# Guide\n\nCall `parseConfig()`. See " +
      "[the CLI](../src/cli.ts).\n",
    "docs/other.md": "# Other\n\nAlso `parseConfig()`.\n",
  }, "2025-03-01T00:00:00Z");
  await commitFiles(root, { "src/cli.ts": "export const port = 2;\n" }, "2025-03-10T00:00:00Z");
}

/** A scan with the cache at `cacheFile` (written again when it changes), or without one. */
async function scan(
  root: string,
  options: { cacheFile?: string; now?: Date; config?: Config } = {},
): Promise<ScanArtifact> {
  const { artifact, cachePieces } = await scanRepository({
    root,
    config: options.config ?? defaultConfig(),
    clock: fixedClock(options.now ?? NOW),
    cacheFile: options.cacheFile,
  });
  if (options.cacheFile !== undefined && cachePieces !== undefined) {
    await Deno.writeFile(options.cacheFile, joinPieces(cachePieces()));
  }
  return artifact;
}

function drift(artifact: ScanArtifact, path: string): Signal[] {
  const kinds = new Set(["stale_reference", "code_drift", "review"]);
  return artifact.signals[path].filter((s) => kinds.has(s.kind));
}

/** Edits the drift signals the cache keeps, and signs the file again. */
async function editKeptSignals(
  cacheFile: string,
  edit: (docs: [string, Record<string, unknown>[]][]) => void,
): Promise<void> {
  const text = new TextDecoder().decode(await Deno.readFile(cacheFile));
  const lines = text.split("\n");
  const header = JSON.parse(lines[0]);
  edit(header.drift_signals.docs);
  lines[0] = JSON.stringify(header);
  // Drop the checksum line (and the final newline), then sign the body again.
  const body = new TextEncoder().encode(lines.slice(0, -2).join("\n") + "\n");
  await Deno.writeTextFile(cacheFile, `${lines.slice(0, -2).join("\n")}\n${cacheChecksum(body)}\n`);
}

/** The artifact as `scan.json` holds it (its keys' order too), but for its time. */
function comparable(artifact: ScanArtifact): string {
  return formatScanJson({ ...artifact, generated_at: "" });
}

Deno.test("a repeat scan takes an unchanged doc's drift signals from the cache, review's days from the clock", async () => {
  await using repo = await tempRepo();
  await memoRepo(repo.path);
  const cacheFile = join(repo.path, ".git", "scan-cache.json");
  const first = await scan(repo.path, { cacheFile });
  assert.deepEqual(drift(first, "docs/guide.md").map((s) => s.kind), [
    "stale_reference",
    "code_drift",
    "review",
  ]);
  // What the cache keeps is what the next scan reports: kept signals, marked here, show it.
  await editKeptSignals(cacheFile, (docs) => {
    for (const [, signals] of docs) {
      for (const s of signals) {
        if (s.kind === "code_drift") s.commits_after = 99;
        if (s.kind === "stale_reference") s.element = "kept()";
      }
    }
  });
  const kept = (artifact: ScanArtifact, path: string) =>
    drift(artifact, path).filter((s) => s.kind === "stale_reference" && s.element === "kept()")
      .length;
  const later = await scan(repo.path, { cacheFile, now: new Date(NOW.getTime() + 10 * DAY) });
  const [, code, review] = drift(later, "docs/guide.md");
  assert.equal(code.kind === "code_drift" && code.commits_after, 99);
  assert.equal(kept(later, "docs/other.md"), 1);
  const before = drift(first, "docs/guide.md")[2];
  assert.ok(review.kind === "review" && before.kind === "review");
  assert.equal(review.days_since, before.days_since + 10);
  // A doc edited since makes its signals again; the others keep theirs.
  await writeFiles(repo.path, {
    "docs/guide.md": "# Guide\n\nSee [the CLI](../src/cli.ts) and `parseConfig()`.\n",
  });
  const edited = await scan(repo.path, { cacheFile });
  const made = drift(edited, "docs/guide.md").find((s) => s.kind === "code_drift");
  assert.equal(made?.kind === "code_drift" && made.commits_after, 1);
  assert.equal(kept(edited, "docs/guide.md"), 0);
  assert.equal(kept(edited, "docs/other.md"), 1);
});

Deno.test("with the cache, every change gives the signals and drift note a scan without it gives", async () => {
  await using repo = await tempRepo();
  await memoRepo(repo.path);
  const cacheFile = join(repo.path, ".git", "scan-cache.json");
  const same = async (what: string, config?: Config) => {
    const warm = await scan(repo.path, { cacheFile, config });
    const cold = await scan(repo.path, { config });
    assert.deepEqual(comparable(warm), comparable(cold), what);
    return cold;
  };
  assert.ok((await same("first scan")).drift !== undefined);
  await same("repeat");
  await writeFiles(repo.path, { "docs/other.md": "# Other\n\nNothing named.\n" });
  await same("a doc no longer names the element");
  await writeFiles(repo.path, { "docs/guide.md": "# Guide\n\nNo code at all.\n" });
  const none = await same("no doc names an element or points at code");
  assert.equal(none.drift, undefined, "no history read");
  assert.deepEqual(drift(none, "docs/guide.md"), []);
  // Links to docs only: nothing asks the history either.
  await writeFiles(repo.path, { "docs/guide.md": "# Guide\n\nNo code: see [other](other.md).\n" });
  assert.equal((await same("a doc links to docs only")).drift, undefined);
  await writeFiles(repo.path, {
    "src/extra.ts": "export const extra = 1;\n",
    "docs/guide.md": "# Guide\n\nSee `src/extra.ts`.\n",
  });
  assert.equal((await same("a doc points at an untracked file")).drift, undefined);
  await git(repo.path, ["add", "src/extra.ts"]);
  assert.ok((await same("the file it points at tracked: code")).drift !== undefined);
  const config = defaultConfig();
  config.drift.exclude_code = ["src/extra.ts"];
  await same("the config excludes the code", config);
  await writeFiles(repo.path, {
    "docs/new.md": "Points at `src/cli.ts`, names `parseConfig()`.\n",
  });
  await same("a new doc (another listing)");
  // Suppressed in two docs, one edited: counted per doc in shortlist order either way.
  const quiet = "<!-- dochygiene-disable-next-line stale_reference -->\n";
  await writeFiles(repo.path, {
    "docs/guide.md": `# Guide\n\n${quiet}Call \`parseConfig()\`.\n`,
    "docs/other.md": `# Other\n\n${quiet}Also \`parseConfig()\`.\n`,
  });
  await same("two docs suppress their findings");
  await writeFiles(repo.path, {
    "docs/guide.md": `# Guide, edited\n\n${quiet}Call \`parseConfig()\`.\n`,
  });
  assert.ok((await same("the first of them edited")).suppressed?.by_path["docs/guide.md"]);
  // A doc past the parse limit is never cached: its signals are made each time, alike.
  const big = "---\nlast_reviewed: 2025-01-01\n---\n" + "word ".repeat(MAX_PARSE_BYTES / 4);
  await commitFiles(repo.path, { "docs/big.md": big }, "2025-03-20T00:00:00Z");
  await same("a doc past the parse limit");
  await same("a doc past the parse limit, again");
  await writeFiles(repo.path, { "docs/big.md": "\0" + big.slice(1) });
  await same("that doc turned binary, its size unchanged");
  await commitFiles(
    repo.path,
    { "src/cli.ts": "export const port = 3;\n" },
    "2025-04-01T00:00:00Z",
  );
  const moved = await same("HEAD moved on");
  assert.ok(drift(moved, "docs/new.md").some((s) => s.kind === "stale_reference"));
});

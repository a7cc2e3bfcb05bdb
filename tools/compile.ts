/**
 * `deno task compile`: one self-contained binary per seam
 * (`dist/dochygiene-remind`, `-state`, `-scan`, `-prune`), each with exactly
 * its permission flags baked in, so `cd <project root> && dochygiene-scan`
 * behaves like `deno run <flags> scan.ts`. `--allow-write=.dochygiene` is
 * stored as written and resolved against the directory the binary runs in,
 * like the flag on `deno run`.
 *
 * `deno compile` needs `denort`, Deno's runtime-only binary for the same
 * version. It downloads it when it can; offline, set `DENORT_BIN` to a local
 * copy (unzipped from `denort-<target>.zip` of the same Deno release). The
 * `deno` CLI binary itself is not a runtime: a binary built on it only starts
 * a REPL, so that is refused.
 *
 * @example Where the binaries go
 * ```ts
 * import { binaryName } from "./compile.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(binaryName("scan"), "dochygiene-scan");
 * ```
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PERMISSION_FLAGS, type SeamName } from "../lib/cli/permission_flags.ts";

const _PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const _WORKERS = ["lib/scan/read_docs_worker.ts", "lib/git/read_git_ages_worker.ts"].map((path) =>
  join(_PACKAGE_DIR, path)
);

const _SEAMS: SeamName[] = ["remind", "state", "scan", "prune"];

/**
 * The file name of a seam's compiled binary.
 *
 * @example
 * ```ts
 * import { binaryName } from "./compile.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(binaryName("prune"), "dochygiene-prune");
 * ```
 */
export function binaryName(seam: SeamName): string {
  return `dochygiene-${seam}${Deno.build.os === "windows" ? ".exe" : ""}`;
}

/**
 * Builds the four binaries into `--out DIR` (default `dist/` in the package)
 * and returns the exit code: 0 built and each answered `--version`; 1 with
 * one line on stderr naming what is missing.
 *
 * @example
 * ```ts
 * import { main } from "./compile.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof main, "function");
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let out: string;
  try {
    const { values } = parseArgs({
      args,
      options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      console.log(
        "usage: deno task compile [--out DIR]\n\nBuilds dochygiene-remind, -state, -scan and -prune (default into dist/).\nNeeds the denort runtime of this Deno version: downloaded when online,\notherwise DENORT_BIN=/path/to/denort.",
      );
      return 0;
    }
    out = resolve(values.out ?? join(_PACKAGE_DIR, "dist"));
  } catch (err) {
    return _fail(`${err instanceof Error ? err.message : err}; see --help`, 2);
  }
  const denort = Deno.env.get("DENORT_BIN");
  if (denort !== undefined && denort !== "") {
    const problem = await _denortProblem(denort);
    if (problem) return _fail(problem);
  }
  await Deno.mkdir(out, { recursive: true });
  for (const seam of _SEAMS) {
    const target = join(out, binaryName(seam));
    const built = await _run(Deno.execPath(), [
      "compile",
      "--quiet",
      `--config=${join(_PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS[seam],
      `--output=${target}`,
      // remind.ts reaches load_config.ts through a non-literal import (kept off the
      // hook's start-up graph), which deno compile cannot see on its own.
      ...(seam === "remind"
        ? [`--include=${join(_PACKAGE_DIR, "lib/config/load_config.ts")}`]
        : []),
      // The scanner's threads (the reading helper, git's history pass; prune scans too) are
      // started from modules deno compile does not follow.
      ...(seam === "scan" || seam === "prune" ? _WORKERS.map((w) => `--include=${w}`) : []),
      join(_PACKAGE_DIR, `${seam}.ts`),
    ]);
    if (built.code !== 0) {
      if (/denort|dl\.deno\.land|error sending request/i.test(built.stderr) && !denort) {
        return _fail(
          `deno compile needs the denort runtime of Deno ${Deno.version.deno} and could not download it; download denort-${Deno.build.target}.zip of that release on a machine with network, unzip it, and run: DENORT_BIN=/path/to/denort deno task compile`,
        );
      }
      return _fail(`deno compile ${seam}.ts failed: ${_lastLine(built.stderr)}`);
    }
    const version = await _run(target, ["--version"]);
    if (version.code !== 0 || !version.stdout.startsWith(`dochygiene ${seam} `)) {
      return _fail(
        `${target} does not run as the ${seam} seam (is DENORT_BIN a denort of Deno ${Deno.version.deno}?)`,
      );
    }
    console.log(`built ${target}  (${PERMISSION_FLAGS[seam].join(" ")})`);
  }
  return 0;
}

async function _denortProblem(path: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await Deno.realPath(path);
    if (!(await Deno.stat(real)).isFile) return `DENORT_BIN=${path} is not a file`;
  } catch {
    return `DENORT_BIN=${path} does not exist; point it at the unzipped denort binary`;
  }
  if (real === await Deno.realPath(Deno.execPath())) {
    return `DENORT_BIN=${path} is the deno CLI, not the denort runtime (a binary built on it only starts a REPL); point it at denort of Deno ${Deno.version.deno}`;
  }
  return undefined;
}

async function _run(
  cmd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } catch (err) {
    return { code: 1, stdout: "", stderr: err instanceof Error ? err.message : String(err) };
  }
}

function _lastLine(text: string): string {
  // deno compile's errors end in a backtrace; the cause is the last "N: …" line before it.
  const lines = text.split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("Stack backtrace") && !/^\d+: <unknown>$/.test(l));
  return lines.at(-1) ?? "unknown error";
}

function _fail(message: string, code = 1): number {
  console.error(`dochygiene compile: ${message}`);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));

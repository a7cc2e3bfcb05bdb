/**
 * Locating the one report pair (`report-<stamp>.json` + `.md`) in the state
 * directory.
 *
 * @module
 */

import { join } from "node:path";

/** Matches a report file name; group 1 is the stamp, group 2 the extension. */
export const REPORT_FILE_PATTERN: RegExp = /^report-(\d{8}T\d{6}Z)\.(json|md)$/;

/** A complete report pair on disk. */
export interface ReportPair {
  /** The `YYYYMMDDTHHMMSSZ` stamp both files share. */
  stamp: string;
  /** Absolute path of `report-<stamp>.json`. */
  json: string;
  /** Absolute path of `report-<stamp>.md`. */
  md: string;
}

/**
 * The newest complete pair (both `.json` and `.md` present) in `stateDir`, or
 * `undefined` when there is none (no directory, no report yet). A lone file
 * left by a killed writer is ignored.
 *
 * @example
 * ```ts
 * import { findReportPair } from "./find_report_pair.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/report-20261130T033618Z.json`, "{}");
 * assert.equal(await findReportPair(dir), undefined);
 * await Deno.writeTextFile(`${dir}/report-20261130T033618Z.md`, "#");
 * assert.equal((await findReportPair(dir))?.stamp, "20261130T033618Z");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function findReportPair(stateDir: string): Promise<ReportPair | undefined> {
  const seen = new Map<string, Set<string>>();
  try {
    for await (const entry of Deno.readDir(stateDir)) {
      const m = REPORT_FILE_PATTERN.exec(entry.name);
      if (!m || !entry.isFile) continue;
      if (!seen.has(m[1])) seen.set(m[1], new Set());
      seen.get(m[1])!.add(m[2]);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  const stamps = [...seen].filter(([, exts]) => exts.size === 2).map(([s]) => s).sort();
  const stamp = stamps.at(-1);
  if (stamp === undefined) return undefined;
  return {
    stamp,
    json: join(stateDir, `report-${stamp}.json`),
    md: join(stateDir, `report-${stamp}.md`),
  };
}

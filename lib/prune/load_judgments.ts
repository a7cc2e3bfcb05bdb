/**
 * Prune's `served_when` judgments: the check skill's report, read from
 * `--from-report FILE` or the current report pair, validated, and reduced to
 * one judgment per path.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { findReportPair } from "../report/find_report_pair.ts";
import { parseReport, type Report } from "../report/validate_report.ts";
import { readReportFile } from "../report/read_report_file.ts";
import type { Judgment } from "./plan_prune.ts";

/** What {@linkcode loadJudgments} reads. */
export interface LoadJudgmentsOptions {
  /** `--from-report FILE`: the report to read, whatever the rules use. */
  file?: string;
  /** The state directory, where the current report pair is. */
  stateDir: string;
  /** Whether a rule uses `served_when`: without a `file`, only then is the current pair read. */
  judged: boolean;
}

/**
 * `served_when` judgments from `--from-report FILE`, or from the current
 * report pair when a rule uses `served_when` (`judged`): a rulebook without
 * one never reads it. `undefined` when there is no report to read. A file that
 * cannot be read, is not a regular file, is too large or is not a valid report
 * is an input error (exit 2) naming it.
 *
 * @example
 * ```ts
 * import { loadJudgments } from "./load_judgments.ts";
 * import assert from "node:assert/strict";
 *
 * const stateDir = await Deno.makeTempDir();
 * assert.equal(await loadJudgments({ stateDir, judged: true }), undefined); // no report yet
 * await assert.rejects(
 *   loadJudgments({ file: `${stateDir}/gone.json`, stateDir, judged: false }),
 *   /cannot read the report .*gone\.json .*; name an existing report with --from-report/,
 * );
 * await Deno.remove(stateDir, { recursive: true });
 * ```
 */
export async function loadJudgments(
  options: LoadJudgmentsOptions,
): Promise<Map<string, Judgment> | undefined> {
  const path = options.file ??
    (options.judged ? (await findReportPair(options.stateDir))?.json : undefined);
  if (path === undefined) return undefined;
  const invalid = (why: string) =>
    new DochygieneError(
      "INVALID_REPORT",
      `cannot read the report ${path} (${why}); name an existing report with --from-report`,
      2,
    );
  const read = await readReportFile(path);
  if (!("text" in read)) throw invalid(read.detail);
  const text = read.text;
  let report;
  try {
    report = parseReport(text);
  } catch (err) {
    if (!(err instanceof DochygieneError)) throw err;
    throw new DochygieneError(
      err.code,
      `${path}: ${err.message}; fix it or name a valid report with --from-report`,
      err.exitCode,
    );
  }
  return judgmentsOf(report);
}

/**
 * A report's entries as judgments by path, each dated by the report's
 * `generated_at` (a unit changed after it needs a new judgment).
 *
 * @example
 * ```ts
 * import { judgmentsOf } from "./load_judgments.ts";
 * import { parseReport } from "../report/validate_report.ts";
 * import assert from "node:assert/strict";
 *
 * const report = parseReport(JSON.stringify({
 *   schema_version: 1,
 *   generated_at: "2026-11-29T10:00:00.000Z",
 *   scan_generated_at: "2026-11-29T10:00:00.000Z",
 *   entries: [{
 *     path: "plans/a.md", category: "served", op_type: "delete", op: "Delete it.",
 *     safety_tier: "confirm", rationale: "shipped", signals: [],
 *   }],
 * }));
 * assert.deepEqual(judgmentsOf(report).get("plans/a.md"), {
 *   op_type: "delete",
 *   rationale: "shipped",
 *   extract_to: undefined,
 *   judged_at: "2026-11-29T10:00:00.000Z",
 * });
 * ```
 */
export function judgmentsOf(report: Report): Map<string, Judgment> {
  return new Map(report.entries.map((e) => [e.path, {
    op_type: e.op_type,
    rationale: e.rationale,
    extract_to: e.extract_to,
    judged_at: report.generated_at,
  }]));
}

/**
 * `state.ts doctor --format text`: the doctor's facts, one line each, then its
 * problems and, when git does not ignore the state directory, the line to add.
 *
 * @module
 */

import { escapeLines } from "../core/escape_controls.ts";
import type { Diagnosis } from "./diagnose.ts";
import { STATE_DIR_NAME } from "./state_dir.ts";

/**
 * The doctor's findings as text escaped for a terminal: root, state directory
 * and file, report, whether git ignores `.dochygiene/` (telling a failing git
 * from no repository) and the config; then `healthy`, or the problems and the
 * `.gitignore` line that fixes the one it names.
 *
 * @example
 * ```ts
 * import { renderDoctorText } from "./render_doctor_text.ts";
 * import type { Diagnosis } from "./diagnose.ts";
 * import assert from "node:assert/strict";
 *
 * const d: Diagnosis = {
 *   healthy: true,
 *   root: "/p",
 *   git_repository: true,
 *   state_dir: { path: "/p/.dochygiene", status: "missing", writable: true },
 *   state_file: "missing",
 *   future_times: [],
 *   leftover_temps: [],
 *   report: null,
 *   gitignore: { ignored: true, tracked: false, line: ".dochygiene/", error: null },
 *   config: { path: "/p/.dochygiene.yml", present: false, valid: true },
 *   problems: [],
 * };
 * const lines = renderDoctorText(d).split("\n");
 * assert.equal(lines[4], "git ignores .dochygiene/: yes");
 * assert.equal(lines.at(-1), "healthy");
 * ```
 */
export function renderDoctorText(d: Diagnosis): string {
  const ignored = !d.git_repository
    ? "n/a (not a git repository)"
    : d.gitignore.error !== null
    ? `unknown: git failed (${d.gitignore.error})`
    : d.gitignore.ignored
    ? "yes"
    : "NO";
  const lines = [
    `root:        ${d.root}${d.git_repository ? "" : " (no .git found: not a git repository)"}`,
    `state dir:   ${d.state_dir.path} (${d.state_dir.status}, ${
      d.state_dir.writable ? "writable" : "NOT writable"
    })`,
    `state file:  ${d.state_file}`,
    `report:      ${d.report ? `${d.report.json} + .md` : "none"}`,
    `git ignores ${STATE_DIR_NAME}/: ${ignored}`,
    `config:      ${d.config.path} (${
      d.config.present ? (d.config.valid ? "valid" : "INVALID") : "absent: defaults"
    })`,
    "",
  ];
  if (d.healthy) return escapeLines([...lines, "healthy"]);
  lines.push(`${d.problems.length} problem(s):`, ...d.problems.map((p) => `- ${p}`));
  if (d.gitignore.ignored === false) {
    lines.push("", `Add this line to ${d.root}/.gitignore:`, "", d.gitignore.line);
  }
  return escapeLines(lines);
}

/**
 * `scan.ts --format github`: GitHub Actions workflow commands, one
 * annotation per finding (shown on the pull request's diff), and a summary.
 *
 * @module
 */

import type { Finding } from "./collect_findings.ts";
import { summaryLine } from "./summary_line.ts";

/** Options of {@linkcode formatGithub}. */
export interface GithubOptions {
  /** Kinds that fail the run (`--fail-on`): `::error`, the rest `::warning`. */
  failOn?: readonly string[];
  /** Docs shortlisted (for the summary). */
  docs: number;
  /** Findings suppressed by inline comments (for the summary). */
  suppressed?: number;
}

/**
 * One `::warning file=…,line=…,col=…,title=…::message` line per finding
 * (`::error` for the `--fail-on` kinds), then the one-line summary. Values
 * are escaped as the workflow-command syntax requires (`%`, CR, LF, and in
 * properties `:` and `,`).
 *
 * @example
 * ```ts
 * import { formatGithub } from "./format_github.ts";
 * import assert from "node:assert/strict";
 *
 * const text = formatGithub([{
 *   path: "docs/a,b.md", line: 3, column: 1, kind: "broken_link",
 *   message: "x.md does not exist", fingerprint: "",
 * }], { docs: 1 });
 * assert.equal(
 *   text.split("\n")[0],
 *   "::warning file=docs/a%2Cb.md,line=3,col=1,title=dochygiene broken_link::x.md does not exist",
 * );
 * ```
 */
export function formatGithub(findings: readonly Finding[], options: GithubOptions): string {
  const failOn = new Set(options.failOn ?? []);
  const lines = findings.map((f) =>
    `::${failOn.has(f.kind) ? "error" : "warning"} file=${_property(f.path)},line=${f.line},` +
    `col=${f.column},title=${_property(`dochygiene ${f.kind}`)}::${_data(f.message)}`
  );
  lines.push(summaryLine(findings, options));
  return lines.join("\n") + "\n";
}

function _data(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function _property(text: string): string {
  return _data(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

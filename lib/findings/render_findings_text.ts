/**
 * The findings as lines for CI logs, editors and terminals:
 * `file:line:col  kind  message`, grouped by file.
 *
 * @module
 */

import { showSafe } from "../core/escape_controls.ts";
import type { Finding } from "./collect_findings.ts";

/** Findings listed without `--all`. */
export const DEFAULT_FINDINGS_SHOWN = 20;

/** Options of {@linkcode renderFindingsText}. */
export interface FindingsTextOptions {
  /** List every finding (`--all`); else the first {@linkcode DEFAULT_FINDINGS_SHOWN}. */
  all?: boolean;
  /** ANSI bold for the heading. */
  color?: boolean;
}

/**
 * A heading, then one `path:line:col  kind  message` line per finding (a
 * blank line between files), then how many were left out (without `--all`).
 * Paths and messages are made terminal-safe (controls escaped). No lines
 * when there are no findings.
 *
 * @example
 * ```ts
 * import { renderFindingsText } from "./render_findings_text.ts";
 * import assert from "node:assert/strict";
 *
 * const f = { path: "a.md", line: 3, column: 1, kind: "broken_link", message: "b.md does not exist", fingerprint: "" };
 * assert.deepEqual(renderFindingsText([f, { ...f, path: "c.md" }], {}), [
 *   "findings: 2 in 2 docs",
 *   "a.md:3:1  broken_link  b.md does not exist",
 *   "",
 *   "c.md:3:1  broken_link  b.md does not exist",
 * ]);
 * ```
 */
export function renderFindingsText(
  findings: readonly Finding[],
  options: FindingsTextOptions,
): string[] {
  if (findings.length === 0) return [];
  const bold = (s: string) => options.color ? `\x1b[1m${s}\x1b[0m` : s;
  const docs = new Set(findings.map((f) => f.path)).size;
  const out = [bold(`findings: ${findings.length} in ${docs} doc${docs === 1 ? "" : "s"}`)];
  const shown = options.all ? findings.length : Math.min(findings.length, DEFAULT_FINDINGS_SHOWN);
  for (let i = 0; i < shown; i++) {
    const f = findings[i];
    if (i > 0 && findings[i - 1].path !== f.path) out.push("");
    out.push(`${showSafe(f.path)}:${f.line}:${f.column}  ${f.kind}  ${showSafe(f.message)}`);
  }
  if (shown < findings.length) {
    out.push(`… and ${findings.length - shown} more (--all lists every finding)`);
  }
  return out;
}

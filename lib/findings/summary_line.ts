/**
 * The closing line of the CI outputs: counts by kind and the next step.
 *
 * @module
 */

import type { Finding } from "./collect_findings.ts";
import { FINDING_KINDS } from "./finding_kinds.ts";

/** Options of {@linkcode summaryLine}. */
export interface SummaryOptions {
  /** Docs shortlisted. */
  docs: number;
  /** The `--fail-on` kinds, when given. */
  failOn?: readonly string[];
  /** Findings suppressed by inline comments (the artifact's `suppressed.total`). */
  suppressed?: number;
}

/**
 * One line: how many findings of each kind in how many docs, and what to do
 * next (fix them, or nothing).
 *
 * @example
 * ```ts
 * import { summaryLine } from "./summary_line.ts";
 * import assert from "node:assert/strict";
 *
 * const f = { path: "a.md", line: 1, column: 1, kind: "broken_link", message: "", fingerprint: "" };
 * assert.equal(
 *   summaryLine([f, { ...f, kind: "broken_anchor" }], { docs: 4, failOn: ["broken_link"] }),
 *   "dochygiene: 2 findings in 1 of 4 docs (1 broken_link, 1 broken_anchor); " +
 *     "1 fails --fail-on: fix it and scan again",
 * );
 * assert.equal(summaryLine([], { docs: 4 }), "dochygiene: no findings in 4 docs");
 * assert.equal(
 *   summaryLine([], { docs: 4, suppressed: 2 }),
 *   "dochygiene: no findings in 4 docs, 2 suppressed by comments",
 * );
 * ```
 */
export function summaryLine(findings: readonly Finding[], options: SummaryOptions): string {
  // Suppressed findings are told, never silently lost (docs/signals.md "Suppressing findings").
  const docsText = `${options.docs} doc${options.docs === 1 ? "" : "s"}${
    options.suppressed ? `, ${options.suppressed} suppressed by comments` : ""
  }`;
  if (findings.length === 0) return `dochygiene: no findings in ${docsText}`;
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const order = FINDING_KINDS.map((k) => k.id);
  const parts = [...counts].sort(([a], [b]) => _rank(order, a) - _rank(order, b))
    .map(([kind, n]) => `${n} ${kind}`);
  const inDocs = new Set(findings.map((f) => f.path)).size;
  const failOn = new Set(options.failOn ?? []);
  const failing = findings.filter((f) => failOn.has(f.kind)).length;
  const next = options.failOn === undefined
    ? "fix them, or gate CI on them with --fail-on KINDS (docs/ci.md)"
    : failing > 0
    ? `${failing} fail${failing === 1 ? "s" : ""} --fail-on: fix ${
      failing === 1 ? "it" : "them"
    } and scan again`
    : "none fails --fail-on";
  return `dochygiene: ${findings.length} finding${
    findings.length === 1 ? "" : "s"
  } in ${inDocs} of ${docsText} (${parts.join(", ")}); ${next}`;
}

function _rank(order: readonly string[], kind: string): number {
  const i = order.indexOf(kind);
  return i < 0 ? order.length : i;
}

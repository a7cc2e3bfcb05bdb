/**
 * Inline suppression (docs/signals.md "Suppressing findings"): a doc's
 * findings on lines its `dochygiene-disable` comments cover are taken out of
 * its signals and counted.
 *
 * @module
 */

import type { Suppression } from "../markdown/analyze_doc.ts";

/** What was suppressed: in all, by signal kind, by doc (the artifact's `suppressed`). */
export interface SuppressedCounts {
  /** How many findings in all. */
  total: number;
  /** How many of each kind. */
  by_kind: Record<string, number>;
  /** How many in each doc. */
  by_path: Record<string, number>;
}

/**
 * Whether a finding of `kind` on `line` is suppressed by `suppressions` (in
 * document order): by a `next` comment ending on the line before, or by the
 * last `disable`/`enable` on or before its line that names its kind (or no
 * kind: every kind).
 *
 * @example
 * ```ts
 * import { isSuppressed } from "./suppress_signals.ts";
 * import assert from "node:assert/strict";
 *
 * const s = [
 *   { line: 2, op: "next" as const, kinds: [] },
 *   { line: 5, op: "disable" as const, kinds: ["missing_path"] },
 *   { line: 9, op: "enable" as const, kinds: [] },
 * ];
 * assert.ok(isSuppressed(s, "broken_link", 3));
 * assert.ok(!isSuppressed(s, "broken_link", 4));
 * assert.ok(isSuppressed(s, "missing_path", 7));
 * assert.ok(!isSuppressed(s, "broken_link", 7));
 * assert.ok(!isSuppressed(s, "missing_path", 10));
 * ```
 */
export function isSuppressed(
  suppressions: readonly Suppression[],
  kind: string,
  line: number,
): boolean {
  let off = false;
  for (const s of suppressions) {
    if (s.line > line) break;
    if (s.kinds.length > 0 && !s.kinds.includes(kind)) continue;
    if (s.op === "next") {
      if (s.line + 1 === line) return true;
    } else off = s.op === "disable";
  }
  return off;
}

/**
 * Takes the suppressed findings of the doc `path` out of `signals` (in
 * place) and counts them into `counts`. A finding is a signal with a `line`
 * (broken links and anchors, missing paths, a malformed frontmatter, and any
 * later kind with one); the other signals are facts of the whole doc.
 *
 * @example
 * ```ts
 * import { suppressSignals } from "./suppress_signals.ts";
 * import assert from "node:assert/strict";
 *
 * const signals = [
 *   { kind: "size", bytes: 9, lines: 3 },
 *   { kind: "missing_path", line: 3, path: "path/x.md" },
 *   { kind: "missing_path", line: 4, path: "src/y.md" },
 * ];
 * const counts = { total: 0, by_kind: {}, by_path: {} };
 * suppressSignals("a.md", signals, [{ line: 2, op: "next", kinds: ["missing_path"] }], counts);
 * assert.deepEqual(signals.map((s) => s.kind), ["size", "missing_path"]);
 * assert.deepEqual(counts, { total: 1, by_kind: { missing_path: 1 }, by_path: { "a.md": 1 } });
 * ```
 */
export function suppressSignals<T extends { kind: string; line?: number }>(
  path: string,
  signals: T[],
  suppressions: readonly Suppression[],
  counts: SuppressedCounts,
): void {
  let kept = 0;
  for (const signal of signals) {
    const line = signal.line;
    if (typeof line === "number" && isSuppressed(suppressions, signal.kind, line)) {
      counts.total++;
      counts.by_kind[signal.kind] = (counts.by_kind[signal.kind] ?? 0) + 1;
      counts.by_path[path] = (counts.by_path[path] ?? 0) + 1;
    } else signals[kept++] = signal;
  }
  signals.length = kept;
}

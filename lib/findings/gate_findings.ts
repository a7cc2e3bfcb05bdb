/**
 * The `--fail-on` verdict: whether a scan's findings fail the run.
 *
 * @module
 */

import type { Finding } from "./collect_findings.ts";

/** The `--fail-on` verdict, as the JSON output carries it (`fail_on`). */
export interface Gate {
  /** The kinds that fail the run. */
  kinds: string[];
  /** Whether any finding is of those kinds (then the exit code is 1). */
  failed: boolean;
  /** Findings of each of those kinds (0 for none). */
  counts: Record<string, number>;
}

/**
 * The verdict of `--fail-on kinds` over `findings`.
 *
 * @example
 * ```ts
 * import { gateFindings } from "./gate_findings.ts";
 * import assert from "node:assert/strict";
 *
 * const finding = { path: "a.md", line: 1, column: 1, kind: "broken_link", message: "", fingerprint: "" };
 * assert.deepEqual(gateFindings([finding], ["broken_link", "broken_anchor"]), {
 *   kinds: ["broken_link", "broken_anchor"],
 *   failed: true,
 *   counts: { broken_link: 1, broken_anchor: 0 },
 * });
 * ```
 */
export function gateFindings(findings: readonly Finding[], kinds: readonly string[]): Gate {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[kind] = 0;
  for (const finding of findings) {
    if (finding.kind in counts) counts[finding.kind]++;
  }
  return { kinds: [...kinds], failed: Object.values(counts).some((n) => n > 0), counts };
}

/**
 * The one stderr line of a failed gate (after `dochygiene scan: `): the
 * counts and the exit code, told apart from a run that could not be done.
 *
 * @example
 * ```ts
 * import { gateLine } from "./gate_findings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   gateLine({ kinds: ["broken_link"], failed: true, counts: { broken_link: 2 } }),
 *   "--fail-on: 2 findings (2 broken_link); exit 1",
 * );
 * ```
 */
export function gateLine(gate: Gate): string {
  const total = Object.values(gate.counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(gate.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return `--fail-on: ${total} finding${total === 1 ? "" : "s"} (${parts.join(", ")}); exit 1`;
}

/**
 * Which signal kinds are findings: everything but the descriptive facts every
 * doc may carry.
 *
 * @module
 */

/**
 * The kinds that describe a doc (measurements and labels), not a problem
 * found in it. Every other kind is a finding (see docs/scan.md "The
 * overview"): a kind the scanner gains later counts as a finding without a
 * change here.
 */
export const DESCRIPTIVE_KINDS: ReadonlySet<string> = new Set([
  "age",
  "size",
  "checkboxes",
  "dated_name",
  "status",
  "lifecycle",
  "inbound_links",
  // A declared review date: a fact every doc with a `reviewed:` line has (`due` says more).
  "review",
]);

/**
 * Whether a signal of `kind` is a finding (`broken_link`, `duplicate`,
 * `malformed_frontmatter`, … and any kind not in
 * {@linkcode DESCRIPTIVE_KINDS}).
 *
 * @example
 * ```ts
 * import { isFinding } from "./is_finding.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isFinding("broken_link"), true);
 * assert.equal(isFinding("a_kind_added_later"), true);
 * assert.equal(isFinding("age"), false);
 * ```
 */
export function isFinding(kind: string): boolean {
  return !DESCRIPTIVE_KINDS.has(kind);
}

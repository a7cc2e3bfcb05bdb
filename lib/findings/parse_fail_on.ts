/**
 * `scan.ts --fail-on`: the comma list of finding kinds that fail the run.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { FINDING_KINDS } from "./finding_kinds.ts";

/**
 * The finding kinds named by `value` (a comma list, spaces allowed, each
 * once, in the order of `FINDING_KINDS`); `all` names every kind. Throws a
 * `USAGE` error (exit 2) naming an unknown kind, with a did-you-mean.
 *
 * @example
 * ```ts
 * import { parseFailOn } from "./parse_fail_on.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseFailOn("broken_anchor, broken_link"), ["broken_link", "broken_anchor"]);
 * assert.throws(() => parseFailOn("broken_links"), /unknown --fail-on kind "broken_links" \(did you mean "broken_link"\?\)/);
 * ```
 */
export function parseFailOn(value: string): string[] {
  const named = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (named.length === 0) {
    throw new DochygieneError(
      "USAGE",
      `--fail-on needs a comma list of finding kinds (${_known()}, or all); see --help`,
      2,
    );
  }
  if (named.includes("all")) return FINDING_KINDS.map((k) => k.id);
  for (const kind of named) {
    if (FINDING_KINDS.some((k) => k.id === kind)) continue;
    const near = _nearest(kind);
    throw new DochygieneError(
      "USAGE",
      `unknown --fail-on kind "${kind}"${
        near ? ` (did you mean "${near}"?)` : ""
      }; the kinds are ${_known()}, or all`,
      2,
    );
  }
  return FINDING_KINDS.map((k) => k.id).filter((id) => named.includes(id));
}

function _known(): string {
  return FINDING_KINDS.map((k) => k.id).join(", ");
}

/** The known kind nearest `word` (at most a third of its letters off), if any. */
function _nearest(word: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const { id } of FINDING_KINDS) {
    const d = _distance(word.toLowerCase(), id);
    if (d < bestDistance) [best, bestDistance] = [id, d];
  }
  return best;
}

/** Levenshtein distance. */
function _distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

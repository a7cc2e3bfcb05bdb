/**
 * `scan.ts --fail-on`: the comma list of finding kinds that fail the run.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { FINDING_KINDS } from "./finding_kinds.ts";
import { nearestWord } from "../core/nearest_word.ts";

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
    const near = nearestWord(kind, FINDING_KINDS.map((k) => k.id));
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

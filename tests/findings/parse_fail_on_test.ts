import assert from "node:assert/strict";
import { parseFailOn } from "../../lib/findings/parse_fail_on.ts";
import { FINDING_KINDS } from "../../lib/findings/finding_kinds.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";

Deno.test("parseFailOn takes a comma list, spaces and repeats allowed, in the catalogue's order", () => {
  assert.deepEqual(parseFailOn(" missing_path,broken_link ,missing_path"), [
    "broken_link",
    "missing_path",
  ]);
});

Deno.test("parseFailOn: all names every finding kind", () => {
  assert.deepEqual(parseFailOn("all"), FINDING_KINDS.map((k) => k.id));
});

Deno.test("parseFailOn refuses an unknown kind as a usage error (exit 2) with a did-you-mean", () => {
  assert.throws(
    () => parseFailOn("broken_link,broken_ancor"),
    (err: unknown) =>
      err instanceof DochygieneError && err.exitCode === 2 &&
      /unknown --fail-on kind "broken_ancor" \(did you mean "broken_anchor"\?\)/.test(err.message),
  );
  assert.throws(() => parseFailOn(" , "), /--fail-on needs a comma list of finding kinds/);
});

import assert from "node:assert/strict";
import { formatGithub } from "../../lib/findings/format_github.ts";
import type { Finding } from "../../lib/findings/collect_findings.ts";

const f: Finding = {
  path: "docs/guide.md",
  line: 7,
  column: 1,
  kind: "broken_anchor",
  message: "a.md#x: 100% gone\nreally",
  fingerprint: "",
};

Deno.test("formatGithub writes one annotation per finding, escaped as workflow commands require", () => {
  const lines = formatGithub([f, { ...f, path: "a:b,c.md", kind: "broken_link" }], {
    docs: 3,
    failOn: ["broken_link"],
  }).trimEnd().split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    "::warning file=docs/guide.md,line=7,col=1,title=dochygiene broken_anchor::a.md#x: 100%25 gone%0Areally",
    "::error file=a%3Ab%2Cc.md,line=7,col=1,title=dochygiene broken_link::a.md#x: 100%25 gone%0Areally",
  ]);
  assert.match(
    lines[2],
    /^dochygiene: 2 findings in 2 of 3 docs \(1 broken_link, 1 broken_anchor\); 1 fails --fail-on/,
  );
  assert.equal(lines.length, 3);
});

Deno.test("formatGithub without findings prints only the summary", () => {
  assert.equal(formatGithub([], { docs: 2 }), "dochygiene: no findings in 2 docs\n");
});

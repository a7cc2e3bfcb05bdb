import assert from "node:assert/strict";
import { collectFindings } from "../../lib/findings/collect_findings.ts";
import type { Signal } from "../../lib/scan/scan_docs.ts";

const artifact = (signals: Record<string, Signal[]>) => ({
  shortlist: Object.keys(signals),
  signals,
});

Deno.test("collectFindings keeps the finding kinds only, in shortlist then artifact order", () => {
  const findings = collectFindings(artifact({
    "a.md": [
      { kind: "age", days: 3, last_commit: null, source: "mtime" },
      { kind: "broken_link", line: 2, target: "x.md", hint: "extension" },
      { kind: "broken_anchor", line: 4, target: "#y" },
      { kind: "missing_path", line: 5, path: "src/z.ts" },
    ],
    "b.md": [
      { kind: "malformed_frontmatter", line: 2, reason: "bad indent", hint: undefined } as never,
      { kind: "duplicate", of: ["c.md"] },
    ],
  }));
  assert.deepEqual(
    findings.map((f) => [f.path, f.line, f.column, f.kind, f.message]),
    [
      ["a.md", 2, 1, "broken_link", "x.md does not exist (it exists with a .md extension)"],
      [
        "a.md",
        4,
        1,
        "broken_anchor",
        "#y: no heading or anchor of the target matches the fragment",
      ],
      ["a.md", 5, 1, "missing_path", "`src/z.ts` does not exist"],
      ["b.md", 2, 1, "malformed_frontmatter", "malformed frontmatter: bad indent"],
      ["b.md", 1, 1, "duplicate", "same content as c.md"],
    ],
  );
});

Deno.test("a finding's fingerprint survives its line moving, and tells equal findings apart", () => {
  const before = collectFindings(artifact({
    "a.md": [
      { kind: "broken_link", line: 2, target: "x.md", hint: null },
      { kind: "broken_link", line: 9, target: "x.md", hint: null },
    ],
  }));
  const after = collectFindings(artifact({
    "a.md": [
      { kind: "broken_link", line: 12, target: "x.md", hint: null },
      { kind: "broken_link", line: 19, target: "x.md", hint: null },
    ],
  }));
  assert.deepEqual(after.map((f) => f.fingerprint), before.map((f) => f.fingerprint));
  assert.notEqual(before[0].fingerprint, before[1].fingerprint);
  const other = collectFindings(artifact({
    "b.md": [{ kind: "broken_link", line: 2, target: "x.md", hint: null }],
  }));
  assert.notEqual(other[0].fingerprint, before[0].fingerprint);
});

Deno.test("a missing path's near miss is in its message: the one candidate, or how many", () => {
  const findings = collectFindings(artifact({
    "a.md": [
      { kind: "missing_path", line: 1, path: "references/x.md", hint: "skills/y/references/x.md" },
      { kind: "missing_path", line: 2, path: "x/util.ts", candidates: 3 },
    ],
  }));
  assert.deepEqual(findings.map((f) => f.message), [
    "`references/x.md` does not exist (did you mean skills/y/references/x.md?)",
    "`x/util.ts` does not exist (3 listed paths end in it)",
  ]);
});

import assert from "node:assert/strict";
import {
  DEFAULT_FINDINGS_SHOWN,
  renderFindingsText,
} from "../../lib/findings/render_findings_text.ts";
import type { Finding } from "../../lib/findings/collect_findings.ts";

const many: Finding[] = Array.from({ length: 25 }, (_, i) => ({
  path: i < 3 ? "a.md" : "b\u001b.md",
  line: i + 1,
  column: 1,
  kind: "missing_path",
  message: `\`x${i}\` does not exist`,
  fingerprint: "",
}));

Deno.test("renderFindingsText shows file:line:col lines grouped by file, capped without --all", () => {
  const lines = renderFindingsText(many, {});
  assert.equal(lines[0], "findings: 25 in 2 docs");
  assert.equal(lines[1], "a.md:1:1  missing_path  `x0` does not exist");
  assert.equal(lines[4], "", "a blank line between files");
  assert.equal(lines[5], "b\\x1b.md:4:1  missing_path  `x3` does not exist", "controls escaped");
  assert.equal(
    lines.at(-1),
    `… and ${25 - DEFAULT_FINDINGS_SHOWN} more (--all lists every finding)`,
  );
});

Deno.test("renderFindingsText with --all lists every finding", () => {
  const lines = renderFindingsText(many, { all: true });
  assert.equal(lines.filter((l) => l.includes("missing_path")).length, 25);
  assert.ok(!lines.some((l) => l.startsWith("…")));
});

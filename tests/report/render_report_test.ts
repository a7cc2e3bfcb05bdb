import assert from "node:assert/strict";
import { renderReport } from "../../lib/report/render_report.ts";
import { extractLinks } from "../../lib/markdown/extract_links.ts";
import { parseMarkdown } from "../../lib/markdown/parse_markdown.ts";
import { parseReport, type Report } from "../../lib/report/validate_report.ts";

const FIXTURES = new URL("../../fixtures/reports/valid/", import.meta.url);

Deno.test("rendering the full fixture gives exactly the committed Markdown", async () => {
  const report = parseReport(await Deno.readTextFile(new URL("full.json", FIXTURES)));
  assert.equal(renderReport(report), await Deno.readTextFile(new URL("full.md", FIXTURES)));
});

Deno.test("the same report renders byte-identically, whatever its entry order", async () => {
  const report = parseReport(await Deno.readTextFile(new URL("full.json", FIXTURES)));
  const shuffled: Report = { ...report, entries: [...report.entries].reverse() };
  assert.equal(renderReport(report), renderReport(report));
  assert.equal(renderReport(shuffled), renderReport(report));
});

Deno.test("summary counts every category, op_type and tier, zeros included", async () => {
  const md = renderReport(parseReport(await Deno.readTextFile(new URL("minimal.json", FIXTURES))));
  for (const row of ["| stale | 0 |", "| extract-then-delete | 0 |", "| never | 0 |"]) {
    assert.ok(md.includes(row), row);
  }
  assert.ok(md.includes("## auto (0)\n\nNone."));
  assert.ok(md.endsWith("\n") && !md.endsWith("\n\n"));
});

Deno.test("cells escape pipes, backslashes and line breaks so the table stays one row", () => {
  const md = renderReport({
    schema_version: 1,
    generated_at: "2026-11-30T03:36:18.000Z",
    scan_generated_at: "2026-11-30T03:36:18.000Z",
    entries: [{
      path: "a|b.md",
      category: "stale",
      op_type: "update",
      op: "Fix \\| this.",
      safety_tier: "auto",
      rationale: "line one\r\nline two\rthree\nfour",
      signals: [{ kind: "age" }, { kind: "size" }, { kind: "age" }],
    }],
  });
  const row = md.split("\n").find((l) => l.startsWith("| a\\|"));
  assert.equal(
    row,
    "| a\\|b.md | stale | update | Fix \\\\\\| this. |  |  | age ×2, size | line one<br>line two<br>three<br>four |",
  );
});

Deno.test("cells show HTML, character references and control characters as typed text", () => {
  const md = renderReport({
    schema_version: 1,
    generated_at: "2026-11-30T03:36:18.000Z",
    scan_generated_at: "2026-11-30T03:36:18.000Z",
    entries: [{
      path: "a<b>.md",
      category: "stale",
      op_type: "update",
      op: "Fix <script>alert(1)</script> and <!-- this",
      safety_tier: "auto",
      rationale: "R&D: &lt; &#60; &#x3c; stay\x00\x1b[2J\x7f\x9b\ttext",
      signals: [{ kind: "<i>age" }],
    }, {
      path: "b.md",
      category: "stale",
      op_type: "update",
      op: "Still a row.",
      safety_tier: "auto",
      rationale: "visible",
      signals: [],
    }],
  });
  const rows = md.split("\n").filter((l) => /^\| (a&lt;|b\.md)/.test(l));
  assert.deepEqual(rows, [
    "| a&lt;b>.md | stale | update | Fix &lt;script>alert\\(1\\)&lt;/script> and &lt;\\!-- this |  |  | &lt;i>age | R&D: &amp;lt; &amp;#60; &amp;#x3c; stay\\x00\\x1b\\[2J\\x7f\\x9b\\x09text |",
    "| b.md | stale | update | Still a row. |  |  |  | visible |",
  ]);
  // Nothing but the table's own `<br>` opens a tag, and no control character is written.
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(md));
});

Deno.test("cells never render as a link, an image, code or emphasis: Markdown syntax is escaped, no renderer fetches or links", () => {
  const typed = [
    "![x](http://tracker.example/p.png)",
    "[a](javascript:alert(1))",
    "[ref][1] `code` *em* _em_ ~~del~~ $x$",
    "[1]: http://evil.example",
  ];
  const md = renderReport({
    schema_version: 1,
    generated_at: "2026-11-30T03:36:18.000Z",
    scan_generated_at: "2026-11-30T03:36:18.000Z",
    entries: typed.map((text, i) => ({
      path: `d${i}.md`,
      category: "stale",
      op_type: "update",
      op: text,
      safety_tier: "auto",
      rationale: text,
      extract_to: text,
      signals: [{ kind: text }],
    })),
  });
  // The project's own CommonMark parser finds no link or image anywhere in the report.
  assert.deepEqual(extractLinks(parseMarkdown(md)), []);
  const row = md.split("\n").find((l) => l.startsWith("| d0.md"));
  assert.equal(
    row,
    "| d0.md | stale | update | \\!\\[x\\]\\(http://tracker.example/p.png\\) | \\!\\[x\\]\\(http://tracker.example/p.png\\) |  | \\!\\[x\\]\\(http://tracker.example/p.png\\) | \\!\\[x\\]\\(http://tracker.example/p.png\\) |",
  );
  // Every escape is a backslash before ASCII punctuation: CommonMark shows the character as typed.
  const cells = md.split("\n").filter((l) => /^\| d\d\.md/.test(l));
  for (const [i, text] of typed.entries()) {
    const op = cells[i].split(" | ")[3];
    assert.equal(op.replace(/\\([!-/:-@[-`{-~])/g, "$1"), text);
  }
});

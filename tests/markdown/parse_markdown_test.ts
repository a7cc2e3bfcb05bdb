import assert from "node:assert/strict";
import { parseMarkdown, scanBlock } from "../../lib/markdown/parse_markdown.ts";

function kinds(md: string): string[] {
  return parseMarkdown(md).blocks.map((b) =>
    b.kind + (b.level ? b.level : "") + (b.task ? `:${b.task}` : "")
  );
}

Deno.test("parseMarkdown: list and task markers", () => {
  assert.deepEqual(kinds("- [ ] a\n* [x] b\n+ [X] c\n1. [ ] d\n2) e\n"), [
    "paragraph:open",
    "paragraph:done",
    "paragraph:done",
    "paragraph:open",
    "paragraph",
  ]);
  // A marker needs a space, a tab or the end after it; 10 digits are too many.
  assert.deepEqual(parseMarkdown("-a\n\n1234567890. x\n\n-\tb\n").blocks.map((b) => b.lines), [
    ["-a"],
    ["1234567890. x"],
    ["b"],
  ]);
  // `[ ]` needs a space or a tab after it to be a task, as GitHub (cmark-gfm) has it: `- [ ]` alone
  // is text, `- [ ] ` (a trailing space) a task. Nor is a box on the line after a bare marker.
  assert.deepEqual(kinds("- [ ]x\n\n- [ ]\n\n- [ ] \n\n- [x]\tdone\n\n-\n  [x] next\n"), [
    "paragraph",
    "paragraph",
    "paragraph:open",
    "paragraph:done",
    "paragraph",
  ]);
  // A task item's text that is a setext heading keeps its box.
  assert.deepEqual(kinds("- [x] t\n  ===\n"), ["heading1:done"]);
  // A list nested in a paragraph's item interrupts it only as a bullet or `1.`; the next item of
  // its list, or a list after the quote the paragraph is in, always starts.
  assert.deepEqual(kinds("- e\n  2) [x] t\n\n- a\n- b\n  1. [x] c\n\n>x\n3) [X] y\n"), [
    "paragraph",
    "paragraph",
    "paragraph",
    "paragraph:done",
    "paragraph",
    "paragraph:done",
  ]);
  // A line indented 4 or more past its container continues an open paragraph as text.
  assert.deepEqual(kinds("6\n    - [x] t\n\np\n    ---\n\nq\n    ```\n# H\n"), [
    "paragraph",
    "paragraph",
    "paragraph",
    "heading1",
  ]);
  // Only a bullet or `1.` interrupts a paragraph, and not when empty.
  assert.deepEqual(parseMarkdown("a\n2. b\n*\n1. c\n").blocks.map((b) => b.lines), [
    ["a", "2. b", "*"],
    ["c"],
  ]);
});

Deno.test("parseMarkdown: ATX and setext headings", () => {
  assert.deepEqual(kinds("# a\n###### b\n####### c\n#d\n#\n## e ##\n"), [
    "heading1",
    "heading6",
    "paragraph",
    "heading1",
    "heading2",
  ]);
  assert.deepEqual(kinds("a\n===\n\nb\n--- \t\n\nc\n=-=\n"), ["heading1", "heading2", "paragraph"]);
  assert.deepEqual(parseMarkdown("a\n=-=\n").blocks[0].lines, ["a", "=-="]);
});

Deno.test("parseMarkdown: a line outside the paragraph's list item or quote is never its setext underline", () => {
  // `---` there is a thematic break that ends the list or the quote.
  assert.deepEqual(kinds("- Usage\n---\n"), ["paragraph"]);
  assert.deepEqual(kinds("- [x] foo\n---\n"), ["paragraph:done"]);
  assert.deepEqual(kinds("1. Step one\n---\n"), ["paragraph"]);
  assert.deepEqual(kinds("> Quote\n---\n"), ["paragraph"]);
  assert.deepEqual(kinds("- a\n\n  b\n---\n"), ["paragraph", "paragraph"]);
  assert.deepEqual(kinds("- c\nd\n---\n"), ["paragraph"]);
  // `===` there continues the paragraph lazily, as text.
  assert.deepEqual(parseMarkdown("> Quote\n===\n").blocks.map((b) => [b.kind, b.lines]), [
    ["paragraph", ["Quote", "==="]],
  ]);
  // A line opening a quote ends the paragraph before it: no underline for it after that.
  assert.deepEqual(kinds("- Usage\n  > note\n  ---\n"), ["paragraph", "paragraph"]);
  assert.deepEqual(kinds("Intro\n> ---\n"), ["paragraph"]);
  assert.deepEqual(kinds("- [ ] c\n> a\n   ---\n"), ["paragraph:open", "paragraph"]);
  // A paragraph outside a quoted list is in neither: its underline is one.
  assert.deepEqual(kinds("> - a\n>\n  b\n===\n"), ["paragraph", "heading1"]);
  // Inside the item or the quote, or after them, it is an underline as ever.
  assert.deepEqual(kinds("- Foo\n  ---\n\n> Bar\n> ===\n\n- a\n\nb\n---\n"), [
    "heading2",
    "heading1",
    "paragraph",
    "heading2",
  ]);
});

Deno.test("parseMarkdown: frontmatter lines are not Markdown; a BOM is dropped", () => {
  const doc = parseMarkdown("\ufeff---\ntitle: x\n---\n# T\n");
  assert.deepEqual(doc.frontmatter.data, { title: "x" });
  assert.deepEqual(doc.blocks.map((b) => [b.line, b.lines]), [[4, ["T"]]]);
});

Deno.test("scanBlock: a paragraph's lines are scanned joined, whatever their container", () => {
  // Whole lines of the text are scanned as one slice of it; lines with list, quote or
  // indentation markers removed, and CRLF or CR documents, as a join of the lines: both must
  // give the same offsets and lines.
  const bodies = [
    "a [x](one.md)\nb `c/d.ts` [y](two.md)\n[z](three.md)",
    "- a [x](one.md)\n  b `c/d.ts` [y](two.md)\n  [z](three.md)",
    "> a [x](one.md)\n> b `c/d.ts` [y](two.md)\n> [z](three.md)",
  ];
  for (const body of bodies) {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const doc = parseMarkdown(("intro\n\n" + body + "\n").replaceAll("\n", eol));
      const block = doc.blocks[1];
      const scan = scanBlock(block, doc);
      assert.deepEqual(
        scan.links.map((l) => [scan.lineOf(l.offset), l.destination]),
        [[3, "one.md"], [4, "two.md"], [5, "three.md"]],
        JSON.stringify([body, eol]),
      );
      assert.deepEqual(scan.codeSpans.map((c) => [scan.lineOf(c.offset), c.content]), [
        [4, "c/d.ts"],
      ]);
    }
  }
});

Deno.test("scanBlock: definitions taken off a paragraph's start leave the rest in place", () => {
  const doc = parseMarkdown("[a]: ./a.md\n[b]:\n  ./b.md\ntext [x](y.md)\nmore [a]\n");
  assert.deepEqual(doc.definitions.map((d) => [d.line, d.label, d.destination]), [
    [1, "a", "./a.md"],
    [2, "b", "./b.md"],
  ]);
  const scan = scanBlock(doc.blocks[0], doc);
  assert.equal(doc.blocks[0].line, 4);
  assert.deepEqual(scan.links.map((l) => [scan.lineOf(l.offset), l.destination]), [[4, "y.md"]]);
  const heading = parseMarkdown("[a]: ./a.md\nTitle [x](y.md)\n===\n");
  assert.equal(heading.blocks[0].kind, "heading");
  assert.equal(scanBlock(heading.blocks[0], heading).text, "Title x");
});

Deno.test("parseMarkdown: `\\n`, `\\r\\n` and `\\r` documents give the same blocks", () => {
  // `\n` documents are walked line by line in the text, the others split: both must agree,
  // also where the frontmatter ends the text or the text ends without a line break.
  const docs = [
    "---\na: b\n---",
    "---\na: b\n---\n",
    "---\na: b\n---\n# T\n\ntext [x](y.md)\n\n> q `c`\n- [ ] t\n",
    "a\n\n\n  b\nc\n[d]: e.md\n\n[f]: g.md\nh\n===\n",
    "",
    "\n",
    "x",
  ];
  for (const md of docs) {
    const lf = parseMarkdown(md);
    for (const eol of ["\r\n", "\r"]) {
      const other = parseMarkdown(md.replaceAll("\n", eol));
      const shape = (d: typeof lf) =>
        d.blocks.map((b) => {
          const scan = scanBlock(b, d);
          return [
            b.kind,
            b.line,
            b.lines,
            scan.links.map((l) => [scan.lineOf(l.offset), l.destination]),
          ];
        });
      assert.deepEqual(shape(other), shape(lf), JSON.stringify([md, eol]));
      assert.deepEqual(other.definitions, lf.definitions);
    }
  }
});

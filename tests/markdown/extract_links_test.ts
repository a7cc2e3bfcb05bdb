import assert from "node:assert/strict";
import { join } from "node:path";
import { type DocLink, extractLinks } from "../../lib/markdown/extract_links.ts";
import { PACKAGE_DIR } from "../support/helpers.ts";
import { loadYaml } from "../../lib/yaml/load_yaml.ts";

// Some docs here have frontmatter that needs the full YAML parser.
await loadYaml();

const targets = (text: string) => extractLinks(text).map((l) => l.target);

Deno.test("extractLinks: inline links, titles, angle destinations, images", () => {
  const md =
    "[a](a.md) [b](b.md \"Title\") [c](<c d.md>) ![i](i.png 't') [e](e.md (paren title))\n";
  assert.deepEqual(extractLinks(md), [
    { line: 1, target: "a.md", kind: "inline" },
    { line: 1, target: "b.md", kind: "inline" },
    { line: 1, target: "c d.md", kind: "inline" },
    { line: 1, target: "i.png", kind: "image" },
    { line: 1, target: "e.md", kind: "inline" },
  ]);
});

Deno.test("extractLinks: reference definitions (not their uses; not footnotes)", () => {
  const md = 'See [x][id] and [y].\n\n[id]: ./x.md\n[y]: <./y y.md> "T"\n' +
    "[z]:\n  ./z.md\n\n[^1]: a footnote\n";
  assert.deepEqual(extractLinks(md), [
    { line: 3, target: "./x.md", kind: "reference" },
    { line: 4, target: "./y y.md", kind: "reference" },
    { line: 5, target: "./z.md", kind: "reference" },
  ]);
});

Deno.test("extractLinks: a definition cannot interrupt a paragraph", () => {
  assert.deepEqual(targets("Some text\n[id]: ./x.md\n"), []);
});

Deno.test("extractLinks: HTML href and src attributes, in blocks and inline", () => {
  const md =
    '<p align="center">\n  <img src="logo.png" width=100>\n  <a href=\'x.md\'>x</a>\n</p>\n\n' +
    'Inline <a href="y.md#s">y</a> <source srcset="no.png" src=z.webm>\n';
  assert.deepEqual(extractLinks(md), [
    { line: 2, target: "logo.png", kind: "html" },
    { line: 3, target: "x.md", kind: "html" },
    { line: 6, target: "y.md#s", kind: "html" },
    { line: 6, target: "z.webm", kind: "html" },
  ]);
});

Deno.test("extractLinks: Markdown inside an HTML block is raw text until a blank line", () => {
  const md = "<div>\n[raw](raw.md)\n</div>\n\n[after](after.md)\n";
  assert.deepEqual(targets(md), ["after.md"]);
});

Deno.test("extractLinks: nothing in fenced code, indented code or inline code spans", () => {
  const md = [
    "```js",
    "[a](fenced.md)",
    "```",
    "  ~~~~",
    "[b](tilde.md)",
    "  ~~~~",
    "",
    "    [c](indented.md)",
    "",
    "`[d](span.md)` ``[e](`double`.md)`` [ok](ok.md)",
    "- item",
    "",
    "  ```",
    "  [f](list-fence.md)",
    "  ```",
    "> ```",
    "> [g](quote-fence.md)",
    "> ```",
  ].join("\n");
  assert.deepEqual(targets(md), ["ok.md"]);
});

Deno.test("extractLinks: an unclosed fence runs to the end of the document", () => {
  assert.deepEqual(targets("[a](a.md)\n\n```\n[b](b.md)\n\n[c](c.md)\n"), ["a.md"]);
});

Deno.test("extractLinks: a shorter or different closing fence does not close", () => {
  assert.deepEqual(targets("````\n```\n[a](a.md)\n~~~~\n````\n[b](b.md)\n"), ["b.md"]);
});

Deno.test("extractLinks: backslash escapes are honoured", () => {
  assert.deepEqual(targets("\\[a](a.md) [b\\]](b.md) [c](c\\)d.md) \\![i](i.png)"), [
    "b.md",
    "c\\)d.md",
    "i.png",
  ]);
});

Deno.test("extractLinks: links inside HTML comments are ignored (single and multi-line)", () => {
  const md =
    "<!-- [a](a.md) -->\n\ntext <!-- [b](b.md) --> [c](c.md)\n\n<!--\n\n[d](d.md)\n\n-->\n[e](e.md)\n";
  assert.deepEqual(targets(md), ["c.md", "e.md"]);
});

Deno.test("extractLinks: nested brackets, images in links, no links in links", () => {
  assert.deepEqual(targets("[a [b] c](x.md)"), ["x.md"]);
  assert.deepEqual(targets("[![img](i.png)](page.md)"), ["page.md", "i.png"]);
  assert.deepEqual(targets("[outer [inner](in.md)](out.md)"), ["in.md"]);
  assert.deepEqual(targets("[[[deep]]](d.md)"), ["d.md"]);
  assert.deepEqual(targets("[unclosed [x](x.md)"), ["x.md"]);
});

Deno.test("extractLinks: balanced parentheses in destinations; whitespace ends them", () => {
  assert.deepEqual(targets("[a](a(1).md) [b](b c.md) [d](<d (1).md>)"), ["a(1).md", "d (1).md"]);
});

Deno.test("extractLinks: a link's text and destination may span lines; line is where it starts", () => {
  const links = extractLinks("intro\n[multi\nline](\nm.md\n)\n");
  assert.deepEqual(links, [{ line: 2, target: "m.md", kind: "inline" }]);
});

Deno.test("extractLinks: frontmatter is not Markdown", () => {
  assert.deepEqual(targets("---\nsee: '[x](fm.md)'\n---\n[y](y.md)\n"), ["y.md"]);
});

Deno.test("extractLinks: autolinks and bare URLs are not relative links", () => {
  assert.deepEqual(targets("<https://x.dev/a.md> <a@b.co> https://x.dev/b.md [c](c.md)"), ["c.md"]);
});

Deno.test("extractLinks: lists, blockquotes, tables and headings", () => {
  const md =
    "# [h](h.md)\n\n> [q](q.md)\n\n1. [o](o.md)\n\n| a | b |\n|---|---|\n| [t](t.md) | x |\n";
  assert.deepEqual(extractLinks(md).map((l: DocLink) => [l.line, l.target]), [
    [1, "h.md"],
    [3, "q.md"],
    [5, "o.md"],
    [9, "t.md"],
  ]);
});

Deno.test("extractLinks: CRLF, lone CR and a BOM keep line numbers right", () => {
  assert.deepEqual(extractLinks("\uFEFF# T\r\n\r\n[a](a.md)\r\n"), [
    { line: 3, target: "a.md", kind: "inline" },
  ]);
  assert.deepEqual(extractLinks("x\r[a](a.md)\r").map((l) => l.line), [2]);
});

Deno.test("extractLinks: replacement characters from invalid UTF-8 are just text", () => {
  const text = new TextDecoder().decode(new Uint8Array([0x5b, 0xff, 0x5d, 0x28, 0x61, 0x29]));
  assert.deepEqual(targets(text), ["a"]);
});

Deno.test("extractLinks: 100,000 links in one paragraph and 100,000 list items", () => {
  const para = Array.from({ length: 100_000 }, (_, i) => `[l${i}](f${i}.md)`).join(" ");
  const links = extractLinks(para);
  assert.equal(links.length, 100_000);
  assert.equal(links[99_999].target, "f99999.md");
  const list = Array.from({ length: 100_000 }, (_, i) => `- [l${i}](f${i}.md#a)`).join("\n");
  const items = extractLinks(list);
  assert.equal(items.length, 100_000);
  assert.equal(items[99_999].line, 100_000);
});

Deno.test("extractLinks: hostile inputs stay linear (huge line, bracket and delimiter floods)", () => {
  assert.deepEqual(extractLinks("x".repeat(5_000_000)), []);
  assert.deepEqual(extractLinks("[".repeat(300_000) + "]".repeat(300_000)), []);
  assert.deepEqual(extractLinks("[a](".repeat(100_000)), []);
  assert.deepEqual(extractLinks("[a](x(".repeat(100_000)), []);
  assert.deepEqual(extractLinks('[a](b "'.repeat(100_000)), []);
  assert.deepEqual(extractLinks('<a href="'.repeat(100_000)), []);
  assert.deepEqual(extractLinks("<!-- ".repeat(100_000)), []);
  assert.deepEqual(extractLinks("`".repeat(100_000) + "x"), []);
  assert.equal(extractLinks("[".repeat(50_000) + "x" + "](y)".repeat(50_000)).length, 1);
  // 100,000 nested list items on one line (each level used to look at the rest of the line).
  assert.deepEqual(targets("- ".repeat(100_000) + "[a](a.md)\n"), ["a.md"]);
  assert.deepEqual(targets("-\t".repeat(100_000) + "[a](a.md)\n"), ["a.md"]);
  assert.deepEqual(targets("* ".repeat(100_000) + "- - -\n[a](a.md)\n"), ["a.md"]);
});

Deno.test("extractLinks: the Markdown fixture's README", async () => {
  const text = await Deno.readTextFile(join(PACKAGE_DIR, "fixtures/markdown/README.md"));
  const links = extractLinks(text);
  assert.ok(!links.some((l) => l.target.includes("nope-")), "no link from code or comments");
  assert.deepEqual(
    links.filter((l) => l.kind === "reference").map((l) => l.target),
    ["docs/guide.md", "docs/gone-too.md", "docs/sub/README.md#sub-readme"],
  );
  assert.equal(links.filter((l) => l.kind === "html").length, 4);
});

Deno.test("extractLinks: a fence or HTML block ends with the blockquote or list item it opened in", () => {
  assert.deepEqual(targets("> ```\n> [a](a.md)\n\n[b](b.md)\n"), ["b.md"]);
  assert.deepEqual(targets("> <!--\n> [a](a.md)\n[b](b.md)\n"), ["b.md"]);
  assert.deepEqual(targets("1. x\n\n   ```\n   [a](a.md)\n[b](b.md)\n"), ["b.md"]);
  assert.deepEqual(targets("- <!--\n  [a](a.md)\n\n[b](b.md)\n"), ["b.md"]);
});

Deno.test("extractLinks: a `>` inside a fence or HTML block is content, not a blockquote", () => {
  // A REPL prompt in a list item's fence neither ends the fence nor lets the close open another.
  assert.deepEqual(targets("- Example:\n  ```\n  >>> print(1)\n  ```\n- See [q](q.md)\n"), [
    "q.md",
  ]);
  // A quoted fence line does not close a fence that is not in a quote.
  assert.deepEqual(targets("```text\n> ```\n> [a](a.md)\n```\n[b](b.md)\n"), ["b.md"]);
  // In a quoted fence, only the quote's own marker is one.
  assert.deepEqual(targets("> ```\n> > ```\n> [a](a.md)\n> ```\n> [b](b.md)\n"), ["b.md"]);
  assert.deepEqual(targets("<div>\n> [a](a.md)\n\n[b](b.md)\n"), ["b.md"]);
});

Deno.test("extractLinks: a definition's bare destination needs balanced parentheses", () => {
  assert.deepEqual(targets("[a]: a(1).md\n\n[b]: b(.md\n"), ["a(1).md"]);
});

Deno.test("extractLinks: a definition's title must close on its line with nothing after it", () => {
  const dests = (md: string) => extractLinks(md).map((l) => l.target);
  assert.deepEqual(dests("[a]: b.md \"t\"\n[c]: <d e.md> 't'\n[f]: g.md (t)\n"), [
    "b.md",
    "d e.md",
    "g.md",
  ]);
  // Not definitions: an unclosed title, text after it (a CHANGELOG line: `- [x]: add "y" option`).
  assert.deepEqual(dests('[a]: b.md "t" x\n\n[c]: d.md "t\n\n- [`x`]: add "y" option (#1)\n'), []);
});

Deno.test("extractLinks: a lazy line that only looks like a block start (`x`, #tag, <span>) keeps the list", () => {
  for (const lazy of ["`x` y", "#tag y", "<span>y</span>"]) {
    assert.deepEqual(targets(`- a\n${lazy}\n\n    [l](x.md)\n`), ["x.md"], lazy);
  }
  // A real fence there ends it: the link is then in indented code.
  assert.deepEqual(targets("- a\n```\n\n    [l](x.md)\n"), []);
  // So does any HTML block start, outside the paragraph's item or quote (GitHub: raw HTML).
  assert.deepEqual(targets("- a\n<span>\n    [l](x.md)\n"), []);
  // A list in a quote ends with the quote: 4 columns in is code then.
  assert.deepEqual(targets("> - r\n\n    [l](x.md)\n"), []);
});

Deno.test("extractLinks: a line left of a nested item's text is still in an outer item (npm's docs nest three deep)", () => {
  assert.deepEqual(targets("- a\n  - b\n    - c\n\n    d [l](x.md)\n"), ["x.md"]);
  assert.deepEqual(targets("- a\n  - b\n    - c\n\n  e [m](y.md)\n"), ["y.md"]);
  // Left of every item: the list is over, and 4 columns in is code.
  assert.deepEqual(targets("- a\n  - b\n\nf [n](z.md)\n\n    [code](w.md)\n"), ["z.md"]);
});

Deno.test("extractLinks: definitions after the links they follow are sorted in by line", () => {
  assert.deepEqual(extractLinks("[a](a.md)\n\n[r]: r.md\n\n[b](b.md) [c](c.md)\n"), [
    { line: 1, target: "a.md", kind: "inline" },
    { line: 3, target: "r.md", kind: "reference" },
    { line: 5, target: "b.md", kind: "inline" },
    { line: 5, target: "c.md", kind: "inline" },
  ]);
  // Within a block: links, images and tags by offset, whatever order they were found in.
  assert.deepEqual(
    extractLinks('[![i](i.png)](l.md) <a href="h.md">x</a>').map((l) => l.target),
    ["l.md", "i.png", "h.md"],
  );
});

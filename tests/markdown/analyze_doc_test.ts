import assert from "node:assert/strict";
import { join } from "node:path";
import { analyzeDoc, inlineCodePath } from "../../lib/markdown/analyze_doc.ts";
import { PACKAGE_DIR } from "../support/helpers.ts";
import { loadYaml } from "../../lib/yaml/load_yaml.ts";

// Some docs here have frontmatter that needs the full YAML parser.
await loadYaml();

Deno.test("analyzeDoc: frontmatter, hygiene and status from frontmatter", () => {
  const a = analyzeDoc("---\nhygiene: frozen\nstatus: accepted\n---\n# ADR\n", "docs/adr/1.md");
  assert.deepEqual(a.frontmatter, { hygiene: "frozen", status: "accepted" });
  assert.equal(a.hygiene, "frozen");
  assert.equal(a.status, "accepted");
  assert.equal(a.appendOnly, false);
});

Deno.test("analyzeDoc: hygiene append-only makes the doc append-only; other values are ignored", () => {
  assert.equal(analyzeDoc("---\nhygiene: append-only\n---\n# x\n", "x.md").appendOnly, true);
  const other = analyzeDoc("---\nhygiene: keep\n---\n# x\n", "x.md");
  assert.equal(other.hygiene, undefined);
  assert.equal(analyzeDoc("---\nhygiene: [frozen]\n---\n", "x.md").hygiene, undefined);
});

Deno.test("analyzeDoc: malformed frontmatter or an alias bomb is not fatal", () => {
  const a = analyzeDoc("---\nhygiene: frozen\n  bad: [\n---\n# T\n\n[x](x.md)\n", "x.md");
  assert.equal(a.frontmatter, undefined);
  assert.equal(a.hygiene, undefined);
  assert.deepEqual(a.links.map((l) => l.line), [7]);
  const bomb = "---\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n" +
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nhygiene: frozen\n---\n";
  assert.equal(analyzeDoc(bomb, "x.md").hygiene, undefined);
});

Deno.test("analyzeDoc: status from a leading Status line, in its variants", () => {
  for (
    const line of [
      "Status: Draft",
      "**Status:** Draft",
      "**Status**: Draft",
      "> Status: `Draft`",
      "- status: *Draft*",
      "__Status__: Draft  ",
    ]
  ) {
    assert.equal(analyzeDoc(`# Plan\n\n${line}\n\nBody.\n`, "p.md").status, "Draft", line);
  }
});

Deno.test("analyzeDoc: a Status line after the first ## heading or past line 20 is not leading", () => {
  assert.equal(analyzeDoc("# P\n\n## Context\n\nStatus: done\n", "p.md").status, undefined);
  const late = "# P\n\n" + "text\n\n".repeat(10) + "Status: done\n";
  assert.equal(analyzeDoc(late, "p.md").status, undefined);
  assert.equal(analyzeDoc("# P\n\n```\nStatus: done\n```\n", "p.md").status, undefined);
  assert.equal(analyzeDoc("# P\n\nStatus:\n", "p.md").status, undefined);
  // The window counts from the body's first line, after frontmatter.
  const fm = "---\n" + "k: v\n".repeat(30) + "---\n# P\n\nStatus: ok\n";
  assert.equal(analyzeDoc(fm, "p.md").status, "ok");
});

Deno.test("analyzeDoc: frontmatter status wins; non-scalar frontmatter status is ignored", () => {
  assert.equal(analyzeDoc("---\nstatus: done\n---\nStatus: draft\n", "p.md").status, "done");
  assert.equal(analyzeDoc("---\nstatus: 2\n---\n", "p.md").status, "2");
  assert.equal(analyzeDoc("---\nstatus: {a: 1}\n---\nStatus: draft\n", "p.md").status, "draft");
});

Deno.test("analyzeDoc: checkboxes outside code, in any list style", () => {
  const md = "- [x] a\n- [X] b\n* [ ] c\n1. [ ] d\n  - [x] nested\n- [ ] \n- [ ]\n- [] not\n" +
    "- [x]not\n```\n- [ ] code\n```\n\n    - [ ] indented code\n\n> - [ ] quoted\n";
  // `- [ ]` alone is no task (GitHub wants whitespace after the box); `- [ ] ` is one.
  assert.deepEqual(analyzeDoc(md, "t.md").checkboxes, { done: 3, open: 4 });
  assert.equal(analyzeDoc("# none\n\n[ ] not a list\n", "t.md").checkboxes, undefined);
});

Deno.test("analyzeDoc: a `>` line in a list item's fence keeps later tasks and headings", () => {
  const a = analyzeDoc(
    "- Example:\n  ```\n  >>> print(1)\n  ```\n- [ ] task after\n\n## Later heading\n",
    "a.md",
  );
  assert.deepEqual(a.checkboxes, { done: 0, open: 1 });
  assert.ok(a.anchors.has("later-heading"));
  // A line that leaves the fence's list item is taken as any other: here a quoted heading.
  assert.deepEqual([...analyzeDoc("+ ```\n> # Quoted\n", "b.md").anchors], ["quoted"]);
});

Deno.test("analyzeDoc: inline-code paths with their lines", () => {
  const md =
    "# T\n\nEdit `src/main.ts` and `./docs/a.md`,\nnot `main.ts`, `docs/`, `npm i`, `docs/*.md`.\n\n" +
    "```\n`lib/in-fence.ts`\n```\n";
  assert.deepEqual(analyzeDoc(md, "x.md").inlinePaths, [
    { line: 3, path: "src/main.ts" },
    { line: 3, path: "docs/a.md" },
  ]);
});

Deno.test("inlineCodePath: what counts as a repo-relative file path", () => {
  const yes: [string, string][] = [
    ["src/a.ts", "src/a.ts"],
    ["./src/a.ts", "src/a.ts"],
    ["src/a.ts:12:3", "src/a.ts"],
    [".github/workflows/ci.yml", ".github/workflows/ci.yml"],
    ["docs/adr/0001-record.md", "docs/adr/0001-record.md"],
    ["@scope/pkg/index.d.ts", "@scope/pkg/index.d.ts"],
    ["src/routes/+page.svelte", "src/routes/+page.svelte"],
    ["./././a/b.md", "a/b.md"],
    ["a/.b/c..d/e.md", "a/.b/c..d/e.md"],
    ["github/x.md", "github/x.md"],
    ["a.b/c.md:7", "a.b/c.md"],
  ];
  for (const [code, path] of yes) assert.equal(inlineCodePath(code), path, code);
  for (
    const code of [
      "main.ts",
      "src/",
      "/etc/hosts",
      "~/x/y.md",
      "../x/y.md",
      "https://a.dev/x.md",
      "node:fs/promises",
      "github.com/o/r/a.md",
      "docs/*.md",
      "src/[id].tsx",
      "a/{b,c}.md",
      "$HOME/x.md",
      "<name>/x.md",
      "a b/c.md",
      "docs/v1.2",
      "a//b.md",
      "C:/x/y.md",
      "x/y.md#frag",
      "1/2",
      "a/./b.md",
      "a/../b.md",
      "./../b.md",
      "a/b.md/",
      "a/b/.",
      "github.com/b.md",
      "docs.rs/x/y.md",
      "https:/x/y.md",
      // Placeholders.
      "path/to/file.md",
      "Path/To/config.yml",
      "your/path/to/x.ts",
      "src/\u2026/main.ts",
      "\u2026/x.md",
      "src/.../main.ts",
      ".../x.md",
      "{{dir}}/x.md",
    ]
  ) {
    assert.equal(inlineCodePath(code), undefined, code);
  }
});

Deno.test("analyzeDoc: anchors and links together; dated log detection uses the path only as tie-break", () => {
  const a = analyzeDoc("# T\n\n## 2026-08-01\n\n## 2026-08-02\n\n[x](#t)\n", "CHANGELOG.md");
  assert.deepEqual([...a.anchors], ["t", "2026-08-01", "2026-08-02"]);
  assert.deepEqual(a.links, [{ line: 7, target: "#t", kind: "inline" }]);
  assert.equal(a.appendOnly, true);
  assert.equal(analyzeDoc("# T\n\n## 2026-08-01\n\n## 2026-08-02\n", "notes.md").appendOnly, false);
});

Deno.test("analyzeDoc: hostile documents (CRLF+BOM, invalid UTF-8, huge line, binary-ish)", () => {
  const crlf = analyzeDoc("\uFEFF---\r\nstatus: x\r\n---\r\n# T\r\n\r\n- [x] `a/b.md`\r\n", "c.md");
  assert.equal(crlf.status, "x");
  assert.deepEqual(crlf.checkboxes, { done: 1, open: 0 });
  assert.deepEqual(crlf.inlinePaths, [{ line: 6, path: "a/b.md" }]);
  const decoded = new TextDecoder().decode(new Uint8Array([0x23, 0x20, 0xc3, 0x28, 0x0a, 0xff]));
  // "# \uFFFD(" then "\uFFFD": U+FFFD is a symbol, so the slug is empty, as github-slugger makes it.
  assert.deepEqual([...analyzeDoc(decoded, "u.md").anchors], [""]);
  const huge = analyzeDoc("# " + "word ".repeat(1_000_000), "h.md");
  assert.equal(huge.anchors.size, 1);
  const binary = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => i % 256));
  assert.doesNotThrow(() => analyzeDoc(binary, "bin.md"));
});

Deno.test("analyzeDoc: the Markdown fixtures analyse without surprises", async () => {
  const dir = join(PACKAGE_DIR, "fixtures/markdown/docs");
  const guide = analyzeDoc(await Deno.readTextFile(join(dir, "guide.md")), "docs/guide.md");
  assert.equal(guide.status, "draft");
  for (
    const anchor of [
      "usage",
      "café-olé",
      "notes",
      "notes-1",
      "notes-2",
      "custom-anchor",
      "block-id",
    ]
  ) {
    assert.ok(guide.anchors.has(anchor), anchor);
  }
});

Deno.test("analyzeDoc: a frontmatter that is not strict YAML is malformed, with its line, a short reason and whether it has a hygiene: line", () => {
  const colon = analyzeDoc(
    "---\nhygiene: frozen\ntitle: Plan: search rewrite\n---\n# Plan\n",
    "docs/plan.md",
  );
  assert.equal(colon.frontmatter, undefined);
  assert.deepEqual(colon.malformedFrontmatter, {
    line: 3,
    reason: "Nested mappings are not allowed in compact mappings",
    hygiene: true,
  });
  const twice = analyzeDoc("---\nhygiene: frozen\ntitle: a\ntitle: b\n---\n# T\n", "t.md");
  assert.deepEqual(twice.malformedFrontmatter, {
    line: 4,
    reason: "Map keys must be unique",
    hygiene: true,
  });
  assert.equal(
    analyzeDoc("---\ntitle: Plan: x\n---\n# T\n", "t.md").malformedFrontmatter?.hygiene,
    false,
  );
  assert.equal(
    analyzeDoc("---\nhygiene: frozen\n---\n# T\n", "t.md").malformedFrontmatter,
    undefined,
  );
});

Deno.test("analyzeDoc: suppression comments on their own lines, kinds comma or space separated, none in code", () => {
  const text = [
    "# A", // 1
    "<!-- dochygiene-disable-next-line -->", // 2
    "<!--", // 3
    "  dochygiene-disable missing_path, broken_link broken_anchor", // 4
    "-->", // 5
    "```", // 6
    "<!-- dochygiene-enable -->", // 7
    "```", // 8
    "    <!-- dochygiene-enable -->", // 9: indented code
    "", // 10
    "<!-- dochygiene-enable MISSING_PATH -->", // 11
    "<!-- dochygiene-disabled -->", // 12: not a comment of ours
    "Text <!-- dochygiene-disable --> inline", // 13: not on its own lines
  ].join("\n") + "\n";
  assert.deepEqual(analyzeDoc(text, "a.md").suppressions, [
    { line: 2, op: "next", kinds: [] },
    { line: 5, op: "disable", kinds: ["missing_path", "broken_link", "broken_anchor"] },
    { line: 11, op: "enable", kinds: ["missing_path"] },
  ]);
});

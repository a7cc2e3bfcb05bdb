import assert from "node:assert/strict";
import { analyzeDoc } from "../../lib/markdown/analyze_doc.ts";
import { checkDocLinks } from "../../lib/links/check_doc_links.ts";
import { PathIndex } from "../../lib/links/path_index.ts";
import { resolveLink } from "../../lib/links/resolve_link.ts";

const index = (paths: string[], onDisk?: (path: string) => boolean) =>
  new PathIndex(
    { paths, nonFiles: ["vendor"], opaque: ["build"] },
    onDisk && ((path) => onDisk(path) ? "exists" : "missing"),
  );

Deno.test("each linked path is listed once per doc, however many links and targets", () => {
  const paths = Array.from({ length: 40 }, (_, i) => `d/t${i}.md`);
  const text = [...paths, ...paths].map((p, i) => `[x${i}](${p.slice(2)})`).join("\n") + "\n";
  const facts = checkDocLinks("d/a.md", analyzeDoc(text, "d/a.md"), index(paths));
  assert.deepEqual(facts.targets, paths);
  const few = checkDocLinks(
    "d/a.md",
    analyzeDoc("[a](t1.md) [b](./t1.md#x)\n", "d/a.md"),
    index(paths),
  );
  assert.deepEqual(few.targets, ["d/t1.md"]);
});

Deno.test("a doc's own fragments are settled at once; other docs' fragments are kept for later", () => {
  const text = "# Intro\n\n[ok](#intro) [bad](#nope) [self](a.md#Intro) [other](b.md#setup)\n";
  const facts = checkDocLinks("a.md", analyzeDoc(text, "a.md"), index(["a.md", "b.md"]));
  assert.deepEqual(facts.fragments, [
    { line: 3, target: "#nope", path: "a.md", fragment: "nope" },
    { line: 3, target: "b.md#setup", path: "b.md", fragment: "setup" },
  ]);
  assert.deepEqual(facts.targets, ["b.md"]);
});

Deno.test("missing targets carry their near-miss hint; opaque and unchecked ones are left out", () => {
  const text = "[a](Guide.md) [b](guide) [c](gone.md) [d](vendor/x.md) [e](build/y.md) " +
    "[f](https://x.y/z.md) [g](/abs.md)\n";
  const facts = checkDocLinks("a.md", analyzeDoc(text, "a.md"), index(["a.md", "guide.md"]));
  assert.deepEqual(facts.broken, [
    { kind: "broken_link", line: 1, target: "Guide.md", hint: "case" },
    { kind: "broken_link", line: 1, target: "guide", hint: "extension" },
    { kind: "broken_link", line: 1, target: "gone.md", hint: null },
  ]);
});

Deno.test("inline-code paths exist from the root, from the doc's directory, or on disk", () => {
  const text = "`src/a.ts` `b.ts` `./src/a.ts/` `dist/out.js` `src/gone.ts`\n";
  const onDisk = (path: string) => path === "dist/out.js";
  const facts = checkDocLinks(
    "docs/x.md",
    analyzeDoc(text, "docs/x.md"),
    index(["src/a.ts", "docs/b.ts", "docs/x.md"], onDisk),
  );
  assert.deepEqual(facts.missing, [{ kind: "missing_path", line: 1, path: "src/gone.ts" }]);
});

Deno.test("targets, written plainly or not, resolve as resolveLink resolves them", () => {
  const paths = ["d/a.md", "d/b.md", "b.md", "d/sub/x.md", "d/b c.md", ".hidden/b.md"];
  const listed = index(paths);
  const targets = [
    "b.md",
    "./b.md",
    "../b.md",
    "../../b.md",
    "sub/../b.md",
    ".//b.md",
    "b.md/",
    "sub//x.md",
    "b%2Emd",
    "b&#46;md",
    "b\\.md",
    " b.md ",
    "b.md?x#y",
    "b.md#",
    "b.md#%41",
    "b.md#a&amp;b",
    "b.md#x\u00a0",
    "B.md",
    "b",
    "c:b.md",
    "/b.md",
    "../.hidden/b.md",
    "b c.md",
    "#",
    "#x",
    "a.md#x",
    "..",
    "../",
    "sub/",
    "é.md",
    "../d/./b.md",
  ];
  for (const target of targets) {
    const facts = checkDocLinks("d/a.md", {
      links: [{ line: 1, target, kind: "inline" }],
      inlinePaths: [],
      anchors: new Set(),
    }, listed);
    const resolved = resolveLink("d/a.md", target);
    const path = resolved?.path === "." ? "" : resolved?.path;
    const checked = path !== undefined && path !== "d/a.md";
    const exists = checked && listed.listed(path);
    assert.deepEqual(facts.targets, exists ? [path] : [], target);
    assert.equal(facts.broken.length, checked && !exists ? 1 : 0, target);
    const fragment = exists || !checked ? resolved?.fragment : undefined;
    assert.deepEqual(facts.fragments.map((f) => f.fragment), fragment ? [fragment] : [], target);
  }
});

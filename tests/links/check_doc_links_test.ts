import assert from "node:assert/strict";
import { analyzeDoc } from "../../lib/markdown/analyze_doc.ts";
import { checkDocLinks } from "../../lib/links/check_doc_links.ts";
import { PathIndex } from "../../lib/links/path_index.ts";
import { resolveLink, resolveRootLink } from "../../lib/links/resolve_link.ts";

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
    "[f](https://x.y/z.md) [g](/abs/x)\n";
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
    // Site-root links resolve against the repository root (`/b.md`: a Markdown file).
    const resolved = target.startsWith("/")
      ? resolveRootLink("", target)
      : resolveLink("d/a.md", target);
    const path = resolved?.path === "." ? "" : resolved?.path;
    const checked = path !== undefined && path !== "d/a.md";
    const exists = checked && listed.listed(path);
    assert.deepEqual(facts.targets, exists ? [path] : [], target);
    assert.equal(facts.broken.length, checked && !exists ? 1 : 0, target);
    const fragment = exists || !checked ? resolved?.fragment : undefined;
    assert.deepEqual(facts.fragments.map((f) => f.fragment), fragment ? [fragment] : [], target);
  }
});

const links = (...targets: string[]) => ({
  links: targets.map((target, i) => ({ line: i + 1, target, kind: "inline" as const })),
  inlinePaths: [],
  anchors: new Set<string>(),
});

// GitHub renders a link starting with `/` against the repository's root.
Deno.test("site-root links of a plain repository resolve against the repository root", () => {
  const listed = index(["docs/a.md", "docs/gone-not.md", "README.md"]);
  const facts = checkDocLinks(
    "docs/guide/x.md",
    links(
      "/docs/a.md#usage",
      "/docs/gone.md",
      "/docs/gone-not",
      "/README.md",
      "/",
      "/powershell/module/x", // no listed `powershell`: a URL of the site the docs are published on
      "/GONE.md", // a Markdown file: a source, checked wherever it is
      "//cdn.example.com/x.js",
      "/../x.md",
    ),
    listed,
  );
  assert.deepEqual(facts.targets, ["docs/a.md", "README.md", ""]);
  assert.deepEqual(facts.fragments.map((f) => [f.line, f.path, f.fragment]), [
    [1, "docs/a.md", "usage"],
  ]);
  assert.deepEqual(facts.broken.map((b) => [b.line, b.target, b.hint]), [
    [2, "/docs/gone.md", null],
    [3, "/docs/gone-not", "extension"],
    [7, "/GONE.md", null],
  ]);
  // Its facts change when a `powershell` appears.
  assert.ok(facts.probed.includes("powershell"));
});

// VitePress, "Routing › Linking Between Pages": links may be absolute (`/guide/x`, against the
// source directory) or relative; "Asset Handling › The Public Directory": `public/icon.png` in
// the source directory is referenced as `/icon.png`.
Deno.test("site-root links of a site's pages resolve against its source root", () => {
  const paths = ["docs/guide/a.md", "docs/public/logo.svg", "docs/config/b.md", "config/b.md"];
  const site = new PathIndex({
    paths,
    nonFiles: [],
    opaque: [],
    site: { root: "docs", rootLinks: true },
  });
  const page = checkDocLinks(
    "docs/guide/a.md",
    links("/config/b.md#x", "/config/gone.md", "/config/b", "/logo.svg", "/blog/post"),
    site,
  );
  assert.deepEqual(page.targets, ["docs/config/b.md"]);
  assert.deepEqual(page.fragments.map((f) => f.path), ["docs/config/b.md"]);
  // Left to the renderer's rules (extensionless, the public directory): see site_link_check.
  assert.deepEqual(page.broken.map((b) => b.target), ["/config/gone.md", "/config/b", "/logo.svg"]);
  // A doc outside the source root: GitHub's rules.
  const readme = checkDocLinks("README.md", links("/config/b.md", "/docs/config/b.md"), site);
  assert.deepEqual(readme.targets, ["config/b.md", "docs/config/b.md"]);
  // A renderer whose site-root links are URLs not modelled: not checked.
  const other = new PathIndex({
    paths,
    nonFiles: [],
    opaque: [],
    site: { root: "docs", rootLinks: false },
  });
  const facts = checkDocLinks("docs/guide/a.md", links("/config/b.md", "/gone.md"), other);
  assert.deepEqual([facts.targets, facts.broken], [[], []]);
});

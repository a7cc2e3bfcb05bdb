import assert from "node:assert/strict";
import { githubSlug, GithubSlugger, headingAnchors } from "../../lib/markdown/github_slug.ts";

// Expected anchors computed with the reference implementation: remark + remark-gfm,
// mdast-util-to-string (includeHtml: false, includeImageAlt: false) and
// github-slugger 2.0.0 — what remark-validate-links does.
const REFERENCE: [string, string][] = [
  ["Hello, World!", "hello-world"],
  ["Café Olé", "café-olé"],
  ["Options & flags (v2.0)!", "options--flags-v20"],
  ["`run()` and [links](../README.md) in *headings*", "run-and-links-in-headings"],
  ["Emoji 🎉 party", "emoji--party"],
  ["snake_case_name and __init__", "snake_case_name-and-init"],
  ["_emphasis_ and **strong**", "emphasis-and-strong"],
  ["Ünïcödé 日本語 Ελληνικά", "ünïcödé-日本語-ελληνικά"],
  ["  Leading and trailing  ", "leading-and-trailing"],
  ["Tabs\tand  double  spaces", "tabsand--double--spaces"],
  ["Dots... and — dashes – too", "dots-and--dashes--too"],
  ["C++ / C# / F#", "c--c--f"],
  ["100% done?", "100-done"],
  ['<a name="x"></a> Title with HTML', "-title-with-html"],
  ["![logo](l.png) Image title", "-image-title"],
  ["Title ![alt text](i.png) middle", "title--middle"],
  ["foo_bar_baz", "foo_bar_baz"],
  ["_foo_bar_", "foo_bar"],
  ["__dunder__ method", "dunder-method"],
  ["a * b * c", "a--b--c"],
  ["~~struck~~ text", "struck-text"],
  ["Ⓐ circled", "ⓐ-circled"],
  ["x² and ½", "x-and-"],
  ["[ref link][r]", "ref-link"],
  ["Escaped \\* star and \\_ underscore", "escaped--star-and-_-underscore"],
  ["&amp; entity &copy; 2026", "-entity--2026"],
  ["Version 1.2.3", "version-123"],
  ["-leading-dash-", "-leading-dash-"],
  ["Quotes \"double\" 'single' ’curly’", "quotes-double-single-curly"],
  ["Question?", "question"],
  ["Mixed CASE Title", "mixed-case-title"],
  ["Trailing hashes ##", "trailing-hashes"],
  ["Ends with #hash", "ends-with-hash"],
];

Deno.test("headingAnchors: matches remark + github-slugger on a table of headings", () => {
  const md = REFERENCE.map(([h]) => `## ${h}`).join("\n\n") + "\n\n[r]: ./x.md\n";
  const expected = REFERENCE.map(([, slug]) => slug);
  // Plus the explicit anchor of the heading with `<a name="x">` (remark ignores raw HTML).
  expected.splice(expected.indexOf("-title-with-html") + 1, 0, "x");
  assert.deepEqual([...headingAnchors(md)], expected);
});

Deno.test("githubSlug: lower-cases, drops punctuation and emoji, keeps letters, - and _", () => {
  assert.equal(githubSlug("Hello, World!"), "hello-world");
  assert.equal(githubSlug("snake_case-kebab"), "snake_case-kebab");
  assert.equal(githubSlug("Straße 👍🏽 ok"), "straße--ok");
  assert.equal(githubSlug("ΑΒΓ"), "αβγ");
});

Deno.test("GithubSlugger: duplicates get -1, -2; an existing -1 is skipped over", () => {
  const s = new GithubSlugger();
  assert.deepEqual(
    ["A", "A", "A-1", "A", "B"].map((h) => s.slug(h)),
    ["a", "a-1", "a-1-1", "a-2", "b"],
  );
  s.reset();
  assert.equal(s.slug("A"), "a");
});

Deno.test("headingAnchors: ATX and setext headings, closing hashes, duplicates across kinds", () => {
  const md = "# Title #\n\nTitle\n=====\n\nSub\n---\n\n## Sub ##\n\n#NoSpace is not a heading\n";
  assert.deepEqual([...headingAnchors(md)], ["title", "title-1", "sub", "sub-1"]);
  // Every HTML named entity is decoded first, as GitHub renders it.
  assert.deepEqual(
    [...headingAnchors("# a &middot; b\n\n# Caf&eacute; &rarr; x\n\n# &bogus; y\n")],
    [
      "a--b",
      "café--x",
      "bogus-y",
    ],
  );
  // A setext heading's trailing spaces (a hard break too) are not in its slug.
  assert.deepEqual([...headingAnchors("Title \n=====\n\nFoo  \nbar\n---\n")], ["title", "foobar"]);
});

Deno.test("headingAnchors: headings inside code, comments or frontmatter do not count", () => {
  const md = "---\ntitle: x\n---\n# Real\n\n```\n# Fenced\n```\n\n    # Indented\n\n" +
    "<!--\n# Commented\n-->\n\n~~~~\n# Unclosed fence\n";
  assert.deepEqual([...headingAnchors(md)], ["real"]);
});

Deno.test("headingAnchors: explicit anchors from id attributes and <a name>", () => {
  const md = '<a name="top"></a>\n\n# T <span id="inline-id"></span>\n\n' +
    '<div id="block">\n<p name="not-an-anchor">x</p>\n</div>\n\nText <a id="para-id">x</a>.\n';
  assert.deepEqual(
    [...headingAnchors(md)].sort(),
    ["block", "inline-id", "para-id", "t-", "top"].sort(),
  );
});

Deno.test("headingAnchors: headings in lists and blockquotes count", () => {
  assert.deepEqual([...headingAnchors("- # In list\n\n> ## In quote\n")], ["in-list", "in-quote"]);
});

Deno.test("githubSlug: plain ASCII headings and the general rule agree", () => {
  // Letters, digits, `_`, ` ` and `-` only take a path without regexes; one other character
  // (or a non-ASCII one) sends the heading through the general rule.
  const cases: [string, string][] = [
    ["Doc 1000 revision 0", "doc-1000-revision-0"],
    ["snake_case - Done", "snake_case---done"],
    ["Doc 1000 revision 0!", "doc-1000-revision-0"],
    ["Doc 1000 revision 0 é", "doc-1000-revision-0-é"],
    ["ABCXYZ abcxyz @[`{", "abcxyz-abcxyz-"],
    ["", ""],
  ];
  for (const [text, slug] of cases) assert.equal(githubSlug(text), slug, text);
  const slugger = new GithubSlugger();
  assert.deepEqual(["A", "a", "A 1", "a-1"].map((h) => slugger.slug(h)), [
    "a",
    "a-1",
    "a-1-1",
    "a-1-2",
  ]);
  assert.deepEqual([...headingAnchors("# A\n## a\n### A 1\n#### a-1\n")], [
    "a",
    "a-1",
    "a-1-1",
    "a-1-2",
  ]);
});

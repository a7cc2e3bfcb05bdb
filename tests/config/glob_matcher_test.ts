import assert from "node:assert/strict";
import picomatch from "npm:picomatch@^4";
import {
  globMatcher,
  globProblem,
  loadGlobEngine,
  needsGlobEngine,
} from "../../lib/config/glob_matcher.ts";

Deno.test("needsGlobEngine: only globs other than **/*.ext, or paths the suffix test does not cover", () => {
  assert.ok(!needsGlobEngine(["**/*.md", "**/*.mdx"], ["README.md", "docs/a b/ü.md"]));
  assert.ok(!needsGlobEngine(["**/*.md/"], []));
  assert.ok(needsGlobEngine(["docs/*.md"], []));
  assert.ok(needsGlobEngine(["**/*.md", "runs/*/"], []));
  assert.ok(needsGlobEngine(["**/*.md"], ["a/b\nc.md"]));
  assert.ok(needsGlobEngine(["**/*.md"], ["a/./b.md"]));
  assert.ok(needsGlobEngine(["**/*.md"], ["a//b.md"]));
});

await loadGlobEngine();

Deno.test("globs are anchored at the root and * never crosses /", () => {
  const m = globMatcher(["docs/*.md"]);
  assert.ok(m("docs/a.md"));
  assert.ok(!m("x/docs/a.md"));
  assert.ok(!m("docs/sub/a.md"));
  assert.ok(!m("docs/a.mdx"));
});

Deno.test("** spans directories, including none", () => {
  const m = globMatcher(["**/*.md"]);
  assert.ok(m("a.md"));
  assert.ok(m("x/y/z.md"));
  assert.ok(m(".github/CONTRIBUTING.md"), "dot directories match like any other");
  assert.ok(m(".hidden.md"));
});

Deno.test("**/*.ext globs (the default scope's fast path) match exactly as picomatch does", () => {
  const globs = ["**/*.md", "**/*.mdx", "**/*.markdown"];
  const fast = globMatcher(globs);
  const reference = picomatch(globs, { dot: true });
  const parts = [
    "a",
    ".md",
    "md",
    ".",
    "..",
    "",
    "x.md",
    "é",
    " ",
    "*",
    "[",
    ":(",
    "-",
    ".mdx",
    "\\",
    "\n",
    "\r",
    "\u2028",
    "\u2029",
    "\u0085",
  ];
  let seed = 7;
  const pick = () => parts[(seed = (seed * 1103515245 + 12345) % 2147483648) % parts.length];
  for (let i = 0; i < 20_000; i++) {
    const path = Array.from({ length: 1 + (i % 4) }, () => pick() + pick()).join("/");
    assert.equal(fast(path), reference(path), JSON.stringify(path));
  }
  const edges = ["a.md", ".md", "x/.md", "a.md/", "./a.md", "x/../a.md", "/a.md", "a.MD"];
  for (const path of [...edges, "a\nb/c.md", "\nx.md", "x\r.md", "a/\u2028.md", "\u2029/x.md"]) {
    assert.equal(fast(path), reference(path), JSON.stringify(path));
  }
});

Deno.test("a trailing slash (directory rule) matches the directory path itself", () => {
  const m = globMatcher(["autoresearch/*/"]);
  assert.ok(m("autoresearch/run-1"));
  assert.ok(!m("autoresearch/run-1/notes.md"));
});

Deno.test("braces and several globs", () => {
  const m = globMatcher(["a/*.{md,mdx}", "b.md"]);
  assert.ok(m("a/x.mdx"));
  assert.ok(m("b.md"));
  assert.ok(!m("a/x.txt"));
});

Deno.test("no globs match nothing", () => {
  assert.ok(!globMatcher([])("a.md"));
});

Deno.test("globProblem names every unusable glob", () => {
  const cases: [string, RegExp][] = [
    ["", /must not be empty/],
    ["  ", /must not be empty/],
    ["/etc/*.md", /not absolute/],
    ["C:/x/*.md", /not absolute/],
    ["~/notes/*.md", /not absolute/],
    ["docs\\*.md", /no '\\'/],
    ["../x/*.md", /'\.\.' segments/],
    ["docs/../x.md", /'\.\.' segments/],
    ["./docs/*.md", /'\.' segments/],
    ["docs//a.md", /empty segments/],
    [
      "!**/*.md",
      /^must not start with '!' \(negation is not supported; leave paths out with \.dochygiene-ignore\)$/,
    ],
    ["!drafts/**", /must not start with '!'/],
  ];
  for (const [glob, re] of cases) assert.match(globProblem(glob) ?? "ok", re, glob);
  for (
    const ok of ["docs/**", "a/*/", "**/*.md", "x/{a,b}.md", "..foo/a.md", "!(x)*.md", "[!_]*.md"]
  ) {
    assert.equal(globProblem(ok), undefined, ok);
  }
});

Deno.test("[!…] classes negate, as in gitignore and shells (picomatch alone reads them as a class of '!'); [^…] too", () => {
  const isDoc = globMatcher(["docs/[!_]*.md"]);
  assert.ok(isDoc("docs/guide.md"));
  assert.ok(!isDoc("docs/_draft.md"));
  assert.ok(globMatcher(["[!x]*"])("README.md"));
  assert.ok(globMatcher(["[^x]*"])("README.md"));
  // Inside a class, `[!` is two members: `[[!]x` matches `[x` and `!x`.
  assert.ok(globMatcher(["[[!]x"])("!x"));
  assert.ok(globMatcher(["[[!]x"])("[x"));
  assert.ok(globMatcher(["[!]]x"])("ax"));
  assert.ok(!globMatcher(["[!]]x"])("]x"));
  // An escaped `[` (a served_when_path's {name}) stays literal.
  assert.ok(globMatcher(["runs/\\[!a]/"])("runs/[!a]"));
  assert.ok(!globMatcher(["runs/\\[!a]/"])("runs/b"));
});

import assert from "node:assert/strict";
import { type InlineScan, scanInline } from "../../lib/markdown/scan_inline.ts";

// The scanner has fast paths (blocks without syntax, simple links, single-backtick code
// spans) next to its general path. Each case here is scanned as it is, and again wrapped so
// that the general path must take it (inside `[`…, which rules the link fast path out, or in
// the plain-text scan, which rules both out): the findings must agree.
function links(scan: InlineScan): [number, string, boolean][] {
  return scan.links.map((l) => [l.offset, l.destination, l.image]);
}

function codeSpans(scan: InlineScan): [number, string][] {
  return scan.codeSpans.map((c) => [c.offset, c.content]);
}

Deno.test("scanInline: text without syntax characters has nothing to find", () => {
  assert.deepEqual(scanInline("plain words, (parens) and {braces}"), {
    links: [],
    codeSpans: [],
    tags: [],
  });
  assert.deepEqual(scanInline("plain *text*", { text: true }), {
    links: [],
    codeSpans: [],
    tags: [],
    text: "plain *text*",
  });
  assert.equal(scanInline("a_b", { text: true }).text, "a_b");
  assert.equal(scanInline("a &amp; b", { text: true }).text, "a & b");
});

Deno.test("scanInline: simple links and images agree with the general path", () => {
  const cases: [string, [number, string, boolean][]][] = [
    ["[a](b.md)", [[0, "b.md", false]]],
    ["x ![i](i.png) y", [[2, "i.png", true]]],
    ["[a](b.md)[c](d.md#e)", [[0, "b.md", false], [9, "d.md#e", false]]],
    ["[multi\nline](m.md) then `code`", [[0, "m.md", false]]],
    ["[t]()", [[0, "", false]]],
    ["[é](ü/ß.md) ok", [[0, "ü/ß.md", false]]],
    // Not simple: the general path decides.
    ["[a](b c)", []],
    ["[a](<b c>)", [[0, "b c", false]]],
    ['[a](b "t")', [[0, "b", false]]],
    ["[a](b(c)d)", [[0, "b(c)d", false]]],
    ["[a](b\\)c)", [[0, "b\\)c", false]]],
    ["[a `b`](c)", [[0, "c", false]]],
    ["[a [b](c)](d)", [[3, "c", false]]],
    ["![a [b](c)](d)", [[0, "d", true], [4, "c", false]]],
    ["\\[a] (b)", []],
    ["[a](b", []],
  ];
  for (const [src, expected] of cases) {
    assert.deepEqual(links(scanInline(src)), expected, src);
    // Inside an unclosed `[`, no link takes the fast path; offsets move by one.
    const shifted = expected.map(([o, d, i]) => [o + 1, d, i]);
    assert.deepEqual(links(scanInline(`[${src}`)), shifted, `[${src}`);
  }
});

Deno.test("scanInline: simple code spans agree with the general path", () => {
  const cases: [string, [number, string][]][] = [
    ["`a/b.ts`", [[0, "a/b.ts"]]],
    ["x ` a ` y `  ` z", [[2, "a"], [10, "  "]]],
    ["`a` and `b` [c](d)", [[0, "a"], [8, "b"]]],
    // Not simple: the general path decides.
    ["``a ` b``", [[0, "a ` b"]]],
    ["`a``b`", [[0, "a``b"]]],
    ["`multi\nline`", [[0, "multi line"]]],
    ["`unclosed", []],
    ["`a`` b`", [[0, "a`` b"]]],
  ];
  for (const [src, expected] of cases) {
    assert.deepEqual(codeSpans(scanInline(src)), expected, src);
    const text = scanInline(src, { text: true }); // the plain-text scan takes the general path
    assert.deepEqual(codeSpans(text), expected, src);
  }
});

Deno.test("scanInline: a link's text may hold references and code, found either way", () => {
  const labels = new Set(["ref"]);
  const scan = scanInline("[ref] and [a](b.md) and `c` and [ref][]", { labels });
  assert.deepEqual(links(scan), [[10, "b.md", false]]);
  assert.deepEqual(codeSpans(scan), [[24, "c"]]);
  assert.equal(
    scanInline("[ref] and [a](b.md) and `c`", { text: true, labels }).text,
    "ref and a and c",
  );
});

Deno.test("scanInline: a text of only simple syntax gets what the general path finds", () => {
  // Such texts take a path without the scanner's state; a `<` (here one that starts nothing)
  // sends the rest to the general path, which must find the same.
  const cases = [
    "see [a](b.md) and `c/d.ts`, ![i](i.png)",
    "[a](b.md)`x``y` [c](d)",
    "\\[a](b) \\` `x` \\q ] ! !x [e](f)",
    "`a\nb` [x](y)",
    "`` `x` `` [a](b)",
    "` a ` `  ` [t]() [u](<v>)",
    "[a](b c) `d`",
    "[a](b\\c) [x](y)",
    "![a](b)![c](d)]",
    "[a]\n(b) [c](d\n)",
    "[é](ü/ß.md) `ü` [x](\u0080\uffff)",
    "`x",
    "[x](y",
    "x ]( `",
  ];
  for (const src of cases) {
    const general = scanInline(`${src} <`);
    const scan = scanInline(src);
    assert.deepEqual(links(scan), links(general), src);
    assert.deepEqual(codeSpans(scan), codeSpans(general), src);
    assert.deepEqual(scan.tags, []);
  }
});

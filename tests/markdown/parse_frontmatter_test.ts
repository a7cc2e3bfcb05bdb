import assert from "node:assert/strict";
import { parseFrontmatter } from "../../lib/markdown/parse_frontmatter.ts";
import { parseYaml } from "../../lib/yaml/parse_yaml.ts";
import { loadYaml } from "../../lib/yaml/load_yaml.ts";

await loadYaml();

Deno.test("parseFrontmatter: a mapping between --- lines; the body starts after", () => {
  const fm = parseFrontmatter("---\ntitle: A\nhygiene: frozen\n---\n# A\n");
  assert.deepEqual(fm, { data: { title: "A", hygiene: "frozen" }, bodyStart: 4 });
});

Deno.test("parseFrontmatter: closes with ... too; empty frontmatter is an empty mapping", () => {
  assert.deepEqual(parseFrontmatter("---\na: 1\n...\nbody").data, { a: 1 });
  assert.deepEqual(parseFrontmatter("---\n---\nbody"), { data: {}, bodyStart: 2 });
});

Deno.test("parseFrontmatter: BOM and CRLF", () => {
  const fm = parseFrontmatter("\uFEFF---\r\nstatus: done\r\n---\r\n# T\r\n");
  assert.deepEqual(fm, { data: { status: "done" }, bodyStart: 3 });
  assert.deepEqual(parseFrontmatter("---\rstatus: x\r---\r").data, { status: "x" });
});

Deno.test("parseFrontmatter: no frontmatter unless the very first line is ---", () => {
  assert.deepEqual(parseFrontmatter("# T\n---\na: 1\n---\n"), { data: undefined, bodyStart: 0 });
  assert.deepEqual(parseFrontmatter("\n---\na: 1\n---\n"), { data: undefined, bodyStart: 0 });
  assert.deepEqual(parseFrontmatter("----\na: 1\n----\n"), { data: undefined, bodyStart: 0 });
  assert.deepEqual(parseFrontmatter(""), { data: undefined, bodyStart: 0 });
});

Deno.test("parseFrontmatter: an unclosed --- is a rule, not frontmatter (no error)", () => {
  assert.deepEqual(parseFrontmatter("---\na: 1\n# T\n"), { data: undefined, bodyStart: 0 });
});

Deno.test("parseFrontmatter: malformed YAML gives an error, never throws", () => {
  const fm = parseFrontmatter("---\na: [1\n---\n# T\n");
  assert.equal(fm.data, undefined);
  assert.equal(fm.bodyStart, 3);
  assert.match(fm.error!, /^malformed YAML frontmatter: /);
  // The reason a finding shows: the parser's first line, its position given apart.
  assert.ok(fm.reason !== undefined && !fm.reason.includes("\n"), fm.reason);
  assert.doesNotMatch(fm.reason, /^malformed YAML frontmatter|at line \d+, column \d+/);
  assert.match(parseFrontmatter("---\na: 1\na: 2\n---\n").error!, /malformed/);
  assert.equal(parseFrontmatter("---\n- a\n---\n").reason, "YAML frontmatter is not a mapping");
});

Deno.test("parseFrontmatter: a list or scalar is not a mapping", () => {
  assert.equal(parseFrontmatter("---\n- a\n---\n").error, "YAML frontmatter is not a mapping");
  assert.equal(
    parseFrontmatter("---\njust text\n---\n").error,
    "YAML frontmatter is not a mapping",
  );
});

Deno.test("parseFrontmatter: a YAML alias bomb fails fast into error", () => {
  const bomb = [
    "---",
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
    "---",
    "# Body",
  ].join("\n");
  const fm = parseFrontmatter(bomb);
  assert.equal(fm.data, undefined);
  assert.match(fm.error!, /alias/);
  assert.equal(fm.bodyStart, 9);
});

Deno.test("parseFrontmatter: oversized frontmatter is an error", () => {
  const fm = parseFrontmatter(`---\na: "${"x".repeat(2 * 1024 * 1024)}"\n---\n`);
  assert.equal(fm.data, undefined);
  assert.match(fm.error!, /too large/);
});

Deno.test("parseFrontmatter: the fast path for flat frontmatter agrees with the YAML parser", () => {
  const cases = [
    "title: Doc 1\nstatus: in progress",
    "a: True\nb: FALSE\nc: null\nd:\ne: Null",
    "date: 2026-08-03\nslug: a.b/c-d_e",
    "a: yes\nb: Off\nc: x  y  ",
    "a: b\n__proto__: x",
    "hygiene: frozen\nhygiene-note: kept for audit",
    "a: 1\nb: 01\nc: 1.5\nd: 0x1F\ne: .inf",
    "a: x:y\nb: 'q'\nc: \"d\"\ne: [1, 2]\nf: {g: h}\ni: a # comment",
    "  a: b",
    "a: b\na: c",
    "true: x",
    "a: |\n  block",
    // Key length and characters, separators, line terminators and blank lines.
    `${"k".repeat(64)}: x`,
    `${"k".repeat(65)}: x`,
    "_a-1: x\nA_: y",
    "1a: x",
    "-a: x",
    "a:x",
    "a:\tx\nb:",
    "a: x\u2028",
    "a: \u2029",
    "a: x\n\nb: y",
    "tRue: x\nnULL: y",
    // Keys of words and dots, URLs, dates with slashes, versions (PowerShell-Docs' frontmatter).
    [
      "external help file: System.Management.Automation.dll-Help.xml",
      "Locale: en-US",
      "Module Name: Microsoft.PowerShell.Core",
      "ms.date: 12/15/2025",
      "online version: https://learn.microsoft.com/a/b?view=powershell-7.5&WT.mc_id=ps-gethelp",
      "schema: 2.0.0",
      "title: Get-Help",
    ].join("\n"),
    "a  b: x\na .b: y\na. b: z\n.a: w\na b : v",
    "a: b: c\nd: e:\nf: http://x:80/y\ng: a:b:c\nh: x :y",
    "v: 2.0\nw: 2.0.0\nx: 1.2.3.4\ny: 1e5\nz: 0x1F",
    "d: 12/15/2025\ne: 1/2/3\nf: 12/15/25/1\ng: 2025/12/15",
    "k: a?b&c=d%20e+f~g@h\nl: x @y\nm: %x\nn: @x\no: x?",
    Array.from({ length: 64 }, (_, i) => `k${i}: v`).join("\n"),
    Array.from({ length: 65 }, (_, i) => `k${i}: v`).join("\n"),
  ];
  for (const yaml of cases) {
    const fm = parseFrontmatter(`---\n${yaml}\n---\n`);
    let expected: unknown;
    try {
      expected = parseYaml(yaml);
    } catch {
      expected = undefined;
    }
    if (expected !== undefined && typeof expected === "object" && !Array.isArray(expected)) {
      assert.deepEqual(fm.data, expected, yaml);
      assert.equal(Object.getPrototypeOf(fm.data), Object.getPrototypeOf(expected), yaml);
    } else {
      assert.equal(fm.data, undefined, yaml);
    }
  }
});

Deno.test("parseFrontmatter: CRLF and CR delimiters and lines", () => {
  for (const eol of ["\r\n", "\r"]) {
    const fm = parseFrontmatter(["---", "a: b", "c: d", "...", "# T", ""].join(eol));
    assert.deepEqual([fm.data, fm.bodyStart], [{ a: "b", c: "d" }, 4]);
  }
  assert.deepEqual(parseFrontmatter("---\r\na: b\r\n---\t \r\n").data, { a: "b" });
  assert.equal(parseFrontmatter("---x\na: b\n---\n").data, undefined);
  assert.equal(parseFrontmatter("---\na: b\n--\n").data, undefined);
});

Deno.test("the fast path trims only spaces and tabs around a value, as YAML does", () => {
  for (const value of ["\u00a0x", "x\u00a0", "\u2003x", " x ", "\tx\t"]) {
    assert.deepEqual(
      parseFrontmatter(`---\na: ${value}\n---\n`).data,
      parseYaml(`a: ${value}\n`),
      JSON.stringify(value),
    );
  }
});

Deno.test("parseFrontmatter {yaml: false}: the block is delimited, its YAML not parsed", () => {
  for (
    const text of ["---\na: [1\n---\n# T\n", "---\nhead:\n  - - meta\n---\n", "---\na: b\n...\n"]
  ) {
    assert.deepEqual(parseFrontmatter(text, { yaml: false }), {
      data: undefined,
      bodyStart: parseFrontmatter(text).bodyStart,
    });
  }
  assert.deepEqual(parseFrontmatter("\uFEFF---\r\na: {\r\n---\r\n# T\r\n", { yaml: false }), {
    data: undefined,
    bodyStart: 3,
  });
  assert.deepEqual(parseFrontmatter("---\na: 1\n# T\n", { yaml: false }), {
    data: undefined,
    bodyStart: 0,
  });
});

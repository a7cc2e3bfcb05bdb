import assert from "node:assert/strict";
import { resolveLink } from "../../lib/links/resolve_link.ts";

Deno.test("resolveLink: relative to the document's directory, normalised", () => {
  assert.deepEqual(resolveLink("docs/a.md", "b.md"), { path: "docs/b.md", fragment: undefined });
  assert.deepEqual(resolveLink("docs/a.md", "./sub/../c.md"), {
    path: "docs/c.md",
    fragment: undefined,
  });
  assert.deepEqual(resolveLink("docs/a.md", "..//x//y.md"), {
    path: "x/y.md",
    fragment: undefined,
  });
  assert.deepEqual(resolveLink("README.md", "docs/"), { path: "docs", fragment: undefined });
  assert.deepEqual(resolveLink("docs/a.md", ".."), { path: ".", fragment: undefined });
});

Deno.test("resolveLink: same-file fragments have no path", () => {
  assert.deepEqual(resolveLink("docs/a.md", "#usage"), { path: undefined, fragment: "usage" });
  assert.equal(resolveLink("docs/a.md", "#"), undefined);
  assert.deepEqual(resolveLink("docs/a.md", "a.md#x"), { path: "docs/a.md", fragment: "x" });
  assert.deepEqual(resolveLink("docs/a.md", "b.md#"), { path: "docs/b.md", fragment: undefined });
});

Deno.test("resolveLink: external, mailto, protocol-relative and root-absolute links are not resolved", () => {
  for (
    const t of [
      "https://example.com/a.md",
      "HTTP://x",
      "mailto:a@b.c",
      "data:image/png;base64,AAAA",
      "//cdn.example.com/x.js",
      "/docs/a.md",
      "\\\\server\\share",
      "",
      "   ",
      "?tab=readme",
    ]
  ) {
    assert.equal(resolveLink("docs/a.md", t), undefined, t);
  }
});

Deno.test("resolveLink: links escaping the root are not checked", () => {
  assert.equal(resolveLink("a.md", "../x.md"), undefined);
  assert.equal(resolveLink("docs/a.md", "../../x.md"), undefined);
  assert.equal(resolveLink("docs/a.md", "%2E%2E/%2E%2E/x.md"), undefined);
});

Deno.test("resolveLink: percent-decoding, escapes and entities; malformed % kept", () => {
  assert.deepEqual(resolveLink("a.md", "my%20file.md#caf%C3%A9"), {
    path: "my file.md",
    fragment: "café",
  });
  assert.deepEqual(resolveLink("a.md", "100%.md"), { path: "100%.md", fragment: undefined });
  assert.deepEqual(resolveLink("a.md", "bad%E0%A4.md"), {
    path: "bad%E0%A4.md",
    fragment: undefined,
  });
  assert.deepEqual(resolveLink("a.md", "guide\\(1\\).md"), {
    path: "guide(1).md",
    fragment: undefined,
  });
  assert.deepEqual(resolveLink("a.md", "a&amp;b.md"), { path: "a&b.md", fragment: undefined });
});

Deno.test("resolveLink: ?query is dropped, before or without a fragment", () => {
  assert.deepEqual(resolveLink("a.md", "b.md?plain=1"), { path: "b.md", fragment: undefined });
  assert.deepEqual(resolveLink("a.md", "b.md?x=1#sec"), { path: "b.md", fragment: "sec" });
  assert.deepEqual(resolveLink("a.md", "b.md#sec?x"), { path: "b.md", fragment: "sec?x" });
});

Deno.test("leading ../ and ./ resolve like full normalising, up to the root and no further", () => {
  const cases: [string, string, string | undefined][] = [
    ["a/b/c.md", "../../x/y.md", "x/y.md"],
    ["a/b/c.md", "../x.md#s", "a/x.md"],
    ["a/b/c.md", "./.././x.md", "a/x.md"],
    ["a/b/c.md", "../../../x.md", undefined],
    ["c.md", "../x.md", undefined],
    ["c.md", "./x.md", "x.md"],
    ["a/c.md", "../x/../y.md", "y.md"],
    ["a/c.md", "../.hidden/y.md", ".hidden/y.md"],
    ["a/b/c.md", "../..", "."],
    ["a/b/c.md", "../d/", "a/d"],
    ["a/b/c.md", "..//d.md", "a/d.md"],
  ];
  for (const [from, target, want] of cases) {
    assert.equal(resolveLink(from, target)?.path, want, `${from} → ${target}`);
  }
});

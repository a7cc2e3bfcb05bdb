import assert from "node:assert/strict";
import * as node from "node:path";
import * as path from "../../lib/fs/path.ts";

const SAMPLES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "/a",
  "/a/",
  "/a//b",
  "/a/./b/../c",
  "/../a",
  "a",
  "a/",
  "a/b",
  "a/../..",
  "./a/./b/",
  "../a/b/..",
  "/repo/.dochygiene",
  "/repo/.dochygiene/state.json",
  "/repo/docs/deep/",
];

Deno.test("lib/path agrees with node:path (posix) on every sample", () => {
  for (const p of SAMPLES) {
    assert.equal(path.isAbsolute(p), node.isAbsolute(p), `isAbsolute(${p})`);
    assert.equal(path.dirname(p), node.dirname(p), `dirname(${p})`);
    assert.equal(path.basename(p), node.basename(p), `basename(${p})`);
    assert.equal(path.resolve(p), node.resolve(p), `resolve(${p})`);
    for (const q of SAMPLES) {
      assert.equal(path.join(p, q), node.join(p, q), `join(${p}, ${q})`);
      assert.equal(path.resolve(p, q), node.resolve(p, q), `resolve(${p}, ${q})`);
      assert.equal(path.relative(p, q), node.relative(p, q), `relative(${p}, ${q})`);
    }
  }
});

Deno.test("lib/path joins three segments like node:path", () => {
  assert.equal(path.join("/r", ".dochygiene", "state.json"), "/r/.dochygiene/state.json");
  assert.equal(path.join("/r/", "/x/", "y"), node.join("/r/", "/x/", "y"));
});

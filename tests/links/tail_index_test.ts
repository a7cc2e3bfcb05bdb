import assert from "node:assert/strict";
import { TailIndex } from "../../lib/links/tail_index.ts";

const listing = [
  "README.md",
  "docs/README.md",
  "skills/y/references/x.md",
  "b/references/x.md",
  "src/index.ts",
  "lib/index.ts",
  "lib/xindex.ts",
];

Deno.test("a near miss is a listed path that ends in the tail, segment by segment", () => {
  const tails = new TailIndex(listing, ["index.ts", "references/x.md", "README.md", "ndex.ts"]);
  assert.deepEqual(tails.of("index.ts"), { first: "src/index.ts", count: 2 });
  assert.deepEqual(tails.of("references/x.md"), { first: "skills/y/references/x.md", count: 2 });
  // A path that is the tail itself is no near miss of it, nor is one ending in a longer name.
  assert.deepEqual(tails.of("README.md"), { first: "docs/README.md", count: 1 });
  assert.equal(tails.of("ndex.ts"), undefined);
});

Deno.test("a tail not named up front answers as one that was", () => {
  const named = new TailIndex(listing, ["x.md", "index.ts", "other/x.md", "z.md"]);
  const unnamed = new TailIndex(listing, []);
  for (const tail of ["x.md", "index.ts", "other/x.md", "z.md", "y/references/x.md"]) {
    assert.deepEqual(unnamed.of(tail), named.of(tail), tail);
  }
  assert.deepEqual(unnamed.of("y/references/x.md"), {
    first: "skills/y/references/x.md",
    count: 1,
  });
});

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
  const tails = new TailIndex(listing);
  assert.deepEqual(tails.of("index.ts"), { first: "src/index.ts", count: 2 });
  assert.deepEqual(tails.of("references/x.md"), { first: "skills/y/references/x.md", count: 2 });
  // A path that is the tail itself is no near miss of it, nor is one ending in a longer name.
  assert.deepEqual(tails.of("README.md"), { first: "docs/README.md", count: 1 });
  assert.equal(tails.of("ndex.ts"), undefined);
  assert.equal(tails.of("other/x.md"), undefined);
});

Deno.test("past the first names asked, every path is indexed at once and answers alike", () => {
  const many = [...listing, ...Array.from({ length: 20 }, (_, i) => `n${i}/f${i}.md`)];
  const tails = new TailIndex(many);
  const asked = [...Array.from({ length: 12 }, (_, i) => `f${i}.md`), "index.ts", "x.md", "z.md"];
  const first = asked.map((tail) => tails.of(tail));
  // The same answers again (now from the whole index), and from a fresh index asked in reverse.
  assert.deepEqual(asked.map((tail) => tails.of(tail)), first);
  const reverse = new TailIndex(many);
  assert.deepEqual(asked.toReversed().map((tail) => reverse.of(tail)).toReversed(), first);
  assert.deepEqual(first.at(-3), { first: "src/index.ts", count: 2 });
  assert.deepEqual(first.at(-2), { first: "skills/y/references/x.md", count: 2 });
  assert.equal(first.at(-1), undefined);
});

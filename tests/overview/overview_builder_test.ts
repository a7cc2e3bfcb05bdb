import assert from "node:assert/strict";
import { OverviewBuilder, RANKING_KEY } from "../../lib/overview/overview_builder.ts";
import type { Signal } from "../../lib/scan/scan_docs.ts";
import { overviewOf, randomArtifact, recomputeOverview } from "./recompute_overview.ts";

Deno.test("the overview's numbers equal those recomputed from the artifact", () => {
  for (const [n, seed] of [[0, 1], [1, 2], [7, 3], [300, 4], [5000, 5]]) {
    const artifact = randomArtifact(n, seed);
    const overview = overviewOf(artifact);
    assert.deepEqual(overview, recomputeOverview(artifact, overview), `n=${n}`);
    assert.equal(overview.dirs.reduce((sum, d) => sum + d.docs, 0), n);
    assert.ok(overview.dirs.every((d) => d.docs > 0));
    assert.ok(overview.dirs.length <= 50);
    assert.equal(overview.top.length, Math.min(n, 30));
  }
});

Deno.test("a finding kind the overview does not know is counted like the others", () => {
  const overview = overviewOf(randomArtifact(500, 9));
  assert.ok(overview.findings.stale_reference > 0);
  assert.ok(overview.findings.broken_link > 0);
  assert.equal(overview.findings.age, undefined);
  assert.equal(overview.findings.checkboxes, undefined);
});

Deno.test("a chain of single subdirectories takes one row, named by its deepest directory", () => {
  const artifact = randomArtifact(0, 1);
  const builder = new OverviewBuilder();
  for (let i = 0; i < 10; i++) {
    builder.add(`a/b/c/d/${i}.md`, [{ kind: "age", days: i, last_commit: null, source: "git" }]);
  }
  const overview = builder.finish({ ...artifact, under: null });
  assert.deepEqual(overview.dirs.map((d) => d.dir), ["a/b/c/d"]);
  assert.deepEqual(overview.dirs[0].age_days, { min: 0, median: 4, max: 9 });
});

Deno.test("directories under 1 % of the docs (or a single doc) stay in their parent's row", () => {
  const builder = new OverviewBuilder();
  const age = (days: number): Signal[] => [{ kind: "age", days, last_commit: null, source: "git" }];
  for (let i = 0; i < 300; i++) builder.add(`docs/big/${i}.md`, age(1));
  for (let i = 0; i < 300; i++) builder.add(`docs/other/${i}.md`, age(2));
  builder.add("docs/tiny/one.md", age(3));
  builder.add("README.md", age(4));
  const overview = builder.finish({ ...randomArtifact(0, 1), under: null });
  assert.deepEqual(
    overview.dirs.map((d) => [d.dir, d.docs, d.rest]),
    [[".", 1, true], ["docs", 1, true], ["docs/big", 300, false], ["docs/other", 300, false]],
  );
});

Deno.test("rows are split all or nothing within the row budget", () => {
  const builder = new OverviewBuilder();
  for (let a = 0; a < 8; a++) {
    for (let t = 0; t < 10; t++) {
      for (let d = 0; d < 10; d++) builder.add(`area-${a}/topic-${t}/${d}.md`, []);
    }
  }
  const scan = { ...randomArtifact(0, 1), under: null };
  // 8 areas fit in 10 rows, but no area's 10 topics fit beside them.
  assert.equal(builder.finish(scan, { rows: 10 }).dirs.length, 8);
  assert.equal(builder.finish(scan, { rows: 17 }).dirs.length, 17);
  assert.equal(builder.finish(scan, { rows: 1 }).dirs.length, 1);
});

Deno.test("the ranking is more findings, then older, then path by code point", () => {
  const builder = new OverviewBuilder();
  const doc = (days: number, broken: number): Signal[] => [
    { kind: "age", days, last_commit: null, source: "git" },
    ...Array.from({ length: broken }, () => ({
      kind: "broken_link" as const,
      line: 1,
      target: "x",
      hint: null,
    })),
  ];
  builder.add("z.md", doc(5, 2));
  builder.add("\u{1F600}.md", doc(9, 1));
  builder.add("\uFFFD.md", doc(9, 1));
  builder.add("b.md", doc(10, 1));
  builder.add("a.md", doc(100, 0));
  const overview = builder.finish({ ...randomArtifact(0, 1), under: null });
  assert.deepEqual(overview.top.map((d) => d.path), [
    "z.md",
    "b.md",
    "\uFFFD.md",
    "\u{1F600}.md",
    "a.md",
  ]);
  assert.equal(overview.ranking, RANKING_KEY);
  assert.equal(overview.with_findings, 4);
});

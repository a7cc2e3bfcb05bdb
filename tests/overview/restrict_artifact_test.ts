import assert from "node:assert/strict";
import { restrictArtifact, underDir, underMatcher } from "../../lib/overview/restrict_artifact.ts";
import { randomArtifact } from "./recompute_overview.ts";

Deno.test("--under values are taken from the root and normalised", () => {
  assert.equal(underDir("docs", "/r"), "docs");
  assert.equal(underDir("docs/", "/r"), "docs");
  assert.equal(underDir("./docs//plans/.", "/r"), "docs/plans");
  assert.equal(underDir("", "/r"), ".");
  assert.equal(underDir("/r", "/r"), ".");
  assert.equal(underDir("/r/docs/", "/r"), "docs");
});

Deno.test("an --under value outside the project is a usage error", () => {
  for (const value of ["..", "docs/../../x", "/elsewhere", "/rx/docs"]) {
    assert.throws(() => underDir(value, "/r"), (err: Error & { exitCode?: number }) => {
      assert.match(err.message, /--under .* is not inside the project/);
      assert.equal(err.exitCode, 2);
      return true;
    }, value);
  }
});

Deno.test("a directory holds its own paths and those below, never a sibling sharing its prefix", () => {
  const inside = underMatcher(["docs", "notes/a.md"]);
  assert.equal(inside("docs/x.md"), true);
  assert.equal(inside("docs/deep/x.md"), true);
  assert.equal(inside("docs-old/x.md"), false);
  assert.equal(inside("docs.md"), false);
  assert.equal(inside("notes/a.md"), true);
  assert.equal(inside("notes/b.md"), false);
  assert.equal(underMatcher(["."])("anything.md"), true);
});

Deno.test("the restricted artifact keeps each doc's signals and the whole scan's counts", () => {
  const artifact = randomArtifact(800, 21);
  artifact.excluded = [{ path: "docs/frozen.md", reason: "frozen" }, {
    path: "x.md",
    reason: "ignore",
  }];
  const docs = restrictArtifact(artifact, ["docs", "notes"]);
  const inside = underMatcher(["docs", "notes"]);
  assert.deepEqual(docs.shortlist, artifact.shortlist.filter(inside));
  assert.ok(docs.shortlist.length > 0 && docs.shortlist.length < artifact.shortlist.length);
  for (const path of docs.shortlist) assert.equal(docs.signals[path], artifact.signals[path]);
  assert.deepEqual(Object.keys(docs.signals), docs.shortlist);
  assert.deepEqual(docs.excluded, [{ path: "docs/frozen.md", reason: "frozen" }]);
  assert.equal(docs.counts, artifact.counts);
  assert.deepEqual(docs.under, ["docs", "notes"]);
});

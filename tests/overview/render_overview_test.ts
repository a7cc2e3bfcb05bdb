import assert from "node:assert/strict";
import { OverviewBuilder } from "../../lib/overview/overview_builder.ts";
import {
  formatOverviewJson,
  OVERVIEW_MAX_BYTES,
  renderOverview,
} from "../../lib/overview/render_overview.ts";
import { renderOverviewText } from "../../lib/overview/render_overview_text.ts";
import type { Signal } from "../../lib/scan/scan_docs.ts";
import { overviewOf, randomArtifact } from "./recompute_overview.ts";

const SCAN = {
  generated_at: "2026-11-30T00:00:00.000Z",
  root: "/r",
  git: null,
  under: null,
  counts: {
    candidates: 0,
    shortlisted: 0,
    excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 },
  },
};

Deno.test("both forms stay within the bound on 30,000 docs with long names, many kinds and rules", () => {
  const builder = new OverviewBuilder();
  const long = "x".repeat(200);
  for (let i = 0; i < 30_000; i++) {
    const dir = `${long}-${i % 97}/${long}-${i % 89}/${long}-${i % 13}`;
    const signals: Signal[] = [
      { kind: "age", days: i % 1000, last_commit: null, source: "git" },
      { kind: "lifecycle", rule: `${long}/rule-${i % 40}/**`, lifetime: "temporary", served: null },
    ];
    for (let k = 0; k < 30; k++) {
      if ((i + k) % 7 === 0) {
        signals.push({ kind: `kind_${k}_${long}`, line: 1 } as unknown as Signal);
      }
    }
    builder.add(`${dir}/${long}-${i}.md`, signals);
  }
  for (const form of ["text", "json"] as const) {
    const out = renderOverview(builder, SCAN, form);
    const bytes = new TextEncoder().encode(out).length;
    assert.ok(bytes <= OVERVIEW_MAX_BYTES, `${form}: ${bytes} bytes`);
    if (form === "json") {
      const json = JSON.parse(out);
      assert.equal(json.docs, 30_000);
      // The full overview would not fit: it was cut down to fit, still whole in what it shows.
      assert.ok(json.dirs.length < 50 && json.dirs.length >= 1);
      assert.equal(json.dirs.reduce((n: number, d: { docs: number }) => n + d.docs, 0), 30_000);
    }
  }
});

Deno.test("an overview that fits is not cut: 50 rows and 30 docs at most", () => {
  const artifact = randomArtifact(3000, 11);
  const builder = new OverviewBuilder();
  for (const path of artifact.shortlist) builder.add(path, artifact.signals[path]);
  const json = JSON.parse(renderOverview(builder, SCAN, "json"));
  assert.deepEqual(json.dirs, overviewOf(artifact).dirs);
  assert.equal(json.top.length, 30);
});

Deno.test("the JSON form puts each row and each ranked doc on a line of its own", () => {
  const overview = overviewOf(randomArtifact(400, 12));
  const text = formatOverviewJson(overview);
  assert.deepEqual(JSON.parse(text), overview);
  for (const row of overview.dirs) assert.ok(text.includes(`\n    ${JSON.stringify(row)}`));
  for (const doc of overview.top) assert.ok(text.includes(`\n    ${JSON.stringify(doc)}`));
});

Deno.test("the text form has one line per row and per ranked doc, paths made terminal-safe", () => {
  const builder = new OverviewBuilder();
  const age: Signal[] = [{ kind: "age", days: 1, last_commit: null, source: "git" }];
  for (let i = 0; i < 3; i++) builder.add(`evil\x1b[31m/${i}.md`, age);
  builder.add("plain.md", [...age, { kind: "missing_path", line: 1, path: "x" }]);
  const text = renderOverviewText(builder.finish(SCAN));
  assert.ok(!text.includes("\x1b"));
  assert.match(text, /^ {2}evil\\x1b\[31m +3 docs +age 1\/1\/1$/m);
  assert.match(text, /^ {2}1 finding {2}1 d {2}missing_path 1 {2}plain\.md$/m);
  assert.match(text, /^ {2}0 findings {2}1 d {2}- {2}evil\\x1b\[31m\/0\.md$/m);
  assert.match(text, /an order, not a verdict/);
});

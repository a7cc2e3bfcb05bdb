import assert from "node:assert/strict";
import { existingPaths } from "../../lib/config/governing_rule.ts";
import type { Rule } from "../../lib/config/load_config.ts";
import { parseConfig } from "../../lib/config/parse_config.ts";
import {
  approvedCandidates,
  EXTRACT_DESTINATIONS,
  type Judgment,
  type PlanInput,
  planPrune,
  type UnitFacts,
} from "../../lib/prune/plan_prune.ts";
import { dryRunInput } from "../support/helpers.ts";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const DAY = 86_400_000;

const rules = parseConfig(`
rules:
  - match: "autoresearch/*/"
    lifetime: temporary
    retain_recent: 3
    max_age_days: 3
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
  - match: "docs/superpowers/plans/*.md"
    lifetime: delete-once-served
    served_when: "the feature shipped"
    extract: true
  - match: "docs/specs/*.md"
    lifetime: delete-once-served
    served_when: "the spec is implemented"
  - match: "docs/adr/**"
    lifetime: keep
`).rules;
const [TEMP, OPENSPEC, PLANS, SPECS, KEEP] = rules;

function unit(path: string, rule: Rule, days: number | null, extra: Partial<UnitFacts> = {}) {
  return {
    path,
    kind: path.endsWith("/") ? "dir" : "file",
    rule,
    tracked: true,
    dirty: false,
    age_ms: days === null ? null : NOW.getTime() - days * DAY,
    age_source: "git",
    ...extra,
  } as UnitFacts;
}

function plan(units: UnitFacts[], extra: Partial<PlanInput> = {}) {
  return planPrune(dryRunInput(units, NOW, extra));
}

const runs = (ages: number[]) => ages.map((d, i) => unit(`autoresearch/run-${i + 1}/`, TEMP, d));

Deno.test("temporary: five units, three newest older than the limit -> only ranks 4 and 5 are candidates", () => {
  const p = plan(runs([10, 11, 12, 13, 14]));
  assert.deepEqual(p.candidates.map((c) => c.path), ["autoresearch/run-4/", "autoresearch/run-5/"]);
  assert.equal(p.candidates[0].reason, "rank 4 of 5, 13 days old > 3");
  assert.equal(p.candidates[0].tier, "auto");
  assert.equal(p.candidates[0].age_days, 13);
  assert.deepEqual(p.kept.map((k) => k.reason), [
    "retain_recent: rank 1 of 5",
    "retain_recent: rank 2 of 5",
    "retain_recent: rank 3 of 5",
  ]);
});

Deno.test("temporary: a rank-4 unit younger than max_age_days is kept", () => {
  const p = plan(runs([0, 1, 1.5, 2, 9]));
  assert.deepEqual(p.candidates.map((c) => c.path), ["autoresearch/run-5/"]);
  const rank4 = p.kept.find((k) => k.path === "autoresearch/run-4/");
  assert.equal(rank4?.reason, "rank 4 of 5, 2 days old <= 3 (max_age_days)");
});

Deno.test("temporary: exactly max_age_days old is not past the limit", () => {
  const p = plan(runs([1, 1, 1, 3]));
  assert.deepEqual(p.candidates, []);
});

Deno.test("temporary: units of equal age rank by their names' dates, newest first, and the oldest go as auto", () => {
  // Five dated run folders added in one commit (or all touched by one reformat).
  const days = ["2026-11-16", "2026-11-01", "2026-11-28", "2026-11-09", "2026-11-22"];
  const p = plan(days.map((d) => unit(`autoresearch/${d}-sweep/`, TEMP, 10)));
  assert.deepEqual(p.candidates.map((c) => [c.path, c.tier]), [
    ["autoresearch/2026-11-01-sweep/", "auto"],
    ["autoresearch/2026-11-09-sweep/", "auto"],
  ]);
  assert.deepEqual(p.kept.map((k) => [k.path, k.reason]), [
    ["autoresearch/2026-11-16-sweep/", "retain_recent: rank 3 of 5"],
    ["autoresearch/2026-11-22-sweep/", "retain_recent: rank 2 of 5"],
    ["autoresearch/2026-11-28-sweep/", "retain_recent: rank 1 of 5"],
  ]);
});

Deno.test("temporary: equal ages without dates in the names rank by name descending, and the ones past retention need a confirmation", () => {
  const units = ["c", "a", "d", "b"].map((n) => unit(`autoresearch/${n}/`, TEMP, 10));
  const p = plan(units);
  assert.deepEqual(p.candidates.map((c) => [c.path, c.tier, c.needs]), [
    ["autoresearch/a/", "confirm", "--confirm autoresearch/a/"],
  ]);
  assert.equal(
    p.candidates[0].reason,
    "rank 4 of 4, 10 days old > 3 (confirm: ranked by name only among units of equal age)",
  );
  assert.equal(
    p.kept.find((k) => k.path === "autoresearch/d/")?.reason,
    "retain_recent: rank 1 of 4",
  );
  assert.deepEqual(approvedCandidates(p), []);
});

Deno.test("temporary: a tie only among units past retention needs no confirmation; one with the retained units does", () => {
  // Two older undated units of equal age, both past retention: either order deletes both.
  const older = ["x", "y"].map((n) => unit(`autoresearch/${n}/`, TEMP, 20));
  const p = plan([...runs([1, 2, 3]), ...older]);
  assert.deepEqual(p.candidates.map((c) => [c.path, c.tier]), [
    ["autoresearch/x/", "auto"],
    ["autoresearch/y/", "auto"],
  ]);
  // Equal dates in the names are no ranking either.
  const same = ["2026-11-01-a", "2026-11-01-b"].map((n) => unit(`autoresearch/${n}/`, TEMP, 20));
  const q = plan([...runs([1, 2]), ...same]);
  assert.deepEqual(q.candidates.map((c) => [c.path, c.tier]), [
    ["autoresearch/2026-11-01-a/", "confirm"],
  ]);
});

Deno.test("temporary: retain_recent keeps the newest whatever their age", () => {
  const p = plan(runs([400, 500, 600]));
  assert.deepEqual(p.candidates, []);
  assert.equal(p.kept.length, 3);
});

Deno.test("temporary: a future-dated unit is kept with a warning", () => {
  const p = plan([...runs([10, 11, 12, 13]), unit("autoresearch/future/", TEMP, -5)]);
  const future = p.kept.find((k) => k.path === "autoresearch/future/");
  assert.match(future!.reason, /dated in the future/);
  assert.equal(p.warnings.length, 1);
  assert.match(p.warnings[0], /autoresearch\/future\/ is dated in the future/);
  assert.ok(!p.candidates.some((c) => c.path === "autoresearch/future/"));
});

Deno.test("temporary: a unit of unknown age is never deleted", () => {
  const p = plan([...runs([1, 1, 1]), unit("autoresearch/x/", TEMP, null)]);
  assert.deepEqual(p.candidates, []);
  assert.match(p.kept.find((k) => k.path === "autoresearch/x/")!.reason, /age unknown/);
});

Deno.test("clock safety: a clock earlier than the watermark (minus 5 min) defers every age-based deletion", () => {
  const watermark = new Date(NOW.getTime() + 6 * 60_000).toISOString();
  const p = plan(runs([10, 11, 12, 13, 14]), { watermark });
  assert.equal(p.clock.backward, true);
  assert.deepEqual(p.candidates, []);
  assert.deepEqual(p.deferred.map((d) => d.path), ["autoresearch/run-4/", "autoresearch/run-5/"]);
  assert.match(p.deferred[0].reason, /earlier than the watermark/);
});

Deno.test("clock safety: within the five-minute slack nothing is deferred", () => {
  const watermark = new Date(NOW.getTime() + 4 * 60_000).toISOString();
  const p = plan(runs([10, 11, 12, 13, 14]), { watermark });
  assert.equal(p.clock.backward, false);
  assert.equal(p.candidates.length, 2);
});

Deno.test("clock safety: served proofs are not age-based and are not deferred", () => {
  const watermark = new Date(NOW.getTime() + DAY).toISOString();
  const p = plan([unit("openspec/changes/add-x/", OPENSPEC, 1)], {
    watermark,
    existing: existingPaths(["openspec/changes/archive/2026-11-01-add-x/proposal.md"]),
  });
  assert.equal(p.candidates.length, 1);
});

Deno.test("tier matrix: tracked + clean -> auto; tracked + dirty -> confirm; untracked -> confirm", () => {
  const p = plan([
    ...runs([1, 1, 1]),
    unit("autoresearch/clean/", TEMP, 10),
    unit("autoresearch/dirty/", TEMP, 10, { dirty: true }),
    unit("autoresearch/new/", TEMP, 10, { tracked: false, dirty: true, age_source: "mtime" }),
  ]);
  const tiers = Object.fromEntries(p.candidates.map((c) => [c.path, c.tier]));
  assert.deepEqual(tiers, {
    "autoresearch/clean/": "auto",
    "autoresearch/dirty/": "confirm",
    "autoresearch/new/": "confirm",
  });
  const dirty = p.candidates.find((c) => c.path === "autoresearch/dirty/")!;
  assert.equal(dirty.needs, "--confirm autoresearch/dirty/");
  assert.match(dirty.reason, /confirm: uncommitted changes/);
  assert.deepEqual(approvedCandidates(p).map((c) => c.path), ["autoresearch/clean/"]);
});

Deno.test("tier matrix: --confirm PATH (with or without the trailing slash) approves a confirm entry", () => {
  const units = [
    ...runs([1, 1, 1]),
    unit("autoresearch/dirty/", TEMP, 10, { dirty: true }),
  ];
  for (const name of ["autoresearch/dirty/", "autoresearch/dirty"]) {
    const p = plan(units, { confirm: new Set([name]) });
    assert.deepEqual(approvedCandidates(p).map((c) => c.path), ["autoresearch/dirty/"]);
    assert.deepEqual(p.warnings, []);
  }
});

Deno.test("tier matrix: --confirm of a path that is no candidate is a warning, never a deletion", () => {
  const p = plan(runs([1, 1, 1]), { confirm: new Set(["autoresearch/run-1/"]) });
  assert.deepEqual(approvedCandidates(p), []);
  assert.match(p.warnings[0], /autoresearch\/run-1\/ was named with --confirm/);
});

Deno.test("keep: never deleted, reported with its reason", () => {
  const p = plan([unit("docs/adr/0001.md", KEEP, 1000)]);
  assert.deepEqual(p.candidates, []);
  assert.deepEqual(p.kept, [{
    path: "docs/adr/0001.md",
    rule: "docs/adr/**",
    reason: "lifetime: keep",
  }]);
});

Deno.test("blocked units (protected or foreign files inside) are kept with the reason", () => {
  const p = plan([
    ...runs([1, 1, 1]),
    unit("autoresearch/old/", TEMP, 100, {
      blocked: "protected: contains autoresearch/old/LOG.md (frozen)",
    }),
  ]);
  assert.deepEqual(p.candidates, []);
  assert.equal(
    p.kept.find((k) => k.path === "autoresearch/old/")?.reason,
    "protected: contains autoresearch/old/LOG.md (frozen)",
  );
});

Deno.test("served_when_path: proven on disk -> tier matrix (auto when clean)", () => {
  const p = plan([
    unit("openspec/changes/add-x/", OPENSPEC, 0),
    unit("openspec/changes/add-y/", OPENSPEC, 100),
  ], {
    existing: existingPaths([
      "openspec/changes/add-x/proposal.md",
      "openspec/changes/add-y/proposal.md",
      "openspec/changes/archive/2026-11-01-add-x/proposal.md",
    ]),
  });
  assert.deepEqual(p.candidates.map((c) => [c.path, c.tier]), [[
    "openspec/changes/add-x/",
    "auto",
  ]]);
  assert.match(
    p.candidates[0].reason,
    /served: openspec\/changes\/archive\/2026-11-01-add-x\/ exists/,
  );
  assert.match(p.kept[0].reason, /not served: nothing matches served_when_path/);
});

Deno.test("served_when: a candidate only when the report judged it served, and always confirm", () => {
  const judgments = new Map<string, Judgment>([
    ["docs/specs/a.md", { op_type: "delete", rationale: "shipped in v2" }],
    ["docs/specs/b.md", { op_type: "update" }],
  ]);
  const p = plan([
    unit("docs/specs/a.md", SPECS, 1),
    unit("docs/specs/b.md", SPECS, 1),
    unit("docs/specs/c.md", SPECS, 1),
  ], { judgments });
  assert.deepEqual(p.candidates.map((c) => [c.path, c.tier]), [["docs/specs/a.md", "confirm"]]);
  assert.match(p.candidates[0].reason, /judged served by the report \(delete\): shipped in v2/);
  assert.deepEqual(p.kept.map((k) => k.reason), [
    "served_when not met: the report says update",
    "served_when not judged: the report has no entry for it",
  ]);
  assert.deepEqual(approvedCandidates(p), []);
  const confirmed = plan([unit("docs/specs/a.md", SPECS, 1)], {
    judgments,
    confirm: new Set(["docs/specs/a.md"]),
  });
  assert.equal(approvedCandidates(confirmed).length, 1);
});

Deno.test("extract: true -> confirm, never approved before --extracted PATH, names the destinations", () => {
  const path = "docs/superpowers/plans/2026-11-01-x.md";
  const judgments = new Map<string, Judgment>([
    [path, { op_type: "extract-then-delete", extract_to: "docs/adr/0007-x.md" }],
  ]);
  const units = [unit(path, PLANS, 1)];
  const p = plan(units, { judgments, confirm: new Set([path]) });
  assert.equal(p.candidates[0].tier, "confirm");
  assert.equal(p.candidates[0].needs, `--extracted ${path}`);
  assert.deepEqual(p.candidates[0].extract_to, ["docs/adr/0007-x.md", ...EXTRACT_DESTINATIONS]);
  assert.deepEqual(approvedCandidates(p), []);
  const done = plan(units, { judgments, confirm: new Set([path]), extracted: new Set([path]) });
  assert.equal(approvedCandidates(done).length, 1);
  const notConfirmed = plan(units, { judgments, extracted: new Set([path]) });
  assert.equal(notConfirmed.candidates[0].needs, `--confirm ${path}`);
});

Deno.test("extract: the destinations name an ADR, CLAUDE.md, a docs/ file and the vault", () => {
  const text = EXTRACT_DESTINATIONS.join(" | ");
  for (const dest of ["ADR", "CLAUDE.md", "docs/", "/os-vault:write"]) {
    assert.ok(text.includes(dest));
  }
});

Deno.test("plan JSON: the documented shape, deterministic order", () => {
  const p = plan(runs([10, 11, 12, 13, 14]).reverse());
  assert.deepEqual(Object.keys(p), [
    "schema_version",
    "mode",
    "generated_at",
    "clock",
    "candidates",
    "kept",
    "deferred",
    "dangling",
    "applied",
    "skipped",
    "commit",
    "warnings",
  ]);
  assert.deepEqual(p.clock, { now: NOW.toISOString(), watermark: null, backward: false });
  assert.deepEqual(Object.keys(p.candidates[0]), [
    "path",
    "unit",
    "rule",
    "lifetime",
    "reason",
    "tracked",
    "dirty",
    "tier",
    "age_days",
    "age_source",
    "needs",
  ]);
  assert.deepEqual(p.kept.map((k) => k.path), [
    "autoresearch/run-1/",
    "autoresearch/run-2/",
    "autoresearch/run-3/",
  ]);
});

Deno.test("each temporary rule ranks its own units", () => {
  const other = parseConfig(
    "rules:\n  - {match: 'scratch/*.md', lifetime: temporary, retain_recent: 0, max_age_days: 1}\n",
  ).rules[0];
  const p = plan([...runs([10, 10, 10]), unit("scratch/a.md", other, 2, { kind: "file" })]);
  assert.deepEqual(p.candidates.map((c) => c.path), ["scratch/a.md"]);
});

Deno.test("served_when: a judgment made before the unit's last change is stale and not used", () => {
  const judgedAt = new Date(NOW.getTime() - 5 * DAY).toISOString();
  const judgments = new Map<string, Judgment>([
    ["docs/specs/a.md", { op_type: "delete", judged_at: judgedAt }],
    ["docs/specs/b.md", { op_type: "delete", judged_at: judgedAt }],
  ]);
  const p = plan([unit("docs/specs/a.md", SPECS, 10), unit("docs/specs/b.md", SPECS, 1)], {
    judgments,
  });
  assert.deepEqual(p.candidates.map((c) => c.path), ["docs/specs/a.md"]);
  assert.equal(p.kept[0].path, "docs/specs/b.md");
  assert.match(p.kept[0].reason, /changed after the report judged it .* run the check again/);
});

Deno.test("served_when: a report dated after now is not used (a later change could not be told)", () => {
  const judgments = new Map<string, Judgment>([
    ["docs/specs/a.md", {
      op_type: "delete",
      judged_at: new Date(NOW.getTime() + DAY).toISOString(),
    }],
  ]);
  const p = plan([unit("docs/specs/a.md", SPECS, 10)], { judgments });
  assert.deepEqual(p.candidates, []);
  assert.match(
    p.kept[0].reason,
    /^served_when: the report is dated after now \(.*\); run the check again$/,
  );
});

Deno.test("temporary: the reason shows fractional days when whole days would read as not past the limit", () => {
  const p = plan([...runs([1, 1, 1]), unit("autoresearch/run-4/", TEMP, 3.5)]);
  assert.equal(p.candidates[0].reason, "rank 4 of 4, 3.5 days old > 3");
  assert.equal(p.candidates[0].age_days, 3);
});

Deno.test("temporary: a unit untouched since a shallow clone's cut ranks after every dated unit and is kept, with one warning", () => {
  const [rule] = parseConfig(
    "rules:\n  - {match: 'runs/*/', lifetime: temporary, retain_recent: 1, max_age_days: 3}\n",
  ).rules;
  const p = plan([
    unit("runs/a/", rule, 10),
    unit("runs/b/", rule, 20),
    // Dated by the commit the clone starts at, which may read newer than later commits.
    unit("runs/c/", rule, 5, { shallow_age: true }),
    unit("runs/d/", rule, 30, { shallow_age: true }),
  ]);
  assert.deepEqual(p.candidates.map((c) => [c.path, c.reason]), [
    ["runs/b/", "rank 2 of 4, 20 days old > 3"],
  ]);
  const kept = Object.fromEntries(p.kept.map((k) => [k.path, k.reason]));
  assert.equal(kept["runs/a/"], "retain_recent: rank 1 of 4");
  for (const path of ["runs/c/", "runs/d/"]) {
    assert.match(kept[path], /^age unknown: .*shallow clone.*git fetch --unshallow$/);
  }
  assert.deepEqual(p.warnings, [
    "shallow clone: 2 unit(s) unchanged since the clone's history starts have an unknown age and are kept; run git fetch --unshallow to date them",
  ]);
});

Deno.test("served_when: uncommitted changes made after the judgment make it stale; earlier ones do not", () => {
  const judgedAt = NOW.getTime() - DAY;
  const judgments = new Map<string, Judgment>([
    ["docs/specs/a.md", { op_type: "delete", judged_at: new Date(judgedAt).toISOString() }],
    ["docs/specs/b.md", { op_type: "delete", judged_at: new Date(judgedAt).toISOString() }],
  ]);
  const p = plan([
    unit("docs/specs/a.md", SPECS, 10, { dirty: true, changed_ms: judgedAt + 60_000 }),
    unit("docs/specs/b.md", SPECS, 10, { dirty: true, changed_ms: judgedAt - 60_000 }),
  ], { judgments });
  assert.deepEqual(p.candidates.map((c) => c.path), ["docs/specs/b.md"]);
  assert.deepEqual(p.kept, [{
    path: "docs/specs/a.md",
    rule: "docs/specs/*.md",
    reason: `served_when: it changed after the report judged it (${
      new Date(judgedAt).toISOString()
    } < ${new Date(judgedAt + 60_000).toISOString()}, uncommitted); run the check again`,
  }]);
});

/**
 * The prune planner (docs/design.md "Lifecycle deletion"): a pure function from
 * injected facts (units with their git facts and ages, the existing paths,
 * the report's judgments, the user's confirmations, the clock and its
 * watermark) to the plan JSON — every candidate, kept unit and deferred unit
 * with its reason, and the tier matrix applied.
 *
 * @module
 */

import { byCodePoint } from "../core/by_code_point.ts";
import { CLOCK_SLACK_MS, LAST_ISO_MS } from "../core/clock.ts";
import { datedName } from "../core/dated_name.ts";
import { type ExistingPaths, servedByPath } from "../config/governing_rule.ts";
import type { Lifetime, Rule } from "../config/load_config.ts";

/** Where an `extract: true` unit's durable content may go before it is deleted. */
export const EXTRACT_DESTINATIONS: readonly string[] = [
  "an ADR (docs/adr/…)",
  "CLAUDE.md",
  "a docs/ file",
  "the vault through /os-vault:write",
];

const _DAY_MS = 86_400_000;

/** The facts about one unit (a file, or a directory with a trailing `/`) under a deleting or keep rule. */
export interface UnitFacts {
  /** Root-relative path; directories end with `/`. */
  path: string;
  /** `dir` for a directory rule's unit, `file` otherwise. */
  kind: "file" | "dir";
  /** The governing rule (see `governingRule`). */
  rule: Rule;
  /** Whether any file of the unit is tracked by git. */
  tracked: boolean;
  /** Whether anything under the unit has an uncommitted change (modified, staged, deleted, untracked). */
  dirty: boolean;
  /** Epoch milliseconds the unit's age is measured from, or `null` when unknown. */
  age_ms: number | null;
  /** `git`: newest first-parent commit touching the unit; `mtime`: file mtime or one stat of an untracked directory. */
  age_source: "git" | "mtime";
  /** Why this unit can never be deleted (a protected or otherwise-governed file inside, a submodule, …). */
  blocked?: string;
  /**
   * Its git age is only where a shallow clone's history is cut (no later
   * commit touched it): its real last change may be older. Ranked after every
   * unit with a real age and never deleted by age.
   */
  shallow_age?: boolean;
  /**
   * Epoch milliseconds of its newest uncommitted change (the newest mtime of
   * its changed files; `served_when` units only): a judgment made before it
   * did not see that content.
   */
  changed_ms?: number;
}

/** A `served_when` judgment from the check skill's report (one entry). */
export interface Judgment {
  /** The entry's `op_type`; only `delete` and `extract-then-delete` mean served. */
  op_type: string;
  /** The entry's rationale, quoted in the reason. */
  rationale?: string;
  /** The entry's `extract_to`, when the report named one. */
  extract_to?: string;
  /** The report's `generated_at` (ISO): a unit changed after it was judged needs a new judgment. */
  judged_at?: string;
}

/** Everything the planner needs. */
export interface PlanInput {
  /** Every unit governed by a rule (keep rules included). */
  units: readonly UnitFacts[];
  /** The existing files and directories (for `served_when_path`). */
  existing: ExistingPaths;
  /** The report's judgments by path (`served_when`). */
  judgments: ReadonlyMap<string, Judgment>;
  /** No report was found: a `served_when` unit is kept saying so, not for want of an entry. */
  reportMissing?: boolean;
  /** Paths confirmed with `--confirm` (or a `y` on the terminal). */
  confirm: ReadonlySet<string>;
  /** Paths acknowledged with `--extracted`. */
  extracted: ReadonlySet<string>;
  /** The current instant. */
  now: Date;
  /** `clock_watermark` from the state file. */
  watermark: string | null;
  /** `dry-run` or `apply`. */
  mode: "dry-run" | "apply";
}

/** A unit the rules allow deleting. */
export interface Candidate {
  /** Root-relative path; directories end with `/`. */
  path: string;
  /** `dir` or `file`. */
  unit: "file" | "dir";
  /** The governing rule's `match`. */
  rule: string;
  /** The governing rule's lifetime. */
  lifetime: Lifetime;
  /** Why it may go. */
  reason: string;
  /** Whether any file of it is tracked. */
  tracked: boolean;
  /** Whether it has uncommitted changes. */
  dirty: boolean;
  /** `auto` (goes with `--yes`) or `confirm` (needs `--confirm PATH` or a `y`). */
  tier: "auto" | "confirm";
  /** Whole days since its age instant, or `null` when unknown. */
  age_days: number | null;
  /** Where the age came from. */
  age_source: "git" | "mtime";
  /** What is still needed before `--yes` deletes it (`null`: nothing). */
  needs: string | null;
  /** `extract: true`: the allowed destinations for its durable content. */
  extract_to?: string[];
}

/** A unit that stays, and why. */
export interface Kept {
  /** Root-relative path. */
  path: string;
  /** The governing rule's `match`. */
  rule: string;
  /** Why it stays. */
  reason: string;
}

/** A unit whose deletion is postponed (clock went backwards). */
export interface Deferred {
  /** Root-relative path. */
  path: string;
  /** Why it is postponed. */
  reason: string;
}

/** A link in a surviving doc that points into what is deleted. */
export interface Dangling {
  /** The linking doc. */
  from: string;
  /** 1-based line of the link. */
  line: number;
  /** The unit it points into. */
  to: string;
}

/** The plan / result JSON of docs/design.md "Lifecycle deletion" (plus `warnings`). */
export interface Plan {
  /** Always `1`. */
  schema_version: 1;
  /** `dry-run` or `apply`. */
  mode: "dry-run" | "apply";
  /** The instant of the plan (ISO). */
  generated_at: string;
  /** The clock, the stored watermark and whether the clock went backwards. */
  clock: { now: string; watermark: string | null; backward: boolean };
  /** Units the rules allow deleting. */
  candidates: Candidate[];
  /** Units that stay, with reasons. */
  kept: Kept[];
  /** Units whose age-based deletion is postponed. */
  deferred: Deferred[];
  /** Links in surviving docs into what is (or would be) deleted. */
  dangling: Dangling[];
  /** What apply deleted. */
  applied: { path: string; how: string }[];
  /** Candidates apply did not delete, and why. */
  skipped: { path: string; reason: string }[];
  /** The hygiene commit apply made, or `null`. */
  commit: string | null;
  /** Things the user should look at (future-dated units, unknown `--confirm` paths). */
  warnings: string[];
}

/**
 * Plans a prune: applies the rulebook's lifetimes, the `temporary` retention
 * ranking, the served proofs and judgments, the tier matrix and the clock
 * safety to `input.units`. Pure: no I/O, no clock of its own.
 *
 * @example
 * ```ts
 * import { planPrune } from "./plan_prune.ts";
 * import { existingPaths } from "../config/governing_rule.ts";
 * import { parseConfig } from "../config/parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const [rule] = parseConfig("rules:\n  - {match: 'runs/*\/', lifetime: temporary, retain_recent: 1}\n").rules;
 * const now = new Date("2026-11-30T00:00:00Z");
 * const day = 86_400_000;
 * const unit = (path: string, days: number) => ({
 *   path, kind: "dir" as const, rule, tracked: true, dirty: false,
 *   age_ms: now.getTime() - days * day, age_source: "git" as const,
 * });
 * const plan = planPrune({
 *   units: [unit("runs/a/", 1), unit("runs/b/", 10)],
 *   existing: existingPaths([]), judgments: new Map(), confirm: new Set(), extracted: new Set(),
 *   now, watermark: null, mode: "dry-run",
 * });
 * assert.deepEqual(plan.candidates.map((c) => [c.path, c.tier]), [["runs/b/", "auto"]]);
 * assert.equal(plan.kept[0].reason, "retain_recent: rank 1 of 2");
 * ```
 */
export function planPrune(input: PlanInput): Plan {
  const nowMs = input.now.getTime();
  const watermarkMs = input.watermark === null ? NaN : Date.parse(input.watermark);
  const backward = Number.isFinite(watermarkMs) && nowMs < watermarkMs - CLOCK_SLACK_MS;
  const plan: Plan = {
    schema_version: 1,
    mode: input.mode,
    generated_at: input.now.toISOString(),
    clock: { now: input.now.toISOString(), watermark: input.watermark, backward },
    candidates: [],
    kept: [],
    deferred: [],
    dangling: [],
    applied: [],
    skipped: [],
    commit: null,
    warnings: [],
  };
  const keep = (u: UnitFacts, reason: string) =>
    plan.kept.push({ path: u.path, rule: u.rule.match, reason });

  const temporary = new Map<Rule, UnitFacts[]>();
  let shallow = 0;
  for (const unit of input.units) {
    if (unit.rule.lifetime === "keep") {
      keep(unit, "lifetime: keep");
    } else if (unit.blocked !== undefined) {
      keep(unit, unit.blocked);
    } else if (unit.rule.lifetime === "temporary") {
      const group = temporary.get(unit.rule) ?? [];
      group.push(unit);
      temporary.set(unit.rule, group);
    } else {
      _served(unit, input, plan, keep);
    }
  }

  for (const [rule, group] of temporary) {
    // Newest first; units of unknown age rank as newest (never deleted on a guess). A unit
    // untouched since a shallow clone's cut is older than every unit touched after it. Equal
    // ages (one commit added them all, or touched them all) rank by the date a name starts
    // with, newest first (a name without one ranks after those with one), then by the name,
    // descending.
    const dates = new Map(group.map((u) => [u, datedName(u.path) ?? ""]));
    const ranked = [...group].sort((a, b) =>
      Number(a.shallow_age ?? false) - Number(b.shallow_age ?? false) ||
      (b.age_ms ?? Infinity) - (a.age_ms ?? Infinity) ||
      byCodePoint(dates.get(b)!, dates.get(a)!) || byCodePoint(b.path, a.path)
    );
    // A unit past retention that ties in age with a retained one, where the names' dates do
    // not tell them apart, would be kept had the names sorted the other way: it is deleted
    // only when confirmed.
    const retained = ranked.slice(0, rule.retain_recent);
    const byNameOnly = (unit: UnitFacts) =>
      retained.some((r) =>
        r.age_ms === unit.age_ms && Boolean(r.shallow_age) === Boolean(unit.shallow_age) &&
        (dates.get(r) === "" || dates.get(r) === dates.get(unit))
      );
    ranked.forEach((unit, i) => {
      const rank = `rank ${i + 1} of ${ranked.length}`;
      if (unit.age_ms === null) return keep(unit, `${rank}, age unknown`);
      if (unit.age_ms > nowMs) {
        const warning = `${unit.path} is dated in the future (${
          _shownTime(unit.age_ms)
        }); kept — check the system clock and the commit dates`;
        plan.warnings.push(warning);
        return keep(unit, `${rank}, dated in the future (${_shownTime(unit.age_ms)})`);
      }
      if (unit.shallow_age) {
        shallow++;
        return keep(
          unit,
          `age unknown: unchanged since this shallow clone's history starts; run git fetch --unshallow`,
        );
      }
      if (i < rule.retain_recent) return keep(unit, `retain_recent: ${rank}`);
      const days = _ageText(nowMs - unit.age_ms, rule.max_age_days);
      if (nowMs - unit.age_ms <= rule.max_age_days * _DAY_MS) {
        return keep(unit, `${rank}, ${days} days old <= ${rule.max_age_days} (max_age_days)`);
      }
      if (backward) {
        plan.deferred.push({
          path: unit.path,
          reason:
            `${rank}, ${days} days old > ${rule.max_age_days}, but the clock (${input.now.toISOString()}) reads earlier than the watermark (${input.watermark}); age-based deletion deferred until the clock is right`,
        });
        return;
      }
      _candidate(unit, `${rank}, ${days} days old > ${rule.max_age_days}`, input, plan, {
        uncertainRank: byNameOnly(unit),
      });
    });
  }

  if (shallow > 0) {
    plan.warnings.push(
      `shallow clone: ${shallow} unit(s) unchanged since the clone's history starts have an unknown age and are kept; run git fetch --unshallow to date them`,
    );
  }
  const known = new Set(plan.candidates.map((c) => c.path));
  for (const path of [...input.confirm, ...input.extracted]) {
    if (!known.has(path) && !known.has(`${path}/`)) {
      plan.warnings.push(`${path} was named with --confirm/--extracted but is not a candidate`);
    }
  }
  const byPath = (a: { path: string }, b: { path: string }) => byCodePoint(a.path, b.path);
  plan.candidates.sort(byPath);
  plan.kept.sort(byPath);
  plan.deferred.sort(byPath);
  plan.warnings = [...new Set(plan.warnings)];
  return plan;
}

/**
 * The candidates `--yes` deletes: `auto` ones and `confirm` ones with nothing
 * more needed.
 *
 * @example
 * ```ts
 * import { approvedCandidates } from "./plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(approvedCandidates({ candidates: [] }), []);
 * ```
 */
export function approvedCandidates(plan: Pick<Plan, "candidates">): Candidate[] {
  return plan.candidates.filter((c) => c.needs === null);
}

/** `delete-once-served`: proof on disk or the report's judgment. */
function _served(
  unit: UnitFacts,
  input: PlanInput,
  plan: Plan,
  keep: (u: UnitFacts, reason: string) => void,
): void {
  const rule = unit.rule;
  if (rule.served_when_path !== undefined) {
    const proof = servedByPath(rule, unit.path, input.existing);
    if (proof === undefined) {
      // The pattern recommended before {date}: its `*` no longer takes a dated prefix.
      const hint = /(?<![\\*])\*[-_. ]\{name\}/.test(rule.served_when_path)
        ? "; a * right before -{name} matches no -: for a YYYY-MM-DD prefix (OpenSpec) write {date}-{name}"
        : "";
      return keep(
        unit,
        `not served: nothing matches served_when_path "${rule.served_when_path}"${hint}`,
      );
    }
    return _candidate(unit, `served: ${proof} exists (served_when_path)`, input, plan);
  }
  const judgment = input.judgments.get(unit.path) ??
    (unit.kind === "dir" ? input.judgments.get(unit.path.slice(0, -1)) : undefined);
  if (judgment === undefined) {
    return keep(
      unit,
      input.reportMissing
        ? "served_when not judged: there is no report yet; run /dochygiene:check"
        : "served_when not judged: the report has no entry for it",
    );
  }
  if (judgment.op_type !== "delete" && judgment.op_type !== "extract-then-delete") {
    return keep(unit, `served_when not met: the report says ${judgment.op_type}`);
  }
  const judgedMs = judgment.judged_at === undefined ? NaN : Date.parse(judgment.judged_at);
  if (judgedMs > input.now.getTime()) {
    // Whether it changed after the judgment cannot be told: never delete on it.
    return keep(
      unit,
      `served_when: the report is dated after now (${judgment.judged_at}); run the check again`,
    );
  }
  // Its last commit, or a newer uncommitted change.
  const changedMs = Math.max(unit.age_ms ?? -Infinity, unit.changed_ms ?? -Infinity);
  if (judgedMs < changedMs) {
    // The judgment was about other content: never delete on it.
    return keep(
      unit,
      `served_when: it changed after the report judged it (${judgment.judged_at} < ${
        _shownTime(changedMs)
      }${changedMs === unit.changed_ms ? ", uncommitted" : ""}); run the check again`,
    );
  }
  const why = judgment.rationale ? `: ${judgment.rationale}` : "";
  _candidate(unit, `judged served by the report (${judgment.op_type})${why}`, input, plan, {
    judged: true,
    extractTo: judgment.extract_to,
  });
}

/** Adds a candidate with its tier (docs/design.md "The tier matrix") and what it still needs. */
function _candidate(
  unit: UnitFacts,
  reason: string,
  input: PlanInput,
  plan: Plan,
  options: { judged?: boolean; extractTo?: string; uncertainRank?: boolean } = {},
): void {
  const tier = unit.tracked && !unit.dirty && !options.judged && !unit.rule.extract &&
      !options.uncertainRank
    ? "auto"
    : "confirm";
  const why: string[] = [];
  if (!unit.tracked) why.push("untracked");
  else if (unit.dirty) {
    // Not in any commit: deleting them is for good (the prompt shows this reason).
    why.push("uncommitted changes, lost for good if deleted: no revert gives them back");
  }
  if (options.uncertainRank) why.push("ranked by name only among units of equal age");
  if (options.judged) why.push("served_when is a judgment");
  if (unit.rule.extract) why.push("extract: true");
  const confirmed = _named(input.confirm, unit.path);
  let needs: string | null = null;
  if (tier === "confirm" && !confirmed) needs = `--confirm ${unit.path}`;
  if (unit.rule.extract && !_named(input.extracted, unit.path)) {
    needs = `${needs === null ? "" : `${needs} and `}--extracted ${unit.path}`;
  }
  const candidate: Candidate = {
    path: unit.path,
    unit: unit.kind,
    rule: unit.rule.match,
    lifetime: unit.rule.lifetime,
    reason: why.length === 0 ? reason : `${reason} (confirm: ${why.join(", ")})`,
    tracked: unit.tracked,
    dirty: unit.dirty,
    tier,
    age_days: unit.age_ms === null ? null : _days(input.now.getTime() - unit.age_ms),
    age_source: unit.age_source,
    needs,
  };
  if (unit.rule.extract) {
    candidate.extract_to = options.extractTo === undefined
      ? [...EXTRACT_DESTINATIONS]
      : [options.extractTo, ...EXTRACT_DESTINATIONS.filter((d) => d !== options.extractTo)];
  }
  plan.candidates.push(candidate);
}

/** Whether a unit path was named (a directory with or without its trailing `/`). */
function _named(names: ReadonlySet<string>, path: string): boolean {
  return names.has(path) || (path.endsWith("/") && names.has(path.slice(0, -1)));
}

function _days(ms: number): number {
  return Math.floor(ms / _DAY_MS);
}

/** Whole days; just past a whole-day `limit`, one decimal or `limit+` (never "3 days old > 3"). */
function _ageText(ms: number, limit: number): string {
  const whole = _days(ms);
  if (whole !== limit || ms <= limit * _DAY_MS) return String(whole);
  const tenths = Math.floor((ms / _DAY_MS) * 10) / 10;
  return tenths > limit ? String(tenths) : `${limit}+`;
}

/** A time for a reason: ISO-8601, or past its last four-digit year (git accepts such dates). */
function _shownTime(ms: number): string {
  return ms > LAST_ISO_MS
    ? `after ${new Date(LAST_ISO_MS).toISOString()}`
    : new Date(ms).toISOString();
}

/**
 * The three drift signals of the shortlisted docs (docs/signals.md), as a
 * pure function of each doc's drift facts, what git showed and the clock.
 *
 * @module
 */

import type { DriftConfig } from "../config/load_config.ts";
import { globMatcher } from "../config/glob_matcher.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import { elementExcluder, elementTerms } from "./code_element.ts";
import type { DocDriftFacts } from "./doc_drift_facts.ts";
import type { DriftHistory } from "./read_drift_history.ts";
import { codeTargeter } from "./code_targeter.ts";

/** A first-parent commit and its committer date (ISO-8601 UTC). */
export interface CommitRef {
  /** The commit id. */
  commit: string;
  /** Its committer date. */
  date: string;
}

/** The drift signals (docs/signals.md). */
export type DriftSignal =
  | {
    kind: "stale_reference";
    line: number;
    element: string;
    last_seen: CommitRef;
    gone_by: CommitRef;
  }
  | { kind: "code_drift"; path: string; commits_after: number; days_after: number }
  | {
    kind: "review";
    reviewed: string;
    days_since: number;
    interval_days: number | null;
    due: boolean | null;
  }; // deno-fmt-ignore

/** The most `code_drift` signals a doc gets: the files with the most commits after it. */
export const CODE_DRIFT_CAP = 10;

/** What {@linkcode driftSignals} works from. */
export interface DriftInput {
  /** Each shortlisted doc and its drift facts (`undefined`: none), iterated once. */
  docs: Iterable<readonly [path: string, facts: DocDriftFacts | undefined]>;
  /** The `drift:` settings. */
  config: DriftConfig;
  /** The scan's instant. */
  now: Date;
  /** A doc's newest first-parent commit time (epoch seconds); `undefined` when untracked or unknown. */
  docSeconds: (path: string) => number | undefined;
  /** The tracked code files of the working tree (see `codePathMatcher`). */
  codeFiles: ReadonlySet<string>;
  /** What git showed; `undefined` outside git or before the first commit. */
  history: DriftHistory | undefined;
}

/**
 * Each doc's drift signals, in this order: `stale_reference` by line,
 * `code_drift` by commits after (most first, then path), `review`. Docs with
 * none are left out.
 *
 * @example
 * ```ts
 * import { driftSignals } from "./drift_signals.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const signals = driftSignals({
 *   docs: new Map([["a.md", { elements: [], paths: [], review: { reviewed: "2026-01-01", interval: 30 } }]]),
 *   config: defaultConfig().drift,
 *   now: new Date("2026-03-02T00:00:00Z"),
 *   docSeconds: () => undefined,
 *   codeFiles: new Set(),
 *   history: undefined,
 * });
 * assert.deepEqual(signals.get("a.md"), [
 *   { kind: "review", reviewed: "2026-01-01", days_since: 60, interval_days: 30, due: true },
 * ]);
 * ```
 */
export function driftSignals(input: DriftInput): Map<string, DriftSignal[]> {
  const { config, history } = input;
  const out = new Map<string, DriftSignal[]>();
  const skipDoc = config.exclude_docs.length > 0 ? globMatcher(config.exclude_docs) : () => false;
  const skipElement = elementExcluder(config.exclude_elements);
  const codeTargets = codeTargeter(input.codeFiles);
  const dates = new Map<number, string>();
  const dateOf = (seconds: number) => {
    let date = dates.get(seconds);
    if (date === undefined) dates.set(seconds, date = new Date(seconds * 1000).toISOString());
    return date;
  };
  for (const [path, facts] of input.docs) {
    if (facts === undefined || skipDoc(path)) continue;
    const list: DriftSignal[] = [];
    if (config.stale_reference && history !== undefined) {
      for (const { line, element } of facts.elements) {
        if (skipElement(element)) continue;
        const terms = elementTerms(element);
        // Present when any of its words is in code at HEAD; stale only when one was in an older tree.
        if (terms.some((t) => history.present.has(t))) continue;
        const seen = terms.map((t) => history.lastSeen.get(t)).filter((s) => s !== undefined)
          .sort((a, b) => b.seconds - a.seconds)[0];
        if (seen === undefined) continue;
        list.push({
          kind: "stale_reference",
          line,
          element,
          last_seen: { commit: seen.commit, date: dateOf(seen.seconds) },
          gone_by: { commit: seen.goneBy, date: dateOf(seen.goneBySeconds) },
        });
      }
    }
    const docSeconds = input.docSeconds(path);
    // Without code files no path a doc names is one (a docs-only repository: nothing to resolve).
    if (
      config.code_drift && history !== undefined && docSeconds !== undefined &&
      input.codeFiles.size > 0
    ) {
      const drift: Extract<DriftSignal, { kind: "code_drift" }>[] = [];
      for (const target of codeTargets(path, facts.paths)) {
        const after = history.changes(target).filter((s) => s > docSeconds);
        if (after.length === 0) continue;
        drift.push({
          kind: "code_drift",
          path: target,
          commits_after: after.length,
          days_after: Math.floor((Math.max(...after) - docSeconds) / 86_400),
        });
      }
      drift.sort((a, b) => b.commits_after - a.commits_after || byCodePoint(a.path, b.path));
      list.push(...drift.slice(0, CODE_DRIFT_CAP));
    }
    if (config.review && facts.review !== undefined) {
      const interval = facts.review.interval ?? config.review_interval_days;
      list.push(reviewSignal(facts.review.reviewed, interval, input.now));
    }
    if (list.length > 0) out.set(path, list);
  }
  return out;
}

/**
 * The `review` signal of a doc reviewed on `reviewed` (`YYYY-MM-DD`), due
 * every `interval` days (`null`: no interval), on `now`'s date.
 *
 * @example
 * ```ts
 * import { reviewSignal } from "./drift_signals.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(reviewSignal("2026-01-01", 30, new Date("2026-01-31T23:00:00Z")), {
 *   kind: "review", reviewed: "2026-01-01", days_since: 30, interval_days: 30, due: true,
 * });
 * ```
 */
export function reviewSignal(
  reviewed: string,
  interval: number | null,
  now: Date,
): Extract<DriftSignal, { kind: "review" }> {
  const days = Math.floor((now.getTime() - Date.parse(`${reviewed}T00:00:00Z`)) / 86_400_000);
  return {
    kind: "review",
    reviewed,
    days_since: days,
    interval_days: interval,
    due: interval === null ? null : days >= interval,
  };
}

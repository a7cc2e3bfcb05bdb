/**
 * The three drift signals of the shortlisted docs (docs/signals.md), as a
 * pure function of each doc's drift facts, what git showed and the clock.
 *
 * @module
 */

import { posix } from "node:path";
import type { DriftConfig } from "../config/load_config.ts";
import { globMatcher } from "../config/glob_matcher.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import { elementExcluder, elementTerms } from "./code_element.ts";
import type { DocDriftFacts } from "./doc_drift_facts.ts";
import type { DriftHistory } from "./read_drift_history.ts";

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
  const mayBeCode = _mayBeCode(input.codeFiles);
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
      for (const target of _codeTargets(path, facts.paths, input.codeFiles, mayBeCode)) {
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
      const reviewedMs = Date.parse(`${facts.review.reviewed}T00:00:00Z`);
      const days = Math.floor((input.now.getTime() - reviewedMs) / 86_400_000);
      const interval = facts.review.interval ?? config.review_interval_days;
      list.push({
        kind: "review",
        reviewed: facts.review.reviewed,
        days_since: days,
        interval_days: interval,
        due: interval === null ? null : days >= interval,
      });
    }
    if (list.length > 0) out.set(path, list);
  }
  return out;
}

/**
 * The code files a doc points at: its link targets and inline-code paths
 * (from the root, else from the doc's folder) that are tracked code files,
 * once each.
 */
function _codeTargets(
  doc: string,
  paths: readonly string[],
  code: ReadonlySet<string>,
  mayBeCode: (raw: string) => boolean,
): string[] {
  let out: Set<string> | undefined;
  let dir: string | undefined;
  for (const raw of paths) {
    if (!mayBeCode(raw)) continue;
    dir ??= posix.dirname(doc);
    const path = raw.replace(/^(\.\/)+/, "").replace(/:\d+(?::\d+)?$/, "");
    if (code.has(path)) (out ??= new Set()).add(path);
    else if (dir !== ".") {
      const joined = posix.join(dir, path);
      if (code.has(joined)) (out ??= new Set()).add(joined);
    }
  }
  return out === undefined ? [] : [...out];
}

/**
 * Whether a path a doc names may resolve to a code file: whether its last segment is a code
 * file's name (or `.`, `..`, empty: normalised away). Remembered per path: most are links to
 * docs, named by doc after doc (the listing's own strings, their hashes computed once).
 */
function _mayBeCode(code: ReadonlySet<string>): (raw: string) => boolean {
  const names = new Set<string>();
  for (const file of code) names.add(file.slice(file.lastIndexOf("/") + 1));
  // The lengths of those names (and of "", ".", ".."): a path whose last segment is of none of
  // them, and holds no `:` (a `:line` suffix), is passed over without a look-up.
  const lengths = new Set([0, 1, 2]);
  for (const name of names) lengths.add(name.length);
  const known = new Map<string, boolean>();
  return (raw) => {
    const slash = raw.lastIndexOf("/");
    if (!lengths.has(raw.length - slash - 1) && raw.indexOf(":", slash) < 0) return false;
    let may = known.get(raw);
    if (may === undefined) {
      const name = raw.slice(raw.lastIndexOf("/") + 1).replace(/:\d+(?::\d+)?$/, "");
      may = names.has(name) || name === "" || name === "." || name === "..";
      known.set(raw, may);
    }
    return may;
  };
}

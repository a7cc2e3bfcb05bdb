/**
 * The drift signals a scan made, kept in the scan cache so that the next
 * scan, when nothing they rest on has moved, takes each unchanged doc's
 * signals as they were instead of making them again (docs/scan.md "The scan
 * cache"). Only `review`'s day counts move with the date; they are made anew.
 *
 * @module
 */

import { byCodePoint } from "../core/by_code_point.ts";
import type { DriftSignal } from "./drift_signals.ts";

/** One doc's entry: its path and its drift signals as they were made. */
export type DriftMemoDoc = readonly [path: string, signals: readonly DriftSignal[]];

/** The drift signals of a scan (see the module's doc). */
export interface DriftMemo {
  /** What every doc's signals rest on besides its own facts (HEAD, config, listing, …). */
  key: string;
  /** The artifact's `drift` note of that scan (`null`: none). */
  note: { commits: number; examined: number; shallow: boolean } | null;
  /** The shortlisted docs that were not text (no drift facts), in shortlist order. */
  binary: string[];
  /** Each shortlisted doc with signals, in shortlist order (by code point). */
  docs: DriftMemoDoc[];
}

/**
 * The memo in `value` (as the scan cache holds it), checked field by field,
 * when it was made under `key`; `undefined` otherwise (its signals are then
 * made again).
 *
 * @example
 * ```ts
 * import { parseDriftMemo } from "./drift_memo.ts";
 * import assert from "node:assert/strict";
 *
 * const memo = {
 *   key: "k",
 *   note: null,
 *   binary: [],
 *   docs: [["a.md", [{ kind: "code_drift", path: "a.ts", commits_after: 2, days_after: 9 }]]],
 * };
 * assert.deepEqual(parseDriftMemo(memo, "k"), memo);
 * assert.equal(parseDriftMemo(memo, "other"), undefined);
 * assert.equal(parseDriftMemo({ ...memo, docs: [["a.md", [{ kind: "age" }]]] }, "k"), undefined);
 * ```
 */
export function parseDriftMemo(value: unknown, key: string): DriftMemo | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const memo = value as Record<string, unknown>;
  if (
    memo.key !== key || !Array.isArray(memo.docs) || !Array.isArray(memo.binary) ||
    !memo.binary.every((path) => typeof path === "string")
  ) {
    return undefined;
  }
  const note = memo.note as Record<string, unknown> | null;
  if (
    note !== null &&
    (typeof note !== "object" || !_isCount(note.commits) || !_isCount(note.examined) ||
      typeof note.shallow !== "boolean")
  ) {
    return undefined;
  }
  let previous: string | undefined;
  for (const doc of memo.docs) {
    if (
      !Array.isArray(doc) || doc.length !== 2 || typeof doc[0] !== "string" ||
      !Array.isArray(doc[1]) || !doc[1].every(_isDriftSignal)
    ) {
      return undefined;
    }
    // In shortlist order (by code point), each path once: looked up by a merge.
    if (previous !== undefined && byCodePoint(previous, doc[0]) >= 0) return undefined;
    previous = doc[0];
  }
  return value as DriftMemo;
}

/**
 * Whether two memos hold the same: note, binary docs and each doc's signals, a `review` signal
 * by its date and interval (its day counts move with the clock).
 *
 * @example
 * ```ts
 * import { sameDriftMemo } from "./drift_memo.ts";
 * import assert from "node:assert/strict";
 *
 * const review = (days: number) => ({
 *   kind: "review" as const, reviewed: "2026-01-01", days_since: days, interval_days: null, due: null,
 * });
 * const memo = (days: number) => ({ key: "k", note: null, binary: [], docs: [["a.md", [review(days)]] as const] });
 * assert.ok(sameDriftMemo(memo(3), memo(4)));
 * assert.ok(!sameDriftMemo(memo(3), { ...memo(3), binary: ["b.md"] }));
 * ```
 */
export function sameDriftMemo(a: DriftMemo, b: DriftMemo): boolean {
  if (a.key !== b.key || JSON.stringify(a.note) !== JSON.stringify(b.note)) return false;
  if (a.binary.length !== b.binary.length || a.binary.some((p, i) => p !== b.binary[i])) {
    return false;
  }
  if (a.docs.length !== b.docs.length) return false;
  return a.docs.every((doc, i) => {
    const other = b.docs[i];
    return doc === other ||
      (doc[0] === other[0] && _comparable(doc[1]) === _comparable(other[1]));
  });
}

/** A doc's signals as compared: a `review` signal by its date and interval. */
function _comparable(signals: readonly DriftSignal[]): string {
  return JSON.stringify(
    signals.map((s) => s.kind === "review" ? [s.reviewed, s.interval_days] : s),
  );
}

function _isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function _isCommitRef(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { commit, date } = value as Record<string, unknown>;
  return typeof commit === "string" && typeof date === "string";
}

/** A drift signal of one of the three kinds, with every field of its kind. */
function _isDriftSignal(value: unknown): value is DriftSignal {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  switch (s.kind) {
    case "stale_reference":
      return _isCount(s.line) && typeof s.element === "string" && _isCommitRef(s.last_seen) &&
        _isCommitRef(s.gone_by);
    case "code_drift":
      return typeof s.path === "string" && _isCount(s.commits_after) && _isCount(s.days_after);
    case "review":
      return typeof s.reviewed === "string" && /^\d{4}-\d{2}-\d{2}$/.test(s.reviewed) &&
        (s.interval_days === null || _isCount(s.interval_days));
    default:
      return false;
  }
}

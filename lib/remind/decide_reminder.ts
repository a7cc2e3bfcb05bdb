/**
 * The reminder's decision (docs/design.md "The reminder"): a pure function of the
 * two timestamps, the current instant and the threshold.
 *
 * @module
 */

import { localDay } from "../core/clock.ts";

/** Milliseconds in a day: staleness is measured in elapsed time. */
const _DAY_MS = 24 * 60 * 60 * 1000;

/** The timestamps the decision reads (ISO-8601 or `null`), as in `state.json`. */
export interface ReminderState {
  /** When the docs were last checked, or `null` for never. */
  last_check: string | null;
  /** When the banner was last shown, or `null` for never. */
  last_reminded: string | null;
}

/**
 * Why the reminder shows or stays silent.
 *
 * - `fresh`: checked no more than `threshold_days` ago.
 * - `check_in_future`: `last_check` is later than now (the clock went back, or
 *   a check ran with a clock ahead); the docs count as just checked.
 * - `never_reminded`: stale, and no banner was ever shown.
 * - `reminded_today`: stale, but the banner already showed on this calendar day.
 * - `reminded_other_day`: stale, and the last banner was on another calendar
 *   day (earlier, or later when the clock went back).
 */
export type ReminderReason =
  | "fresh"
  | "check_in_future"
  | "never_reminded"
  | "reminded_today"
  | "reminded_other_day";

/** What {@linkcode decideReminder} concluded. */
export interface ReminderDecision {
  /** Whether to show the banner (and record `last_reminded = now`). */
  show: boolean;
  /** Why. */
  reason: ReminderReason;
  /** Whole days (floor) since the last check, 0 for one in the future; `null` when never checked. */
  days_since_check: number | null;
  /** The threshold the decision used, in days. */
  threshold_days: number;
}

/**
 * Decides whether the SessionStart banner shows, exactly as docs/design.md "The reminder" writes
 * it:
 *
 * ```
 * stale = last_check is null OR (now - last_check) > threshold_days
 * not stale                              -> silent
 * last_reminded is null                  -> banner
 * same calendar day(last_reminded, now)  -> silent
 * otherwise                              -> banner
 * ```
 *
 * Calendar days are those of the process's local timezone ({@linkcode localDay},
 * `TZ` honoured), not 24-hour windows. Timestamps in the future follow the
 * same rules, which gives the safe outcome in both cases: a `last_check`
 * later than now is not stale (silent until the clock passes it by the
 * threshold; `state.ts mark-checked` resets it), and a `last_reminded` on a
 * later calendar day is "another day", so the banner shows once and the write
 * of `last_reminded = now` repairs the state. A timestamp that does not parse
 * counts as `null`.
 *
 * @example
 * ```ts
 * import { decideReminder } from "./decide_reminder.ts";
 * import assert from "node:assert/strict";
 *
 * const now = new Date("2026-11-30T12:00:00.000Z");
 * const stale = { last_check: "2026-11-18T12:00:00.000Z", last_reminded: null };
 * const decision = decideReminder(stale, now, 7);
 * assert.equal(decision.show, true);
 * assert.equal(decision.days_since_check, 12);
 *
 * const fresh = { last_check: "2026-11-29T12:00:00.000Z", last_reminded: null };
 * assert.equal(decideReminder(fresh, now, 7).reason, "fresh");
 * ```
 */
export function decideReminder(
  state: ReminderState,
  now: Date,
  thresholdDays: number,
): ReminderDecision {
  const checked = _instant(state.last_check);
  const elapsed = checked === undefined ? undefined : now.getTime() - checked;
  const decision = (show: boolean, reason: ReminderReason): ReminderDecision => ({
    show,
    reason,
    days_since_check: elapsed === undefined ? null : Math.max(0, Math.floor(elapsed / _DAY_MS)),
    threshold_days: thresholdDays,
  });
  if (elapsed !== undefined && elapsed < 0) return decision(false, "check_in_future");
  if (elapsed !== undefined && elapsed <= thresholdDays * _DAY_MS) return decision(false, "fresh");
  const reminded = _instant(state.last_reminded);
  if (reminded === undefined) return decision(true, "never_reminded");
  if (localDay(new Date(reminded)) === localDay(now)) return decision(false, "reminded_today");
  return decision(true, "reminded_other_day");
}

function _instant(iso: string | null): number | undefined {
  if (iso === null) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

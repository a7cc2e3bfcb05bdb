/**
 * How old the last check is and whether the docs count as stale — the rule
 * the reminder and `state.ts show` share.
 *
 * @module
 */

const _DAY_MS = 86_400_000;

/** The derived facts of a state. */
export interface Staleness {
  /** Whole days since the last check (floor), or `null` when never checked. */
  days_since_check: number | null;
  /** Never checked, or the last check is more than `threshold_days` old. */
  stale: boolean;
}

/**
 * `stale = last_check is null OR (now - last_check) > threshold_days`, in
 * milliseconds (docs/design.md "The reminder").
 *
 * @example
 * ```ts
 * import { checkStaleness } from "./check_staleness.ts";
 * import assert from "node:assert/strict";
 *
 * const now = new Date("2026-11-30T12:00:00.000Z");
 * assert.deepEqual(checkStaleness(null, now, 7), { days_since_check: null, stale: true });
 * assert.deepEqual(
 *   checkStaleness("2026-11-18T00:00:00.000Z", now, 7),
 *   { days_since_check: 12, stale: true },
 * );
 * assert.equal(checkStaleness("2026-11-23T12:00:00.000Z", now, 7).stale, false);
 * ```
 */
export function checkStaleness(
  lastCheck: string | null,
  now: Date,
  thresholdDays: number,
): Staleness {
  if (lastCheck === null) return { days_since_check: null, stale: true };
  const elapsed = now.getTime() - Date.parse(lastCheck);
  return {
    days_since_check: Math.floor(elapsed / _DAY_MS),
    stale: elapsed > thresholdDays * _DAY_MS,
  };
}

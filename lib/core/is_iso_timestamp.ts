/**
 * Strict ISO-8601 timestamps, as reports and `state.json` carry them.
 *
 * @module
 */

/**
 * Whether `value` is a strict ISO-8601 timestamp with a real calendar date:
 * with a zone (`Z` or `±hh:mm`) and optional fraction, as reports carry; with
 * `utcMillis`, only the UTC form with milliseconds that `state.json` holds
 * (`2026-11-30T03:36:18.000Z`). Never what `Date.parse` merely tolerates
 * (`"1"`, a zoneless local time).
 *
 * @example
 * ```ts
 * import { isIsoTimestamp } from "./is_iso_timestamp.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isIsoTimestamp("2026-11-30T03:36:18+01:00"), true);
 * assert.equal(isIsoTimestamp("2026-11-30T03:36:18+01:00", { utcMillis: true }), false);
 * assert.equal(isIsoTimestamp("2026-11-30T03:36:18.000Z", { utcMillis: true }), true);
 * assert.equal(isIsoTimestamp("2026-02-30T00:00:00.000Z"), false);
 * assert.equal(isIsoTimestamp("1"), false);
 * ```
 */
export function isIsoTimestamp(
  value: unknown,
  options: { utcMillis?: boolean } = {},
): value is string {
  const m = typeof value === "string" ? _ISO.exec(value) : null;
  if (m === null || Number.isNaN(Date.parse(m[0]))) return false;
  if (options.utcMillis && (m[7]?.length !== 4 || m[8] !== "Z")) return false;
  // Date.parse accepts 2026-02-30; the calendar fields must survive a round trip.
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCDate() === d && day.getUTCMonth() === mo - 1 && h < 24 && mi < 60 && s < 60;
}

const _ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

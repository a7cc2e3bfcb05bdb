/**
 * Time as an injected dependency: every seam asks a {@linkcode Clock}, never
 * `new Date()` directly, so tests drive time with fake timers or
 * `DOCHYGIENE_NOW`.
 *
 * @module
 */

import { DochygieneError } from "./dochygiene_error.ts";
import { isIsoTimestamp } from "./is_iso_timestamp.ts";

/** A source of the current instant. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/**
 * How far two instants may disagree before one counts as a clock error: the
 * clock behind the watermark (prune defers age-based deletion), a stored time
 * ahead of now (doctor reports it, mark-checked resets it).
 */
export const CLOCK_SLACK_MS: number = 5 * 60 * 1000;

/**
 * 9999-12-31T23:59:59.999Z: the last instant an ISO-8601 time with a
 * four-digit year shows (git accepts commit dates beyond it).
 */
export const LAST_ISO_MS: number = 253_402_300_799_999;

/** 0000-01-01T00:00:00.000Z, the first instant ISO-8601 writes with four year digits. */
const _FIRST_ISO_MS = -62_167_219_200_000;

/**
 * The process clock. It reads `Date.now()` at each call, so fake timers that
 * replace `Date` drive it too.
 *
 * @example
 * ```ts
 * import { systemClock } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(systemClock.now() instanceof Date);
 * ```
 */
export const systemClock: Clock = { now: () => new Date(Date.now()) };

/**
 * A clock that always reads `instant`.
 *
 * @example
 * ```ts
 * import { fixedClock } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * const clock = fixedClock(new Date("2026-11-30T03:36:18.000Z"));
 * assert.equal(clock.now().toISOString(), "2026-11-30T03:36:18.000Z");
 * ```
 */
export function fixedClock(instant: Date): Clock {
  const ms = instant.getTime();
  return { now: () => new Date(ms) };
}

/**
 * The clock a seam runs with: `DOCHYGIENE_NOW` (an ISO-8601 instant) pins it,
 * which is how tests and the demo run the real scripts at a chosen time;
 * otherwise the system clock.
 *
 * @throws {DochygieneError} `BAD_CLOCK` (exit 2) when `DOCHYGIENE_NOW` is not a date.
 *
 * @example
 * ```ts
 * import { clockFromEnv } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * const clock = clockFromEnv("2026-01-02T03:04:05.000Z");
 * assert.equal(clock.now().toISOString(), "2026-01-02T03:04:05.000Z");
 * ```
 */
export function clockFromEnv(value: string | undefined): Clock {
  if (value === undefined || value === "") return systemClock;
  const ms = isIsoTimestamp(value) ? Date.parse(value) : NaN;
  // Outside the years 0000–9999 an instant has no ISO-8601 form for the artifacts to carry.
  if (Number.isNaN(ms) || ms < _FIRST_ISO_MS || ms > LAST_ISO_MS) {
    throw new DochygieneError(
      "BAD_CLOCK",
      `DOCHYGIENE_NOW=${
        JSON.stringify(value)
      } is not an ISO-8601 instant (a real date, a time and a zone) in the years 0000–9999; unset it or use e.g. 2026-11-30T03:36:18.000Z`,
      2,
    );
  }
  return fixedClock(new Date(ms));
}

/**
 * The calendar day of `instant` in the process's local timezone (`TZ`
 * honoured), as `YYYY-MM-DD`: the snooze unit of the reminder.
 *
 * @example
 * ```ts
 * import { localDay } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * const d = new Date(2026, 10, 30, 23, 59);
 * assert.equal(localDay(d), "2026-11-30");
 * ```
 */
export function localDay(instant: Date): string {
  const y = String(instant.getFullYear()).padStart(4, "0");
  const m = String(instant.getMonth() + 1).padStart(2, "0");
  const d = String(instant.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/**
 * Compact UTC stamp `YYYYMMDDTHHMMSSZ` used in report and corrupt-state file names.
 *
 * @example
 * ```ts
 * import { fileStamp } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fileStamp(new Date("2026-11-30T03:36:18.123Z")), "20261130T033618Z");
 * ```
 */
export function fileStamp(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

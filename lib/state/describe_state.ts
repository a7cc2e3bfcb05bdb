/**
 * What `state.ts show` prints: the state with what follows from it (days
 * since the last check, whether the docs are stale, times later than now), as
 * JSON and as text.
 *
 * @module
 */

import { CLOCK_SLACK_MS } from "../core/clock.ts";
import { escapeLines } from "../core/escape_controls.ts";
import { checkStaleness } from "./check_staleness.ts";
import { futureTimes, type State, type StateRead, type TimeKey } from "./state_file.ts";

/** What {@linkcode describeState} describes. */
export interface DescribeStateInput {
  /** The project root (absolute). */
  root: string;
  /** The state directory. */
  stateDir: string;
  /** The state file as read. */
  read: StateRead;
  /** The current instant. */
  now: Date;
  /** The config's `threshold_days`. */
  thresholdDays: number;
}

/** The JSON `state.ts show` prints. */
export interface StateShown {
  /** Always `true`. */
  ok: true;
  /** The project root. */
  root: string;
  /** The state directory. */
  state_dir: string;
  /** `ok`, `missing` or `corrupt`. */
  state_status: StateRead["status"];
  /** The state, defaults filled in. */
  state: State;
  /** Whole days since the last check, never negative; `null` when never checked. */
  days_since_check: number | null;
  /** Whether the docs are stale. */
  stale: boolean;
  /** The threshold that decides it. */
  threshold_days: number;
  /** The state's times later than now plus the clock slack. */
  future_times: TimeKey[];
}

/**
 * The state as `show` prints it: as JSON, and as text lines escaped for a
 * terminal. A check later than now counts as just checked (0 days, as for the
 * reminder), and each time later than now is said to be in the future, with the
 * way to reset them.
 *
 * @example
 * ```ts
 * import { describeState } from "./describe_state.ts";
 * import { emptyState } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const { json, text } = describeState({
 *   root: "/p",
 *   stateDir: "/p/.dochygiene",
 *   read: { state: { ...emptyState(), last_check: "2026-11-18T12:00:00.000Z" }, status: "ok" },
 *   now: new Date("2026-11-30T12:00:00.000Z"),
 *   thresholdDays: 7,
 * });
 * assert.equal(json.days_since_check, 12);
 * assert.equal(json.stale, true);
 * assert.match(text, /^last check: +2026-11-18T12:00:00\.000Z \(12 days ago\)$/m);
 * ```
 */
export function describeState(input: DescribeStateInput): { json: StateShown; text: string } {
  const { root, stateDir, now, thresholdDays } = input;
  const { state, status } = input.read;
  const derived = checkStaleness(state.last_check, now, thresholdDays);
  // A check later than now counts as just checked, as for the reminder: never a negative count.
  const days = derived.days_since_check === null ? null : Math.max(0, derived.days_since_check);
  const future = futureTimes(state, now, CLOCK_SLACK_MS);
  const when = (key: "last_reminded" | "last_prune") =>
    `${state[key] ?? "never"}${future.includes(key) ? " (in the future)" : ""}`;
  return {
    json: {
      ok: true,
      root,
      state_dir: stateDir,
      state_status: status,
      state,
      days_since_check: days,
      stale: derived.stale,
      threshold_days: thresholdDays,
      future_times: future,
    },
    text: escapeLines([
      `root:           ${root}`,
      `state:          ${stateDir}/state.json (${status})`,
      `last check:     ${
        days === null
          ? "never"
          : `${state.last_check} (${
            future.includes("last_check") ? "in the future" : `${days} days ago`
          })`
      }`,
      `stale:          ${derived.stale ? "yes" : "no"} (threshold ${thresholdDays} days)`,
      `last reminded:  ${when("last_reminded")}`,
      `last prune:     ${when("last_prune")}`,
      ...(future.length > 0
        ? [
          `in the future:  ${
            future.join(", ")
          } (now is ${now.toISOString()}); if the clock is right, run mark-checked to reset them`,
        ]
        : []),
    ]),
  };
}

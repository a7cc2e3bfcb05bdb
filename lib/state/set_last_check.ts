/**
 * Recording a check in `state.json`: what `state.ts mark-checked` and
 * `state.ts report` write.
 *
 * @module
 */

import { type Clock, CLOCK_SLACK_MS } from "../core/clock.ts";
import { futureTimes, type State, type TimeKey, updateState } from "./state_file.ts";

/** Options of {@linkcode setLastCheck}. */
export interface SetLastCheckOptions {
  /** The caller holds the state lock already (`report`: the pair and its `last_check` go together). */
  held?: boolean;
  /** Also reset every other time later than now plus the clock slack (`mark-checked`). */
  resetFuture?: boolean;
}

/** What {@linkcode setLastCheck} wrote. */
export interface LastCheckSet {
  /** The state on disk afterwards. */
  state: State;
  /** Where a corrupt state file was kept aside, or `null`. */
  keptAside: string | null;
  /** The times reset to now (with `resetFuture`). */
  reset: TimeKey[];
}

/**
 * Sets `last_check` to now. With `resetFuture`, also every other time later
 * than now plus the prune's clock slack: `mark-checked` is the user's word that
 * the clock is right, so a watermark or banner date from a clock that ran
 * ahead no longer defers prune or snoozes the reminder. `report` (run by the
 * check skill) leaves them alone.
 *
 * @example
 * ```ts
 * import { setLastCheck } from "./set_last_check.ts";
 * import { fixedClock } from "../core/clock.ts";
 * import assert from "node:assert/strict";
 *
 * const stateDir = await Deno.makeTempDir();
 * const clock = fixedClock(new Date("2026-11-30T12:00:00.000Z"));
 * const { state, keptAside, reset } = await setLastCheck(stateDir, clock);
 * assert.equal(state.last_check, "2026-11-30T12:00:00.000Z");
 * assert.equal(keptAside, null);
 * assert.deepEqual(reset, []);
 * await Deno.remove(stateDir, { recursive: true });
 * ```
 */
export async function setLastCheck(
  stateDir: string,
  clock: Clock,
  options: SetLastCheckOptions = {},
): Promise<LastCheckSet> {
  let keptAside: string | null = null;
  let reset: TimeKey[] = [];
  const now = clock.now();
  const iso = now.toISOString();
  const state = await updateState(stateDir, (s) => {
    reset = options.resetFuture ? futureTimes(s, now, CLOCK_SLACK_MS) : [];
    return { ...s, ...Object.fromEntries(reset.map((key) => [key, iso])), last_check: iso };
  }, {
    clock,
    held: options.held,
    onKeptAside: (path) => (keptAside = path),
  });
  return { state, keptAside, reset };
}

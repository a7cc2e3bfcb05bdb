/**
 * What an applied prune leaves in `state.json`: when it ran, and the clock
 * watermark that lets the next one notice a clock set back.
 *
 * @module
 */

import type { Clock } from "../core/clock.ts";
import { STATE_FILE_NAME, updateState } from "../state/state_file.ts";
import type { Plan } from "./plan_prune.ts";

/**
 * Sets `last_prune` and `clock_watermark` (never moved back) to now. The prune is
 * done by then: a failure is a warning in the plan, never a failed run, and a
 * corrupt state file kept aside is said there too.
 *
 * @example
 * ```ts
 * import { recordPrune } from "./record_prune.ts";
 * import { fixedClock } from "../core/clock.ts";
 * import type { Plan } from "./plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const stateDir = await Deno.makeTempDir();
 * const plan = { commit: null, warnings: [] } as unknown as Plan;
 * await recordPrune(stateDir, fixedClock(new Date("2026-11-30T12:00:00.000Z")), plan);
 * const state = JSON.parse(await Deno.readTextFile(`${stateDir}/state.json`));
 * assert.equal(state.last_prune, "2026-11-30T12:00:00.000Z");
 * assert.equal(state.clock_watermark, "2026-11-30T12:00:00.000Z");
 * assert.deepEqual(plan.warnings, []);
 * await Deno.remove(stateDir, { recursive: true });
 * ```
 */
export async function recordPrune(stateDir: string, clock: Clock, plan: Plan): Promise<void> {
  const now = clock.now().toISOString();
  try {
    await updateState(stateDir, (s) => ({
      ...s,
      last_prune: now,
      clock_watermark: s.clock_watermark !== null && s.clock_watermark > now
        ? s.clock_watermark
        : now,
    }), {
      clock,
      onKeptAside: (aside) =>
        plan.warnings.push(`the corrupt state file was kept aside as ${aside}`),
    });
  } catch (err) {
    plan.warnings.push(
      `the prune is done${plan.commit === null ? "" : ` (commit ${plan.commit})`} but could ` +
        `not be recorded in ${STATE_FILE_NAME} (last_prune, clock_watermark): ` +
        `${err instanceof Error ? err.message : err}. The deletions need no second run; once ` +
        `${STATE_FILE_NAME} is fixed, the next prune records its time`,
    );
  }
}

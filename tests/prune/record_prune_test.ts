import assert from "node:assert/strict";
import { join } from "node:path";
import { fixedClock } from "../../lib/core/clock.ts";
import type { Plan } from "../../lib/prune/plan_prune.ts";
import { recordPrune } from "../../lib/prune/record_prune.ts";
import { emptyState, readState } from "../../lib/state/state_file.ts";
import { tempDir } from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const clock = fixedClock(new Date(NOW));

/** The parts of a plan recordPrune reads and writes. */
function plan(commit: string | null = null): Plan {
  return { commit, warnings: [] } as unknown as Plan;
}

Deno.test("recordPrune sets last_prune and moves the clock watermark up to now, never back", async () => {
  await using dir = await tempDir();
  const later = "2027-01-01T00:00:00.000Z";
  await Deno.writeTextFile(
    join(dir.path, "state.json"),
    JSON.stringify({ ...emptyState(), clock_watermark: later, last_check: NOW }),
  );
  const p = plan();
  await recordPrune(dir.path, clock, p);
  const { state } = await readState(dir.path);
  assert.equal(state.last_prune, NOW);
  assert.equal(state.clock_watermark, later);
  assert.equal(state.last_check, NOW, "the rest of the state is kept");
  assert.deepEqual(p.warnings, []);

  await Deno.writeTextFile(
    join(dir.path, "state.json"),
    JSON.stringify({ ...emptyState(), clock_watermark: "2026-01-01T00:00:00.000Z" }),
  );
  await recordPrune(dir.path, clock, p);
  assert.equal((await readState(dir.path)).state.clock_watermark, NOW);
});

Deno.test("recordPrune over a corrupt state file keeps it aside and says so in the plan's warnings", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "state.json"), "{corrupt");
  const p = plan();
  await recordPrune(dir.path, clock, p);
  assert.deepEqual(p.warnings, [
    `the corrupt state file was kept aside as ${dir.path}/state.json.corrupt-20261130T120000Z`,
  ]);
  assert.equal((await readState(dir.path)).state.last_prune, NOW);
});

Deno.test("recordPrune that cannot write the state is a warning naming the commit, never a failure", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "state.json")); // unreadable as a state file
  const sha = "0123456789abcdef0123456789abcdef01234567";
  for (const commit of [sha, null]) {
    const p = plan(commit);
    await recordPrune(dir.path, clock, p);
    assert.equal(p.warnings.length, 1);
    assert.match(
      p.warnings[0],
      new RegExp(
        `^the prune is done${
          commit ? ` \\(commit ${sha}\\)` : ""
        } but could not be recorded in state\\.json \\(last_prune, clock_watermark\\): .+\\. ` +
          "The deletions need no second run; once state\\.json is fixed, the next prune records its time$",
      ),
    );
  }
});

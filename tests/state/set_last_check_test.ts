import assert from "node:assert/strict";
import { join } from "node:path";
import { fixedClock } from "../../lib/core/clock.ts";
import { withLock } from "../../lib/fs/with_lock.ts";
import { setLastCheck } from "../../lib/state/set_last_check.ts";
import { emptyState, readState } from "../../lib/state/state_file.ts";
import { tempDir } from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const clock = fixedClock(new Date(NOW));
const LATER = "2099-01-01T00:00:00.000Z";
const SOON = "2026-11-30T12:01:00.000Z"; // within the clock slack

async function writeState(dir: string, state: Record<string, unknown>) {
  await Deno.writeTextFile(join(dir, "state.json"), JSON.stringify({ ...emptyState(), ...state }));
}

Deno.test("setLastCheck sets last_check to now and keeps every other key, unknown ones too", async () => {
  await using dir = await tempDir();
  await writeState(dir.path, { last_reminded: LATER, other_tool: [1] });
  const { state, keptAside, reset } = await setLastCheck(dir.path, clock);
  assert.equal(state.last_check, NOW);
  assert.equal(state.last_reminded, LATER, "report leaves a future time alone");
  assert.deepEqual(state.other_tool, [1]);
  assert.equal(keptAside, null);
  assert.deepEqual(reset, []);
  assert.deepEqual((await readState(dir.path)).state, state);
});

Deno.test("setLastCheck with resetFuture resets each time later than now plus the slack, and says which", async () => {
  await using dir = await tempDir();
  await writeState(dir.path, { last_reminded: LATER, clock_watermark: LATER, last_prune: SOON });
  const { state, reset } = await setLastCheck(dir.path, clock, { resetFuture: true });
  assert.deepEqual(reset, ["last_reminded", "clock_watermark"]);
  assert.equal(state.last_reminded, NOW);
  assert.equal(state.clock_watermark, NOW);
  assert.equal(state.last_prune, SOON, "within the slack: kept");
  assert.equal(state.last_check, NOW);
});

Deno.test("setLastCheck over a corrupt state file keeps it aside and says where", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "state.json"), "{corrupt");
  const { state, keptAside } = await setLastCheck(dir.path, clock);
  assert.equal(keptAside, join(dir.path, "state.json.corrupt-20261130T120000Z"));
  assert.equal(state.last_check, NOW);
  assert.equal(await Deno.readTextFile(keptAside!), "{corrupt");
});

Deno.test("setLastCheck with held runs inside the caller's state lock", async () => {
  await using dir = await tempDir();
  const { state } = await withLock(dir.path, () => setLastCheck(dir.path, clock, { held: true }));
  assert.equal(state.last_check, NOW);
});

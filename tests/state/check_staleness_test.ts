import assert from "node:assert/strict";
import { checkStaleness } from "../../lib/state/check_staleness.ts";

const DAY = 86_400_000;
const NOW = new Date("2026-11-30T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

Deno.test("never checked is stale with no day count", () => {
  assert.deepEqual(checkStaleness(null, NOW, 7), { days_since_check: null, stale: true });
});

Deno.test("exactly the threshold is not stale; one millisecond more is", () => {
  assert.deepEqual(checkStaleness(ago(7 * DAY), NOW, 7), { days_since_check: 7, stale: false });
  assert.deepEqual(checkStaleness(ago(7 * DAY + 1), NOW, 7), { days_since_check: 7, stale: true });
});

Deno.test("days are floored", () => {
  assert.equal(checkStaleness(ago(DAY - 1), NOW, 7).days_since_check, 0);
  assert.equal(checkStaleness(ago(12 * DAY + DAY / 2), NOW, 7).days_since_check, 12);
});

Deno.test("threshold 0 makes any past check stale", () => {
  assert.equal(checkStaleness(ago(1), NOW, 0).stale, true);
  assert.equal(checkStaleness(ago(0), NOW, 0).stale, false);
});

Deno.test("a check dated in the future is not stale", () => {
  assert.deepEqual(checkStaleness(ago(-2 * DAY), NOW, 7), { days_since_check: -2, stale: false });
});

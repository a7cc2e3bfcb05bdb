import assert from "node:assert/strict";
import { describeState, type DescribeStateInput } from "../../lib/state/describe_state.ts";
import { emptyState, type State } from "../../lib/state/state_file.ts";

const NOW = new Date("2026-11-30T12:00:00.000Z");

function input(state: Partial<State> = {}, extra: Partial<DescribeStateInput> = {}) {
  return {
    root: "/p",
    stateDir: "/p/.dochygiene",
    read: { state: { ...emptyState(), ...state }, status: "ok" as const },
    now: NOW,
    thresholdDays: 7,
    ...extra,
  };
}

Deno.test("describeState: a state never checked is stale, every time 'never'", () => {
  const { json, text } = describeState(input({}, {
    read: { state: emptyState(), status: "missing" },
  }));
  assert.deepEqual(json, {
    ok: true,
    root: "/p",
    state_dir: "/p/.dochygiene",
    state_status: "missing",
    state: emptyState(),
    days_since_check: null,
    stale: true,
    threshold_days: 7,
    future_times: [],
  });
  assert.equal(
    text,
    [
      "root:           /p",
      "state:          /p/.dochygiene/state.json (missing)",
      "last check:     never",
      "stale:          yes (threshold 7 days)",
      "last reminded:  never",
      "last prune:     never",
    ].join("\n"),
  );
});

Deno.test("describeState: days since the last check against the threshold", () => {
  const { json, text } = describeState(input({
    last_check: "2026-11-27T12:00:00.000Z",
    last_reminded: "2026-11-29T08:00:00.000Z",
    last_prune: "2026-11-01T00:00:00.000Z",
  }));
  assert.equal(json.days_since_check, 3);
  assert.equal(json.stale, false);
  assert.match(text, /^last check: {5}2026-11-27T12:00:00\.000Z \(3 days ago\)$/m);
  assert.match(text, /^stale: {10}no \(threshold 7 days\)$/m);
  assert.match(text, /^last reminded: {2}2026-11-29T08:00:00\.000Z$/m);
  assert.match(text, /^last prune: {5}2026-11-01T00:00:00\.000Z$/m);
});

Deno.test("describeState: a check a little later than now (within the clock slack) is 0 days ago, never a negative count", () => {
  const { json, text } = describeState(input({ last_check: "2026-11-30T12:01:00.000Z" }));
  assert.equal(json.days_since_check, 0);
  assert.deepEqual(json.future_times, []);
  assert.match(text, /\(0 days ago\)/);
});

Deno.test("describeState: times later than now plus the slack are in the future, with the way to reset them", () => {
  const later = "2099-01-01T00:00:00.000Z";
  const { json, text } = describeState(input({
    last_check: later,
    last_prune: later,
    clock_watermark: later,
  }));
  assert.equal(json.days_since_check, 0);
  assert.deepEqual(json.future_times, ["last_check", "last_prune", "clock_watermark"]);
  assert.match(text, /^last check: {5}2099-01-01T00:00:00\.000Z \(in the future\)$/m);
  assert.match(text, /^last reminded: {2}never$/m);
  assert.match(text, /^last prune: {5}2099-01-01T00:00:00\.000Z \(in the future\)$/m);
  assert.equal(
    text.split("\n").at(-1),
    "in the future:  last_check, last_prune, clock_watermark (now is 2026-11-30T12:00:00.000Z); " +
      "if the clock is right, run mark-checked to reset them",
  );
});

Deno.test("describeState: the text escapes control characters in the root; the JSON keeps them", () => {
  const root = "/tmp/a\x1b[2Jb";
  const { json, text } = describeState(input({}, { root, stateDir: `${root}/.dochygiene` }));
  assert.equal(json.root, root);
  assert.ok(!text.includes("\x1b"));
  assert.match(text, /^root: {11}\/tmp\/a\\x1b\[2Jb$/m);
});

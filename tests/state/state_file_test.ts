import assert from "node:assert/strict";
import { fixedClock } from "../../lib/core/clock.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import {
  emptyState,
  futureTimes,
  keepCorrupt,
  MAX_STATE_BYTES,
  parseState,
  readState,
  updateState,
} from "../../lib/state/state_file.ts";
import { tempDir } from "../support/helpers.ts";

const T = "2026-11-30T03:36:18.000Z";

Deno.test("parseState accepts schema v1 with ISO-or-null times and keeps unknown keys", () => {
  const s = parseState(JSON.stringify({ schema_version: 1, last_check: T, future_key: [1] }));
  assert.deepEqual(s, { ...emptyState(), last_check: T, future_key: [1] });
});

Deno.test("parseState treats wrong shapes and types as corrupt", () => {
  for (
    const text of [
      "",
      "{oops",
      "null",
      "[]",
      '"x"',
      "{}",
      '{"schema_version": 2}',
      '{"schema_version": "1"}',
      '{"schema_version": 1, "last_check": 5}',
      '{"schema_version": 1, "last_reminded": "yesterday"}',
      '{"schema_version": 1, "clock_watermark": {}}',
    ]
  ) {
    assert.equal(parseState(text), undefined, text);
  }
});

Deno.test("parseState: a time that is not ISO-8601 UTC with milliseconds is corrupt", () => {
  for (
    const time of [
      "1",
      "2026-11-30 10:00",
      "2026-11-30T10:00:00Z",
      "2026-11-30T10:00:00.000+01:00",
      "2026-11-30T10:00:00.000",
      "2026-02-30T10:00:00.000Z",
      "Mon, 30 Nov 2026 10:00:00 GMT",
    ]
  ) {
    for (const key of ["last_check", "last_reminded", "last_prune", "clock_watermark"]) {
      const text = JSON.stringify({ schema_version: 1, [key]: time });
      assert.equal(parseState(text), undefined, text);
    }
  }
  assert.equal(parseState(JSON.stringify({ schema_version: 1, last_check: T }))?.last_check, T);
});

Deno.test("parseState: nesting deeper than 64 levels is corrupt, 64 is fine", () => {
  const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
  // The state object is level 1: its key holds levels 2 and on.
  assert.ok(parseState(`{"schema_version": 1, "deep": ${nested(63)}}`));
  assert.equal(parseState(`{"schema_version": 1, "deep": ${nested(64)}}`), undefined);
  assert.equal(parseState(`{"schema_version": 1, "deep": ${nested(100_000)}}`), undefined);
});

Deno.test("readState: a valid state.json over 1 MiB is corrupt", async () => {
  await using dir = await tempDir();
  const big = JSON.stringify({
    schema_version: 1,
    last_check: T,
    pad: "x".repeat(MAX_STATE_BYTES),
  });
  await Deno.writeTextFile(`${dir.path}/state.json`, big);
  assert.deepEqual(await readState(dir.path), { state: emptyState(), status: "corrupt" });
  const fits = JSON.stringify({ schema_version: 1, pad: "x".repeat(MAX_STATE_BYTES - 100) });
  await Deno.writeTextFile(`${dir.path}/state.json`, fits);
  assert.equal((await readState(dir.path)).status, "ok");
});

Deno.test("updateState moves a state.json over 1 MiB aside by rename: same inode, never rewritten", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/state.json`;
  await Deno.writeTextFile(path, JSON.stringify({ schema_version: 1, pad: "x".repeat(2 ** 21) }));
  const { ino, size } = await Deno.stat(path);
  let aside = "";
  await updateState(dir.path, (s) => ({ ...s, last_check: T }), {
    clock: fixedClock(new Date(T)),
    onKeptAside: (p) => (aside = p),
  });
  assert.equal(aside, `${dir.path}/state.json.corrupt-20261130T033618Z`);
  const kept = await Deno.stat(aside);
  assert.deepEqual([kept.ino, kept.size], [ino, size]);
  assert.equal((await readState(dir.path)).state.last_check, T);
});

Deno.test("updateState removes .state.json.tmp-* left by killed writers, and nothing else", async () => {
  await using dir = await tempDir();
  const leftovers = [`.state.json.tmp-1-${Date.now()}-0`, ".state.json.tmp-99999-1-3"];
  const others = [".scan.json.tmp-1-1-0", "state.json.corrupt-20261130T033618Z", "notes.txt"];
  for (const name of [...leftovers, ...others]) {
    await Deno.writeTextFile(`${dir.path}/${name}`, "{");
  }
  await updateState(dir.path, (s) => ({ ...s, last_check: T }));
  const names = (await Array.fromAsync(Deno.readDir(dir.path))).map((e) => e.name).sort();
  assert.deepEqual(names, [...others, "state.json"].sort());
});

Deno.test("futureTimes names the times later than now plus the slack", () => {
  const now = new Date(T);
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const state = {
    ...emptyState(),
    last_check: at(5 * 60_000),
    last_reminded: at(5 * 60_000 + 1),
    last_prune: at(-1),
    clock_watermark: "2099-01-01T00:00:00.000Z",
  };
  assert.deepEqual(futureTimes(state, now, 5 * 60_000), ["last_reminded", "clock_watermark"]);
  assert.deepEqual(futureTimes(emptyState(), now, 0), []);
});

Deno.test("readState: missing is never checked, corrupt is reported and left in place", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await readState(dir.path), { state: emptyState(), status: "missing" });
  await Deno.writeTextFile(`${dir.path}/state.json`, "{oops");
  assert.deepEqual(await readState(dir.path), { state: emptyState(), status: "corrupt" });
  assert.equal(await Deno.readTextFile(`${dir.path}/state.json`), "{oops");
});

Deno.test("readState on a state.json that is a directory fails with one clear line", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/state.json`);
  await assert.rejects(readState(dir.path), (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.code, "STATE_FILE_UNREADABLE");
    assert.match(err.message, /state\.json is a directory: move it away/);
    return true;
  });
  await assert.rejects(updateState(dir.path, (s) => s), DochygieneError);
  assert.ok((await Deno.lstat(`${dir.path}/state.json`)).isDirectory);
});

Deno.test("updateState preserves keys it does not know and writes pretty JSON", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(
    `${dir.path}/state.json`,
    JSON.stringify({ schema_version: 1, last_check: null, plugin_x: { n: 1 } }),
  );
  const next = await updateState(dir.path, (s) => ({ ...s, last_check: T }));
  assert.equal(next.last_check, T);
  const text = await Deno.readTextFile(`${dir.path}/state.json`);
  assert.ok(text.endsWith("}\n"));
  assert.deepEqual(JSON.parse(text).plugin_x, { n: 1 });
});

Deno.test("updateState writes nothing when change returns undefined", async () => {
  await using dir = await tempDir();
  const s = await updateState(dir.path, () => undefined);
  assert.deepEqual(s, emptyState());
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir.path))).map((e) => e.name), []);
});

Deno.test("updateState keeps a corrupt file aside, byte for byte, before writing fresh", async () => {
  await using dir = await tempDir();
  const corrupt = new Uint8Array([0x7b, 0xff, 0x00, 0x0a]);
  await Deno.writeFile(`${dir.path}/state.json`, corrupt);
  let aside = "";
  const seen: string[] = [];
  await updateState(dir.path, (s, status) => {
    seen.push(status);
    return { ...s, last_check: T };
  }, { clock: fixedClock(new Date(T)), onKeptAside: (p) => (aside = p) });
  assert.deepEqual(seen, ["corrupt"]);
  assert.equal(aside, `${dir.path}/state.json.corrupt-20261130T033618Z`);
  assert.deepEqual(await Deno.readFile(aside), corrupt);
  assert.equal((await readState(dir.path)).state.last_check, T);
});

Deno.test("keepCorrupt never overwrites an earlier kept file", async () => {
  await using dir = await tempDir();
  const now = new Date(T);
  await Deno.writeTextFile(`${dir.path}/state.json`, "first");
  const a = await keepCorrupt(dir.path, now);
  await Deno.writeTextFile(`${dir.path}/state.json`, "second");
  const b = await keepCorrupt(dir.path, now);
  assert.equal(b, `${a}-1`);
  assert.equal(await Deno.readTextFile(a), "first");
  assert.equal(await Deno.readTextFile(b), "second");
});

Deno.test("parallel updateState calls in one process lose no update", async () => {
  await using dir = await tempDir();
  await Promise.all(Array.from({ length: 25 }, (_, i) =>
    updateState(dir.path, (s) => ({
      ...s,
      writers: [...((s.writers as number[] | undefined) ?? []), i],
    }), { timeoutMs: 20_000, pollMs: 1 })));
  const { state } = await readState(dir.path);
  assert.deepEqual((state.writers as number[]).toSorted((a, b) => a - b), [...Array(25).keys()]);
});

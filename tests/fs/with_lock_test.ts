import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { join } from "node:path";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { withLock } from "../../lib/fs/with_lock.ts";
import { DENO, tempDir } from "../support/helpers.ts";

Deno.test("withLock runs fn, returns its value and leaves no file behind", async () => {
  await using dir = await tempDir();
  assert.equal(await withLock(dir.path, () => Promise.resolve("v")), "v");
  assert.deepEqual([...Deno.readDirSync(dir.path)], []);
});

Deno.test("withLock releases the lock when fn throws", async () => {
  await using dir = await tempDir();
  await assert.rejects(withLock(dir.path, () => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(await withLock(dir.path, () => Promise.resolve(1), { timeoutMs: 100 }), 1);
});

Deno.test("concurrent holders in one process never overlap", async () => {
  await using dir = await tempDir();
  let inside = 0;
  let maxInside = 0;
  const order: number[] = [];
  await Promise.all(Array.from({ length: 20 }, (_, i) =>
    withLock(dir.path, async () => {
      inside++;
      maxInside = Math.max(maxInside, inside);
      await Promise.resolve();
      order.push(i);
      inside--;
    }, { timeoutMs: 10_000, pollMs: 1 })));
  assert.equal(maxInside, 1);
  assert.equal(order.length, 20);
});

Deno.test("a lock held by another process times out with LOCK_HELD, exit 1", async () => {
  await using dir = await tempDir();
  const holder = new Deno.Command(DENO, {
    args: [
      "eval",
      `const f = await Deno.open(${JSON.stringify(dir.path)}, {read: true});
await f.lock(true); console.log("locked"); setInterval(() => {}, 60_000);`,
    ],
    stdout: "piped",
  }).spawn();
  try {
    const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.match((await reader.read()).value ?? "", /locked/);
    await assert.rejects(
      withLock(dir.path, () => Promise.resolve(), { timeoutMs: 50 }),
      (err) => {
        assert.ok(err instanceof DochygieneError);
        assert.equal(err.code, "LOCK_HELD");
        assert.equal(err.exitCode, 1);
        return true;
      },
    );
    // The owner dies holding the lock: the kernel releases it, the next caller gets in at once.
    holder.kill("SIGKILL");
    await holder.status;
    reader.releaseLock();
    assert.equal(
      await withLock(dir.path, () => Promise.resolve("after"), { timeoutMs: 2000 }),
      "after",
    );
  } finally {
    try {
      holder.kill("SIGKILL");
    } catch { /* already dead */ }
    await holder.stdout.cancel().catch(() => {});
  }
});

Deno.test("a missing state directory fails at once, without waiting and without running fn", async () => {
  await using dir = await tempDir();
  let ran = false;
  // Fake time: a wait for a lock that can never be taken would be lived through in it (and show
  // as time passed, then LOCK_HELD), not slept.
  const fake = FakeTimers.withGlobal(globalThis).install({ toFake: ["Date", "setTimeout"] });
  try {
    const attempt = withLock(join(dir.path, "gone"), () => Promise.resolve(ran = true), {
      timeoutMs: 10_000,
    }).then(() => undefined, (err: unknown) => err);
    await fake.runAllAsync();
    assert.ok((await attempt) instanceof Deno.errors.NotFound);
    assert.equal(fake.now, 0, "no time waited");
  } finally {
    fake.uninstall();
  }
  assert.equal(ran, false);
});

Deno.test("held: an inner call inside an outer withLock runs without taking the lock again", async () => {
  await using dir = await tempDir();
  const value = await withLock(dir.path, () =>
    // Without `held` this second flock on a new descriptor would wait out its timeout.
    withLock(dir.path, () => Promise.resolve("inner"), { held: true, timeoutMs: 50 }));
  assert.equal(value, "inner");
  assert.deepEqual([...Deno.readDirSync(dir.path)], []);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { DochygieneError } from "../lib/dochygiene_error.ts";
import { LOCK_NAME, withLock } from "../lib/with_lock.ts";
import { DENO, tempDir } from "./_helpers.ts";

Deno.test("withLock runs fn, returns its value and removes the lock file", async () => {
  await using dir = await tempDir();
  assert.equal(await withLock(dir.path, () => Promise.resolve("v")), "v");
  await assert.rejects(Deno.lstat(join(dir.path, LOCK_NAME)), Deno.errors.NotFound);
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
      `const f = await Deno.open(${
        JSON.stringify(join(dir.path, LOCK_NAME))
      }, {read: true, write: true, create: true});
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

Deno.test("a stale lock file left behind (no owner) does not block", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, LOCK_NAME), "left by a killed process");
  assert.equal(await withLock(dir.path, () => Promise.resolve(7), { timeoutMs: 100 }), 7);
});

Deno.test("a lock path that is a symlink or a directory is refused at once, naming it; nothing outside is touched", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  const target = join(outside.path, "target");
  await Deno.writeTextFile(target, "ORIG");
  const lock = join(dir.path, LOCK_NAME);
  for (const make of [() => Deno.symlink(target, lock), () => Deno.mkdir(lock)]) {
    await make();
    let ran = false;
    await assert.rejects(
      // timeoutMs 10 s: a wait for a lock that can never be taken would show as a timeout.
      () => withLock(dir.path, () => Promise.resolve(ran = true), { timeoutMs: 10_000 }),
      (err) =>
        err instanceof DochygieneError && err.code === "LOCK_INVALID" &&
        err.message === `${lock} is not a regular file: remove it and run again`,
    );
    assert.equal(ran, false);
    await Deno.remove(lock);
  }
  assert.equal(await Deno.readTextFile(target), "ORIG");
});

Deno.test("held: an inner call inside an outer withLock runs without taking the lock again", async () => {
  await using dir = await tempDir();
  const value = await withLock(dir.path, () =>
    // Without `held` this second flock on a new descriptor would wait out its timeout.
    withLock(dir.path, () => Promise.resolve("inner"), { held: true, timeoutMs: 50 }));
  assert.equal(value, "inner");
  await assert.rejects(Deno.lstat(join(dir.path, LOCK_NAME)), Deno.errors.NotFound);
});

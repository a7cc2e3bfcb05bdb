/**
 * A cross-process lock for read-modify-write of the state directory.
 *
 * @module
 */

import { join } from "./path.ts";
import { DochygieneError } from "./dochygiene_error.ts";

/** Options of {@linkcode withLock}. */
export interface LockOptions {
  /** Longest wait for the lock in milliseconds before giving up (default 5000). */
  timeoutMs?: number;
  /** Pause between attempts in milliseconds (default 5). */
  pollMs?: number;
  /**
   * The caller already holds this lock (an outer `withLock` on the same
   * directory): run `fn` without taking it again, so several writes can share
   * one critical section. flock is not re-entrant across file descriptions.
   */
  held?: boolean;
}

/** File name of the lock inside the state directory. */
export const LOCK_NAME = "state.lock";

/**
 * Runs `fn` while holding an exclusive advisory lock (`flock`) on
 * `<stateDir>/state.lock`. The kernel drops the lock when its owner dies, so a
 * killed process never blocks anyone; the lock file is unlinked on release and
 * a waiter that locked a file unlinked meanwhile retries on the new one, so
 * there is never more than one holder and no file is left after a clean exit.
 * Waiting is bounded by `timeoutMs`.
 *
 * @throws {DochygieneError} `LOCK_HELD` (exit 1) when the wait runs out.
 *
 * @example
 * ```ts
 * import { withLock } from "./with_lock.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const value = await withLock(dir, () => Promise.resolve(42));
 * assert.equal(value, 42);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function withLock<T>(
  stateDir: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const { timeoutMs = 5000, pollMs = 5 } = options;
  if (options.held) return await fn();
  const path = join(stateDir, LOCK_NAME);
  const deadline = Date.now() + timeoutMs;
  while (true) {
    // Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
    _assertNotOdd(path);
    const file = Deno.openSync(path, { read: true, write: true, create: true });
    let locked = false;
    try {
      locked = file.tryLockSync(true);
      if (locked && _isCurrent(file, path)) {
        try {
          return await fn();
        } finally {
          _quietly(() => Deno.removeSync(path));
          _quietly(() => file.unlockSync());
        }
      }
    } finally {
      file.close();
    }
    if (Date.now() >= deadline) {
      throw new DochygieneError(
        "LOCK_HELD",
        `${path} is held by another dochygiene process; wait for it to finish and run again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * A symlink or directory in the lock's place can never be taken (a symlink's
 * target is not the file at `path`): say so at once instead of waiting it out.
 */
function _assertNotOdd(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return; // Absent (the usual case): openSync creates it.
  }
  if (!info.isFile) {
    throw new DochygieneError(
      "LOCK_INVALID",
      `${path} is not a regular file: remove it and run again`,
    );
  }
}

/** Whether the locked handle is still the file at `path` (not unlinked by the previous holder). */
function _isCurrent(file: Deno.FsFile, path: string): boolean {
  try {
    const [held, named] = [file.statSync(), Deno.lstatSync(path)];
    return held.ino === named.ino && held.dev === named.dev;
  } catch {
    return false;
  }
}

/** Runs a best-effort cleanup step, ignoring its failure. */
function _quietly(step: () => void): void {
  try {
    step();
  } catch {
    // Already gone or already unlocked: nothing to clean up.
  }
}

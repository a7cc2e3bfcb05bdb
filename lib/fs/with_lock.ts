/**
 * A cross-process lock for read-modify-write of the state directory.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";

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

/**
 * Runs `fn` while holding an exclusive advisory lock (`flock`) on the state
 * directory itself, taken on a read-only descriptor of `stateDir`. No lock
 * file is created, so none is ever left behind, and a rename inside the
 * directory (an atomic write) never changes what is locked. The kernel drops
 * the lock when its owner dies, so a killed process never blocks anyone.
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
  const deadline = Date.now() + timeoutMs;
  // Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
  const dir = Deno.openSync(stateDir, { read: true });
  try {
    while (!dir.tryLockSync(true)) {
      if (Date.now() >= deadline) {
        throw new DochygieneError(
          "LOCK_HELD",
          `${stateDir} is locked by another dochygiene process; wait for it to finish and run again`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    // Closing the descriptor (below) releases the lock, also when `fn` throws.
    return await fn();
  } finally {
    dir.close();
  }
}

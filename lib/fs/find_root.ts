/**
 * Project-root resolution (docs/design.md "Project root").
 *
 * @module
 */

import { findEntry } from "./find_entry.ts";
import { dirname, resolve } from "./path.ts";

/**
 * Walks upward from `start` to the first directory holding a `.git` entry (a
 * directory, or a file as in worktrees and submodules) and returns it as an
 * absolute path. When there is none, `start` itself (made absolute) is the
 * root. Never spawns git: the hook calls this on its start-up path.
 *
 * @example
 * ```ts
 * import { findRoot } from "./find_root.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/.git`);
 * await Deno.mkdir(`${dir}/docs/deep`, { recursive: true });
 * assert.equal(await findRoot(`${dir}/docs/deep`), dir);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
// Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
// deno-lint-ignore require-await
export async function findRoot(start: string): Promise<string> {
  const origin = resolve(start);
  let dir = origin;
  while (true) {
    if (_hasGit(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return origin;
    dir = parent;
  }
}

/** Whether `dir` holds a `.git` entry of any kind (one `lstat`). */
function _hasGit(dir: string): boolean {
  try {
    return findEntry(dir, ".git") !== undefined;
  } catch {
    return false; // `dir` cannot be searched: no root found here
  }
}

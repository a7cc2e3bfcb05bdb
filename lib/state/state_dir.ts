/**
 * The state-directory guard: `<root>/.dochygiene` must be a real directory
 * inside the root, and the process must hold write permission for it.
 *
 * @module
 */

import { join } from "../fs/path.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { findEntry } from "../fs/find_entry.ts";
import { atomicWrite } from "../fs/atomic_write.ts";

/** Name of the state directory inside the root. */
export const STATE_DIR_NAME = ".dochygiene";

/**
 * Name of the state directory's own ignore file: like pytest's `.pytest_cache`,
 * the directory tells git to ignore it, so nothing of the user's is edited.
 */
export const STATE_GITIGNORE_NAME = ".gitignore";

/** The content of {@linkcode STATE_GITIGNORE_NAME}: `*` ignores the directory, itself included. */
export const STATE_GITIGNORE_TEXT = "# Created by dochygiene automatically.\n*\n";

/**
 * Returns `<root>/.dochygiene` after checking that, if it exists, it is a real
 * directory (not a symlink, not a file), and so lies inside the root.
 * A missing directory is fine: {@linkcode ensureStateDir} creates it.
 *
 * @throws {DochygieneError} `STATE_DIR_SYMLINK` or `STATE_DIR_INVALID` (exit 1).
 *
 * @example
 * ```ts
 * import { resolveStateDir } from "./state_dir.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * assert.equal(await resolveStateDir(root), `${root}/.dochygiene`);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
// Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
// deno-lint-ignore require-await
export async function resolveStateDir(root: string): Promise<string> {
  const dir = join(root, STATE_DIR_NAME);
  const info = _inspect(root, dir);
  if (info === undefined) return dir;
  if (info.isSymlink) {
    throw new DochygieneError(
      "STATE_DIR_SYMLINK",
      `${dir} is a symlink; dochygiene only uses a real directory inside the root: remove the link and run again`,
    );
  }
  if (!info.isDirectory) {
    throw new DochygieneError(
      "STATE_DIR_INVALID",
      `${dir} is not a directory; move it away and run again`,
    );
  }
  // A directory entry of the root that is not a symlink lies inside the root by
  // construction (its real path is the root's plus its name): no realpath needed.
  return dir;
}

/**
 * Like {@linkcode resolveStateDir}, and creates the directory when missing.
 * The directory then carries its own `.gitignore` (`*`), written atomically
 * when absent (an existing directory gets it on its next write), so that git
 * never offers the state for a commit; one the user changed is left alone.
 *
 * @example
 * ```ts
 * import { ensureStateDir } from "./state_dir.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const dir = await ensureStateDir(root);
 * assert.ok((await Deno.lstat(dir)).isDirectory);
 * assert.equal(await Deno.readTextFile(`${dir}/.gitignore`), "# Created by dochygiene automatically.\n*\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function ensureStateDir(root: string): Promise<string> {
  const dir = await resolveStateDir(root);
  try {
    Deno.mkdirSync(dir);
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw _writeError(dir, err);
  }
  // Re-check: something may have raced a symlink into place.
  await resolveStateDir(root);
  await _ensureGitignore(dir);
  return dir;
}

/**
 * Writes `dir/.gitignore` when there is no entry of that name. Best effort: a
 * directory that takes no new file fails the write that follows with its own
 * message, and `doctor` reports what git then sees.
 */
async function _ensureGitignore(dir: string): Promise<void> {
  try {
    if (findEntry(dir, STATE_GITIGNORE_NAME) !== undefined) return;
    await atomicWrite(join(dir, STATE_GITIGNORE_NAME), STATE_GITIGNORE_TEXT);
  } catch (err) {
    // Deno's sandbox said no: the seams name the flags for that.
    if (err instanceof Deno.errors.NotCapable) throw err;
  }
}

/**
 * Throws unless the process holds write permission for `stateDir` (Deno's
 * permission set, not the file mode). With `--allow-write=.dochygiene` that is
 * only true when the process started in the root.
 *
 * @throws {DochygieneError} `NO_WRITE_PERMISSION` (exit 1), naming the root and the flag to use.
 *
 * @example
 * ```ts
 * import { assertWritePermission } from "./state_dir.ts";
 *
 * // Under `deno test --allow-write` this passes for any directory.
 * assertWritePermission("/tmp/x/.dochygiene", "/tmp/x");
 * ```
 */
export function assertWritePermission(stateDir: string, root: string): void {
  if (hasWritePermission(stateDir)) return;
  throw new DochygieneError(
    "NO_WRITE_PERMISSION",
    `no write permission for ${stateDir}: run from the project root (cd ${root}) so that --allow-write=.dochygiene names it, or pass --allow-write=${stateDir}`,
  );
}

/**
 * Whether the process may write `stateDir` under its Deno permissions.
 *
 * @example
 * ```ts
 * import { hasWritePermission } from "./state_dir.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof hasWritePermission("/tmp/.dochygiene"), "boolean");
 * ```
 */
export function hasWritePermission(stateDir: string): boolean {
  return Deno.permissions.querySync({ name: "write", path: stateDir }).state === "granted";
}

/**
 * The kind of `<root>/.dochygiene` without following a symlink, or `undefined`
 * when absent (see `findEntry`).
 */
function _inspect(root: string, dir: string): Deno.FileInfo | undefined {
  try {
    return findEntry(root, STATE_DIR_NAME);
  } catch (err) {
    // Deno's sandbox said no (--deny-read): the seams name the flags for that.
    if (err instanceof Deno.errors.NotCapable) throw err;
    throw new DochygieneError(
      "STATE_DIR_INVALID",
      `cannot inspect ${dir}: ${_reason(err)}; fix its permissions`,
    );
  }
}

function _reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function _writeError(dir: string, err: unknown): DochygieneError {
  return new DochygieneError("STATE_DIR_INVALID", `cannot create ${dir}: ${_reason(err)}`);
}

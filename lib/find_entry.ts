/**
 * An entry of a directory, looked up in its listing rather than with `stat`.
 *
 * @module
 */

/**
 * Returns the entry named `name` in the listing of `dir` (its kind without
 * following a symlink, as `lstat` would tell), or `undefined` when there is
 * none. The start-up path of the SessionStart hook uses this instead of
 * `stat`: an absent file costs no thrown `NotFound` (Deno's first thrown error
 * costs ~0.5 ms) and no `FileInfo` is built. A directory that cannot be listed
 * (search permission only, or missing) is asked with `lstat` instead.
 *
 * @throws {Deno.errors.PermissionDenied} and the like when neither can tell.
 *
 * @example
 * ```ts
 * import { findEntry } from "./find_entry.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/state.json`, "{}");
 * assert.equal(findEntry(dir, "state.json")?.isFile, true);
 * assert.equal(findEntry(dir, "absent.json"), undefined);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function findEntry(dir: string, name: string): Deno.DirEntry | Deno.FileInfo | undefined {
  try {
    for (const entry of Deno.readDirSync(dir)) if (entry.name === name) return entry;
    return undefined;
  } catch {
    // Not listable: lstat can still see the entry when the directory may be searched.
  }
  try {
    return Deno.lstatSync(`${dir}/${name}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

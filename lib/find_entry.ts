/**
 * An entry of a directory, looked up in its listing rather than with `stat`.
 *
 * @module
 */

/**
 * Returns the entry named `name` in the listing of `dir` (its kind without
 * following a symlink, as `lstat` would tell), or `undefined` when `dir` does
 * not list it. The start-up path of the SessionStart hook uses this instead of
 * `stat`: an absent file costs no thrown `NotFound` (Deno's first thrown error
 * costs ~0.5 ms) and no `FileInfo` is built.
 *
 * @throws {Deno.errors.NotFound} and the like when `dir` itself cannot be listed.
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
export function findEntry(dir: string, name: string): Deno.DirEntry | undefined {
  for (const entry of Deno.readDirSync(dir)) if (entry.name === name) return entry;
  return undefined;
}

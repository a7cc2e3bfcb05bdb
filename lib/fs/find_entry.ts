/**
 * An entry of a directory, looked up by name with `lstat`.
 *
 * @module
 */

/**
 * Returns what `lstat` tells of `dir/name` (its kind without following a
 * symlink, and its size), or `undefined` when there is no such entry. The
 * start-up path of the SessionStart hook uses this for `.git`, `.dochygiene`,
 * `state.json` and `.dochygiene.yml`: one `lstat` costs the same in any
 * directory, where reading the listing cost ~0.6 ms in a small root, ~140 ms
 * with 20,000 entries in it and seconds with 200,000 (measured). A miss costs
 * Deno's thrown `NotFound` (~0.25 ms the first time), a hit nothing more.
 *
 * @throws {Deno.errors.PermissionDenied} and the like when `dir` cannot be searched.
 *
 * @example
 * ```ts
 * import { findEntry } from "./find_entry.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/state.json`, "{}");
 * assert.equal(findEntry(dir, "state.json")?.isFile, true);
 * assert.equal(findEntry(dir, "state.json")?.size, 2);
 * assert.equal(findEntry(dir, "absent.json"), undefined);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function findEntry(dir: string, name: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(`${dir}/${name}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

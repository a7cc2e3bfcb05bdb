/**
 * Whether something is at a path, without following a final symlink.
 *
 * @module
 */

/**
 * Whether `path` names an entry of any kind (a dangling symlink counts); any
 * error of `lstat` (missing, unreadable parent) is `false`.
 *
 * @example
 * ```ts
 * import { pathExists } from "./path_exists.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(await pathExists(Deno.cwd()));
 * assert.ok(!(await pathExists(`${Deno.cwd()}/no such entry`)));
 * ```
 */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

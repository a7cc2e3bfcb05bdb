/**
 * Which prune unit a path belongs to.
 *
 * @module
 */

/**
 * Maps a path to the unit of `units` it is (a file unit) or is in (a
 * directory unit, written with a trailing `/`); `undefined` for none. One set
 * lookup per directory level of the path, whatever the number of units.
 *
 * @example
 * ```ts
 * import { unitFinder } from "./unit_finder.ts";
 * import assert from "node:assert/strict";
 *
 * const unitOf = unitFinder(["notes/a.md", "runs/r1/"]);
 * assert.equal(unitOf("runs/r1/deep/x.md"), "runs/r1/");
 * assert.equal(unitOf("notes/a.md"), "notes/a.md");
 * assert.equal(unitOf("notes/b.md"), undefined);
 * ```
 */
export function unitFinder(units: readonly string[]): (path: string) => string | undefined {
  const set = new Set(units);
  return (path) => {
    if (set.has(path)) return path;
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
      const dir = path.slice(0, i + 1);
      if (set.has(dir)) return dir;
    }
    return undefined;
  };
}

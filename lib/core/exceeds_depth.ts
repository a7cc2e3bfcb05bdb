/**
 * The nesting limit of the JSON dochygiene reads (reports, `state.json`).
 *
 * @module
 */

/**
 * Deepest nesting of objects and lists accepted in a report or in the state
 * file (a bare object is one level): serialising a value nested 100,000 levels
 * deep overflows the call stack, so such input is refused as soon as it is read.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects and lists more than `maxDepth` levels deep (a
 * bare object or list is one level, a scalar none). The walk is iterative, so
 * the hostile input it exists for cannot overflow the stack here either.
 *
 * @example
 * ```ts
 * import { exceedsDepth } from "./exceeds_depth.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(exceedsDepth({ a: [1, { b: 2 }] }, 3), false);
 * assert.equal(exceedsDepth({ a: [1, { b: [] }] }, 3), true);
 * assert.equal(exceedsDepth(JSON.parse("[".repeat(100_000) + "]".repeat(100_000))), true);
 * ```
 */
export function exceedsDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item;
    if (typeof node !== "object" || node === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

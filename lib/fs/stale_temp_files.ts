/**
 * The temp files killed writers left behind (see `atomicWrite`), told apart
 * from a write in flight by their age.
 *
 * @module
 */

import { tempFileOf } from "./atomic_write.ts";

/**
 * A temp file this much older (or younger: the clock was set back) than its name's stamp is no
 * live write's (each takes milliseconds).
 */
export const STALE_TEMP_MS = 60_000;

/**
 * The names of the {@linkcode atomicWrite}-style temp files in `dir` whose
 * name's stamp (epoch milliseconds) is more than {@linkcode STALE_TEMP_MS}
 * from `nowMs`, either way, sorted; only those for `target` when given. A younger one
 * may be a write in flight.
 *
 * @example
 * ```ts
 * import { staleTempFiles } from "./stale_temp_files.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/.scan.json.tmp-1-1000-0`, "{");
 * await Deno.writeTextFile(`${dir}/.state.json.tmp-1-1000-0`, "{");
 * await Deno.writeTextFile(`${dir}/.scan.json.tmp-2-${Date.now()}-0`, "{");
 * assert.deepEqual(staleTempFiles(dir, Date.now(), "scan.json"), [".scan.json.tmp-1-1000-0"]);
 * assert.equal(staleTempFiles(dir, Date.now()).length, 2);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function staleTempFiles(dir: string, nowMs: number, target?: string): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const temp = tempFileOf(entry.name);
    if (temp === undefined || (target !== undefined && temp.target !== target)) continue;
    // Stamped over a minute ahead: by a clock since set back, not by a write in flight.
    if (Math.abs(nowMs - temp.stampMs) > STALE_TEMP_MS) names.push(entry.name);
  }
  return names.sort();
}

/**
 * Links that a prune would leave dangling: in the docs that stay, the links
 * whose targets lie in what is deleted.
 *
 * @module
 */

import { byCodePoint } from "../core/by_code_point.ts";
import type { Dangling } from "./plan_prune.ts";

/**
 * Finds `{from, line, to}` for every link of a surviving doc (one not inside
 * a deleted unit) that resolves into a deleted unit (`to` is the unit: the
 * file, or the directory with its trailing `/`). `resolve` maps a link to a
 * root-relative path (or `undefined` for external links and same-file anchors), e.g. `resolveLink`.
 *
 * @example
 * ```ts
 * import { findDangling } from "./find_dangling.ts";
 * import assert from "node:assert/strict";
 *
 * const docs = new Map([
 *   ["README.md", [{ line: 3, target: "runs/r1/notes.md" }, { line: 4, target: "docs/a.md" }]],
 *   ["runs/r1/notes.md", [{ line: 1, target: "../../README.md" }]],
 * ]);
 * const resolve = (from: string, target: string) =>
 *   from === "README.md" ? { path: target } : { path: "README.md" };
 * assert.deepEqual(findDangling(docs, ["runs/r1/"], resolve), [
 *   { from: "README.md", line: 3, to: "runs/r1/" },
 * ]);
 * ```
 */
export function findDangling(
  docs: ReadonlyMap<string, readonly { line: number; target: string }[]>,
  deleted: readonly string[],
  resolve: (from: string, target: string) => { path: string | undefined } | undefined,
): Dangling[] {
  if (deleted.length === 0) return [];
  const units = new Set(deleted);
  const into = (path: string): string | undefined => {
    const bare = path.replace(/\/+$/, "");
    if (units.has(bare)) return bare;
    if (units.has(`${bare}/`)) return `${bare}/`;
    let i = bare.indexOf("/");
    while (i >= 0) {
      const dir = bare.slice(0, i + 1);
      if (units.has(dir)) return dir;
      i = bare.indexOf("/", i + 1);
    }
    return undefined;
  };
  const out: Dangling[] = [];
  for (const [from, links] of docs) {
    if (into(from) !== undefined) continue;
    for (const link of links) {
      const target = resolve(from, link.target);
      const to = target?.path === undefined ? undefined : into(target.path);
      if (to !== undefined) out.push({ from, line: link.line, to });
    }
  }
  return out.sort((a, b) =>
    byCodePoint(a.from, b.from) || a.line - b.line || byCodePoint(a.to, b.to)
  );
}

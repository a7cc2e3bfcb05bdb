/**
 * Near misses of missing paths (docs/signals.md "Inline-code paths"): a
 * listed path a missing one is the tail of, given to the scan's signals once
 * every doc's are known.
 *
 * @module
 */

import type { ListedFile } from "../git/list_candidates.ts";
import type { MissingPath } from "../links/check_doc_links.ts";
import { TailIndex } from "../links/tail_index.ts";
import type { Signal } from "./scan_docs.ts";

/**
 * Gives each missing path its near miss, in place in `signals`: `hint`, the
 * one listed file it is the tail of (`references/x.md` of
 * `skills/y/references/x.md`), or `candidates`, how many there are. `misses`
 * holds each doc's `missing_path` signals, doc by doc, in the order its list
 * holds them (a suppressed one is no longer in it). One pass over the listing
 * for them all, one over each doc's list.
 *
 * @example
 * ```ts
 * import { giveNearMisses } from "./_near_misses.ts";
 * import type { Signal } from "./scan_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const miss = { kind: "missing_path" as const, line: 3, path: "references/x.md" };
 * const signals: Record<string, Signal[]> = { "a.md": [miss] };
 * const files = [{ path: "skills/y/references/x.md", type: "file" as const, tracked: true }];
 * giveNearMisses([["a.md", miss]], files, signals);
 * assert.deepEqual(signals["a.md"], [{ ...miss, hint: "skills/y/references/x.md" }]);
 * ```
 */
export function giveNearMisses(
  misses: readonly (readonly [path: string, signal: MissingPath])[],
  files: readonly ListedFile[],
  signals: Record<string, Signal[]>,
): void {
  if (misses.length === 0) return;
  const paths: string[] = [];
  for (const file of files) if (file.type === "file") paths.push(file.path);
  const tails = new TailIndex(paths, misses.map(([, signal]) => signal.path));
  // No listed file has a missing path's name (most often so): no near miss at all.
  if (tails.named === 0) return;
  for (let from = 0, to = 0; from < misses.length; from = to) {
    const path = misses[from][0];
    while (to < misses.length && misses[to][0] === path) to++;
    // The doc's list holds its misses in the same order, less the suppressed ones.
    const list = signals[path];
    let k = from;
    for (let at = 0; at < list.length && k < to; at++) {
      if (list[at].kind !== "missing_path") continue;
      while (k < to && misses[k][1] !== list[at]) k++;
      if (k === to) break;
      const signal = misses[k++][1];
      const near = tails.of(signal.path);
      if (near === undefined) continue;
      list[at] = near.count === 1
        ? { ...signal, hint: near.first }
        : { ...signal, candidates: near.count };
    }
  }
}

/**
 * The real index's entries under the units an apply deletes (docs/design.md
 * "Lifecycle deletion", "Apply"): read once to snapshot them, and again to see
 * that nothing under the units changed since.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { decodePath } from "../core/decode_path.ts";
import { type Git, records } from "./_prune_git.ts";

/** An index entry under a unit: its `ls-files -s -v` record (tag, space, `ls-files -s` record). */
export interface IndexEntry {
  /** The file's path. */
  path: string;
  /** The unit it is in. */
  unit: string;
  /** Its `ls-files -s -v` record, re-fed verbatim (less the tag) on restore. */
  tagged: Uint8Array;
}

/** What {@linkcode readIndex} found. */
export interface IndexRead {
  /** The stage-0 entries under the units. */
  entries: IndexEntry[];
  /** Units holding a file git hides changes of, with that file. */
  hidden: Map<string, string>;
  /** Whether any entry of the whole index is unmerged. */
  unmerged: boolean;
}

/** Reads the index (one `git ls-files -s -v -z`): the entries under the units of `unitOf`. */
export async function readIndex(
  git: Git,
  unitOf: (path: string) => string | undefined,
): Promise<IndexRead> {
  const out = await git(["ls-files", "-s", "-v", "-z"]);
  const index: IndexRead = { entries: [], hidden: new Map(), unmerged: false };
  for (const tagged of records(out.stdout)) {
    const record = tagged.subarray(2);
    const tab = record.indexOf(0x09);
    if (tab < 0) continue;
    if (record[tab - 1] !== 0x30 /* stage 0 */) {
      index.unmerged = true;
      continue;
    }
    const path = decodePath(record.subarray(tab + 1));
    const unit = unitOf(path);
    if (unit === undefined) continue;
    index.entries.push({ path, unit, tagged });
    // Git hides changes to skip-worktree (S) and assume-unchanged (lowercase) files
    // from status and from git rm: such a unit's state cannot be verified.
    if (tagged[0] !== 0x48 /* H */ && !index.hidden.has(unit)) index.hidden.set(unit, path);
  }
  return index;
}

/** What differs between the snapshot's entries and the index read now, or `undefined`. */
export function indexDrift(before: readonly IndexEntry[], now: IndexRead): string | undefined {
  if (now.unmerged) return "the index got unresolved conflicts";
  const was = new Map(before.map((e) => [e.path, e.tagged]));
  for (const e of now.entries) {
    const old = was.get(e.path);
    if (old === undefined) return `${e.path} was added to the index in ${e.unit}`;
    if (Buffer.compare(old, e.tagged) !== 0) return `${e.path} changed in the index`;
    was.delete(e.path);
  }
  const [gone] = was.keys();
  return gone === undefined ? undefined : `${gone} was removed from the index`;
}

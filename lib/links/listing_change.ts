/**
 * What changed between two listings, told doc by doc for the scan cache: a
 * doc's link facts still hold under the new listing while nothing they were
 * looked up against changed.
 *
 * @module
 */

import type { PathIndexSource } from "./path_index.ts";

/**
 * The paths whose existence differs between two listings (files, and the
 * directories that hold them), and whether a doc's link facts may have
 * changed with them.
 *
 * A link check asks the listing whether each resolved target exists (a
 * target it found is then in the doc's `targets`), and of one that does not
 * (in its `probed`) also whether a path differing only by letter case
 * exists, whether `<path>.md` does, whether its directory does and how many
 * entries that holds. So a doc is touched when one of its targets changed,
 * or when a probed path, the same with `.md`, or its directory, in any
 * letter case, changed or is the directory of one that did. Listings whose
 * symlinks, submodules or opaque directories differ are not compared at all.
 *
 * @example
 * ```ts
 * import { ListingChange } from "./listing_change.ts";
 * import assert from "node:assert/strict";
 *
 * const before = { paths: ["a.md", "docs/b.md"], nonFiles: [], opaque: [] };
 * const after = { paths: ["a.md", "docs/b.md", "docs/c.md"], nonFiles: [], opaque: [] };
 * const change = ListingChange.between(before, after)!;
 * assert.ok(!change.touches(["docs/b.md"], ["gone.md"]));
 * assert.ok(change.touches([], ["docs/C.md"])); // now a case near miss
 * assert.ok(change.touches([], ["docs/c"])); // now an extension near miss
 * assert.ok(change.touches([], ["docs/x.md"])); // its directory holds one more
 * assert.equal(ListingChange.between(before, { ...after, nonFiles: ["docs/c.md"] }), undefined);
 * ```
 */
export class ListingChange {
  /** The paths (and directories) that exist in one listing only. */
  #changed: Set<string>;
  /** Those lower-cased, and their directories lower-cased. */
  #lower: Set<string>;
  #lowerDirs: Set<string>;

  private constructor(changed: Set<string>) {
    this.#changed = changed;
    this.#lower = new Set();
    this.#lowerDirs = new Set();
    for (const path of changed) {
      const lower = path.toLowerCase();
      this.#lower.add(lower);
      this.#lowerDirs.add(_dir(lower));
    }
  }

  /**
   * The change from `before` to `after`; `undefined` when their non-files,
   * opaque directories or docs sites differ (what lies beneath those is not
   * judged, and a site changes where site-root links lead: every doc is
   * checked again).
   */
  static between(before: PathIndexSource, after: PathIndexSource): ListingChange | undefined {
    if (
      !_same(before.nonFiles, after.nonFiles) || !_same(before.opaque, after.opaque) ||
      before.site?.root !== after.site?.root || before.site?.rootLinks !== after.site?.rootLinks
    ) {
      return undefined;
    }
    const was = _existing(before);
    const is = _existing(after);
    const changed = new Set<string>();
    for (const path of was) if (!is.has(path)) changed.add(path);
    for (const path of is) if (!was.has(path)) changed.add(path);
    return new ListingChange(changed);
  }

  /** Whether link facts made from these existing `targets` and `probed` paths may have changed. */
  touches(targets: readonly string[], probed: readonly string[]): boolean {
    if (this.#changed.size === 0) return false;
    for (const target of targets) if (this.#changed.has(target)) return true;
    for (const path of probed) {
      const lower = path.toLowerCase();
      const dir = _dir(lower);
      if (
        this.#lower.has(lower) || this.#lower.has(`${lower}.md`) || this.#lower.has(dir) ||
        this.#lowerDirs.has(dir)
      ) {
        return true;
      }
    }
    return false;
  }
}

/** Every path a link check finds listed: the paths, the opaque directories, and their directories. */
function _existing(source: PathIndexSource): Set<string> {
  const exists = new Set<string>([""]);
  for (const list of [source.paths, source.opaque]) {
    for (const path of list) {
      exists.add(path);
      for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
        const dir = path.slice(0, i);
        if (exists.has(dir)) break;
        exists.add(dir);
      }
    }
  }
  return exists;
}

/** The directory of a root-relative path (`""` for the root). */
function _dir(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function _same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * What link targets and inline-code paths are checked against: the listing's
 * paths, their directories, and the directories whose contents are unknown.
 *
 * @module
 */

import type { ListedFile } from "./list_candidates.ts";
import { ALWAYS_EXCLUDED_DIRS } from "./load_config.ts";

/** The listing facts a {@linkcode PathIndex} is built from (plain data: it crosses to helper threads). */
export interface PathIndexSource {
  /** Every listed path (files, symlinks, submodules), root-relative with `/`. */
  paths: readonly string[];
  /** The listed paths that are not regular files (symlinks, submodules): their contents are unknown. */
  nonFiles: readonly string[];
  /** Directories whose contents are unknown (see `CandidateListing.opaque`). */
  opaque: readonly string[];
}

/**
 * The listing facts a {@linkcode PathIndex} is built from, as plain data (it
 * crosses to the reading threads, which check links as they read).
 *
 * @example
 * ```ts
 * import { pathIndexSource } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * const files = [
 *   { path: "a.md", tracked: true, type: "file" as const },
 *   { path: "vendor", tracked: true, type: "gitlink" as const },
 * ];
 * assert.deepEqual(pathIndexSource(files, ["build"]), {
 *   paths: ["a.md", "vendor"],
 *   nonFiles: ["vendor"],
 *   opaque: ["build"],
 * });
 * ```
 */
export function pathIndexSource(
  files: readonly ListedFile[],
  opaque: readonly string[],
): PathIndexSource {
  const paths: string[] = [];
  const nonFiles: string[] = [];
  for (const file of files) {
    paths.push(file.path);
    if (file.type !== "file") nonFiles.push(file.path);
  }
  return { paths, nonFiles, opaque: [...opaque] };
}

/**
 * What is known about a resolved link target: it exists, it is under an
 * opaque directory (not checked), or it is missing (with its near-miss hint).
 */
export type TargetState = "exists" | "opaque" | "case" | "extension" | null;

/**
 * The set of existing root-relative paths (files and every ancestor directory;
 * the root is `""`), with the near-miss hints of a missing one and the on-disk
 * fallback for gitignored paths, memoised.
 *
 * @example
 * ```ts
 * import { PathIndex } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new PathIndex({ paths: ["docs/A.md", "vendor"], nonFiles: ["vendor"], opaque: [] });
 * assert.ok(index.exists("docs/A.md"));
 * assert.ok(index.listed("docs/A.md"));
 * assert.ok(index.exists("docs"));
 * assert.ok(!index.exists("docs/a.md"));
 * assert.equal(index.classify("docs/a.md"), "case");
 * assert.equal(index.classify("docs/A"), "extension");
 * assert.equal(index.classify("vendor/x.md"), "opaque");
 * assert.ok(index.isOpaque("vendor/x.md"));
 * ```
 */
export class PathIndex {
  #exists = new Set<string>([""]);
  #folded: Set<string> | undefined;
  #opaque: Set<string>;
  /** First segments of the opaque paths: a path under none of them is under no opaque directory. */
  #opaqueTops = new Set<string>();
  #onDisk: ((path: string) => boolean) | undefined;
  #seen = new Map<string, boolean>();

  /**
   * Builds the index. `onDisk` tells whether a path the listing does not hold
   * exists on disk all the same (a gitignored build output); it is asked only
   * for paths with no listed namesake of any letter case. Default: never.
   */
  constructor(source: PathIndexSource, onDisk?: (path: string) => boolean) {
    const exists = this.#exists;
    for (const path of source.paths) _addWithAncestors(exists, path);
    for (const dir of source.opaque) _addWithAncestors(exists, dir);
    // The state and git directories are never listed: paths into them are not checked.
    this.#opaque = new Set([...source.opaque, ...source.nonFiles, ...ALWAYS_EXCLUDED_DIRS]);
    for (const dir of this.#opaque) this.#opaqueTops.add(dir.split("/")[0]);
    this.#onDisk = onDisk;
  }

  /** Listed exactly (a file, or a directory holding one): the common case, one set lookup. */
  listed(path: string): boolean {
    return this.#exists.has(path);
  }

  /** Listed (exactly), or on disk when no listed path differs from it only by letter case. */
  exists(path: string): boolean {
    if (this.#exists.has(path)) return true;
    if (this.#onDisk === undefined || this.#foldedSet().has(path.toLowerCase())) return false;
    return this.#onDiskMemo(path);
  }

  #onDiskMemo(path: string): boolean {
    let found = this.#seen.get(path);
    if (found === undefined) this.#seen.set(path, found = this.#onDisk!(path));
    return found;
  }

  /** Whether `path` is, or is under, a directory whose contents are unknown. */
  isOpaque(path: string): boolean {
    if (this.#opaque.has(path)) return true;
    const slash = path.indexOf("/");
    if (slash < 0 || !this.#opaqueTops.has(path.slice(0, slash))) return false;
    for (let i = slash; i > 0; i = path.indexOf("/", i + 1)) {
      if (this.#opaque.has(path.slice(0, i))) return true;
    }
    return false;
  }

  /**
   * What a link target is: `exists` (see {@linkcode PathIndex.exists}),
   * `opaque` (under a directory whose contents are unknown), or missing with
   * its near miss: `case` when a listed path differs only by letter case,
   * `extension` when `<path>.md` is listed, else `null`.
   */
  classify(path: string): TargetState {
    if (this.#exists.has(path)) return "exists";
    const caseTwin = this.#foldedSet().has(path.toLowerCase());
    if (!caseTwin && this.#onDisk !== undefined && this.#onDiskMemo(path)) return "exists";
    if (this.isOpaque(path)) return "opaque";
    return caseTwin ? "case" : this.#exists.has(`${path}.md`) ? "extension" : null;
  }

  /** The lower-cased paths, built on first need (most scans have few missing targets). */
  #foldedSet(): Set<string> {
    if (this.#folded === undefined) {
      this.#folded = new Set();
      for (const path of this.#exists) this.#folded.add(path.toLowerCase());
    }
    return this.#folded;
  }
}

/** Adds `path` and its ancestor directories (stopping at the first already known). */
function _addWithAncestors(exists: Set<string>, path: string): void {
  exists.add(path);
  for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
    const dir = path.slice(0, i);
    if (exists.has(dir)) break;
    exists.add(dir);
  }
}

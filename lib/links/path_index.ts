/**
 * What link targets and inline-code paths are checked against: the listing's
 * paths, their directories, and the directories whose contents are unknown.
 *
 * @module
 */

import type { DirEntries } from "../fs/dir_entries.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { ALWAYS_EXCLUDED_DIRS } from "../config/load_config.ts";

/** The listing facts a {@linkcode PathIndex} is built from (plain data: it crosses to helper threads). */
export interface PathIndexSource {
  /** Every listed path (files, symlinks, submodules), root-relative with `/`. */
  paths: readonly string[];
  /** The listed paths that are not regular files (symlinks, submodules): their contents are unknown. */
  nonFiles: readonly string[];
  /** Directories whose contents are unknown (see `CandidateListing.opaque`). */
  opaque: readonly string[];
  /**
   * Where a link starting with `/` leads from a doc under a docs site's
   * source `root` (see `Site`): against that root when `rootLinks`, else
   * nowhere (not checked). Absent for a plain repository: such links lead
   * from the repository root, as GitHub renders them.
   */
  site?: LinkSite;
}

/** What the link check knows of a docs site (see {@linkcode PathIndexSource}). */
export interface LinkSite {
  /** The site's source root, root-relative, without a trailing `/` (`""`: the repository root). */
  root: string;
  /** Whether its site-root links (`/guide/x`) are checked against `root`. */
  rootLinks: boolean;
}

/**
 * The listing facts a {@linkcode PathIndex} is built from, as plain data (it
 * crosses to the reading threads, which check links as they read). What lies
 * in `.git` or `.dochygiene` is left out: links into them are not checked, and
 * the state directory's files (listed where git does not ignore them, named
 * opaque by a walk) change with every scan.
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
 * assert.deepEqual(pathIndexSource(files, ["build", ".dochygiene"]), {
 *   paths: ["a.md", "vendor"],
 *   nonFiles: ["vendor"],
 *   opaque: ["build"],
 * });
 * ```
 */
export function pathIndexSource(
  files: readonly ListedFile[],
  opaque: readonly string[],
  site?: LinkSite,
): PathIndexSource {
  const paths: string[] = [];
  const nonFiles: string[] = [];
  for (const file of files) {
    if (_alwaysExcluded(file.path)) continue;
    paths.push(file.path);
    if (file.type !== "file") nonFiles.push(file.path);
  }
  const source: PathIndexSource = {
    paths,
    nonFiles,
    opaque: opaque.filter((dir) => !_alwaysExcluded(dir)),
  };
  if (site !== undefined) source.site = { root: site.root, rootLinks: site.rootLinks };
  return source;
}

/** Whether `path` is, or lies in, `.git` or `.dochygiene` (a first segment compared in place). */
function _alwaysExcluded(path: string): boolean {
  for (const dir of ALWAYS_EXCLUDED_DIRS) {
    if (path.startsWith(dir) && (path.length === dir.length || path[dir.length] === "/")) {
      return true;
    }
  }
  return false;
}

/** What the disk says of a path the listing does not hold (see {@linkcode PathIndex}). */
export type DiskState = "exists" | "opaque" | "missing";

/**
 * A {@linkcode PathIndex}'s look on disk, from directory listings (see
 * `dirEntries`): anything there exists, a path beneath a symlink or a
 * directory that cannot be read is opaque (not judged), any other is missing.
 *
 * @example
 * ```ts
 * import { diskState } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = (path: string) => path === "a.md" ? "file" as const : "linked" as const;
 * const onDisk = diskState(
 *   Object.assign(entry, { caseTwin: (path: string) => path === "A.md", size: () => undefined }),
 * );
 * assert.equal(onDisk("a.md"), "exists");
 * assert.equal(onDisk("link/b.md"), "opaque");
 * assert.ok(onDisk.caseTwin?.("A.md"));
 * ```
 */
export function diskState(entry: DirEntries): DiskLookup {
  const state = (path: string): DiskState => {
    const kind = entry(path);
    return kind === "file" || kind === "other"
      ? "exists"
      : kind === "linked" || kind === "unknown"
      ? "opaque"
      : "missing";
  };
  return Object.assign(state, {
    caseTwin: entry.caseTwin,
    holds: (dir: string, count: number) => entry.size(dir) === count,
  });
}

/**
 * What the disk says of a path the listing does not hold ({@linkcode diskState}), and, when
 * it can tell, whether a missing path exists there with other letter case (its `case` hint).
 */
export interface DiskLookup {
  /** The path's state on disk. */
  (path: string): DiskState;
  /** Whether the missing `path` exists on disk with other letter case. */
  caseTwin?: (path: string) => boolean;
  /**
   * Whether the directory `dir` holds exactly `count` entries on disk (`false`
   * when unknown). Asked as a question with a yes or no, so that an answer
   * stays the same while what it tells does (the scan cache keeps answers).
   */
  holds?: (dir: string, count: number) => boolean;
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
  #opaqueTopList: string[];
  #onDisk: DiskLookup | undefined;
  #seen = new Map<string, DiskState>();
  #byHash: _HashTable | undefined;
  /** How many listed paths each listed directory holds directly, counted on first need. */
  #children: Map<string, number> | undefined;
  /** The docs site, when there is one (see {@linkcode PathIndexSource}). */
  readonly site: LinkSite | undefined;

  /**
   * Builds the index. `onDisk` tells whether a path the listing does not hold
   * exists on disk all the same (a gitignored build output), or lies beneath a
   * symlink there (`opaque`: not judged); it is asked only for paths with no
   * listed namesake of any letter case. Default: never.
   */
  constructor(source: PathIndexSource, onDisk?: DiskLookup) {
    const exists = this.#exists;
    for (const path of source.paths) _addWithAncestors(exists, path);
    for (const dir of source.opaque) _addWithAncestors(exists, dir);
    // The state and git directories are never listed: paths into them are not checked.
    this.#opaque = new Set([...source.opaque, ...source.nonFiles, ...ALWAYS_EXCLUDED_DIRS]);
    for (const dir of this.#opaque) this.#opaqueTops.add(dir.split("/")[0]);
    this.#opaqueTopList = [...this.#opaqueTops];
    this.#onDisk = onDisk;
    this.site = source.site;
  }

  /** Listed exactly (a file, or a directory holding one): the common case, one set lookup. */
  listed(path: string): boolean {
    return this.#exists.has(path);
  }

  /**
   * The listed path (see {@linkcode PathIndex.listed}) that is `prefix + tail`,
   * found by `hash`, its {@linkcode pathHash}: the index's own string, with no
   * joined string to build and hash; `undefined` when not listed.
   */
  listedJoin(hash: number, prefix: string, tail: string): string | undefined {
    const table = this.#byHash ??= new _HashTable(this.#exists);
    const length = prefix.length + tail.length;
    for (let slot = table.first(hash); slot >= 0; slot = table.next(slot, hash)) {
      const path = table.paths[slot];
      if (path.length === length && path.startsWith(prefix) && path.endsWith(tail)) return path;
    }
    return undefined;
  }

  /**
   * Listed (exactly), or on disk when no listed path differs from it only by
   * letter case (or beneath a symlink there: not judged, so not missing).
   */
  exists(path: string): boolean {
    if (this.#exists.has(path)) return true;
    if (this.#onDisk === undefined || this.#hasCaseTwin(path)) return false;
    return this.#onDiskMemo(path) !== "missing";
  }

  #onDiskMemo(path: string): DiskState {
    let found = this.#seen.get(path);
    if (found === undefined) this.#seen.set(path, found = this.#onDisk!(path));
    return found;
  }

  /** Whether `path` is, or is under, a directory whose contents are unknown. */
  isOpaque(path: string): boolean {
    if (this.#opaque.has(path)) return true;
    const slash = path.indexOf("/");
    if (slash < 0 || !this.#underOpaqueTop(path, slash)) return false;
    for (let i = slash; i > 0; i = path.indexOf("/", i + 1)) {
      if (this.#opaque.has(path.slice(0, i))) return true;
    }
    return false;
  }

  /** Whether `path`'s first segment (up to `slash`) is the first segment of an opaque path. */
  #underOpaqueTop(path: string, slash: number): boolean {
    // The few tops of most listings are compared in place, not sliced and hashed.
    if (this.#opaqueTopList.length > 8) return this.#opaqueTops.has(path.slice(0, slash));
    for (const top of this.#opaqueTopList) {
      if (top.length === slash && path.startsWith(top)) return true;
    }
    return false;
  }

  /**
   * What a link target is: `exists` (see {@linkcode PathIndex.exists}),
   * `opaque` (under a directory whose contents are unknown), or missing with
   * its near miss: `case` when a listed path (else one on disk) differs only
   * by letter case, `extension` when `<path>.md` is listed (else on disk),
   * else `null`.
   */
  classify(path: string): TargetState {
    if (this.#exists.has(path)) return "exists";
    // Never looked for on disk: it may be reached through a symlink.
    if (this.isOpaque(path)) return "opaque";
    const caseTwin = this.#hasCaseTwin(path);
    if (!caseTwin && this.#onDisk !== undefined) {
      const state = this.#onDiskMemo(path);
      if (state !== "missing") return state;
    }
    if (caseTwin) return "case";
    if (this.#hasMd(path)) return "extension";
    // Near misses only the disk holds (a gitignored build output), looked for unless the
    // target's directory holds nothing the listing lacks (the common case: no search).
    if (this.#onDisk === undefined || this.#fullyListed(path)) return null;
    if (this.#onDisk.caseTwin?.(path)) return "case";
    return this.exists(`${path}.md`) ? "extension" : null;
  }

  /**
   * Whether `path`'s directory is listed and holds on disk exactly as many entries as the listing
   * names in it: then no near miss of `path` there is on disk only.
   */
  #fullyListed(path: string): boolean {
    const slash = path.lastIndexOf("/");
    const dir = slash < 0 ? "" : path.slice(0, slash);
    if (!this.#exists.has(dir)) return false;
    if (this.#children === undefined) {
      this.#children = new Map();
      for (const p of this.#exists) {
        if (p === "") continue;
        const at = p.lastIndexOf("/");
        const parent = at < 0 ? "" : p.slice(0, at);
        this.#children.set(parent, (this.#children.get(parent) ?? 0) + 1);
      }
    }
    return this.#onDisk?.holds?.(dir, this.#children.get(dir) ?? 0) === true;
  }

  /** Whether `<path>.md` is listed, looked up by hash: no string to build and hash. */
  #hasMd(path: string): boolean {
    return this.listedJoin(pathHash(".md", pathHash(path)), path, ".md") !== undefined;
  }

  /** Whether a listed path differs from `path`, which is not listed, only by letter case. */
  #hasCaseTwin(path: string): boolean {
    const lower = path.toLowerCase();
    // A listed path that lower-casing leaves as it is stands for itself (`path` is not one).
    return this.#foldedSet().has(lower) ||
      lower !== path && this.#exists.has(lower) && lower.toLowerCase() === lower;
  }

  /**
   * The listed paths that lower-casing changes, lower-cased, built on first
   * need (most scans have few missing targets, and most paths are lower case).
   */
  #foldedSet(): Set<string> {
    if (this.#folded === undefined) {
      this.#folded = new Set();
      for (const path of this.#exists) {
        const lower = path.toLowerCase();
        if (lower !== path) this.#folded.add(lower);
      }
    }
    return this.#folded;
  }
}

/**
 * A 32-bit polynomial hash of `path`, continued from `hash` (the hash of what
 * comes before it): the hash of `a + b` is `pathHash(b, pathHash(a))`, so a
 * link's resolved path is hashed from its directory's hash and the target's
 * characters, without joining them. Not a set's key alone: equal hashes need
 * the strings compared.
 *
 * @example
 * ```ts
 * import { pathHash } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pathHash("docs/a.md"), pathHash("a.md", pathHash("docs/")));
 * assert.notEqual(pathHash("docs/a.md"), pathHash("docs/b.md"));
 * ```
 */
export function pathHash(path: string, hash: number = _PATH_HASH_SEED): number {
  for (let i = 0; i < path.length; i++) hash = (Math.imul(hash, 31) + path.charCodeAt(i)) | 0;
  return hash;
}

const _PATH_HASH_SEED = 0x811c9dc5 | 0;

/**
 * Strings by their {@linkcode pathHash}, open-addressed: the slots whose hash
 * is the one asked for, for the caller to compare the strings.
 */
class _HashTable {
  /** The string in each slot (`""` in empty ones). */
  readonly paths: string[];
  #hashes: Int32Array;
  #used: Uint8Array;
  #mask: number;
  #shift: number;

  constructor(strings: Iterable<string>) {
    const all = [...strings];
    let bits = 4;
    while (1 << bits < all.length * 2) bits++;
    const size = 1 << bits;
    this.#mask = size - 1;
    this.#shift = 32 - bits;
    this.paths = new Array<string>(size).fill("");
    this.#hashes = new Int32Array(size);
    this.#used = new Uint8Array(size);
    for (const string of all) {
      const hash = pathHash(string);
      let slot = this.#home(hash);
      while (this.#used[slot]) slot = (slot + 1) & this.#mask;
      this.#used[slot] = 1;
      this.#hashes[slot] = hash;
      this.paths[slot] = string;
    }
  }

  /** The first slot holding `hash`, or -1. */
  first(hash: number): number {
    return this.#find(this.#home(hash), hash);
  }

  /** The next slot after `slot` holding `hash`, or -1. */
  next(slot: number, hash: number): number {
    return this.#find((slot + 1) & this.#mask, hash);
  }

  #find(slot: number, hash: number): number {
    for (; this.#used[slot]; slot = (slot + 1) & this.#mask) {
      if (this.#hashes[slot] === hash) return slot;
    }
    return -1;
  }

  /** Fibonacci hashing: the top bits of the product pick the slot. */
  #home(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> this.#shift;
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

/**
 * Lookups of working-tree paths in their directory's listing, each directory
 * read once: cheaper than an `lstat` per path under `--allow-read`.
 *
 * @module
 */

/**
 * What a directory listing says of a path: `file` (its directory lists it as
 * a regular file), `other` (as something else: a directory, a symlink, a
 * FIFO), `missing` (its directory does not list it, or a directory on its way
 * is missing or is not a directory), `linked` (a directory on its way is a
 * symlink: never read, as it may lead out of the root, so what lies beneath is
 * unknown), `unknown` (a directory on its way cannot be read, nor the path
 * looked at).
 */
export type DirEntryKind = "file" | "other" | "missing" | "linked" | "unknown";

/**
 * Returns a lookup of root-relative paths in their directories' listings (see
 * {@linkcode DirEntryKind}). Each directory is read once, on first need, and
 * only as a real directory of its parent. Serves the scanner's lstat-free
 * reads and the on-disk fallback for links to unlisted (e.g. gitignored)
 * files.
 *
 * @example
 * ```ts
 * import { dirEntries } from "./dir_entries.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/docs`);
 * await Deno.writeTextFile(`${root}/docs/a.md`, "# A\n");
 * await Deno.symlink("docs", `${root}/link`);
 * const entry = dirEntries(root);
 * assert.equal(entry("docs/a.md"), "file");
 * assert.equal(entry("docs"), "other");
 * assert.equal(entry("docs/gone.md"), "missing");
 * assert.equal(entry("nowhere/x.md"), "missing");
 * assert.equal(entry("link"), "other");
 * assert.equal(entry("link/a.md"), "linked"); // never read through a symlink
 * assert.ok(entry.caseTwin("Docs/A.md"));
 * assert.ok(!entry.caseTwin("docs/b.md"));
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function dirEntries(root: string): DirEntries {
  const dirs = new Map<string, Map<string, _Kind> | undefined>();
  const none = new Map<string, _Kind>();
  const linked = new Map<string, _Kind>();
  const list = (dir: string): Map<string, _Kind> | undefined => {
    const known = dirs.get(dir);
    if (known !== undefined || dirs.has(dir)) return known;
    let names = dirs.get("");
    if (!dirs.has("")) dirs.set("", names = _read(root, "", none));
    // Down from the root, each directory read once, and only as its parent lists it: a real
    // directory, never one reached through a symlink (it may lead out of the root). One that is
    // not there, or is beneath a symlink, is not remembered, as most such lookups (link targets
    // under a path that does not exist) are asked once.
    for (let start = 0; start < dir.length;) {
      let end = dir.indexOf("/", start);
      if (end < 0) end = dir.length;
      const sub = end === dir.length ? dir : dir.slice(0, end);
      const parent = names;
      names = dirs.get(sub);
      if (names === undefined && !dirs.has(sub)) {
        // An unreadable parent may still be passable: its child is looked at itself.
        const kind = parent === undefined
          ? _kindOf(`${root}/${sub}`)
          : parent.get(dir.slice(start, end));
        if (kind === _LINK) return linked;
        // Not a directory, or not there: missing (unknown when its lstat fails otherwise).
        if (kind !== _DIR && (kind !== undefined || parent !== undefined)) return none;
        names = kind === _DIR ? _read(root, sub, none) : undefined;
        dirs.set(sub, names);
      }
      start = end + 1;
    }
    return names;
  };
  // Case-insensitive, segment by segment, through real directories only: for a missing path's
  // `case` hint. Each directory's names are folded once; bounded: names differing only by case
  // are rare, branches of them rarer.
  const folded = new WeakMap<Map<string, _Kind>, Map<string, string[]>>();
  const twins = new Map<string, boolean>();
  let visits = 0;
  const twin = (segments: string[], i: number, dir: string): boolean => {
    const names = list(dir);
    if (names === undefined || names === none || names === linked || ++visits > _MAX_TWIN_VISITS) {
      return false;
    }
    let byLower = folded.get(names);
    if (byLower === undefined) {
      byLower = new Map();
      for (const name of names.keys()) {
        const lower = name.toLowerCase();
        const same = byLower.get(lower);
        if (same === undefined) byLower.set(lower, [name]);
        else same.push(name);
      }
      folded.set(names, byLower);
    }
    const last = i === segments.length - 1;
    for (const name of byLower.get(segments[i].toLowerCase()) ?? []) {
      if (!last && names.get(name) !== _DIR) continue;
      if (last || twin(segments, i + 1, dir === "" ? name : `${dir}/${name}`)) return true;
    }
    return false;
  };
  const lookup = (path: string): DirEntryKind => {
    // Longer than any path the system opens: not there to be found.
    if (path.length > _MAX_PATH) return "missing";
    const slash = path.lastIndexOf("/");
    const names = list(slash < 0 ? "" : path.slice(0, slash));
    if (names === undefined) {
      // Its directory cannot be listed but may be passable (`--x`): the path is looked at itself
      // (every directory on the way is known to be a real one).
      const kind = _kindOf(`${root}/${path}`);
      return kind === undefined
        ? "unknown"
        : kind === null
        ? "missing"
        : kind === _FILE
        ? "file"
        : "other";
    }
    if (names === linked) return "linked";
    const kind = names.get(slash < 0 ? path : path.slice(slash + 1));
    return kind === undefined ? "missing" : kind === _FILE ? "file" : "other";
  };
  return Object.assign(lookup, {
    size: (dir: string): number | undefined => {
      const names = dir.length > _MAX_PATH ? undefined : list(dir);
      return names === undefined || names === none || names === linked ? undefined : names.size;
    },
    caseTwin: (path: string): boolean => {
      let found = twins.get(path);
      if (found === undefined) {
        visits = 0;
        found = path.length <= _MAX_PATH && lookup(path) === "missing" &&
          twin(path.split("/"), 0, "");
        twins.set(path, found);
      }
      return found;
    },
  });
}

/** A {@linkcode dirEntries} lookup, and its search for a path's letter-case twin. */
export interface DirEntries {
  /** What the listings say of `path` (see {@linkcode DirEntryKind}). */
  (path: string): DirEntryKind;
  /**
   * Whether `path`, missing, exists on disk with other letter case (in any of its segments),
   * reached through real directories only.
   */
  caseTwin(path: string): boolean;
  /** How many entries the real directory `dir` holds; `undefined` when it is none or unreadable. */
  size(dir: string): number | undefined;
}

/** Directories a {@linkcode DirEntries.caseTwin} search looks into at most. */
const _MAX_TWIN_VISITS = 64;

/** A directory's names by kind; `none` when it is missing, `undefined` when it cannot be read. */
function _read(
  root: string,
  dir: string,
  none: Map<string, _Kind>,
): Map<string, _Kind> | undefined {
  try {
    const names = new Map<string, _Kind>();
    for (const entry of Deno.readDirSync(dir === "" ? root : `${root}/${dir}`)) {
      names.set(
        entry.name,
        entry.isFile ? _FILE : entry.isDirectory ? _DIR : entry.isSymlink ? _LINK : _OTHER,
      );
    }
    return names;
  } catch (err) {
    // Missing: nothing in it exists. Unreadable: nothing in it is known to exist.
    return err instanceof Deno.errors.NotFound ? none : undefined;
  }
}

/** What `full` is, by its own lstat: `null` when it is not there, `undefined` when it cannot be looked at. */
function _kindOf(full: string): _Kind | null | undefined {
  try {
    const info = Deno.lstatSync(full);
    return info.isDirectory ? _DIR : info.isSymlink ? _LINK : info.isFile ? _FILE : _OTHER;
  } catch (err) {
    return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory
      ? null
      : undefined;
  }
}

/** Linux's PATH_MAX. */
const _MAX_PATH = 4096;

// What a directory lists a name as (a FIFO or a socket is "other").
type _Kind = 0 | 1 | 2 | 3;
const _OTHER = 0;
const _FILE = 1;
const _DIR = 2;
const _LINK = 3;

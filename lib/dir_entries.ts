/**
 * Lookups of working-tree paths in their directory's listing, each directory
 * read once: cheaper than an `lstat` per path under `--allow-read`.
 *
 * @module
 */

/**
 * Returns a lookup of root-relative paths: `true` when the path's directory
 * lists it as a regular file, `false` when as something else (a directory, a
 * symlink), `null` when it is not there (its directory does not list it, or a
 * directory on its way is missing or is not a real directory: a symlinked
 * directory is never read), `undefined` when that is not known (a directory
 * on its way cannot be read). Each directory is read once, on first need.
 * Serves the scanner's lstat-free reads and the on-disk fallback for links to
 * unlisted (e.g. gitignored) files.
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
 * assert.equal(entry("docs/a.md"), true);
 * assert.equal(entry("docs"), false);
 * assert.equal(entry("docs/gone.md"), null);
 * assert.equal(entry("nowhere/x.md"), null);
 * assert.equal(entry("link"), false);
 * assert.equal(entry("link/a.md"), null); // never through a symlink
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function dirEntries(root: string): (path: string) => boolean | null | undefined {
  const dirs = new Map<string, Map<string, _Kind> | undefined>();
  const none = new Map<string, _Kind>();
  const list = (dir: string): Map<string, _Kind> | undefined => {
    const known = dirs.get(dir);
    if (known !== undefined || dirs.has(dir)) return known;
    let names = dirs.get("");
    if (!dirs.has("")) dirs.set("", names = _read(root, "", none));
    // Down from the root, each directory read once, and only as its parent lists it: a real
    // directory, never one reached through a symlink (it may lead out of the root). One that is
    // not there is not remembered, as most such lookups (link targets under a path that does
    // not exist) are asked once.
    for (let start = 0; start < dir.length;) {
      let end = dir.indexOf("/", start);
      if (end < 0) end = dir.length;
      const sub = end === dir.length ? dir : dir.slice(0, end);
      const parent = names;
      names = dirs.get(sub);
      if (names === undefined && !dirs.has(sub)) {
        if (parent === undefined) {
          // An unreadable parent may still be passable: its child is read if it is a directory.
          names = _isDirectory(`${root}/${sub}`) ? _read(root, sub, none) : undefined;
        } else if (parent.get(dir.slice(start, end)) !== _DIR) return none;
        else names = _read(root, sub, none);
        dirs.set(sub, names);
      }
      start = end + 1;
    }
    return names;
  };
  return (path) => {
    // Longer than any path the system opens: not there to be found.
    if (path.length > _MAX_PATH) return null;
    const slash = path.lastIndexOf("/");
    const names = list(slash < 0 ? "" : path.slice(0, slash));
    if (names === undefined) return undefined;
    const kind = names.get(slash < 0 ? path : path.slice(slash + 1));
    return kind === undefined ? null : kind === _FILE;
  };
}

/** A directory's names by kind; `none` when it is missing, `undefined` when it cannot be read. */
function _read(
  root: string,
  dir: string,
  none: Map<string, _Kind>,
): Map<string, _Kind> | undefined {
  try {
    const names = new Map<string, _Kind>();
    for (const entry of Deno.readDirSync(dir === "" ? root : `${root}/${dir}`)) {
      names.set(entry.name, entry.isFile ? _FILE : entry.isDirectory ? _DIR : _OTHER);
    }
    return names;
  } catch (err) {
    // Missing: nothing in it exists. Unreadable: nothing in it is known to exist.
    return err instanceof Deno.errors.NotFound ? none : undefined;
  }
}

function _isDirectory(full: string): boolean {
  try {
    return Deno.lstatSync(full).isDirectory;
  } catch {
    return false;
  }
}

/** Linux's PATH_MAX. */
const _MAX_PATH = 4096;

// What a directory lists a name as (a symlink, a FIFO or a socket is "other").
type _Kind = 0 | 1 | 2;
const _OTHER = 0;
const _FILE = 1;
const _DIR = 2;

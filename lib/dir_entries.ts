/**
 * Lookups of working-tree paths in their directory's listing, each directory
 * read once: cheaper than an `lstat` per path under `--allow-read`.
 *
 * @module
 */

/**
 * Returns a lookup of root-relative paths: `true` when the path's directory
 * lists it as a regular file, `false` when as something else (a directory, a
 * symlink), `undefined` when it is not listed or its directory cannot be
 * listed (missing, unreadable). Each directory is read once, on first need.
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
 * const entry = dirEntries(root);
 * assert.equal(entry("docs/a.md"), true);
 * assert.equal(entry("docs"), false);
 * assert.equal(entry("docs/gone.md"), undefined);
 * assert.equal(entry("nowhere/x.md"), undefined);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function dirEntries(root: string): (path: string) => boolean | undefined {
  const dirs = new Map<string, Map<string, boolean> | undefined>();
  const none = new Map<string, boolean>();
  const list = (dir: string): Map<string, boolean> | undefined => {
    const known = dirs.get(dir);
    if (known !== undefined || dirs.has(dir)) return known;
    const slash = dir.lastIndexOf("/");
    const parent = dir === "" ? undefined : list(slash < 0 ? "" : dir.slice(0, slash));
    // A directory its listed parent does not hold is missing: not remembered, as most such
    // lookups (link targets under a path that does not exist) are asked once.
    if (parent !== undefined && !parent.has(slash < 0 ? dir : dir.slice(slash + 1))) return none;
    let names: Map<string, boolean> | undefined;
    try {
      names = new Map();
      for (const entry of Deno.readDirSync(dir === "" ? root : `${root}/${dir}`)) {
        names.set(entry.name, entry.isFile);
      }
    } catch (err) {
      // Missing: nothing in it exists. Unreadable: nothing in it is known to exist.
      names = err instanceof Deno.errors.NotFound ? none : undefined;
    }
    dirs.set(dir, names);
    return names;
  };
  return (path) => {
    const slash = path.lastIndexOf("/");
    return list(slash < 0 ? "" : path.slice(0, slash))?.get(
      slash < 0 ? path : path.slice(slash + 1),
    );
  };
}

/**
 * Whether a symlinked file leads inside the project: dochygiene follows a
 * symlinked config only there (reads never leave the root).
 *
 * @module
 */

/**
 * Whether `path` resolves (every symlink followed) to a path inside `root`
 * (itself resolved); `undefined` when `path` leads nowhere (a dangling link).
 * Throws what resolving it throws otherwise (a symlink loop, a denied look).
 *
 * @example
 * ```ts
 * import { resolvesInside } from "./resolves_inside.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/real.yml`, "x: 1\n");
 * await Deno.symlink("real.yml", `${root}/in.yml`);
 * await Deno.symlink("/etc/hostname", `${root}/out.yml`);
 * await Deno.symlink("gone.yml", `${root}/dangling.yml`);
 * assert.equal(resolvesInside(root, `${root}/in.yml`), true);
 * assert.equal(resolvesInside(root, `${root}/out.yml`), false);
 * assert.equal(resolvesInside(root, `${root}/dangling.yml`), undefined);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function resolvesInside(root: string, path: string): boolean | undefined {
  let target: string;
  try {
    target = Deno.realPathSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err; // a loop, or a directory on the way that may not be read: the caller says so
  }
  const base = Deno.realPathSync(root);
  return target.startsWith(base.endsWith("/") ? base : `${base}/`);
}

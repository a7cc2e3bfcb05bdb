/**
 * Where a symlinked config file leads: dochygiene follows one only inside the
 * project (reads never leave the root).
 *
 * @module
 */

/**
 * What `path` is as a link: `"not a link"`, or a symlink that leads (every
 * symlink followed) `"inside"` or `"outside"` `root` (itself resolved), or
 * nowhere (`"dangling"`). Throws what looking at it throws otherwise (it is
 * missing, a symlink loop, a denied look).
 *
 * @example
 * ```ts
 * import { linkState } from "./link_state.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/real.yml`, "x: 1\n");
 * await Deno.symlink("real.yml", `${root}/in.yml`);
 * await Deno.symlink("/etc/hostname", `${root}/out.yml`);
 * await Deno.symlink("gone.yml", `${root}/dangling.yml`);
 * assert.equal(linkState(root, `${root}/real.yml`), "not a link");
 * assert.equal(linkState(root, `${root}/in.yml`), "inside");
 * assert.equal(linkState(root, `${root}/out.yml`), "outside");
 * assert.equal(linkState(root, `${root}/dangling.yml`), "dangling");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function linkState(
  root: string,
  path: string,
): "not a link" | "inside" | "outside" | "dangling" {
  if (!Deno.lstatSync(path).isSymlink) return "not a link";
  let target: string;
  try {
    target = Deno.realPathSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "dangling";
    throw err;
  }
  const base = Deno.realPathSync(root);
  return target.startsWith(base.endsWith("/") ? base : `${base}/`) ? "inside" : "outside";
}

/** The end of the error for a config file that {@linkcode linkState} says leads outside. */
export const LEADS_OUTSIDE = "is a symlink that leads outside the project, and dochygiene " +
  "reads nothing there; replace the link with the file";

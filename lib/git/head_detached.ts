/**
 * Whether HEAD is detached (docs/prune.md "Plan / result JSON"): a commit made there is on no
 * branch, and the next `git switch` leaves it behind.
 *
 * @module
 */

import { runGit } from "./run_git.ts";

/**
 * Whether HEAD is detached (`git symbolic-ref -q HEAD` exits 1); an unborn branch is not.
 *
 * @example
 * ```ts
 * import { headDetached } from "./head_detached.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * assert.equal(await headDetached(root), false);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function headDetached(root: string): Promise<boolean> {
  return (await runGit(root, ["symbolic-ref", "-q", "HEAD"], { okCodes: [0, 1] })).code === 1;
}

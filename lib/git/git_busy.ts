/**
 * Whether git is in the middle of an operation (a merge, a rebase, a held
 * index lock…) in which prune may delete nothing.
 *
 * @module
 */

import { resolve } from "node:path";
import { runGit } from "./run_git.ts";

/** What {@linkcode gitBusy} found: the state, with the file that reveals it, and its fix. */
export interface GitBusy {
  /** E.g. `git is in the middle of a merge (MERGE_HEAD exists: /r/.git/MERGE_HEAD)`. */
  state: string;
  /** What the user does about it, e.g. `finish or abort it`. */
  fix: string;
}

/** Git states in which nothing may be deleted, and the file that reveals each. */
const _IN_PROGRESS: readonly [string, string][] = [
  ["MERGE_HEAD", "a merge"],
  ["rebase-merge", "a rebase"],
  ["rebase-apply", "a rebase or am"],
  ["CHERRY_PICK_HEAD", "a cherry-pick"],
  ["REVERT_HEAD", "a revert"],
  ["BISECT_LOG", "a bisect"],
  ["index.lock", "another git command, or one that was killed"],
];

/**
 * The first operation git is in the middle of in the repository at `root`
 * (one `git rev-parse --git-path` call, then an `lstat` per state file), or
 * `undefined` when there is none.
 *
 * @example
 * ```ts
 * import { gitBusy } from "./git_busy.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * assert.equal(await gitBusy(root), undefined);
 * await Deno.writeTextFile(`${root}/.git/MERGE_HEAD`, "");
 * assert.match((await gitBusy(root))?.state ?? "", /^git is in the middle of a merge/);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function gitBusy(root: string): Promise<GitBusy | undefined> {
  const args = _IN_PROGRESS.flatMap(([name]) => ["--git-path", name]);
  const out = await runGit(root, ["rev-parse", ...args]);
  const paths = new TextDecoder().decode(out.stdout).split("\n");
  for (let i = 0; i < _IN_PROGRESS.length; i++) {
    try {
      await Deno.lstat(resolve(root, paths[i]));
    } catch {
      continue;
    }
    const [name, what] = _IN_PROGRESS[i];
    return {
      state: `git is in the middle of ${what} (${name} exists: ${paths[i]})`,
      fix: name === "index.lock"
        ? "wait for it to end, or, if no git command runs, remove that lock left by a killed one"
        : "finish or abort it",
    };
  }
  return undefined;
}

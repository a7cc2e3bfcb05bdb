/**
 * The project root must be git's worktree (docs/prune.md "Safety"): with `core.worktree` set to
 * another directory, dochygiene would read `<root>/…` while git deletes in that other one.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { runGit } from "./run_git.ts";

/**
 * Throws unless git's worktree (`git rev-parse --show-toplevel`) is `root` itself.
 *
 * @throws {DochygieneError} `WORKTREE_ELSEWHERE` (exit 1) when it is another directory;
 * `GIT_FAILED` when git has none (a bare repository).
 *
 * @example
 * ```ts
 * import { checkToplevel } from "./check_toplevel.ts";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * await checkToplevel(root);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function checkToplevel(root: string): Promise<void> {
  const out = await runGit(root, ["rev-parse", "--show-toplevel"]);
  const toplevel = new TextDecoder().decode(out.stdout).replace(/\n$/, "");
  const [real, top] = [_real(root), _real(toplevel)];
  if (real === top) return;
  throw new DochygieneError(
    "WORKTREE_ELSEWHERE",
    `git's worktree ${toplevel} is not the project root ${root} (core.worktree points ` +
      `elsewhere, set in git config or a GIT_CONFIG_* variable): run dochygiene in ${toplevel}, ` +
      `or unset it (git config --unset core.worktree)`,
  );
}

/** `path` with its symlinks resolved (itself when it cannot be). */
function _real(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * The verify phase of an apply (docs/design.md "Lifecycle deletion", "Apply"):
 * the result records what went and how, and the hygiene commit; a deleted
 * directory still on disk is reported.
 *
 * @module
 */

import { join } from "node:path";
import { byCodePoint } from "../core/by_code_point.ts";
import { pathExists } from "../fs/path_exists.ts";
import type { Selection } from "./_apply_prepare.ts";
import type { Plan } from "../prune/plan_prune.ts";

/**
 * Fills `plan.applied` (each approved unit and how it went), `plan.commit` (`newHead`, the
 * hygiene commit, if one was made), and warns about each deleted directory that still holds
 * files (ignored by git, or created since the plan).
 */
export async function applyVerify(
  plan: Plan,
  selection: Selection,
  newHead: string | undefined,
): Promise<void> {
  const { root, approved, entries, headFiles, inHead } = selection;
  for (const c of approved) {
    // Files only staged were in no commit: git revert cannot give them back.
    const staged = entries.filter((e) => e.unit === c.path && !headFiles.has(e.path)).length;
    const how = !c.tracked
      ? "removed (untracked)"
      : !inHead.has(c.path) || newHead === undefined
      ? "git rm (never committed)"
      : staged > 0
      ? `git rm (${staged} staged file${staged === 1 ? "" : "s"} never committed: no revert gives ${
        staged === 1 ? "it" : "them"
      } back)`
      : c.dirty
      ? "git rm (uncommitted changes discarded: no revert gives them back)"
      : "git rm";
    plan.applied.push({ path: c.path, how });
  }
  plan.applied.sort((a, b) => byCodePoint(a.path, b.path));
  plan.commit = newHead ?? null;
  // Git never deletes what it ignores (it could not give it back): say what stayed.
  for (const c of approved) {
    if (c.unit !== "dir" || !(await pathExists(join(root, c.path)))) continue;
    plan.warnings.push(
      `${c.path} still holds files prune did not delete (ignored by git, or created since ` +
        `the plan): see git status --ignored -- ${c.path}`,
    );
  }
}

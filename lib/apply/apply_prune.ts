/**
 * Applying a prune (docs/design.md "Lifecycle deletion", "Apply"): under the state
 * lock, with the plan recomputed from git facts read at that moment, delete
 * the approved units through git and record the tracked ones in ONE commit
 * that holds only those deletions; restore everything on any failure.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { withLock } from "../fs/with_lock.ts";
import type { UnitCollection } from "../prune/collect_units.ts";
import type { Plan } from "../prune/plan_prune.ts";
import { applyCommit, type CommitProgress } from "./_apply_commit.ts";
import { applyPrepare, type Selection, skipHidden } from "./_apply_prepare.ts";
import { unitFinder } from "../core/unit_finder.ts";
import { applyRemove, type RemoveProgress } from "./_apply_remove.ts";
import { applyStage, type Staged } from "./_apply_stage.ts";
import { applyVerify } from "./_apply_verify.ts";
import { backupEnv } from "./_back_up.ts";
import { writeJournal } from "./_journal.ts";
import { pruneGit } from "./_prune_git.ts";
import { restore, type RestoreState } from "./_restore.ts";
import { cleanUp, tempFiles, type TempPaths } from "./_temp_files.ts";

export { commitMessage } from "./_apply_commit.ts";
export { PRUNE_JOURNAL_FILE } from "./_journal.ts";

/** What {@linkcode applyPrune} needs. */
export interface ApplyInput {
  /** The project root (holds `.git`). */
  root: string;
  /** `<root>/.dochygiene` (exists, writable): the lock, the temporary indexes and the backup objects live here. */
  stateDir: string;
  /** Recomputes the plan (mode `apply`) from fresh git facts; called under the lock. */
  replan: () => Promise<{ plan: Plan; collection: UnitCollection }>;
}

/**
 * Applies the approved candidates (`auto`, and `confirm` ones confirmed and,
 * for `extract: true`, acknowledged) and returns the result JSON:
 *
 * 1. takes the state lock; refuses during a merge, rebase, cherry-pick,
 *    revert or bisect, and while git's `index.lock` exists; then rolls back
 *    an earlier apply that was killed (its journal is still there);
 * 2. recomputes the plan from git facts read now (never the earlier plan);
 *    refuses while the index has unresolved conflicts; skips a unit holding
 *    a file git hides changes of (skip-worktree, assume-unchanged): its state
 *    cannot be verified;
 * 3. backs up every file of the approved units (their exact bytes, tracked
 *    and untracked) as blobs in a private index and a private object
 *    directory under the state directory (the repository's own objects are
 *    read, never written), snapshots their entries of the real index, and
 *    checks with `git rm -n` (no `-f`) that every `auto` unit still matches
 *    HEAD;
 * 4. writes a journal, then commits HEAD minus exactly those units with
 *    `git commit` on a private index (hooks run; the user's index and
 *    worktree are not touched yet), takes the commit's id from `git commit`'s
 *    own output, and verifies that it is still HEAD, sits on the old HEAD and
 *    holds exactly the deletions of those units' files;
 * 5. checks that nothing under the units changed since the snapshot (no
 *    index entry added, changed or dropped, no file's bytes), then
 *    `git rm -f` exactly the snapshotted files from the real index and the
 *    worktree (the user's other staged and unstaged changes stay as they are);
 * 6. only then removes exactly the backed-up untracked files, through git on
 *    a private index;
 * 7. on any failure: moves HEAD back (compare-and-swap) only if it is still
 *    that commit (one made on top of it is someone's work: the error names
 *    the hygiene commit to revert instead), restores the index entries and
 *    every file removed, and throws (exit 1).
 *
 * Files git ignores inside a deleted directory stay (git could not give them
 * back); the result warns about such a directory.
 *
 * The number of git processes is constant (paths go through stdin).
 *
 * @throws {DochygieneError} `GIT_BUSY`, `CONFLICTS`, `PRUNE_FAILED`, `PRUNE_JOURNAL`, `GIT_FAILED`
 * (exit 1).
 *
 * @example
 * ```ts
 * import { applyPrune } from "./apply_prune.ts";
 * import { collectUnits } from "../prune/collect_units.ts";
 * import { existingPaths } from "../config/governing_rule.ts";
 * import { planPrune } from "../prune/plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * await Deno.mkdir(`${root}/.dochygiene`);
 * const result = await applyPrune({
 *   root,
 *   stateDir: `${root}/.dochygiene`,
 *   replan: async () => {
 *     const collection = await collectUnits(root, { rules: [], protect: () => undefined });
 *     const plan = planPrune({
 *       units: collection.units, existing: existingPaths([]), judgments: new Map(),
 *       confirm: new Set(), extracted: new Set(), now: new Date(), watermark: null, mode: "apply",
 *     });
 *     return { plan, collection };
 *   },
 * });
 * assert.equal(result.commit, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function applyPrune(input: ApplyInput): Promise<Plan> {
  return withLock(input.stateDir, () => _apply(input));
}

/**
 * Adds to `plan.skipped` every candidate that `--yes` skips whatever is
 * confirmed, with the reason: one holding a file git is told to hide changes
 * of (skip-worktree, assume-unchanged), as the listing's `hidden` says. The dry
 * run does so that it says what apply will do (apply reads the index afresh).
 *
 * @example
 * ```ts
 * import { skipHiddenUnits } from "./apply_prune.ts";
 * import { collectUnits } from "../prune/collect_units.ts";
 * import { parseConfig } from "../config/parse_config.ts";
 * import { planPrune } from "../prune/plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) => new Deno.Command("git", { args, cwd: root }).output();
 * await git("init", "-q");
 * await Deno.mkdir(`${root}/notes`);
 * await Deno.writeTextFile(`${root}/notes/a.md`, "a\n");
 * await git("add", "notes/a.md");
 * await git("update-index", "--assume-unchanged", "notes/a.md");
 * const { rules } = parseConfig(
 *   "rules:\n  - {match: 'notes/*.md', lifetime: temporary, retain_recent: 0, max_age_days: 0}\n",
 * );
 * const collection = await collectUnits(root, { rules, protect: () => undefined });
 * const plan = planPrune({
 *   units: collection.units, existing: collection.existing, judgments: new Map(),
 *   confirm: new Set(), extracted: new Set(), now: new Date(Date.now() + 86_400_000),
 *   watermark: null, mode: "dry-run",
 * });
 * skipHiddenUnits(plan, collection.files);
 * assert.deepEqual(plan.skipped.map((s) => s.path), ["notes/a.md"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function skipHiddenUnits(plan: Plan, files: readonly ListedFile[]): void {
  const unitOf = unitFinder(plan.candidates.map((c) => c.path));
  const hidden = new Map<string, string>();
  for (const file of files) {
    const unit = file.hidden ? unitOf(file.path) : undefined;
    if (unit !== undefined && !hidden.has(unit)) hidden.set(unit, file.path);
  }
  skipHidden(plan, hidden);
}

/**
 * How far an apply got, each part set just before the change it names (a step that fails may
 * have done part of it): a failure undoes exactly that.
 */
interface _Progress extends CommitProgress, RemoveProgress {
  /** The backup, the hygiene commit's tree and the journal, once all are written. */
  staged?: Staged;
}

/**
 * The apply under the lock, in phases: prepare (steps 1 and 2 of {@linkcode applyPrune}) →
 * stage (3, and 4 up to the commit) → commit (4) → remove (5 and 6) → verify (the result).
 * A failure in stage, commit or remove restores what was changed (7).
 */
async function _apply(input: ApplyInput): Promise<Plan> {
  const git = pruneGit(input.root);
  const { plan, selection } = await applyPrepare(git, input);
  if (selection === undefined) return plan;
  const { names, temp } = tempFiles(input.stateDir);
  const progress: _Progress = { committing: false, removedTracked: false, removedUntracked: false };
  let keepBackup = false;
  try {
    progress.staged = await applyStage(git, selection, names, temp);
    await applyCommit(git, selection, progress.staged.tree, temp, progress);
    await applyRemove(git, selection, progress.staged, temp, progress);
  } catch (err) {
    const { undone, complete } = await restore(git, _restoreState(selection, temp, progress));
    keepBackup = !complete;
    const reason = err instanceof Error ? err.message : String(err);
    throw new DochygieneError(
      "PRUNE_FAILED",
      `prune failed and ${undone}: ${reason}`,
    );
  } finally {
    // A restore that failed keeps the backup and the journal: the next run retries it.
    await cleanUp(temp, keepBackup);
  }
  await applyVerify(plan, selection, progress.newHead);
  return plan;
}

/** What a restore after a failure at `progress` gives back. */
function _restoreState(selection: Selection, temp: TempPaths, progress: _Progress): RestoreState {
  const { staged, removedTracked, removedUntracked } = progress;
  return {
    oldHead: selection.oldHead,
    committing: progress.committing,
    newHead: progress.newHead,
    tree: staged?.tree ?? null,
    snapshot: removedTracked ? selection.snapshot : [],
    backupEnv: backupEnv(temp.backup, temp.objects, selection.objects),
    // Exactly the files removed: any other is as it was, and may be the user's to change.
    files: [
      ...(removedTracked ? selection.trackedFiles : []),
      ...(removedUntracked ? selection.untrackedFiles : []),
    ],
    exact: {
      root: selection.root,
      files: staged?.raw.files ?? [],
      objectFormat: selection.objectFormat,
      scratch: temp.scratch,
    },
    // A kill while files are written back leaves them cut short: the journal says so first.
    restoring: (files) =>
      staged === undefined
        ? Promise.resolve()
        : writeJournal(temp.journal, { ...staged.journal, restoring: files }),
  };
}

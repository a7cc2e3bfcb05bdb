/**
 * The remove phase of an apply (docs/design.md "Lifecycle deletion", "Apply"):
 * once nothing under the units changed since the snapshot, `git rm -f` exactly
 * the snapshotted files, then the untracked ones through a private index.
 *
 * @module
 */

import type { Selection } from "./_apply_prepare.ts";
import type { Staged } from "./_apply_stage.ts";
import { backupEnv, changedBytes } from "./_back_up.ts";
import { type Git, nul, RM, text } from "./_prune_git.ts";
import { indexDrift, readIndex } from "./_read_index.ts";
import type { TempPaths } from "./_temp_files.ts";

/** What the remove phase records as it goes: which files a restore must write back. */
export interface RemoveProgress {
  /** Whether the tracked files' removal began (their index entries come back too). */
  removedTracked: boolean;
  /** Whether the untracked files' removal began. */
  removedUntracked: boolean;
}

/**
 * Steps 5 and 6 of `applyPrune`: checks that nothing under the units changed since the
 * snapshot (no index entry added, changed or dropped, no file's bytes), then removes the
 * tracked files from the real index and the worktree (the user's other staged and unstaged
 * changes stay as they are), and only then the untracked ones, through git on a copy of the
 * backup index.
 */
export async function applyRemove(
  git: Git,
  selection: Selection,
  staged: Staged,
  temp: TempPaths,
  progress: RemoveProgress,
): Promise<void> {
  const { root, unitOf, entries, trackedFiles, untrackedFiles } = selection;
  const { raw } = staged;
  // 5. Nothing under the units may have changed since the snapshot (a hook, another agent):
  //    no index entry added, changed or dropped, no file's bytes.
  const drift = indexDrift(entries, await readIndex(git, unitOf));
  if (drift !== undefined) throw new Error(`${drift} while pruning; run prune again`);
  // Files backed up byte for byte are compared byte for byte (diff-files would convert them).
  const exact = new Set(raw.files);
  const changed = text(
    (await git(["diff-files", "--name-only", "-z"], {
      env: backupEnv(temp.backup, temp.objects, selection.objects),
    })).stdout,
  ).split("\0").filter((p) => p !== "" && !exact.has(p));
  changed.push(...await changedBytes(git, root, raw));
  if (changed.length > 0) {
    // The hygiene commit just ran the user's hooks: a --keep-index stash checks the staged
    // deletion out over the worktree.
    const during = staged.tree === null
      ? ""
      : " (by a hook while git commit ran — one that runs git stash --keep-index checks the staged deletion out over your files — or by another program)";
    throw new Error(`${changed[0]} changed while pruning${during}; run prune again`);
  }
  if (trackedFiles.length > 0) {
    progress.removedTracked = true;
    await git([...RM, "-f"], { stdin: nul(trackedFiles) });
  }

  // 6. Only now the untracked files, through git on a copy of the backup index.
  if (untrackedFiles.length > 0) {
    await Deno.copyFile(temp.backup, temp.untracked);
    progress.removedUntracked = true;
    await git([...RM, "-f"], {
      stdin: nul(untrackedFiles),
      env: backupEnv(temp.untracked, temp.objects, selection.objects),
    });
  }
}

/**
 * The stage phase of an apply (docs/design.md "Lifecycle deletion", "Apply"):
 * back up every file of the approved units, check that the `auto` ones still
 * match HEAD, stage the hygiene commit on a private index, and write the
 * journal. Nothing of the user's is touched yet.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { commitMessage } from "./_apply_commit.ts";
import type { Selection } from "./_apply_prepare.ts";
import { backUp, backupEnv, type RawBackup } from "./_back_up.ts";
import { type Journal, writeJournal } from "./_journal.ts";
import { type Git, gitOr, join0, nul, RM, text } from "./_prune_git.ts";
import type { TempPaths } from "./_temp_files.ts";

/** What the stage phase made: the backup, the hygiene commit's tree and the journal. */
export interface Staged {
  /** The files backed up byte for byte. */
  raw: RawBackup;
  /** The hygiene commit's tree (`null`: no commit, no unit has a file in HEAD). */
  tree: string | null;
  /** The journal, as written. */
  journal: Journal;
}

/**
 * Steps 3 and 4 of `applyPrune`, up to the commit: the backup in `temp.backup` and
 * `temp.objects` (recorded by `names` in the journal), the hygiene commit's tree in
 * `temp.commit` and its message in `temp.message`, then the journal.
 */
export async function applyStage(
  git: Git,
  selection: Selection,
  names: { backup: string; objects: string },
  temp: TempPaths,
): Promise<Staged> {
  const { root, oldHead, approved, committed, entries, headFiles, backupFiles } = selection;
  const backedUp = new Set(backupFiles);
  const unlisted = entries.find((e) => !backedUp.has(e.path));
  if (unlisted !== undefined) {
    throw new Error(
      `${unlisted.path} appeared in ${unlisted.unit} while pruning; run prune again`,
    );
  }
  // 3. Backup: exact bytes of every file of the approved units, as blobs in a private index
  //    and a private object directory.
  await Deno.mkdir(temp.objects);
  const raw = await backUp(
    git,
    root,
    backupFiles,
    backupEnv(temp.backup, temp.objects, selection.objects),
  );
  // An auto unit must still match HEAD (git rm -n refuses otherwise, changing nothing).
  const auto = new Set(approved.filter((c) => c.tier === "auto").map((c) => c.path));
  const autoFiles = entries.filter((e) => auto.has(e.unit)).map((e) => e.path);
  if (autoFiles.length > 0) {
    await gitOr(git, [...RM, "-n"], nul(autoFiles), {
      hint: "a unit changed since it was checked (git rm refused); run prune again",
    });
  }

  // 4. One commit: HEAD minus exactly these units, from a private index. The user's
  //    index and worktree are not touched yet: a crash here loses nothing.
  let tree: string | null = null;
  if (oldHead !== undefined && committed.length > 0) {
    const env = { GIT_INDEX_FILE: temp.commit };
    await git(["read-tree", oldHead], { env });
    await git([...RM, "--cached", "-f"], { stdin: nul([...headFiles]), env });
    tree = text((await git(["write-tree"], { env })).stdout);
    await Deno.writeTextFile(temp.message, commitMessage(committed), { createNew: true });
  }
  const journal: Journal = {
    schema_version: 1,
    started_at: new Date().toISOString(),
    old_head: oldHead ?? null,
    tree,
    backup: names.backup,
    objects: names.objects,
    snapshot: Buffer.from(join0(selection.snapshot)).toString("base64"),
    files: backupFiles,
    raw: raw.files,
  };
  await writeJournal(temp.journal, journal);
  return { raw, tree, journal };
}

/**
 * The `prune-*` files an apply makes in the state directory (docs/design.md
 * "Lifecycle deletion", "Apply"), and their removal: after the apply, and
 * whatever a killed one left behind.
 *
 * @module
 */

import { join } from "node:path";
import { PRUNE_JOURNAL_FILE } from "./_journal.ts";

/** The paths of one apply's files in the state directory. */
export interface TempPaths {
  /** The backup index. */
  backup: string;
  /** The backup's private object directory. */
  objects: string;
  /** The private index the hygiene commit is made on. */
  commit: string;
  /** The copy of the backup index the untracked files are removed through. */
  untracked: string;
  /** The hygiene commit's message. */
  message: string;
  /** The scratch directory of an exact restore. */
  scratch: string;
  /** The journal. */
  journal: string;
}

/**
 * The files of one apply in `stateDir` (unique to it), and the names the journal
 * records its backup by.
 */
export function tempFiles(
  stateDir: string,
): { names: { backup: string; objects: string }; temp: TempPaths } {
  const tag = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const names = { backup: `prune-${tag}.backup.index`, objects: `prune-${tag}.objects` };
  const temp = {
    backup: join(stateDir, names.backup),
    objects: join(stateDir, names.objects),
    commit: join(stateDir, `prune-${tag}.commit.index`),
    untracked: join(stateDir, `prune-${tag}.untracked.index`),
    message: join(stateDir, `prune-${tag}.message.txt`),
    scratch: join(stateDir, `prune-${tag}.scratch`),
    journal: join(stateDir, PRUNE_JOURNAL_FILE),
  };
  return { names, temp };
}

/** Removes an apply's files; with `keepBackup`, its backup and journal stay. */
export async function cleanUp(temp: TempPaths, keepBackup: boolean): Promise<void> {
  // The journal goes first: one whose backup is gone could no longer be rolled back.
  // A restore that failed keeps the backup and the journal: the next run retries it.
  if (!keepBackup) keepBackup = !(await removed(temp.journal));
  const leftovers = Object.values(temp).filter((p) =>
    !(keepBackup && (p === temp.backup || p === temp.objects || p === temp.journal))
  );
  await Promise.all(leftovers.map(removed));
}

/** Under the lock no other prune runs, and without a journal nothing needs them: every prune-* entry is a leftover. */
export async function removeLeftovers(stateDir: string): Promise<void> {
  for await (const entry of Deno.readDir(stateDir)) {
    if (entry.name.startsWith("prune-")) await removed(join(stateDir, entry.name));
  }
}

/** Removes `path` (recursively); whether it is gone. */
export async function removed(path: string): Promise<boolean> {
  try {
    await Deno.remove(path, { recursive: true });
    return true;
  } catch (err) {
    return err instanceof Deno.errors.NotFound;
  }
}

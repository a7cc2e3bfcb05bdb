/**
 * The prune journal (docs/design.md "Lifecycle deletion", "Apply"): its name in
 * the state directory, its format, and how it is written and read.
 *
 * @module
 */

import { atomicWrite } from "../fs/atomic_write.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";

/**
 * The journal an apply writes to the state directory before it changes
 * anything, and removes when it is done; one left behind (the process was
 * killed) makes the next apply roll that one back first.
 *
 * @example
 * ```ts
 * import { PRUNE_JOURNAL_FILE } from "./apply_prune.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(PRUNE_JOURNAL_FILE, "prune-journal.json");
 * ```
 */
export const PRUNE_JOURNAL_FILE = "prune-journal.json";

/** The journal an apply keeps in the state directory while it mutates anything. */
export interface Journal {
  /** The journal's format. */
  schema_version: 1;
  /** When the apply started (ISO 8601). */
  started_at: string;
  /** HEAD before the apply (`null`: unborn branch). */
  old_head: string | null;
  /** The tree of the hygiene commit it was about to make (`null`: none). */
  tree: string | null;
  /**
   * The private index holding the exact bytes of every file of the approved
   * units, by name in the state directory (so a moved repository keeps it).
   */
  backup: string;
  /** The private object directory holding the backup's blobs, by name in the state directory. */
  objects: string;
  /** The real index's entries of the approved units (`ls-files -s` records, NUL-joined, base64). */
  snapshot: string;
  /** Every file of the approved units. */
  files: string[];
  /** Those backed up byte for byte (restored with no conversion); absent in older journals. */
  raw?: string[];
  /**
   * Files a restore was writing back when it stopped: whatever is there is cut short, so they
   * are written again even where present (others are restored only where missing).
   */
  restoring?: string[];
}

/** Writes `journal` to `path` (atomically: a kill leaves the old one or the new one). */
export async function writeJournal(path: string, journal: Journal): Promise<void> {
  await atomicWrite(path, `${JSON.stringify(journal)}\n`);
}

/**
 * The journal at `path`, or `undefined` when there is none.
 *
 * @throws {DochygieneError} `PRUNE_JOURNAL` when it cannot be read or is not a journal.
 */
export async function readJournal(path: string): Promise<Journal | undefined> {
  let journal: Journal;
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  // A FIFO would block the read forever (holding the lock); a symlink points anywhere.
  if (!info.isFile) throw notOurs(path, "is not a regular file");
  try {
    journal = JSON.parse(await Deno.readTextFile(path));
    if (
      journal?.schema_version !== 1 || !Array.isArray(journal.files) ||
      typeof journal.backup !== "string" || typeof journal.objects !== "string" ||
      typeof journal.snapshot !== "string"
    ) throw new Error("shape");
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new DochygieneError(
      "PRUNE_JOURNAL",
      `${path} is not a readable prune journal; an interrupted prune left it: the removed files' ` +
        `content is in the prune-*.backup.index and prune-*.objects next to it ` +
        `(GIT_INDEX_FILE=<index> GIT_OBJECT_DIRECTORY=<objects> ` +
        `GIT_ALTERNATE_OBJECT_DIRECTORIES=.git/objects git checkout-index -a); ` +
        `move them away, then run prune again`,
    );
  }
  if (
    !_BACKUP.test(journal.backup) ||
    journal.objects !== journal.backup.replace(_BACKUP, "$1.objects")
  ) {
    throw notOurs(
      path,
      `names a backup (${journal.backup}, ${journal.objects}) this tool never makes`,
    );
  }
  return journal;
}

/** The name of a backup index an apply makes; `$1` its tag's part, as its objects are named. */
const _BACKUP = /^(prune-\d+-[0-9a-f]{8})\.backup\.index$/;

/**
 * The refusal of a journal (or its backup) this tool did not leave: planted by a clone that
 * tracks `.dochygiene/`, or made by hand. Nothing is read through it or written for it.
 */
export function notOurs(path: string, why: string): DochygieneError {
  return new DochygieneError(
    "PRUNE_JOURNAL",
    `${path} ${why}, so it is not one this tool left; nothing was changed: move the ` +
      `.dochygiene/prune-* entries away (git rm -r --cached them if git tracks them), then run ` +
      `prune again`,
  );
}

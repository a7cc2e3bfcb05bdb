/**
 * Giving back what a failed apply removed (docs/design.md "Lifecycle deletion",
 * "Apply"): HEAD, the index entries and the files, from the backup; and the
 * checkout both this and the rollback of a killed apply write files back with.
 *
 * @module
 */

import { join } from "node:path";
import { backupBlobs, hashed } from "./_back_up.ts";
import { type Git, join0, nul, text } from "./_prune_git.ts";
import { decodeNulTerminated } from "../core/decode_path.ts";
import { removed } from "./_temp_files.ts";

/** What {@linkcode restore} undoes, as far as the failed apply got. */
export interface RestoreState {
  /** HEAD before the apply (`undefined`: unborn branch). */
  oldHead: string | undefined;
  /** Whether `git commit` ran (it may have made a commit even when it failed). */
  committing: boolean;
  /** The hygiene commit, by the id `git commit` printed. */
  newHead: string | undefined;
  /** The hygiene commit's tree, once made. */
  tree: string | null;
  /** The index entries to put back (`ls-files -s` records): those of the files removed. */
  snapshot: Uint8Array[];
  /** The environment that reads the backup (its index and object directory). */
  backupEnv: Record<string, string>;
  /** The files to write back. */
  files: string[];
  /** Which of them were backed up byte for byte, and how to check them out so. */
  exact: Exact;
  /** Records, before they are written back, which files are being restored. */
  restoring: (files: string[]) => Promise<void>;
}

/** Undoes a failed apply; returns what was done, for the error line, and whether all of it could be. */
export async function restore(
  git: Git,
  state: RestoreState,
): Promise<{ undone: string; complete: boolean }> {
  const problems: string[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      problems.push(`${what}: ${err instanceof Error ? err.message : err}`);
    }
  };
  // HEAD moves back only from exactly this run's commit: a commit made on top of it (a hook,
  // another agent) is someone's work, and moving HEAD back would drop it from the branch.
  let headNote = "";
  if (state.committing) {
    await attempt("moving HEAD back", async () => {
      const head = text((await git(["rev-parse", "HEAD"])).stdout);
      if (state.newHead === undefined) {
        if (head === state.oldHead) return;
        // git commit failed; HEAD moved all the same: someone's commit, unless it has our tree.
        const tree = text((await git(["rev-parse", `${head}^{tree}`])).stdout);
        if (tree === state.tree) {
          throw new Error(`HEAD is now ${head}; see git log whether it is the hygiene commit`);
        }
        headNote = `; HEAD moved meanwhile (a commit landed: ${head}) and was left alone` +
          await _deletesUnits(git, state, head);
      } else if (head === state.newHead) {
        // Back to the commit it was made on: oldHead, or a commit that landed just before it,
        // which is someone's work and stays.
        const parent = text((await git(["rev-parse", `${state.newHead}^`])).stdout);
        await git([
          "update-ref",
          "-m",
          "dochygiene: undo a failed prune",
          "HEAD",
          parent,
          state.newHead,
        ]);
      } else if (head !== state.oldHead) {
        headNote = `; HEAD was left alone: it is no longer the hygiene commit ${state.newHead} ` +
          `(now ${head}); if that commit is still in your history, undo it with git revert ${state.newHead}`;
      }
    });
  }
  if (state.snapshot.length > 0) {
    await attempt(
      "restoring the index",
      () => git(["update-index", "-z", "--index-info"], { stdin: join0(state.snapshot) }),
    );
  }
  if (state.files.length > 0) {
    await attempt("restoring the files", async () => {
      await state.restoring(state.files);
      let blocked: string[];
      try {
        blocked = await checkOut(git, state.files, state.backupEnv, state.exact);
      } catch (err) {
        // Stopped part way: the journal keeps naming only what is not back.
        const left = await unfinished(
          git,
          state.exact.root,
          state.files,
          state.backupEnv,
          state.exact.files,
        ).catch(() => state.files);
        await state.restoring(left);
        throw err;
      }
      // Written back: from here on, only what was not is the journal's to restore.
      await state.restoring(blocked);
      if (blocked.length > 0) {
        throw new Error(
          `${blocked[0]}${
            blocked.length > 1 ? ` and ${blocked.length - 1} more` : ""
          } not written back: something stands in its way (a directory at its path, or a file ` +
            "where a directory of it goes): move it away",
        );
      }
    });
    await attempt(
      "refreshing the index",
      () => git(["update-index", "-q", "--refresh"], { okCodes: [0, 1] }),
    );
  }
  if (problems.length > 0) {
    return {
      undone: `could NOT restore everything (${
        problems.join("; ")
      }); the removed files' content is in ${state.backupEnv.GIT_INDEX_FILE} (its blobs in ${state.backupEnv.GIT_OBJECT_DIRECTORY}): do not delete them; the next prune --yes writes back what is missing`,
      complete: false,
    };
  }
  // A unit's file gone though nothing here removed it (a hook's `git stash --keep-index` checks
  // the staged deletion out over it): the files are not all as before, and the user must know.
  const written = new Set(state.files);
  const gone = state.exact.files.filter((path) =>
    !written.has(path) && !_present(join(state.exact.root, path))
  );
  const goneNote = gone.length === 0
    ? ""
    : `; but ${gone[0]}${
      gone.length > 1 ? ` and ${gone.length - 1} more` : ""
    } went missing from the working tree while pruning, removed by another program (not by ` +
      "prune): git checkout HEAD -- <path> brings a committed file back";
  const files = gone.length === 0 ? " and files" : "";
  return {
    undone: headNote === ""
      ? `everything it had removed was restored (HEAD, index${files} are as before)${goneNote}`
      : `the index${files} ${files ? "are" : "is"} as before${headNote}${goneNote}`,
    complete: true,
  };
}

/**
 * What a commit that landed while `git commit` ran deletes of the units (a hook that commits
 * on the index it is given commits prune's staged deletions): "" when nothing.
 */
async function _deletesUnits(git: Git, state: RestoreState, head: string): Promise<string> {
  if (state.oldHead === undefined || state.exact.files.length === 0) return "";
  const out = await git(
    [
      "diff-tree",
      "-r",
      "-z",
      "--no-renames",
      "--name-only",
      "--diff-filter=D",
      state.oldHead,
      head,
    ],
  );
  const units = new Set(state.exact.files);
  const gone = decodeNulTerminated(out.stdout).filter((path) => units.has(path));
  if (gone.length === 0) return "";
  return `, but it deletes ${gone[0]}${gone.length > 1 ? ` and ${gone.length - 1} more` : ""} ` +
    "(a hook that committed prune's staged deletions?): the files are still on disk and in " +
    `history; git revert ${head} undoes that commit`;
}

/** Whether anything is at `path` (a symlink counts; not followed). */
function _present(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What {@linkcode checkOut} needs to give files back byte for byte. */
export interface Exact {
  /** The worktree root. */
  root: string;
  /** The files backed up byte for byte. */
  files: readonly string[];
  /** The repository's object format (`sha1`, `sha256`). */
  objectFormat: string;
  /** A directory of ours to make, use and remove: an empty worktree and a git dir in it. */
  scratch: string;
}

/** Attributes that turn every conversion off, outranking any `.gitattributes`. */
const _NO_CONVERSION = "* -text -eol -crlf -ident -filter -working-tree-encoding\n";

/**
 * Gives `files` back from the backup read by `env`. Those backed up byte for byte are checked
 * out with no conversion at all: through a scratch git dir of ours (no config of the project's,
 * the user's or the system's; an `info/attributes` turning every conversion off, which outranks
 * any `.gitattributes`) and an empty worktree of ours, writing under the root with `--prefix`.
 * The others as git checks them out.
 */
export async function checkOut(
  git: Git,
  files: readonly string[],
  env: Record<string, string>,
  exact: Exact,
): Promise<string[]> {
  // `checkout-index -f` would delete what stands in the way (a directory at the path, a file where
  // a directory of it goes): that is someone's, so such a file is not written back.
  const blocked = files.filter((f) => _blockedWay(exact.root, f));
  const free = blocked.length === 0 ? files : files.filter((f) => !blocked.includes(f));
  const byteForByte = new Set(exact.files);
  const plain = free.filter((f) => !byteForByte.has(f));
  const raw = free.filter((f) => byteForByte.has(f));
  if (plain.length > 0) {
    await git(["checkout-index", "-f", "-q", "-z", "--stdin"], { stdin: nul(plain), env });
  }
  if (raw.length === 0) return blocked;
  const [tree, gitDir] = [join(exact.scratch, "tree"), join(exact.scratch, "git")];
  const isolated = {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
  };
  // Not recursive, and before the removal below owns it: the scratch directory is made here,
  // so nothing standing at its name is followed or removed.
  await Deno.mkdir(exact.scratch);
  try {
    await Deno.mkdir(tree);
    await git(
      ["init", "-q", "--bare", "--template=", `--object-format=${exact.objectFormat}`, gitDir],
      { env: isolated },
    );
    await Deno.mkdir(join(gitDir, "info"), { recursive: true }); // inside our fresh directory
    await Deno.writeTextFile(join(gitDir, "info", "attributes"), _NO_CONVERSION);
    await git(["checkout-index", "-f", "-q", "-z", "--stdin", `--prefix=${exact.root}/`], {
      stdin: nul(raw),
      env: { ...env, ...isolated, GIT_DIR: gitDir, GIT_WORK_TREE: tree },
    });
  } finally {
    await removed(exact.scratch);
  }
  return blocked;
}

/**
 * Whether writing `file` back would delete something: a directory standing at its path (with
 * all it holds), or something that is not a real directory where a directory of its path goes.
 */
function _blockedWay(root: string, file: string): boolean {
  try {
    if (Deno.lstatSync(join(root, file)).isDirectory) return true;
  } catch {
    // Not there, as expected.
  }
  for (let at = file.indexOf("/"); at > 0; at = file.indexOf("/", at + 1)) {
    try {
      if (!Deno.lstatSync(join(root, file.slice(0, at))).isDirectory) return true;
    } catch {
      return false; // not there: git makes it
    }
  }
  return false;
}

/**
 * Of `files`, those not back as their backup holds them: missing, or (backed up byte for byte)
 * with other bytes. A restore that stopped leaves the journal naming only these.
 */
export async function unfinished(
  git: Git,
  root: string,
  files: readonly string[],
  env: Record<string, string>,
  exact: readonly string[],
): Promise<string[]> {
  const raw = new Set(exact);
  const left = new Set<string>();
  const compared: string[] = [];
  for (const file of files) {
    const info = await Deno.lstat(join(root, file)).catch(() => undefined);
    if (info === undefined || (raw.has(file) && !info.isFile)) left.add(file);
    else if (raw.has(file)) compared.push(file);
  }
  if (compared.length > 0) {
    const blobs = await backupBlobs(git, env);
    let now: string[];
    try {
      now = await hashed(git, compared);
    } catch {
      return [...files]; // cannot tell: all of them
    }
    compared.forEach((f, i) => now[i] !== blobs.get(f)?.oid && left.add(f));
  }
  return files.filter((f) => left.has(f));
}

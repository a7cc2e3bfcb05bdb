/**
 * Rolling back an apply that was killed (docs/design.md "Lifecycle deletion",
 * "Apply"): the next apply does so from the journal the killed one left, before
 * it plans.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { join, relative, resolve } from "node:path";
import { decodeNulTerminated } from "../core/decode_path.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { pathExists } from "../fs/path_exists.ts";
import { backupBlobs, backupEnv } from "./_back_up.ts";
import { notOurs, PRUNE_JOURNAL_FILE, readJournal, writeJournal } from "./_journal.ts";
import { entryPath, type Git, join0, records, text } from "./_prune_git.ts";
import { checkOut, unfinished } from "./_restore.ts";
import { removeLeftovers, tempFiles } from "./_temp_files.ts";
import { HYGIENE_SUBJECT } from "../git/read_restored_ages.ts";

/**
 * Rolls back an apply that was killed (its journal is still there): HEAD moves
 * back only if it is exactly the unfinished hygiene commit; index entries and
 * files come back only where they are missing (nothing anyone changed since is
 * overwritten). Once HEAD has moved on from that commit (it is an ancestor),
 * its deletions are history: only missing untracked files come back. A
 * journal whose backup is gone changes nothing and throws: moving HEAD back
 * without the files would undo a finished prune's commit and show its files
 * as deleted. Returns the warnings to report.
 */
export async function recover(
  git: Git,
  where: { root: string; stateDir: string; objects: string; objectFormat: string },
): Promise<{ warnings: string[]; aged: boolean }> {
  const { root, stateDir, objects, objectFormat } = where;
  const path = join(stateDir, PRUNE_JOURNAL_FILE);
  const journal = await readJournal(path);
  if (journal === undefined) {
    await removeLeftovers(stateDir);
    return { warnings: [], aged: false };
  }
  const backup = resolve(stateDir, journal.backup);
  const store = resolve(stateDir, journal.objects);
  const [backupInfo, storeInfo] = [_lstat(backup), _lstat(store)];
  if (backupInfo === undefined || storeInfo === undefined) {
    const head = journal.old_head === null ? "" : `, HEAD was ${journal.old_head}`;
    throw new DochygieneError(
      "PRUNE_JOURNAL",
      `${path} records a prune (started ${journal.started_at}${head}) that cannot be rolled ` +
        `back: its backup ${journal.backup} is gone; nothing was changed. See git log -1 and ` +
        `git status (git checkout ${journal.old_head ?? "<commit>"} -- <path> gives back a ` +
        `committed file), then remove the journal and run prune again`,
    );
  }
  // Read through nothing but what this tool made: a regular index and a real directory, which
  // git does not track (a clone of a repository that commits .dochygiene/ brings a planted one).
  if (!backupInfo.isFile || !storeInfo.isDirectory) {
    throw notOurs(path, `names a backup that is not a regular file and a directory`);
  }
  const ownedByGit = await git([
    "ls-files",
    "-z",
    "--",
    ...[path, backup, store].map((p) => relative(root, p)),
  ]);
  if (ownedByGit.stdout.length > 0) throw notOurs(path, "or its backup is tracked by git");
  const done: string[] = [];
  let snapshot = [...records(Buffer.from(journal.snapshot, "base64"))];
  const tracked = new Set(snapshot.map(entryPath));
  let files = journal.files;
  if (journal.old_head !== null && journal.tree !== null) {
    const { head, commit } = await _hygieneCommit(git, journal.old_head, journal.tree);
    if (commit === head) {
      await git([
        "update-ref",
        "-m",
        "dochygiene: undo an interrupted prune",
        "HEAD",
        journal.old_head,
        head,
      ]);
      done.push(`HEAD moved back from its unfinished commit ${head}`);
    } else if (commit !== undefined) {
      // HEAD moved on from the hygiene commit, so its deletions are history now: its tracked
      // files stay deleted (restoring them would stage them again); untracked ones may come back.
      files = files.filter((f) => !tracked.has(f));
      snapshot = [];
      done.push(`its commit ${commit} is under HEAD (now ${head}) and stays`);
    } else if (head !== journal.old_head && head !== "") {
      // Its commit on a commit that landed meanwhile (its tree undoes that one's changes)?
      const [tree, parents, subject] = text(
        (await git(["log", "-1", "--no-show-signature", "--format=%T%x00%P%x00%s", head])).stdout,
      ).split("\0");
      if (
        tree === journal.tree && !parents.includes(" ") && subject.startsWith(HYGIENE_SUBJECT)
      ) {
        await git([
          "update-ref",
          "-m",
          "dochygiene: undo an interrupted prune",
          "HEAD",
          parents,
          head,
        ]);
        done.push(`HEAD moved back from its unfinished commit ${head} to ${parents}`);
      } else {
        done.push(`HEAD has moved since (now ${head}), so it was left alone`);
      }
    }
  }
  if (snapshot.length > 0) {
    const present = new Set(
      decodeNulTerminated((await git(["ls-files", "-z"])).stdout),
    );
    const missing = snapshot.filter((r) => !present.has(entryPath(r)));
    if (missing.length > 0) {
      await git(["update-index", "-z", "--index-info"], { stdin: join0(missing) });
      done.push(`${_count(missing.length, "index entry", "index entries")} restored`);
    }
  }
  const missingFiles: string[] = [];
  const cutShort = await _cutShort(
    git,
    root,
    Array.isArray(journal.restoring) ? journal.restoring : [],
    backupEnv(backup, store, objects),
  );
  for (const file of files) {
    if (cutShort.has(file) || !(await pathExists(join(root, file)))) missingFiles.push(file);
  }
  if (missingFiles.length > 0) {
    // Killed in this restore too, the next run writes these again.
    await writeJournal(path, { ...journal, restoring: missingFiles });
    const env = backupEnv(backup, store, objects);
    // A journal from before exact backups names none.
    const raw = Array.isArray(journal.raw) ? journal.raw : [];
    let blocked: string[];
    try {
      blocked = await checkOut(git, missingFiles, env, {
        root,
        files: raw,
        objectFormat,
        // Unique, and made afresh: never a name something may already stand at.
        scratch: tempFiles(stateDir).temp.scratch,
      });
    } catch (err) {
      const left = await unfinished(git, root, missingFiles, env, raw).catch(() => missingFiles);
      await writeJournal(path, { ...journal, restoring: left });
      throw err;
    }
    // Written back: from here on, only what was not is the journal's to restore.
    await writeJournal(path, { ...journal, restoring: blocked });
    if (blocked.length > 0) {
      throw new Error(
        `${blocked[0]}${
          blocked.length > 1 ? ` and ${blocked.length - 1} more` : ""
        } cannot be written back: something stands in its way (a directory at its path, or a ` +
          "file where a directory of it goes); move it away",
      );
    }
    await git(["update-index", "-q", "--refresh"], { okCodes: [0, 1] });
    const rewritten = missingFiles.filter((f) => cutShort.has(f));
    done.push(
      `${_count(missingFiles.length, "file")} restored` +
        (rewritten.length > 0 ? ` (cut short before: ${rewritten.join(", ")})` : ""),
    );
  }
  // The journal first: a kill in between leaves leftovers, never a journal without its backup.
  await Deno.remove(path);
  await removeLeftovers(stateDir);
  return {
    warnings: [
      `an interrupted prune (started ${journal.started_at}) was rolled back: ${
        done.length === 0 ? "nothing was left to restore" : done.join(", ")
      }`,
    ],
    aged: missingFiles.some((f) => !tracked.has(f)),
  };
}

/**
 * Of the files a killed restore was writing back, those left cut short: present, regular, and
 * a strict prefix of their backup (anything else there is someone's work since, and stays).
 */
async function _cutShort(
  git: Git,
  root: string,
  restoring: readonly string[],
  env: Record<string, string>,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (restoring.length === 0) return found;
  const blobs = await backupBlobs(git, env);
  for (const file of restoring) {
    const blob = blobs.get(file);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(join(root, file));
    } catch {
      continue; // missing: restored as such
    }
    // Only a regular file shorter than its backup can be a cut-short copy of it.
    if (blob === undefined || !info.isFile || info.size >= blob.size) continue;
    const bytes = Deno.readFileSync(join(root, file));
    const whole = (await git(["cat-file", "blob", blob.oid], { env })).stdout;
    if (whole.subarray(0, bytes.length).every((b, i) => b === bytes[i])) found.add(file);
  }
  return found;
}

/**
 * HEAD, and the hygiene commit an apply made on `oldHead` (its only parent)
 * with tree `tree` if HEAD is that commit or descends from it.
 */
async function _hygieneCommit(
  git: Git,
  oldHead: string,
  tree: string,
): Promise<{ head: string; commit: string | undefined }> {
  const head = text(
    (await git(["rev-parse", "-q", "--verify", "HEAD"], { okCodes: [0, 1] })).stdout,
  );
  if (head === "" || head === oldHead) return { head, commit: undefined };
  // One record per commit descending from oldHead: `commit <id>`, then `<tree> <parents>`.
  const out = await git(["rev-list", "--ancestry-path", "--format=%T %P", `${oldHead}..${head}`], {
    okCodes: [0, 128],
  });
  const lines = text(out.stdout).split("\n");
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (lines[i + 1] === `${tree} ${oldHead}`) return { head, commit: lines[i].slice(7) };
  }
  return { head, commit: undefined };
}

/** `path`'s own kind (a symlink is not followed), or `undefined` when there is nothing. */
function _lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** `n thing` or `n things`. */
function _count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

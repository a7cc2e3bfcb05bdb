/**
 * The files of a project: from git's index and worktree in a repository, from
 * a filesystem walk elsewhere (docs/design.md "The scanner", "Candidates").
 *
 * @module
 */

import { join } from "node:path";
import { byCodePoint } from "../core/by_code_point.ts";
import { decodeNulTerminated, decodePath } from "../core/decode_path.ts";
import { ALWAYS_EXCLUDED_DIRS } from "../config/load_config.ts";
import { dirEntries } from "../fs/dir_entries.ts";
import { runGit } from "./run_git.ts";

/** One file of the listing. */
export interface ListedFile {
  /** Root-relative, `/`-separated; undecodable name bytes as lone surrogates (see `decodePath`). */
  path: string;
  /** In git's index (tracked); always false in walk mode. */
  tracked: boolean;
  /**
   * `file` (regular or unknown until stat), `symlink` (or, untracked, any
   * other file that is not regular: a FIFO, a socket), or `gitlink` (a
   * submodule).
   */
  type: "file" | "symlink" | "gitlink";
  /**
   * Set (`true`) when git is told to hide changes to it: skip-worktree or
   * assume-unchanged (`git ls-files -v` tags `S` and lower case).
   */
  hidden?: true;
  /**
   * Set (`true`) for a tracked file that is not on disk: deleted from the
   * working tree and not yet staged, or left out by a sparse checkout. The
   * scanner does not see it (no candidate, no link target, no proof of
   * `served_when_path`); prune keeps it in its unit, whose deletion it is.
   */
  absent?: true;
  /**
   * The id of the blob git's index holds for the file, set only when git
   * finds the file on disk unchanged: a regular file at stage 0, not hidden,
   * that git does not find deleted or modified (git compares the file's
   * `lstat` with the index's record of it, and its content when they differ
   * or are too recent to tell), asked with `core.autocrlf` off and without
   * the global and system attributes files. Attributes in the tree
   * (`.gitattributes`, `.git/info/attributes`) can still make git find bytes
   * that convert to the blob unchanged: a caller that needs the bytes to be
   * the blob must rule those out.
   */
  oid?: string;
}

/** What {@linkcode listCandidates} found. */
export interface CandidateListing {
  /** Every file listed, deduplicated, sorted by code point. */
  files: ListedFile[];
  /**
   * Directories whose contents are unknown: never descended in walk mode
   * (excluded, unreadable, symlinked), submodules and nested repositories in
   * git mode. Links into them are not checked.
   */
  opaque: string[];
  /** Problems that did not stop the listing (one line each). */
  warnings: string[];
}

/** Options of {@linkcode listCandidates}. */
export interface ListOptions {
  /** List from git (the root holds `.git`) rather than by walking. */
  git: boolean;
  /** Directory names never descended in walk mode (`.git`, `.dochygiene` always). */
  excludedDirs: readonly string[];
  /** Directories read at once in walk mode (default 16). */
  concurrency?: number;
}

/**
 * Lists the files of the project at `root`. In a repository: ONE
 * `git ls-files -z -s -v --cached --deleted --others --exclude-standard`
 * (tracked plus untracked-not-ignored; unmerged entries appear once;
 * submodules are `gitlink`s; a tracked file that is not on disk is marked
 * `absent`). Elsewhere: a walk that never descends excluded directories,
 * never follows symlinks (so loops cannot trap it) and reports unreadable
 * directories as warnings.
 *
 * @example
 * ```ts
 * import { listCandidates } from "./list_candidates.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/docs/node_modules`, { recursive: true });
 * await Deno.writeTextFile(`${root}/docs/a.md`, "# A\n");
 * await Deno.writeTextFile(`${root}/docs/node_modules/b.md`, "# B\n");
 * const { files, opaque } = await listCandidates(root, {
 *   git: false,
 *   excludedDirs: ["node_modules"],
 * });
 * assert.deepEqual(files.map((f) => f.path), ["docs/a.md"]);
 * assert.deepEqual(opaque, ["docs/node_modules"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function listCandidates(root: string, options: ListOptions): Promise<CandidateListing> {
  return options.git ? _listGit(root) : _walk(root, options);
}

/**
 * What git's "not modified" rests on, set so that it means the file's bytes
 * are the index's blob (see `ListedFile.oid`): no conversion on the way (line
 * endings, filters and encodings come from `core.autocrlf` and attributes;
 * the global and system attributes files are left out here, those in the
 * tree are the caller's to check), every `lstat` field compared (a changed
 * ctime, a changed mode or owner), and no file system monitor trusted.
 */
const _PLAIN_COMPARE = {
  config: {
    "core.autocrlf": "false",
    "core.attributesFile": "/dev/null",
    "core.trustctime": "true",
    "core.checkStat": "default",
    "core.fsmonitor": "false",
  },
  env: { GIT_ATTR_NOSYSTEM: "1" },
};

async function _listGit(root: string): Promise<CandidateListing> {
  const { stdout } = await runGit(root, [
    "ls-files",
    "-z",
    "-s",
    "-v",
    "--cached",
    "--deleted",
    "--modified",
    "--others",
    "--exclude-standard",
  ], _PLAIN_COMPARE);
  const listing = parseLsFiles(stdout);
  // Looked up on disk (one directory listing each): the files git is told to hide changes of,
  // which it does not look for (a sparse checkout leaves them out); those it says are deleted,
  // which it also says of a file it may not look at; untracked files, whose kind git does not
  // say (a symlink is never read, nor is any path beneath it).
  if (listing.files.some((f) => !f.tracked || f.hidden || f.absent)) {
    const entry = dirEntries(root);
    for (const file of listing.files) {
      if (!file.tracked) {
        if (entry(file.path) === "other") file.type = "symlink";
      } else if (file.hidden || file.absent) {
        const kind = entry(file.path);
        if (kind === "missing" || kind === "linked") file.absent = true;
        else delete file.absent; // there, or unknown (the read will say why)
      }
    }
  }
  return listing;
}

/**
 * Parses the output of `git ls-files -z -s -v --cached --deleted --modified
 * --others`: records `? <path>` (untracked) and `<tag> <mode> <sha>
 * <stage>\t<path>` (tracked). Unmerged paths (one record per stage) are
 * listed once; a path with an `R` record (git found no file there) is
 * `absent`; an untracked directory entry (`dir/`, a nested repository) is
 * opaque; a tag `S` or in lower case (skip-worktree, assume-unchanged) marks
 * the file `hidden`; a regular file's blob id is kept (`oid`) unless it is
 * unmerged, hidden, or has an `R` or `C` (modified) record.
 *
 * @example
 * ```ts
 * import { parseLsFiles } from "./list_candidates.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new TextEncoder().encode(
 *   "? new.md\0H 100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\ta.md\0" +
 *     "H 160000 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tsub\0" +
 *     "H 100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tgone.md\0" +
 *     "R 100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tgone.md\0",
 * );
 * const { files, opaque } = parseLsFiles(out);
 * assert.deepEqual(files, [
 *   { path: "a.md", tracked: true, type: "file", oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" },
 *   { path: "gone.md", tracked: true, type: "file", absent: true },
 *   { path: "new.md", tracked: false, type: "file" },
 *   { path: "sub", tracked: true, type: "gitlink" },
 * ]);
 * assert.deepEqual(opaque, ["sub"]);
 * ```
 */
export function parseLsFiles(stdout: Uint8Array): CandidateListing {
  const byPath = new Map<string, ListedFile>();
  const opaque: string[] = [];
  const deleted = new Set<string>();
  const modified = new Set<string>();
  const records = decodeNulTerminated(stdout);
  // git ends every record with NUL; a last unterminated one is taken as it is.
  const tail = stdout.lastIndexOf(0) + 1;
  if (tail < stdout.length) records.push(decodePath(stdout.subarray(tail)));
  for (const record of records) {
    if (record.length < 3) continue;
    if (record[0] === "?") {
      const path = record.slice(2);
      if (path.endsWith("/")) opaque.push(path.slice(0, -1));
      else if (!byPath.has(path)) byPath.set(path, { path, tracked: false, type: "file" });
      continue;
    }
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const mode = record.slice(2, 8);
    const path = record.slice(tab + 1);
    const type = mode === "160000" ? "gitlink" : mode === "120000" ? "symlink" : "file";
    if (type === "gitlink") opaque.push(path);
    const tag = record[0];
    if (tag === "R" || tag === "r" || tag === "C" || tag === "c") {
      (tag === "R" || tag === "r" ? deleted : modified).add(path);
      continue;
    }
    const file: ListedFile = { path, tracked: true, type };
    if (tag === "S" || (tag >= "a" && tag <= "z")) file.hidden = true;
    else if (tag === "H" && type === "file" && record[tab - 1] === "0") {
      file.oid = record.slice(9, tab - 2);
    }
    // An unmerged path's later stages leave it without a blob id of its own.
    if (byPath.get(path)?.tracked) delete file.oid;
    byPath.set(path, file);
  }
  // Deleted (`R`) or modified (`C`): no bytes git vouches for.
  for (const path of [...deleted, ...modified]) {
    const file = byPath.get(path);
    if (!file?.tracked) continue;
    delete file.oid;
    if (deleted.has(path)) file.absent = true;
  }
  const files = [...byPath.values()].sort((a, b) => byCodePoint(a.path, b.path));
  return { files, opaque: opaque.sort(byCodePoint), warnings: [] };
}

async function _walk(root: string, options: ListOptions): Promise<CandidateListing> {
  const skip = new Set([...ALWAYS_EXCLUDED_DIRS, ...options.excludedDirs]);
  const files: ListedFile[] = [];
  const opaque: string[] = [];
  const warnings: string[] = [];
  const queue: string[] = [""];
  let active = 0;
  const limit = options.concurrency ?? 16;
  await new Promise<void>((resolve) => {
    const pump = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < limit && queue.length > 0) {
        const dir = queue.pop() as string;
        active++;
        _readDir(root, dir).then((result) => {
          if (typeof result === "string") {
            warnings.push(result);
            if (dir !== "") opaque.push(dir);
          } else {
            const entries = _decodable(root, dir, result);
            const undecodable = result.length - entries.length;
            if (undecodable > 0) {
              warnings.push(
                `${undecodable} name${undecodable === 1 ? "" : "s"} in ${dir || "."}/ ` +
                  `${undecodable === 1 ? "is" : "are"} not valid UTF-8, which Deno cannot ` +
                  `open outside git; rename ${undecodable === 1 ? "it" : "them"} to scan ` +
                  `${undecodable === 1 ? "it" : "them"}`,
              );
            }
            for (const entry of entries) {
              const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
              if (entry.isDirectory) {
                if (skip.has(entry.name)) opaque.push(rel);
                else queue.push(rel);
              } else if (entry.isSymlink) {
                // Never followed: a symlinked directory is opaque, a loop is harmless.
                files.push({ path: rel, tracked: false, type: "symlink" });
                opaque.push(rel);
              } else {
                files.push({ path: rel, tracked: false, type: "file" });
              }
            }
          }
          active--;
          pump();
        });
      }
    };
    pump();
  });
  files.sort((a, b) => byCodePoint(a.path, b.path));
  return { files, opaque: opaque.sort(byCodePoint), warnings: warnings.sort(byCodePoint) };
}

/**
 * The entries whose names can be opened. Deno shows a name's bytes that are
 * not UTF-8 as U+FFFD, and such a name cannot be opened: an entry with a
 * U+FFFD that is not really in its name (nothing of its kind is found by that
 * name, or an earlier entry has it) is left out.
 */
function _decodable(root: string, dir: string, entries: Deno.DirEntry[]): Deno.DirEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    if (!entry.name.includes("\uFFFD")) return true;
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (seen.has(entry.name) || !_sameKind(join(root, rel), entry)) return false;
    seen.add(entry.name);
    return true;
  });
}

/** Whether `full` is there and of the entry's kind (file, directory, symlink). */
function _sameKind(full: string, entry: Deno.DirEntry): boolean {
  try {
    const info = Deno.lstatSync(full);
    return info.isFile === entry.isFile && info.isDirectory === entry.isDirectory &&
      info.isSymlink === entry.isSymlink;
  } catch {
    return false;
  }
}

async function _readDir(root: string, dir: string): Promise<Deno.DirEntry[] | string> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(dir === "" ? root : join(root, dir))) {
      entries.push(entry);
    }
    return entries;
  } catch (err) {
    const reason = err instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : (err instanceof Error ? err.message : String(err)).split("\n")[0];
    return `cannot read directory ${dir === "" ? "." : dir}/ (${reason}); it was skipped`;
  }
}

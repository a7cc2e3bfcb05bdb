/**
 * The backup an apply takes before it changes anything (docs/design.md
 * "Lifecycle deletion", "Apply"): every file of the approved units as a blob
 * in a private index and a private object directory under the state
 * directory, the repository's own objects read, never written.
 *
 * @module
 */

import { join } from "node:path";
import { entryPath, type Git, nul, records, text } from "./_prune_git.ts";

/** The files a backup holds byte for byte, and their blobs' ids, in the same order. */
export interface RawBackup {
  /** The files backed up byte for byte (regular files). */
  files: string[];
  /** Their blobs' ids. */
  oids: string[];
  /** Their index modes (`100644`, `100755`). */
  modes: string[];
}

/**
 * Backs up `files` into the private index and object directory of `env`: regular files as
 * their exact bytes (`hash-object --no-filters`: no end-of-line conversion, no clean filter,
 * whatever the attributes say), the rest (symlinks) as `update-index --add` stores them.
 */
export async function backUp(
  git: Git,
  root: string,
  files: readonly string[],
  env: Record<string, string>,
): Promise<RawBackup> {
  const raw: RawBackup = { files: [], oids: [], modes: [] };
  const modes = raw.modes;
  const rest: string[] = [];
  for (const file of files) {
    let info: Deno.FileInfo | undefined;
    try {
      info = Deno.lstatSync(join(root, file));
    } catch {
      // Gone: update-index --remove leaves it out, and the drift check says so.
    }
    if (info?.isFile) {
      raw.files.push(file);
      modes.push((info.mode ?? 0) & 0o100 ? "100755" : "100644");
    } else {
      rest.push(file);
    }
  }
  // It lives for one apply: stored uncompressed, a large file is backed up ~5x faster.
  const config = { "core.looseCompression": "0", "pack.compression": "0" };
  if (raw.files.length > 0) {
    raw.oids = await hashed(git, raw.files, { env, config, write: true });
    await git(["update-index", "-z", "--index-info"], {
      stdin: raw.files.map((f, i) => `${modes[i]} ${raw.oids[i]}\t${f}\0`).join(""),
      env,
    });
  }
  if (rest.length > 0) {
    await git(["update-index", "--add", "--remove", "-z", "--stdin"], {
      stdin: nul(rest),
      env,
      config,
    });
  }
  return raw;
}

/**
 * The environment of a git command on a backup index: its blobs go to (and
 * come from) `store` under the state directory, with the repository's own
 * `objects` readable as an alternate, so a backup never grows `.git`.
 */
export function backupEnv(
  indexFile: string,
  store: string,
  objects: string,
): Record<string, string> {
  return {
    GIT_INDEX_FILE: indexFile,
    GIT_OBJECT_DIRECTORY: store,
    // The list is colon-separated; a path holding ':' is given C-quoted.
    GIT_ALTERNATE_OBJECT_DIRECTORIES: /[:"]/.test(objects) ? JSON.stringify(objects) : objects,
  };
}

/**
 * The blob ids of `files`' exact bytes (`hash-object --no-filters`), written to `env`'s store
 * with `write`; with `filters`, of their content as `git add` would store it.
 */
export async function hashed(
  git: Git,
  files: readonly string[],
  options: {
    env?: Record<string, string>;
    config?: Record<string, string>;
    write?: boolean;
    filters?: boolean;
  } = {},
): Promise<string[]> {
  const args = [
    "hash-object",
    ...(options.write ? ["-w"] : []),
    ...(options.filters ? [] : ["--no-filters"]),
    "--stdin-paths",
  ];
  const out = await git(args, {
    // C-quoted, each: git unquotes a line that starts with `"` and drops a CR before its end.
    stdin: files.map((f) => `${_cQuoted(f)}\n`).join(""),
    env: options.env,
    config: options.config,
  });
  return text(out.stdout).split("\n");
}

/** The byte-for-byte backed-up files whose bytes or mode changed (or that are gone) since. */
export async function changedBytes(git: Git, root: string, raw: RawBackup): Promise<string[]> {
  if (raw.files.length === 0) return [];
  // Still a regular file with its executable bit (a symlink now would be hashed through).
  const swapped = raw.files.find((file, i) => {
    try {
      const info = Deno.lstatSync(join(root, file));
      return !info.isFile || ((info.mode ?? 0) & 0o100 ? "100755" : "100644") !== raw.modes[i];
    } catch {
      return true;
    }
  });
  if (swapped !== undefined) return [swapped];
  let now: string[];
  try {
    now = await hashed(git, raw.files);
  } catch {
    return [raw.files[0]]; // one cannot be read any more
  }
  return raw.files.filter((_, i) => now[i] !== raw.oids[i]);
}

/** The backup index's blobs by path: id and size (`ls-files -s` and one `cat-file --batch-check`). */
export async function backupBlobs(
  git: Git,
  env: Record<string, string>,
): Promise<Map<string, { oid: string; size: number }>> {
  const blobs = new Map<string, { oid: string; size: number }>();
  for (const record of records((await git(["ls-files", "-s", "-z"], { env })).stdout)) {
    // `<mode> <oid> <stage>\t<path>`
    const oid = new TextDecoder().decode(record.subarray(0, record.indexOf(0x09))).split(" ")[1];
    blobs.set(entryPath(record), { oid, size: -1 });
  }
  if (blobs.size === 0) return blobs;
  const oids = [...new Set([...blobs.values()].map((b) => b.oid))];
  const sizes = new Map<string, number>();
  const out = await git(["cat-file", "--batch-check"], { stdin: oids.join("\n") + "\n", env });
  for (const line of text(out.stdout).split("\n")) {
    const [oid, , size] = line.split(" ");
    sizes.set(oid, Number(size));
  }
  for (const blob of blobs.values()) blob.size = sizes.get(blob.oid) ?? -1;
  return blobs;
}

/** `path` as git reads a C-quoted name: in quotes, with `\\`, `"` and line breaks escaped. */
function _cQuoted(path: string): string {
  const escaped = path.replace(
    /[\\"\n\r\t]/g,
    (c) => c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\${c}`,
  );
  return `"${escaped}"`;
}

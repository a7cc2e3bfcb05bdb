/**
 * HEAD's first-parent history as one `git log --name-only` pass lists it: the
 * commits, their times and the paths each changed. The git ages and the drift
 * signals both read it (docs/signals.md), so a scan runs the pass once.
 *
 * @module
 */

import { decodeNulTerminated } from "../core/decode_path.ts";
import { type GitResult, runGit } from "./run_git.ts";

/**
 * The arguments of the history pass. `--diff-merges=first-parent` makes a
 * merge list what it changed relative to its first parent, which is what
 * `git log -1 --first-parent -- PATH` compares against; `--root` lists the
 * root commit's files whatever `log.showRoot` says.
 */
export const GIT_LOG_ARGS: readonly string[] = [
  "log",
  "--first-parent",
  "--diff-merges=first-parent",
  "--root",
  "--no-renames",
  "--no-color",
  "--no-show-signature",
  "--name-only",
  "-z",
  "--format=%x00%ct %H",
  "HEAD",
  "--",
];

/** One history pass, parsed (see {@linkcode parseFirstParentLog}). */
export interface FirstParentLog {
  /** The commit the pass started after (`since..HEAD`); `undefined` for the whole history. */
  since?: string;
  /** The commits listed, newest first (git's order); "" where the header gave no id. */
  commits: string[];
  /** Their committer times, epoch seconds, as git gave them (a date after 9999 included). */
  seconds: number[];
  /** Every path changed, once, in the order first listed (by its newest change). */
  paths: string[];
  /** Commit `i` changed the paths `changed[starts[i]]` … `changed[starts[i + 1] - 1]`. */
  starts: Uint32Array;
  /** Indexes into `paths`, commit by commit (see `starts`). */
  changed: Uint32Array;
  /** The first parent of the oldest commit listed, when the headers name parents. */
  parent: string | undefined;
}

/** What {@linkcode readFirstParentLog} read, and why git stopped early, if it did. */
export interface FirstParentRead {
  /** The commits listed before git stopped (all of them when it did not). */
  log: FirstParentLog;
  /** Why git stopped before the end (its last stderr line); `undefined` when it did not. */
  failed: string | undefined;
}

/** Options of {@linkcode readFirstParentLog}. */
export interface FirstParentOptions {
  /** Read only the commits after this one (`since..to`), each header with its parents. */
  since?: string;
  /** The tip whose history is read (default `HEAD`). */
  to?: string;
  /**
   * Whether git stopping early (missing objects, an unknown commit: exit 128) is told in
   * `failed` instead of thrown (default `false`: thrown, as `runGit` throws it).
   */
  partial?: boolean;
}

/**
 * Runs one history pass ({@linkcode GIT_LOG_ARGS}) over the first-parent
 * history of `to`, or over the commits after `since`, and parses it.
 *
 * @throws {DochygieneError} `GIT_FAILED` when git fails (with `partial`: only when it cannot
 * read the repository at all).
 *
 * @example
 * ```ts
 * import { readFirstParentLog } from "./first_parent_log.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, stdout: "null", env: {
 *     GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t",
 *     GIT_COMMITTER_EMAIL: "t@t", GIT_COMMITTER_DATE: "2026-01-02T00:00:00Z",
 *   } }).output();
 * await git("init", "-q");
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * await git("add", "a.md");
 * await git("-c", "commit.gpgsign=false", "commit", "-qm", "a");
 * const { log, failed } = await readFirstParentLog(root);
 * assert.equal(failed, undefined);
 * assert.equal(log.commits.length, 1);
 * assert.deepEqual(log.paths, ["a.md"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readFirstParentLog(
  root: string,
  options: FirstParentOptions = {},
): Promise<FirstParentRead> {
  const { since, to = "HEAD" } = options;
  const rev = GIT_LOG_ARGS.indexOf("HEAD");
  const args = [
    ...GIT_LOG_ARGS.slice(0, rev - 1),
    since === undefined ? "--format=%x00%ct %H" : "--format=%x00%ct %H %P",
    since === undefined ? to : `${since}..${to}`,
    ...GIT_LOG_ARGS.slice(rev + 1),
  ];
  const result: GitResult = await runGit(root, args, options.partial ? { okCodes: [0, 128] } : {});
  const log = parseFirstParentLog(result.stdout);
  if (since !== undefined) log.since = since;
  const failed = result.code === 0
    ? undefined
    : result.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${result.code}`;
  return { log, failed };
}

/**
 * Parses the output of {@linkcode GIT_LOG_ARGS}: per commit, `\0<header>\0`,
 * then (when it changed anything) `\n` and NUL-terminated paths; a header is
 * `<ct>`, `<ct> <id>` or `<ct> <id> <parents>` (none for a root commit). A
 * path is never empty, so an empty token always starts a commit; a truncated
 * output parses as far as it goes, and the paths after a header it cannot
 * read are skipped with it.
 *
 * @example
 * ```ts
 * import { parseFirstParentLog } from "./first_parent_log.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new TextEncoder().encode("\u00002 b\u0000\na.md\u0000\u00001 a\u0000\na.md\u0000b.md\u0000");
 * const log = parseFirstParentLog(out);
 * assert.deepEqual(log.commits, ["b", "a"]);
 * assert.deepEqual(log.paths, ["a.md", "b.md"]);
 * assert.deepEqual([...log.changed], [0, 0, 1]);
 * assert.deepEqual([...log.starts], [0, 1, 3]);
 * ```
 */
export function parseFirstParentLog(stdout: Uint8Array): FirstParentLog {
  const commits: string[] = [];
  const seconds: number[] = [];
  const paths: string[] = [];
  const ids = new Map<string, number>();
  const starts: number[] = [];
  let changed = new Uint32Array(1024);
  let count = 0;
  let parent: string | undefined;
  let expectHeader = false;
  let inCommit = false;
  let first = false;
  for (const token of decodeNulTerminated(stdout)) {
    if (token === "") {
      expectHeader = true;
    } else if (expectHeader) {
      expectHeader = false;
      const header = /^([0-9]+)(?: ([0-9a-f]+)(?: ([0-9a-f]*)[0-9a-f ]*)?)?$/.exec(token);
      parent = header?.[3] || undefined;
      inCommit = header !== null;
      if (header === null) continue;
      commits.push(header[2] ?? "");
      seconds.push(Number(header[1]));
      starts.push(count);
      first = true;
    } else if (inCommit) {
      // The first path of a commit follows the header's newline.
      const path = first && token[0] === "\n" ? token.slice(1) : token;
      first = false;
      if (path === "") continue;
      let id = ids.get(path);
      if (id === undefined) {
        id = paths.length;
        ids.set(path, id);
        paths.push(path);
      }
      if (count === changed.length) {
        const grown = new Uint32Array(count * 2);
        grown.set(changed);
        changed = grown;
      }
      changed[count++] = id;
    }
  }
  starts.push(count);
  return {
    commits,
    seconds,
    paths,
    starts: Uint32Array.from(starts),
    changed: changed.slice(0, count),
    parent,
  };
}

/**
 * Each path of `log` → the committer time of the newest commit that changed it, in the order
 * first listed: `git log -1 --first-parent --format=%ct -- PATH` for each, had the pass
 * read the whole history.
 *
 * @example
 * ```ts
 * import { logAges, parseFirstParentLog } from "./first_parent_log.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new TextEncoder().encode("\u00002\u0000\na.md\u0000\u00001\u0000\na.md\u0000b.md\u0000");
 * assert.deepEqual([...logAges(parseFirstParentLog(out))], [["a.md", 2], ["b.md", 1]]);
 * ```
 */
export function logAges(log: FirstParentLog): Map<string, number> {
  const ages = new Map<string, number>();
  const { paths, starts, changed, seconds } = log;
  // Paths are numbered as first listed: newest commit first, so each id's first commit is its
  // newest, and ids come up in order.
  let next = 0;
  for (let i = 0; i < seconds.length && next < paths.length; i++) {
    for (let k = starts[i]; k < starts[i + 1]; k++) {
      if (changed[k] === next) ages.set(paths[next++], seconds[i]);
    }
  }
  return ages;
}

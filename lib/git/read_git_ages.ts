/**
 * Git facts for the scanner in one pass over history: the newest first-parent
 * commit time of every path, HEAD, and whether the clone is shallow; and, for
 * prune in a shallow clone, which of those ages are only where its history is
 * cut.
 *
 * @module
 */

import { contentFingerprint } from "../core/content_fingerprint.ts";
import { resolve } from "../fs/path.ts";
import {
  type FirstParentLog,
  type FirstParentRead,
  GIT_LOG_ARGS,
  logAges,
  parseFirstParentLog,
  readFirstParentLog,
} from "./first_parent_log.ts";
import { type GitResult, runGit } from "./run_git.ts";

/** What {@linkcode readGitAges} learned. */
export interface GitAges {
  /** HEAD's commit id; `undefined` in a repository without commits. */
  head: string | undefined;
  /** Whether the repository is a shallow clone (history is cut short). */
  shallow: boolean;
  /**
   * Every path changed on HEAD's first-parent history (deleted ones included)
   * → committer time (epoch seconds) of the newest such commit.
   */
  ages: Map<string, number>;
  /** Problems that did not stop the scan (one line each). */
  warnings: string[];
  /**
   * What shapes HEAD's history besides HEAD itself (see {@linkcode GitTip}),
   * when `ages` are complete: with `head`, what a later reading may start
   * from ({@linkcode KnownAges}); `undefined` when the history could not be
   * read completely, or there is none.
   */
  history: string | undefined;
  /**
   * The pass this reading made, when it read HEAD's first-parent history whole
   * (`since` unset) or every commit after the known HEAD (`since`): what else
   * reads that history (the drift signals) takes it from here instead of
   * running `git log` again. `undefined` when no pass was made or it read less.
   */
  log?: FirstParentLog;
}

/**
 * Ages read before (e.g. kept in the scan cache), which a reading starts
 * from: taken as they are while HEAD and its {@linkcode GitTip.history} are
 * the same, or added to from one pass over the commits since, when HEAD moved
 * on along its first-parent line.
 */
export interface KnownAges {
  /** The HEAD they were read at. */
  head: string;
  /** {@linkcode GitAges.history} then. */
  history: string;
  /** The ages then. */
  ages: ReadonlyMap<string, number>;
}

/** Where HEAD is, and what else decides what its history holds. */
export interface GitTip {
  /** HEAD's commit id; `undefined` in a repository without commits. */
  head: string | undefined;
  /** Whether the repository is a shallow clone. */
  shallow: boolean;
  /**
   * A fingerprint of the shallow boundary, the grafts and the replace refs
   * (each may rewrite history without moving HEAD); `undefined` when one of
   * them cannot be read.
   */
  history: string | undefined;
  /**
   * Where git keeps the index and `info/attributes`, as `git rev-parse
   * --git-path` says (a linked worktree's own index, the common directory's
   * attributes): what git's word on the working tree rests on.
   */
  files: { index: string; attributes: string };
}

/** One `git log` pass over HEAD's first-parent history, or over the commits since a known one. */
export interface HistoryPass {
  /** Path → newest commit time, as {@linkcode parseGitLog} gives. */
  ages: Map<string, number>;
  /** Why git stopped before the end (its last stderr line); `undefined` when it did not. */
  failed: string | undefined;
  /**
   * The newest commit listed (the HEAD the pass read, which may have moved since the caller
   * looked); `undefined` when none was.
   */
  head: string | undefined;
  /** Of a pass `since` a commit: the first parent of the oldest commit listed. */
  parent?: string;
  /** The commits listed and the paths each changed. */
  log: FirstParentLog;
}

/** A history pass: from HEAD, or over the commits after `since` (see {@linkcode historyPass}). */
export type PassRunner = (since?: string) => Promise<HistoryPass>;

/** Options of {@linkcode readGitAges}. */
export interface ReadGitAgesOptions {
  /** Ages read before, to start from (awaited first: a pass then starts only when needed). */
  known?: KnownAges | Promise<KnownAges | undefined>;
  /** Runs the passes (default: {@linkcode historyPass} on this thread). */
  pass?: PassRunner;
  /** HEAD and its history's shape, already being read (default: {@linkcode readGitTip}). */
  tip?: Promise<GitTip>;
}

/**
 * Reads HEAD, shallowness and, in ONE `git log` pass, the age of every path
 * on HEAD's first-parent history: for each path the committer time of the
 * first commit that lists it, which equals
 * `git log -1 --first-parent --format=%ct -- PATH`. A history with missing
 * objects (a broken clone, a deleted pack) does not abort: the ages read
 * before git stopped are kept (they are exact: git walks newest first) and a
 * warning says so.
 *
 * Given `known` ages whose HEAD and history are the current ones, no pass is
 * made; when HEAD moved on along its first-parent line since, only the
 * commits since are read (checked to join the known HEAD; else a full pass).
 *
 * @throws {DochygieneError} `GIT_FAILED` when git cannot read the repository at all.
 *
 * @example
 * ```ts
 * import { readGitAges } from "./read_git_ages.ts";
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
 * const facts = await readGitAges(root);
 * assert.equal(facts.ages.get("a.md"), Date.parse("2026-01-02T00:00:00Z") / 1000);
 * assert.equal(facts.shallow, false);
 * // Read again from what it gave: no pass (HEAD has not moved).
 * const known = { head: facts.head!, history: facts.history!, ages: facts.ages };
 * const again = await readGitAges(root, {
 *   known,
 *   pass: () => Promise.reject(new Error("no pass expected")),
 * });
 * assert.deepEqual(again.ages, facts.ages);
 * assert.equal(again.log, undefined);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readGitAges(
  root: string,
  options: ReadGitAgesOptions = {},
): Promise<GitAges> {
  const pass = options.pass ?? ((since?: string) => historyPass(root, since));
  const tipRead = options.tip ?? readGitTip(root);
  tipRead.catch(() => {}); // awaited below
  const known = await options.known;
  // Nothing to start from: the full pass runs alongside the tip's reading.
  const started = known === undefined ? pass() : undefined;
  started?.catch(() => {});
  const tip = await tipRead;
  const { head, shallow } = tip;
  if (head === undefined) {
    return { head, shallow, ages: new Map(), warnings: [], history: undefined };
  }
  if (known !== undefined && tip.history !== undefined && known.history === tip.history) {
    if (known.head === head) {
      return { head, shallow, ages: new Map(known.ages), warnings: [], history: tip.history };
    }
    const since = await pass(known.head);
    // Only a pass from the HEAD looked at (not one moved since) that reached the known HEAD
    // along the first-parent line adds up to the whole.
    if (since.failed === undefined && since.parent === known.head && since.head === head) {
      const ages = since.ages;
      for (const [path, seconds] of known.ages) if (!ages.has(path)) ages.set(path, seconds);
      return { head, shallow, ages, warnings: [], history: tip.history, log: since.log };
    }
  }
  const full = await (started ?? pass());
  const warnings = full.failed === undefined ? [] : [
    `git history could not be read completely (${full.failed}); ages of files whose newest commit was not reached fall back to their mtime`,
  ];
  // Kept for later readings only when the pass read the HEAD looked at (a commit made between
  // the two would have the ages of one HEAD kept under the other).
  const whole = full.failed === undefined && full.head === head;
  const history = whole ? tip.history : undefined;
  const facts: GitAges = { head, shallow, ages: full.ages, warnings, history };
  if (whole) facts.log = full.log;
  return facts;
}

/**
 * HEAD, shallowness and what else decides HEAD's history (see
 * {@linkcode GitTip}), from one `git rev-parse` and the files it names.
 *
 * @throws {DochygieneError} `GIT_FAILED` when `root` is not in a git repository.
 *
 * @example
 * ```ts
 * import { readGitTip } from "./read_git_ages.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * const tip = await readGitTip(root);
 * assert.equal(tip.head, undefined);
 * assert.equal(tip.shallow, false);
 * assert.equal(typeof tip.history, "string");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readGitTip(root: string): Promise<GitTip> {
  // (`GIT_NO_REPLACE_OBJECTS` and `GIT_REPLACE_REF_BASE` never reach git: see `runGit`.)
  const settled = await Promise.allSettled([
    // HEAD's id even when its commit object is missing (the history pass then says so). Exit 1:
    // no HEAD yet.
    runGit(root, [
      "rev-parse",
      "--is-shallow-repository",
      "--git-path",
      "shallow",
      "--git-path",
      "info/grafts",
      "--git-path",
      "index",
      "--git-path",
      "info/attributes",
      "--verify",
      "-q",
      "HEAD",
    ], { okCodes: [0, 1] }),
    // Each replace ref by name and value: which commit is replaced, and by what.
    runGit(root, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/replace/"]),
    runGit(root, ["config", "--get", "core.useReplaceRefs"], { okCodes: [0, 1] }),
  ]);
  // A failure is told by the first command, whichever git process ended first.
  for (const result of settled) if (result.status === "rejected") throw result.reason;
  const [out, replaced, used] = settled.map((result) =>
    (result as PromiseFulfilledResult<GitResult>).value
  );
  const decoder = new TextDecoder();
  const [shallow, shallowFile, graftsFile, index, attributes, head] = decoder.decode(out.stdout)
    .split("\n");
  const boundary = _contents(resolve(root, shallowFile ?? ""));
  const grafts = _contents(resolve(root, graftsFile ?? ""));
  const replacing = `${decoder.decode(replaced.stdout)}\0${decoder.decode(used.stdout)}`;
  const history = boundary === undefined || grafts === undefined
    ? undefined
    : contentFingerprint(new TextEncoder().encode(`${boundary}\0${grafts}\0${replacing}`));
  return {
    head: out.code === 0 ? head : undefined,
    shallow: shallow === "true",
    history,
    files: { index: resolve(root, index ?? ""), attributes: resolve(root, attributes ?? "") },
  };
}

/**
 * One `git log` pass (the arguments of {@linkcode GIT_LOG_ARGS}) over HEAD's
 * first-parent history, or, `since` a commit, over the commits after it
 * (`since..HEAD`), with the first parent of the oldest one, which is `since`
 * when HEAD's first-parent line passes through it. Git stopping early
 * (missing objects, an unknown `since`) is told in `failed`, not thrown.
 *
 * @example
 * ```ts
 * import { historyPass } from "./read_git_ages.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, stdout: "piped", env: {
 *     GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t",
 *     GIT_COMMITTER_EMAIL: "t@t", GIT_COMMITTER_DATE: "2026-01-02T00:00:00Z",
 *   } }).output();
 * await git("init", "-q");
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * await git("add", "a.md");
 * await git("-c", "commit.gpgsign=false", "commit", "-qm", "a");
 * const first = new TextDecoder().decode((await git("rev-parse", "HEAD")).stdout).trim();
 * await Deno.writeTextFile(`${root}/b.md`, "# B\n");
 * await git("add", "b.md");
 * await git("-c", "commit.gpgsign=false", "commit", "-qm", "b");
 * const since = await historyPass(root, first);
 * assert.deepEqual([...since.ages.keys()], ["b.md"]);
 * assert.equal(since.parent, first);
 * assert.equal((await historyPass(root)).ages.size, 2);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function historyPass(root: string, since?: string): Promise<HistoryPass> {
  return historyPassOf(await readFirstParentLog(root, { since, partial: true }));
}

/**
 * The {@linkcode HistoryPass} of a pass read (e.g. on another thread, which
 * hands over only the log: the ages are made from it here).
 *
 * @example
 * ```ts
 * import { historyPassOf } from "./read_git_ages.ts";
 * import { parseFirstParentLog } from "./first_parent_log.ts";
 * import assert from "node:assert/strict";
 *
 * const log = parseFirstParentLog(new TextEncoder().encode("\u00002 b a\u0000\na.md\u0000"));
 * log.since = "a";
 * const pass = historyPassOf({ log, failed: undefined });
 * assert.deepEqual([...pass.ages], [["a.md", 2]]);
 * assert.equal(pass.head, "b");
 * assert.equal(pass.parent, "a");
 * ```
 */
export function historyPassOf({ log, failed }: FirstParentRead): HistoryPass {
  const pass: HistoryPass = { ages: logAges(log), failed, head: log.commits[0] || undefined, log };
  if (log.since !== undefined) pass.parent = log.parent;
  return pass;
}

/** A file's text; "" when there is none; `undefined` when it cannot be read. */
function _contents(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "" : undefined;
  }
}

/**
 * The paths of `ages` (a {@linkcode readGitAges} result) that only a
 * parentless commit changed, from a second pass over the commits that have a
 * parent. Meant for a shallow clone: the commit its history is cut at has no
 * parent there, so `--root` lists every file in it, and those paths' ages are
 * where the history starts, not their last change (which may be older). A
 * real root commit counts too: its paths stay undated until
 * `git fetch --unshallow` makes the clone whole. Shallow histories are short.
 *
 * @example
 * ```ts
 * import { readGitAges, shallowBoundary } from "./read_git_ages.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, stdout: "null", env: {
 *     GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t",
 *     GIT_COMMITTER_EMAIL: "t@t",
 *   } }).output();
 * await git("init", "-q");
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * await Deno.writeTextFile(`${root}/b.md`, "# B\n");
 * await git("add", ".");
 * await git("-c", "commit.gpgsign=false", "commit", "-qm", "first");
 * await Deno.writeTextFile(`${root}/b.md`, "# B, again\n");
 * await git("-c", "commit.gpgsign=false", "commit", "-qam", "second");
 * const { ages } = await readGitAges(root);
 * assert.deepEqual([...await shallowBoundary(root, ages)], ["a.md"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function shallowBoundary(
  root: string,
  ages: ReadonlyMap<string, number>,
): Promise<Set<string>> {
  const rev = GIT_LOG_ARGS.indexOf("HEAD");
  const args = [...GIT_LOG_ARGS.slice(0, rev), "--min-parents=1", ...GIT_LOG_ARGS.slice(rev)];
  // A history read only in part leaves more paths here: never fewer than the truth.
  const changed = parseGitLog((await runGit(root, args, { okCodes: [0, 128] })).stdout);
  return new Set([...ages.keys()].filter((path) => !changed.has(path)));
}

/**
 * The ages of a pass's output ({@linkcode GIT_LOG_ARGS}, or any format whose
 * header starts with `%ct`): per path, the first (newest) commit time. A
 * truncated output parses as far as it goes.
 *
 * @example
 * ```ts
 * import { parseGitLog } from "./read_git_ages.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new TextEncoder().encode("\u00002\u0000\na.md\u0000\u00001\u0000\na.md\u0000b.md\u0000");
 * assert.deepEqual([...parseGitLog(out)], [["a.md", 2], ["b.md", 1]]);
 * ```
 */
export function parseGitLog(stdout: Uint8Array): Map<string, number> {
  return logAges(parseFirstParentLog(stdout));
}

/**
 * Git facts for the scanner in one pass over history: the newest first-parent
 * commit time of every path, HEAD, and whether the clone is shallow; and, for
 * prune in a shallow clone, which of those ages are only where its history is
 * cut.
 *
 * @module
 */

import { decodeNulTerminated } from "./decode_path.ts";
import { runGit } from "./run_git.ts";

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
}

/**
 * The arguments of the one `git log` pass. `--diff-merges=first-parent` makes
 * a merge list what it changed relative to its first parent, which is what
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
  "--format=%x00%ct",
  "HEAD",
  "--",
];

/**
 * Reads HEAD, shallowness and, in ONE `git log` pass, the age of every path
 * on HEAD's first-parent history: for each path the committer time of the
 * first commit that lists it, which equals
 * `git log -1 --first-parent --format=%ct -- PATH`. A history with missing
 * objects (a broken clone, a deleted pack) does not abort: the ages read
 * before git stopped are kept (they are exact: git walks newest first) and a
 * warning says so.
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
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readGitAges(root: string): Promise<GitAges> {
  const [shallow, head, log] = await Promise.all([
    runGit(root, ["rev-parse", "--is-shallow-repository"]),
    // HEAD's id even when its commit object is missing (the history pass then says so).
    runGit(root, ["rev-parse", "--verify", "-q", "HEAD"], { okCodes: [0, 1, 128] }),
    runGit(root, [...GIT_LOG_ARGS], { okCodes: [0, 128] }),
  ]);
  const decoder = new TextDecoder();
  const headSha = head.code === 0 ? decoder.decode(head.stdout).trim() : undefined;
  const warnings: string[] = [];
  let ages = new Map<string, number>();
  if (headSha !== undefined) {
    ages = parseGitLog(log.stdout);
    if (log.code !== 0) {
      const detail = log.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${log.code}`;
      warnings.push(
        `git history could not be read completely (${detail}); ages of files whose newest commit was not reached fall back to their mtime`,
      );
    }
  }
  return {
    head: headSha,
    shallow: decoder.decode(shallow.stdout).trim() === "true",
    ages,
    warnings,
  };
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
 * Parses the output of {@linkcode GIT_LOG_ARGS}: per commit, `\0<ct>\0`, then
 * (when it changed anything) `\n` and NUL-terminated paths. Keeps, per path,
 * the first (newest) commit time. A path is never empty, so an empty token
 * always starts a commit; a truncated output parses as far as it goes.
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
  const ages = new Map<string, number>();
  let time = NaN;
  let expectTime = false;
  let first = false;
  for (const token of decodeNulTerminated(stdout)) {
    if (token === "") {
      expectTime = true;
    } else if (expectTime) {
      time = /^[0-9]+$/.test(token) ? Number(token) : NaN;
      expectTime = false;
      first = true;
    } else if (!Number.isNaN(time)) {
      // The first path of a commit follows the header's newline.
      const path = first && token[0] === "\n" ? token.slice(1) : token;
      first = false;
      if (path !== "" && !ages.has(path)) ages.set(path, time);
    }
  }
  return ages;
}

/**
 * The commit phase of an apply (docs/design.md "Lifecycle deletion", "Apply"):
 * the hygiene commit, made with `git commit` on the private index the stage
 * phase prepared, and verified; and its message.
 *
 * @module
 */

import { decodePath } from "../core/decode_path.ts";
import { escapeControls, TERMINAL_UNSAFE } from "../core/escape_controls.ts";
import type { Selection } from "./_apply_prepare.ts";
import type { Candidate } from "../prune/plan_prune.ts";
import { type Git, gitOr, records, text } from "./_prune_git.ts";
import type { TempPaths } from "./_temp_files.ts";
import { HYGIENE_SUBJECT } from "../git/read_restored_ages.ts";

/** What the commit phase records as it goes: what a restore must know of the commit. */
export interface CommitProgress {
  /** Whether `git commit` ran (it may have made a commit even when it failed). */
  committing: boolean;
  /** The hygiene commit, by the id `git commit` printed (set before it is verified). */
  newHead?: string;
}

/**
 * Step 4 of `applyPrune`, the commit itself: with a tree staged (`tree`), commits it on
 * HEAD (still `selection.oldHead`) with `git commit` on the private index `temp.commit`
 * (hooks run), takes the commit's id from `git commit`'s own output, and verifies that it is
 * still HEAD, sits on the old HEAD and holds exactly the deletions of the units' files.
 */
export async function applyCommit(
  git: Git,
  selection: Selection,
  tree: string | null,
  temp: TempPaths,
  progress: CommitProgress,
): Promise<void> {
  if (tree === null) return;
  const { oldHead, unitOf, headFiles } = selection;
  // The commit's tree is oldHead's less the units: on any other parent it would undo that
  // commit's changes. (A commit landing in the instant between this and git commit is
  // caught after it, and its commit kept.)
  const head = text((await git(["rev-parse", "HEAD"])).stdout);
  if (head !== oldHead) {
    throw new Error(
      `HEAD moved while pruning (${await _howMoved(git, oldHead!, head)}); run prune again`,
    );
  }
  progress.committing = true;
  // The id comes from git commit's own summary line, never from a later look at HEAD:
  // a hook or another agent may have committed on top of it by then. The hooks it runs see
  // the user's environment, not dochygiene's git settings (docs/prune.md "How apply works").
  const summary = await gitOr(
    git,
    ["commit", "--cleanup=whitespace", "-F", temp.message],
    undefined,
    {
      env: { GIT_INDEX_FILE: temp.commit, GIT_EDITOR: "true" },
      hint: "the commit failed (a pre-commit or commit-msg hook?); no file was removed",
      userEnvironment: true,
    },
  );
  const abbreviated = _committedId(summary);
  if (abbreviated === undefined) {
    throw new Error("git commit did not print the new commit's id");
  }
  // Unambiguous when git printed it; the checks below make sure it is this commit.
  progress.newHead = text(
    (await git(["rev-parse", "--verify", `${abbreviated}^{commit}`])).stdout,
  );
  await _verifyCommit(git, oldHead!, progress.newHead, tree, unitOf, headFiles);
}

/**
 * The hygiene commit's message: a subject, then each path and why.
 *
 * @example
 * ```ts
 * import { commitMessage } from "./apply_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const text = commitMessage([{
 *   path: "runs/r1/", unit: "dir", rule: "runs/*\/", lifetime: "temporary",
 *   reason: "rank 4 of 4, 9 days old > 3", tracked: true, dirty: false, tier: "auto",
 *   age_days: 9, age_source: "git", needs: null,
 * }]);
 * assert.match(text, /^dochygiene: prune 1 doc unit\n/);
 * assert.match(text, /- runs\/r1\/ — runs\/\*\/ \(temporary\): rank 4 of 4/);
 *
 * // A name a terminal would act on is quoted and escaped (here a right-to-left override).
 * const odd = commitMessage([{
 *   path: "runs/a\u202eb/", unit: "dir", rule: "runs/*\/", lifetime: "temporary", reason: "old",
 *   tracked: true, dirty: false, tier: "auto", age_days: 9, age_source: "git", needs: null,
 * }]);
 * assert.ok(odd.includes('- "runs/a\\u202eb/" — '));
 * ```
 */
export function commitMessage(candidates: readonly Candidate[]): string {
  const n = candidates.length;
  const lines = candidates.map((c) => {
    // Quoted when it holds a quote, a backslash, edge spaces or anything a terminal acts on.
    const quote = /["\\]|^\s|\s$/.test(c.path) || c.path.search(TERMINAL_UNSAFE) >= 0;
    const path = quote ? escapeControls(JSON.stringify(c.path), "json") : c.path;
    return `- ${path} — ${c.rule} (${c.lifetime}): ${c.reason.replace(/\s+/g, " ")}`;
  });
  return [
    `${HYGIENE_SUBJECT}${n} doc unit${n === 1 ? "" : "s"}`,
    "",
    "Removed by `dochygiene prune` under the lifecycle rules of .dochygiene.yml:",
    "",
    ...lines,
    "",
    "Undo with: git revert <this commit>",
    "",
  ].join("\n");
}

/**
 * The (abbreviated) id of the commit `git commit` made, from its summary line
 * `[<branch> <id>] <subject>` (`undefined` if there is none). Hooks print to
 * stderr, so nothing precedes that line.
 */
function _committedId(stdout: Uint8Array): string | undefined {
  return /^\[.*? ([0-9a-f]{4,64})\] /.exec(new TextDecoder().decode(stdout))?.[1];
}

/** How HEAD went from `oldHead` to `now`: a commit on top of it, or a checkout or reset. */
async function _howMoved(git: Git, oldHead: string, now: string): Promise<string> {
  const descends = await git(["merge-base", "--is-ancestor", oldHead, now], { okCodes: [0, 1] })
    .then((r) => r.code === 0, () => false);
  return descends ? `a commit landed: ${now}` : `a checkout or reset moved it to ${now}`;
}

/**
 * The new commit must still be HEAD (nobody committed on top of it), sit on
 * the old HEAD and be the tree prune staged: exactly the deletions of the
 * committed units' files. A tree that differs is a hook's doing (the commit ran
 * on prune's private index, which nothing else knows of), and is said so.
 */
async function _verifyCommit(
  git: Git,
  oldHead: string,
  newHead: string,
  tree: string,
  unitOf: (path: string) => string | undefined,
  expected: ReadonlySet<string>,
): Promise<void> {
  const [head, ...parents] = text((await git(["rev-parse", "HEAD", `${newHead}^@`])).stdout)
    .split("\n");
  if (head !== newHead) {
    throw new Error(
      `HEAD moved while pruning (it is now ${head}, not the hygiene commit ${newHead})`,
    );
  }
  if (parents.length !== 1 || parents[0] !== oldHead) {
    const how = parents.length === 1 ? `: ${await _howMoved(git, oldHead, parents[0])}` : "";
    throw new Error(`HEAD moved while pruning (the new commit's parent is not ${oldHead}${how})`);
  }
  const committed = text((await git(["rev-parse", `${newHead}^{tree}`])).stdout);
  const problem = await _deletionProblem(git, oldHead, newHead, unitOf, expected);
  if (committed !== tree) {
    throw new Error(
      `a hook changed the index while git commit ran (a pre-commit hook that runs git stash?): the commit is not the tree prune staged${
        problem === undefined ? "" : ` (${problem})`
      }; make the hook leave the index as it found it (git stash push --keep-index … git stash pop --index), then run prune again`,
    );
  }
  if (problem !== undefined) throw new Error(problem);
}

/** Where the commit differs from the deletions of exactly the units' files, if anywhere. */
async function _deletionProblem(
  git: Git,
  oldHead: string,
  newHead: string,
  unitOf: (path: string) => string | undefined,
  expected: ReadonlySet<string>,
): Promise<string | undefined> {
  const diff = await git([
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--name-status",
    oldHead,
    newHead,
  ]);
  const fields = [...records(diff.stdout)];
  const deleted = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = new TextDecoder().decode(fields[i]);
    const path = decodePath(fields[i + 1]);
    if (status !== "D" || unitOf(path) === undefined) {
      return `the commit changed ${path} (${status}), which prune did not delete`;
    }
    deleted.add(path);
  }
  for (const path of expected) {
    if (!deleted.has(path)) return `the commit did not delete ${path}`;
  }
  return undefined;
}

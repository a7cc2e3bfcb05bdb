/**
 * Applying a prune (DESIGN.md "Lifecycle deletion", Apply): under the state
 * lock, with the plan recomputed from git facts read at that moment, delete
 * the approved units through git and record the tracked ones in ONE commit
 * that holds only those deletions; restore everything on any failure.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { byCodePoint } from "./by_code_point.ts";
import type { UnitCollection } from "./collect_units.ts";
import { decodePath } from "./decode_path.ts";
import { DochygieneError } from "./dochygiene_error.ts";
import { approvedCandidates, type Candidate, type Plan } from "./plan_prune.ts";
import { type GitOptions, runGit } from "./run_git.ts";
import { withLock } from "./with_lock.ts";

/** What {@linkcode applyPrune} needs. */
export interface ApplyInput {
  /** The project root (holds `.git`). */
  root: string;
  /** `<root>/.dochygiene` (exists, writable): the lock and the temporary indexes live here. */
  stateDir: string;
  /** Recomputes the plan (mode `apply`) from fresh git facts; called under the lock. */
  replan: () => Promise<{ plan: Plan; collection: UnitCollection }>;
}

/** Git states in which nothing may be deleted, and the file that reveals each. */
const _IN_PROGRESS: readonly [string, string][] = [
  ["MERGE_HEAD", "a merge"],
  ["rebase-merge", "a rebase"],
  ["rebase-apply", "a rebase or am"],
  ["CHERRY_PICK_HEAD", "a cherry-pick"],
  ["REVERT_HEAD", "a revert"],
  ["BISECT_LOG", "a bisect"],
];

/**
 * Applies the approved candidates (`auto`, and `confirm` ones confirmed and,
 * for `extract: true`, acknowledged) and returns the result JSON:
 *
 * 1. takes the state lock; refuses during a merge, rebase, cherry-pick,
 *    revert or bisect, and while the index has unresolved conflicts;
 * 2. recomputes the plan from git facts read now (never the earlier plan);
 * 3. backs up every file of the approved units (their exact bytes, tracked
 *    and untracked) as blobs in a private index, and snapshots their entries
 *    of the real index;
 * 4. `git rm -r` the tracked units (without `-f` for `auto` ones, so git
 *    itself refuses if one changed since it was checked);
 * 5. commits HEAD minus exactly those paths with `git commit` on a private
 *    index (hooks run; the user's staged and unstaged changes are neither
 *    committed nor touched), then verifies that the commit's parent is the
 *    old HEAD and that it holds only deletions of those units;
 * 6. only then removes the untracked units, through git on a private index;
 * 7. on any failure: moves HEAD back (compare-and-swap), restores the index
 *    entries and every file removed, and throws (exit 1).
 *
 * The number of git processes is constant (paths go through stdin).
 *
 * @throws {DochygieneError} `GIT_BUSY`, `CONFLICTS`, `PRUNE_FAILED` (exit 1).
 *
 * @example
 * ```ts
 * import { applyPrune } from "./apply_prune.ts";
 * import { collectUnits } from "./collect_units.ts";
 * import { existingPaths } from "./governing_rule.ts";
 * import { planPrune } from "./plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * await Deno.mkdir(`${root}/.dochygiene`);
 * const result = await applyPrune({
 *   root,
 *   stateDir: `${root}/.dochygiene`,
 *   replan: async () => {
 *     const collection = await collectUnits(root, { rules: [], protect: () => undefined });
 *     const plan = planPrune({
 *       units: collection.units, existing: existingPaths([]), judgments: new Map(),
 *       confirm: new Set(), extracted: new Set(), now: new Date(), watermark: null, mode: "apply",
 *     });
 *     return { plan, collection };
 *   },
 * });
 * assert.equal(result.commit, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function applyPrune(input: ApplyInput): Promise<Plan> {
  return withLock(input.stateDir, () => _apply(input), { timeoutMs: 10_000 });
}

async function _apply(input: ApplyInput): Promise<Plan> {
  const { root, stateDir } = input;
  await _refuseInProgress(root);
  const { plan, collection } = await input.replan();
  const approved = approvedCandidates(plan);
  for (const c of plan.candidates) {
    if (c.needs !== null) plan.skipped.push({ path: c.path, reason: `needs ${c.needs}` });
  }
  if (approved.length === 0) return plan;

  const git = (args: string[], options?: GitOptions) => runGit(root, args, options);
  const units = new Map(approved.map((c) => [c.path, c]));
  const within = (path: string): string | undefined => {
    if (units.has(path)) return path;
    let i = path.indexOf("/");
    while (i >= 0) {
      const dir = path.slice(0, i + 1);
      if (units.has(dir)) return dir;
      i = path.indexOf("/", i + 1);
    }
    return undefined;
  };

  // The index (raw records, re-fed verbatim on restore) and HEAD's tree.
  const [indexOut, headTree] = await Promise.all([
    git(["ls-files", "-s", "-z"]),
    collection.head === undefined
      ? Promise.resolve(undefined)
      : git(["ls-tree", "-r", "-z", "--full-tree", "--name-only", collection.head]),
  ]);
  const snapshot: Uint8Array[] = [];
  for (const record of _records(indexOut.stdout)) {
    const tab = record.indexOf(0x09);
    if (tab < 0) continue;
    if (record[tab - 1] !== 0x30 /* stage 0 */) {
      throw new DochygieneError(
        "CONFLICTS",
        "the index has unresolved conflicts; resolve them (git status) and run prune again",
      );
    }
    if (within(decodePath(record.subarray(tab + 1))) !== undefined) snapshot.push(record);
  }
  const inHead = new Set<string>();
  for (const record of headTree ? _records(headTree.stdout) : []) {
    const unit = within(decodePath(record));
    if (unit !== undefined) inHead.add(unit);
  }
  const indexed = new Set<string>();
  for (const record of snapshot) {
    indexed.add(within(decodePath(record.subarray(record.indexOf(0x09) + 1)))!);
  }
  const backupFiles: string[] = [];
  const untrackedFiles: string[] = [];
  for (const file of collection.files) {
    if (within(file.path) === undefined) continue;
    backupFiles.push(file.path);
    if (!file.tracked) untrackedFiles.push(file.path);
  }

  const tag = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const temp = {
    backup: join(stateDir, `prune-${tag}.backup.index`),
    commit: join(stateDir, `prune-${tag}.commit.index`),
    untracked: join(stateDir, `prune-${tag}.untracked.index`),
    message: join(stateDir, `prune-${tag}.message.txt`),
  };
  const pathspecs = (paths: Iterable<string>) =>
    [...paths].map((p) => (p.endsWith("/") ? p.slice(0, -1) : p)).join("\0");
  const oldHead = collection.head;
  let newHead: string | undefined;
  let removedTracked = false;
  let removedUntracked = false;
  let keepBackup = false;
  try {
    // 3. Backup: exact bytes of every file of the approved units, as blobs in a private index.
    await git(["update-index", "--add", "--remove", "-z", "--stdin"], {
      stdin: _nul(backupFiles),
      env: { GIT_INDEX_FILE: temp.backup },
    });

    // 4. Remove the tracked units from the real index and the worktree.
    const auto = approved.filter((c) => c.tier === "auto" && indexed.has(c.path));
    const confirmed = approved.filter((c) => c.tier === "confirm" && indexed.has(c.path));
    const rm = ["rm", "-r", "-q", "--ignore-unmatch", "--pathspec-from-file=-"];
    removedTracked = auto.length + confirmed.length > 0;
    if (auto.length > 0) {
      await _gitOr(git, [...rm, "--pathspec-file-nul"], pathspecs(auto.map((c) => c.path)), {
        hint: "a unit changed since it was checked (git rm refused); run prune again",
      });
    }
    if (confirmed.length > 0) {
      await _gitOr(
        git,
        [...rm, "-f", "--pathspec-file-nul"],
        pathspecs(confirmed.map((c) => c.path)),
        {},
      );
    }

    // 5. One commit: HEAD minus exactly these units, from a private index.
    const committed = approved.filter((c) => inHead.has(c.path));
    if (oldHead !== undefined && committed.length > 0) {
      const env = { GIT_INDEX_FILE: temp.commit };
      await git(["read-tree", oldHead], { env });
      await git([...rm, "--cached", "-f", "--pathspec-file-nul"], {
        stdin: pathspecs(committed.map((c) => c.path)),
        env,
      });
      await Deno.writeTextFile(temp.message, commitMessage(committed));
      await _gitOr(git, ["commit", "-q", "--cleanup=whitespace", "-F", temp.message], undefined, {
        env: { ...env, GIT_EDITOR: "true" },
        hint: "the commit failed (a pre-commit or commit-msg hook?); nothing was deleted",
      });
      newHead = new TextDecoder().decode((await git(["rev-parse", "HEAD"])).stdout).trim();
      await _verifyCommit(git, oldHead, newHead, within);
    }

    // 6. Only now the untracked units, through git on a private index.
    if (untrackedFiles.length > 0) {
      await git(["update-index", "--add", "--remove", "-z", "--stdin"], {
        stdin: _nul(untrackedFiles),
        env: { GIT_INDEX_FILE: temp.untracked },
      });
      removedUntracked = true;
      await git([...rm, "-f", "--pathspec-file-nul"], {
        stdin: pathspecs(approved.map((c) => c.path)),
        env: { GIT_INDEX_FILE: temp.untracked },
      });
    }
  } catch (err) {
    const undone = await _restore(git, {
      oldHead,
      newHead,
      snapshot: removedTracked ? snapshot : [],
      backupIndex: temp.backup,
      files: removedTracked || removedUntracked ? backupFiles : [],
    });
    keepBackup = !undone.startsWith("everything");
    const reason = err instanceof Error ? err.message : String(err);
    throw new DochygieneError(
      "PRUNE_FAILED",
      `prune failed and ${undone}: ${reason}`,
    );
  } finally {
    const leftovers = Object.values(temp).filter((p) => !(keepBackup && p === temp.backup));
    await Promise.all(leftovers.map((p) => Deno.remove(p).catch(() => {})));
  }

  for (const c of approved) {
    const how = c.tracked
      ? inHead.has(c.path) && newHead !== undefined ? "git rm" : "git rm (never committed)"
      : "removed (untracked)";
    plan.applied.push({ path: c.path, how });
  }
  plan.applied.sort((a, b) => byCodePoint(a.path, b.path));
  plan.commit = newHead ?? null;
  return plan;
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
 * ```
 */
export function commitMessage(candidates: readonly Candidate[]): string {
  const n = candidates.length;
  const lines = candidates.map((c) => {
    const path = /[\p{Cc}"\\]|^\s|\s$/u.test(c.path) ? JSON.stringify(c.path) : c.path;
    return `- ${path} — ${c.rule} (${c.lifetime}): ${c.reason.replace(/\s+/g, " ")}`;
  });
  return [
    `dochygiene: prune ${n} doc unit${n === 1 ? "" : "s"}`,
    "",
    "Removed by `dochygiene prune` under the lifecycle rules of .dochygiene.yml:",
    "",
    ...lines,
    "",
    "Undo with: git revert <this commit>",
    "",
  ].join("\n");
}

async function _refuseInProgress(root: string): Promise<void> {
  const args = _IN_PROGRESS.flatMap(([name]) => ["--git-path", name]);
  const out = await runGit(root, ["rev-parse", ...args]);
  const paths = new TextDecoder().decode(out.stdout).split("\n");
  for (let i = 0; i < _IN_PROGRESS.length; i++) {
    try {
      await Deno.lstat(resolve(root, paths[i]));
    } catch {
      continue;
    }
    throw new DochygieneError(
      "GIT_BUSY",
      `git is in the middle of ${_IN_PROGRESS[i][1]} (${
        _IN_PROGRESS[i][0]
      } exists); finish or abort it, then run prune again`,
    );
  }
}

/** Runs git; on failure rethrows with a hint and git's own last stderr line. */
async function _gitOr(
  git: (args: string[], options?: GitOptions) => Promise<unknown>,
  args: string[],
  stdin: string | undefined,
  options: { env?: Record<string, string>; hint?: string },
): Promise<void> {
  try {
    await git(args, { stdin, env: options.env });
  } catch (err) {
    if (options.hint && err instanceof DochygieneError) {
      throw new DochygieneError(err.code, `${options.hint} (${err.message})`);
    }
    throw err;
  }
}

/** The new commit must sit on the old HEAD and hold only deletions inside the approved units. */
async function _verifyCommit(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  oldHead: string,
  newHead: string,
  within: (path: string) => string | undefined,
): Promise<void> {
  const parents = new TextDecoder().decode(
    (await git(["rev-list", "--parents", "-n", "1", newHead])).stdout,
  ).trim().split(" ").slice(1);
  if (parents.length !== 1 || parents[0] !== oldHead) {
    throw new Error(`HEAD moved while pruning (the new commit's parent is not ${oldHead})`);
  }
  const diff = await git([
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--name-status",
    oldHead,
    newHead,
  ]);
  const records = [..._records(diff.stdout)];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const status = new TextDecoder().decode(records[i]);
    const path = decodePath(records[i + 1]);
    if (status !== "D" || within(path) === undefined) {
      throw new Error(`the commit changed ${path} (${status}), which prune did not delete`);
    }
  }
}

/** Undoes a failed apply; returns what was done, for the error line. */
async function _restore(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  state: {
    oldHead: string | undefined;
    newHead: string | undefined;
    snapshot: Uint8Array[];
    backupIndex: string;
    files: string[];
  },
): Promise<string> {
  const problems: string[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      problems.push(`${what}: ${err instanceof Error ? err.message : err}`);
    }
  };
  if (state.newHead !== undefined && state.oldHead !== undefined) {
    await attempt(
      "moving HEAD back",
      () =>
        git([
          "update-ref",
          "-m",
          "dochygiene: undo a failed prune",
          "HEAD",
          state.oldHead!,
          state.newHead!,
        ]),
    );
  }
  if (state.snapshot.length > 0) {
    await attempt(
      "restoring the index",
      () => git(["update-index", "-z", "--index-info"], { stdin: _join0(state.snapshot) }),
    );
  }
  if (state.files.length > 0) {
    await attempt(
      "restoring the files",
      () =>
        git(["checkout-index", "-f", "-q", "-z", "--stdin"], {
          stdin: _nul(state.files),
          env: { GIT_INDEX_FILE: state.backupIndex },
        }),
    );
    await attempt(
      "refreshing the index",
      () => git(["update-index", "-q", "--refresh"], { okCodes: [0, 1] }),
    );
  }
  if (problems.length > 0) {
    return `could NOT restore everything (${
      problems.join("; ")
    }); the removed files' content is in ${state.backupIndex}: do not delete it`;
  }
  return "everything it had removed was restored (HEAD, index and files are as before)";
}

function* _records(bytes: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0, start);
    if (end < 0) end = bytes.length;
    if (end > start) yield bytes.subarray(start, end);
    start = end + 1;
  }
}

function _nul(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}

function _join0(records: readonly Uint8Array[]): Uint8Array {
  const size = records.reduce((n, r) => n + r.length + 1, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const r of records) {
    out.set(r, at);
    at += r.length + 1;
  }
  return out;
}

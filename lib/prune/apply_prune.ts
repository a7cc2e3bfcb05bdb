/**
 * Applying a prune (docs/design.md "Lifecycle deletion", "Apply"): under the state
 * lock, with the plan recomputed from git facts read at that moment, delete
 * the approved units through git and record the tracked ones in ONE commit
 * that holds only those deletions; restore everything on any failure.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { join, resolve } from "node:path";
import { atomicWrite } from "../fs/atomic_write.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import type { UnitCollection } from "./collect_units.ts";
import { decodePath } from "../core/decode_path.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { escapeControls, TERMINAL_UNSAFE } from "../core/escape_controls.ts";
import { gitBusy } from "../git/git_busy.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { pathExists } from "../fs/path_exists.ts";
import { approvedCandidates, type Candidate, type Plan } from "./plan_prune.ts";
import { type GitOptions, runGit } from "../git/run_git.ts";
import { withLock } from "../fs/with_lock.ts";

/** What {@linkcode applyPrune} needs. */
export interface ApplyInput {
  /** The project root (holds `.git`). */
  root: string;
  /** `<root>/.dochygiene` (exists, writable): the lock, the temporary indexes and the backup objects live here. */
  stateDir: string;
  /** Recomputes the plan (mode `apply`) from fresh git facts; called under the lock. */
  replan: () => Promise<{ plan: Plan; collection: UnitCollection }>;
}

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

/**
 * Applies the approved candidates (`auto`, and `confirm` ones confirmed and,
 * for `extract: true`, acknowledged) and returns the result JSON:
 *
 * 1. takes the state lock; refuses during a merge, rebase, cherry-pick,
 *    revert or bisect, and while git's `index.lock` exists; then rolls back
 *    an earlier apply that was killed (its journal is still there);
 * 2. recomputes the plan from git facts read now (never the earlier plan);
 *    refuses while the index has unresolved conflicts; skips a unit holding
 *    a file git hides changes of (skip-worktree, assume-unchanged): its state
 *    cannot be verified;
 * 3. backs up every file of the approved units (their exact bytes, tracked
 *    and untracked) as blobs in a private index and a private object
 *    directory under the state directory (the repository's own objects are
 *    read, never written), snapshots their entries of the real index, and
 *    checks with `git rm -n` (no `-f`) that every `auto` unit still matches
 *    HEAD;
 * 4. writes a journal, then commits HEAD minus exactly those units with
 *    `git commit` on a private index (hooks run; the user's index and
 *    worktree are not touched yet), takes the commit's id from `git commit`'s
 *    own output, and verifies that it is still HEAD, sits on the old HEAD and
 *    holds exactly the deletions of those units' files;
 * 5. checks that nothing under the units changed since the snapshot (no
 *    index entry added, changed or dropped, no file's bytes), then
 *    `git rm -f` exactly the snapshotted files from the real index and the
 *    worktree (the user's other staged and unstaged changes stay as they are);
 * 6. only then removes exactly the backed-up untracked files, through git on
 *    a private index;
 * 7. on any failure: moves HEAD back (compare-and-swap) only if it is still
 *    that commit (one made on top of it is someone's work: the error names
 *    the hygiene commit to revert instead), restores the index entries and
 *    every file removed, and throws (exit 1).
 *
 * Files git ignores inside a deleted directory stay (git could not give them
 * back); the result warns about such a directory.
 *
 * The number of git processes is constant (paths go through stdin).
 *
 * @throws {DochygieneError} `GIT_BUSY`, `CONFLICTS`, `PRUNE_FAILED`, `PRUNE_JOURNAL`, `GIT_FAILED`
 * (exit 1).
 *
 * @example
 * ```ts
 * import { applyPrune } from "./apply_prune.ts";
 * import { collectUnits } from "./collect_units.ts";
 * import { existingPaths } from "../config/governing_rule.ts";
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
  return withLock(input.stateDir, () => _apply(input));
}

/**
 * Adds to `plan.skipped` every candidate that `--yes` skips whatever is
 * confirmed, with the reason: one holding a file git is told to hide changes
 * of (skip-worktree, assume-unchanged), as the listing's `hidden` says. The dry
 * run does so that it says what apply will do (apply reads the index afresh).
 *
 * @example
 * ```ts
 * import { skipHiddenUnits } from "./apply_prune.ts";
 * import { collectUnits } from "./collect_units.ts";
 * import { parseConfig } from "../config/parse_config.ts";
 * import { planPrune } from "./plan_prune.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) => new Deno.Command("git", { args, cwd: root }).output();
 * await git("init", "-q");
 * await Deno.mkdir(`${root}/notes`);
 * await Deno.writeTextFile(`${root}/notes/a.md`, "a\n");
 * await git("add", "notes/a.md");
 * await git("update-index", "--assume-unchanged", "notes/a.md");
 * const { rules } = parseConfig(
 *   "rules:\n  - {match: 'notes/*.md', lifetime: temporary, retain_recent: 0, max_age_days: 0}\n",
 * );
 * const collection = await collectUnits(root, { rules, protect: () => undefined });
 * const plan = planPrune({
 *   units: collection.units, existing: collection.existing, judgments: new Map(),
 *   confirm: new Set(), extracted: new Set(), now: new Date(Date.now() + 86_400_000),
 *   watermark: null, mode: "dry-run",
 * });
 * skipHiddenUnits(plan, collection.files);
 * assert.deepEqual(plan.skipped.map((s) => s.path), ["notes/a.md"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function skipHiddenUnits(plan: Plan, files: readonly ListedFile[]): void {
  const unitOf = _unitOf(plan.candidates.map((c) => c.path));
  const hidden = new Map<string, string>();
  for (const file of files) {
    const unit = file.hidden ? unitOf(file.path) : undefined;
    if (unit !== undefined && !hidden.has(unit)) hidden.set(unit, file.path);
  }
  _skipHidden(plan, hidden);
}

async function _apply(input: ApplyInput): Promise<Plan> {
  const { root, stateDir } = input;
  // A private index is never split (core.splitIndex would put its shared part in .git).
  const git = (args: string[], options?: GitOptions) =>
    runGit(
      root,
      args,
      options?.env?.GIT_INDEX_FILE === undefined ? options : {
        ...options,
        config: { ...options.config, "core.splitIndex": "false" },
        env: { ...options.env, GIT_TEST_SPLIT_INDEX: "0" },
      },
    );
  const busy = await gitBusy(root);
  if (busy) {
    throw new DochygieneError("GIT_BUSY", `${busy.state}; ${busy.fix}, then run prune again`);
  }
  // The repository's own objects: read by the backup, never written (they would stay for good).
  const [objectsPath, objectFormat] = _text(
    (await git(["rev-parse", "--git-path", "objects", "--show-object-format"])).stdout,
  ).split("\n");
  const objects = resolve(root, objectsPath);
  const recovered = await _recover(git, { root, stateDir, objects, objectFormat }).catch((err) => {
    if (err instanceof DochygieneError && err.code === "PRUNE_JOURNAL") throw err;
    throw new DochygieneError(
      "PRUNE_JOURNAL",
      `rolling back an interrupted prune failed (${
        err instanceof Error ? err.message : err
      }); its journal and backup in ${stateDir} are kept: fix that, then run prune --yes again`,
    );
  });
  const { plan, collection } = await input.replan();
  plan.warnings.push(...recovered.warnings);
  for (const c of plan.candidates) {
    if (c.needs !== null) plan.skipped.push({ path: c.path, reason: `needs ${c.needs}` });
  }
  if (recovered.aged) {
    // Untracked files given back carry today's time: ages, hence ranks, moved since the plan the
    // user saw. Nothing is deleted on a plan nobody has seen.
    const skipped = new Set(plan.skipped.map((s) => s.path));
    for (const c of plan.candidates) {
      if (skipped.has(c.path)) continue;
      plan.skipped.push({
        path: c.path,
        reason: "not this run: untracked files were just given back with today's time, which " +
          "changes ages and ranks; run the dry run again",
      });
    }
    return plan;
  }
  let approved = approvedCandidates(plan);
  if (approved.length === 0) return plan;

  // The index with its tags (raw records, re-fed verbatim on restore) and HEAD's tree.
  const [index, headTree] = await Promise.all([
    _readIndex(git, _unitOf(approved.map((c) => c.path))),
    collection.head === undefined
      ? Promise.resolve(undefined)
      : git(["ls-tree", "-r", "-z", "--full-tree", "--name-only", collection.head]),
  ]);
  if (index.unmerged) {
    throw new DochygieneError(
      "CONFLICTS",
      "the index has unresolved conflicts; resolve them (git status) and run prune again",
    );
  }
  if (index.hidden.size > 0) {
    _skipHidden(plan, index.hidden);
    approved = approved.filter((c) => !index.hidden.has(c.path));
    if (approved.length === 0) return plan;
  }
  const unitOf = _unitOf(approved.map((c) => c.path));
  const entries = index.entries.filter((e) => unitOf(e.path) !== undefined);
  const headFiles = new Set<string>();
  for (const record of headTree ? _records(headTree.stdout) : []) {
    const path = decodePath(record);
    if (unitOf(path) !== undefined) headFiles.add(path);
  }
  const inHead = new Set([...headFiles].map((p) => unitOf(p)!));
  const backupFiles: string[] = [];
  const untrackedFiles: string[] = [];
  for (const file of collection.files) {
    if (unitOf(file.path) === undefined) continue;
    backupFiles.push(file.path);
    if (!file.tracked) untrackedFiles.push(file.path);
  }

  const tag = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const names = { backup: `prune-${tag}.backup.index`, objects: `prune-${tag}.objects` };
  const temp = {
    backup: join(stateDir, names.backup),
    objects: join(stateDir, names.objects),
    commit: join(stateDir, `prune-${tag}.commit.index`),
    untracked: join(stateDir, `prune-${tag}.untracked.index`),
    message: join(stateDir, `prune-${tag}.message.txt`),
    scratch: join(stateDir, `prune-${tag}.scratch`),
    journal: join(stateDir, PRUNE_JOURNAL_FILE),
  };
  const backupEnv = (indexFile: string) => _backupEnv(indexFile, temp.objects, objects);
  // Exactly these files, never a directory: whatever else appears in a unit is not git rm's.
  const rm = ["rm", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"];
  const oldHead = collection.head;
  const committed = approved.filter((c) => inHead.has(c.path));
  const trackedFiles = entries.map((e) => e.path);
  const snapshot = entries.map((e) => e.tagged.subarray(2));
  let tree: string | null = null;
  let raw: _RawBackup = { files: [], oids: [], modes: [] };
  let journal: _Journal | undefined;
  let newHead: string | undefined;
  let committing = false;
  let removedTracked = false;
  let removedUntracked = false;
  let keepBackup = false;
  try {
    const backedUp = new Set(backupFiles);
    const unlisted = entries.find((e) => !backedUp.has(e.path));
    if (unlisted !== undefined) {
      throw new Error(
        `${unlisted.path} appeared in ${unlisted.unit} while pruning; run prune again`,
      );
    }
    // 3. Backup: exact bytes of every file of the approved units, as blobs in a private index
    //    and a private object directory.
    await Deno.mkdir(temp.objects);
    raw = await _backUp(git, root, backupFiles, backupEnv(temp.backup));
    // An auto unit must still match HEAD (git rm -n refuses otherwise, changing nothing).
    const auto = new Set(approved.filter((c) => c.tier === "auto").map((c) => c.path));
    const autoFiles = entries.filter((e) => auto.has(e.unit)).map((e) => e.path);
    if (autoFiles.length > 0) {
      await _gitOr(git, [...rm, "-n"], _nul(autoFiles), {
        hint: "a unit changed since it was checked (git rm refused); run prune again",
      });
    }

    // 4. One commit: HEAD minus exactly these units, from a private index. The user's
    //    index and worktree are not touched yet: a crash here loses nothing.
    if (oldHead !== undefined && committed.length > 0) {
      const env = { GIT_INDEX_FILE: temp.commit };
      await git(["read-tree", oldHead], { env });
      await git([...rm, "--cached", "-f"], { stdin: _nul([...headFiles]), env });
      tree = _text((await git(["write-tree"], { env })).stdout);
      await Deno.writeTextFile(temp.message, commitMessage(committed));
    }
    journal = {
      schema_version: 1,
      started_at: new Date().toISOString(),
      old_head: oldHead ?? null,
      tree,
      backup: names.backup,
      objects: names.objects,
      snapshot: Buffer.from(_join0(snapshot)).toString("base64"),
      files: backupFiles,
      raw: raw.files,
    };
    await _writeJournal(temp.journal, journal);
    if (tree !== null) {
      // The commit's tree is oldHead's less the units: on any other parent it would undo that
      // commit's changes. (A commit landing in the instant between this and git commit is
      // caught after it, and its commit kept.)
      const head = _text((await git(["rev-parse", "HEAD"])).stdout);
      if (head !== oldHead) {
        throw new Error(`HEAD moved while pruning (a commit landed: ${head}); run prune again`);
      }
      committing = true;
      // The id comes from git commit's own summary line, never from a later look at HEAD:
      // a hook or another agent may have committed on top of it by then.
      const summary = await _gitOr(
        git,
        ["commit", "--cleanup=whitespace", "-F", temp.message],
        undefined,
        {
          env: { GIT_INDEX_FILE: temp.commit, GIT_EDITOR: "true" },
          config: { "core.abbrev": "no" },
          hint: "the commit failed (a pre-commit or commit-msg hook?); nothing was deleted",
        },
      );
      newHead = _committedId(summary);
      if (newHead === undefined) throw new Error("git commit did not print the new commit's id");
      await _verifyCommit(git, oldHead!, newHead, unitOf, headFiles);
    }

    // 5. Nothing under the units may have changed since the snapshot (a hook, another agent):
    //    no index entry added, changed or dropped, no file's bytes.
    const drift = _indexDrift(entries, await _readIndex(git, unitOf));
    if (drift !== undefined) throw new Error(`${drift} while pruning; run prune again`);
    // Files backed up byte for byte are compared byte for byte (diff-files would convert them).
    const exact = new Set(raw.files);
    const changed = _text(
      (await git(["diff-files", "--name-only", "-z"], { env: backupEnv(temp.backup) })).stdout,
    ).split("\0").filter((p) => p !== "" && !exact.has(p));
    changed.push(...await _changedBytes(git, root, raw));
    if (changed.length > 0) {
      throw new Error(`${changed[0]} changed while pruning; run prune again`);
    }
    if (trackedFiles.length > 0) {
      removedTracked = true;
      await git([...rm, "-f"], { stdin: _nul(trackedFiles) });
    }

    // 6. Only now the untracked files, through git on a copy of the backup index.
    if (untrackedFiles.length > 0) {
      await Deno.copyFile(temp.backup, temp.untracked);
      removedUntracked = true;
      await git([...rm, "-f"], { stdin: _nul(untrackedFiles), env: backupEnv(temp.untracked) });
    }
  } catch (err) {
    const { undone, complete } = await _restore(git, {
      oldHead,
      committing,
      newHead,
      tree,
      snapshot: removedTracked ? snapshot : [],
      backupEnv: backupEnv(temp.backup),
      // Exactly the files removed: any other is as it was, and may be the user's to change.
      files: [...(removedTracked ? trackedFiles : []), ...(removedUntracked ? untrackedFiles : [])],
      exact: { root, files: raw.files, objectFormat, scratch: temp.scratch },
      // A kill while files are written back leaves them cut short: the journal says so first.
      restoring: (files) =>
        journal === undefined
          ? Promise.resolve()
          : _writeJournal(temp.journal, { ...journal, restoring: files }),
    });
    keepBackup = !complete;
    const reason = err instanceof Error ? err.message : String(err);
    throw new DochygieneError(
      "PRUNE_FAILED",
      `prune failed and ${undone}: ${reason}`,
    );
  } finally {
    // The journal goes first: one whose backup is gone could no longer be rolled back.
    // A restore that failed keeps the backup and the journal: the next run retries it.
    if (!keepBackup) keepBackup = !(await _removed(temp.journal));
    const leftovers = Object.values(temp).filter((p) =>
      !(keepBackup && (p === temp.backup || p === temp.objects || p === temp.journal))
    );
    await Promise.all(leftovers.map(_removed));
  }

  for (const c of approved) {
    // Files only staged were in no commit: git revert cannot give them back.
    const staged = entries.filter((e) => e.unit === c.path && !headFiles.has(e.path)).length;
    const how = !c.tracked
      ? "removed (untracked)"
      : !inHead.has(c.path) || newHead === undefined
      ? "git rm (never committed)"
      : staged > 0
      ? `git rm (${staged} staged file${staged === 1 ? "" : "s"} never committed: no revert gives ${
        staged === 1 ? "it" : "them"
      } back)`
      : "git rm";
    plan.applied.push({ path: c.path, how });
  }
  plan.applied.sort((a, b) => byCodePoint(a.path, b.path));
  plan.commit = newHead ?? null;
  // Git never deletes what it ignores (it could not give it back): say what stayed.
  for (const c of approved) {
    if (c.unit !== "dir" || !(await pathExists(join(root, c.path)))) continue;
    plan.warnings.push(
      `${c.path} still holds files prune did not delete (ignored by git, or created since ` +
        `the plan): see git status --ignored -- ${c.path}`,
    );
  }
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

/** Runs git and returns its stdout; on failure rethrows with a hint and git's own reason (see runGit). */
async function _gitOr(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  args: string[],
  stdin: string | undefined,
  options: { env?: Record<string, string>; config?: Record<string, string>; hint?: string },
): Promise<Uint8Array> {
  try {
    return (await git(args, { stdin, env: options.env, config: options.config })).stdout;
  } catch (err) {
    if (options.hint && err instanceof DochygieneError) {
      throw new DochygieneError(err.code, `${options.hint} (${err.message})`);
    }
    throw err;
  }
}

/**
 * The id of the commit `git commit` (with `core.abbrev=no`) made, from its
 * summary line `[<branch> <id>] <subject>` (`undefined` if there is none).
 * Hooks print to stderr, so nothing precedes that line.
 */
function _committedId(stdout: Uint8Array): string | undefined {
  return /^\[.*? ([0-9a-f]{40}|[0-9a-f]{64})\] /.exec(new TextDecoder().decode(stdout))?.[1];
}

/**
 * The new commit must still be HEAD (nobody committed on top of it), sit on
 * the old HEAD and hold exactly the deletions of the committed units' files.
 */
async function _verifyCommit(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  oldHead: string,
  newHead: string,
  unitOf: (path: string) => string | undefined,
  expected: ReadonlySet<string>,
): Promise<void> {
  const [head, ...parents] = _text((await git(["rev-parse", "HEAD", `${newHead}^@`])).stdout)
    .split("\n");
  if (head !== newHead) {
    throw new Error(
      `HEAD moved while pruning (it is now ${head}, not the hygiene commit ${newHead})`,
    );
  }
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
  const deleted = new Set<string>();
  for (let i = 0; i + 1 < records.length; i += 2) {
    const status = new TextDecoder().decode(records[i]);
    const path = decodePath(records[i + 1]);
    if (status !== "D" || unitOf(path) === undefined) {
      throw new Error(`the commit changed ${path} (${status}), which prune did not delete`);
    }
    deleted.add(path);
  }
  for (const path of expected) {
    if (!deleted.has(path)) throw new Error(`the commit did not delete ${path}`);
  }
}

/** Undoes a failed apply; returns what was done, for the error line, and whether all of it could be. */
async function _restore(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  state: {
    oldHead: string | undefined;
    /** Whether `git commit` ran (it may have made a commit even when it failed). */
    committing: boolean;
    /** The hygiene commit, by the id `git commit` printed. */
    newHead: string | undefined;
    /** The hygiene commit's tree, once made. */
    tree: string | null;
    snapshot: Uint8Array[];
    /** The environment that reads the backup (its index and object directory). */
    backupEnv: Record<string, string>;
    files: string[];
    /** Which of them were backed up byte for byte, and how to check them out so. */
    exact: _Exact;
    /** Records, before they are written back, which files are being restored. */
    restoring: (files: string[]) => Promise<void>;
  },
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
      const head = _text((await git(["rev-parse", "HEAD"])).stdout);
      if (state.newHead === undefined) {
        if (head === state.oldHead) return;
        // git commit failed; HEAD moved all the same: someone's commit, unless it has our tree.
        const tree = _text((await git(["rev-parse", `${head}^{tree}`])).stdout);
        if (tree === state.tree) {
          throw new Error(`HEAD is now ${head}; see git log whether it is the hygiene commit`);
        }
        headNote = `; HEAD moved meanwhile (a commit landed: ${head}) and was left alone`;
      } else if (head === state.newHead) {
        // Back to the commit it was made on: oldHead, or a commit that landed just before it,
        // which is someone's work and stays.
        const parent = _text((await git(["rev-parse", `${state.newHead}^`])).stdout);
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
      () => git(["update-index", "-z", "--index-info"], { stdin: _join0(state.snapshot) }),
    );
  }
  if (state.files.length > 0) {
    await attempt("restoring the files", async () => {
      await state.restoring(state.files);
      let blocked: string[];
      try {
        blocked = await _checkOut(git, state.files, state.backupEnv, state.exact);
      } catch (err) {
        // Stopped part way: the journal keeps naming only what is not back.
        const left = await _unfinished(
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
  return {
    undone: headNote === ""
      ? "everything it had removed was restored (HEAD, index and files are as before)"
      : `the index and files are as before${headNote}`,
    complete: true,
  };
}

/** An index entry under a unit: its `ls-files -s -v` record (tag, space, `ls-files -s` record). */
interface _Entry {
  path: string;
  unit: string;
  tagged: Uint8Array;
}

/** What {@linkcode _readIndex} found. */
interface _Index {
  /** The stage-0 entries under the units. */
  entries: _Entry[];
  /** Units holding a file git hides changes of, with that file. */
  hidden: Map<string, string>;
  /** Whether any entry of the whole index is unmerged. */
  unmerged: boolean;
}

/** Reads the index (one `git ls-files -s -v -z`): the entries under the units of `unitOf`. */
async function _readIndex(
  git: (args: string[]) => ReturnType<typeof runGit>,
  unitOf: (path: string) => string | undefined,
): Promise<_Index> {
  const out = await git(["ls-files", "-s", "-v", "-z"]);
  const index: _Index = { entries: [], hidden: new Map(), unmerged: false };
  for (const tagged of _records(out.stdout)) {
    const record = tagged.subarray(2);
    const tab = record.indexOf(0x09);
    if (tab < 0) continue;
    if (record[tab - 1] !== 0x30 /* stage 0 */) {
      index.unmerged = true;
      continue;
    }
    const path = decodePath(record.subarray(tab + 1));
    const unit = unitOf(path);
    if (unit === undefined) continue;
    index.entries.push({ path, unit, tagged });
    // Git hides changes to skip-worktree (S) and assume-unchanged (lowercase) files
    // from status and from git rm: such a unit's state cannot be verified.
    if (tagged[0] !== 0x48 /* H */ && !index.hidden.has(unit)) index.hidden.set(unit, path);
  }
  return index;
}

/** The path of an `ls-files -s` record (after its tab). */
function _entryPath(record: Uint8Array): string {
  return decodePath(record.subarray(record.indexOf(0x09) + 1));
}

/** Maps a path to the unit (a file, or a directory ending in `/`) of `units` it is in. */
function _unitOf(units: readonly string[]): (path: string) => string | undefined {
  const set = new Set(units);
  return (path) => {
    if (set.has(path)) return path;
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
      const dir = path.slice(0, i + 1);
      if (set.has(dir)) return dir;
    }
    return undefined;
  };
}

/** Moves each unit holding a file git hides changes of (unit → that file) to `skipped`. */
function _skipHidden(plan: Plan, hidden: ReadonlyMap<string, string>): void {
  if (hidden.size === 0) return;
  for (const [unit, path] of hidden) {
    plan.skipped.push({
      path: unit,
      reason: `git is told to ignore changes to ${path} (skip-worktree: sparse checkout, or ` +
        `assume-unchanged: git update-index), so its state cannot be verified; not deleted`,
    });
  }
  plan.skipped.sort((a, b) => byCodePoint(a.path, b.path));
}

/** What differs between the snapshot's entries and the index read now, or `undefined`. */
function _indexDrift(before: readonly _Entry[], now: _Index): string | undefined {
  if (now.unmerged) return "the index got unresolved conflicts";
  const was = new Map(before.map((e) => [e.path, e.tagged]));
  for (const e of now.entries) {
    const old = was.get(e.path);
    if (old === undefined) return `${e.path} was added to the index in ${e.unit}`;
    if (Buffer.compare(old, e.tagged) !== 0) return `${e.path} changed in the index`;
    was.delete(e.path);
  }
  const [gone] = was.keys();
  return gone === undefined ? undefined : `${gone} was removed from the index`;
}

/**
 * The environment of a git command on a backup index: its blobs go to (and
 * come from) `store` under the state directory, with the repository's own
 * `objects` readable as an alternate, so a backup never grows `.git`.
 */
/** The files a backup holds byte for byte, and their blobs' ids, in the same order. */
interface _RawBackup {
  files: string[];
  oids: string[];
  /** Their index modes (`100644`, `100755`). */
  modes: string[];
}

/**
 * Backs up `files` into the private index and object directory of `env`: regular files as
 * their exact bytes (`hash-object --no-filters`: no end-of-line conversion, no clean filter,
 * whatever the attributes say), the rest (symlinks) as `update-index --add` stores them.
 */
async function _backUp(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  root: string,
  files: readonly string[],
  env: Record<string, string>,
): Promise<_RawBackup> {
  const raw: _RawBackup = { files: [], oids: [], modes: [] };
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
    raw.oids = await _hashed(git, raw.files, { env, config, write: true });
    await git(["update-index", "-z", "--index-info"], {
      stdin: raw.files.map((f, i) => `${modes[i]} ${raw.oids[i]}\t${f}\0`).join(""),
      env,
    });
  }
  if (rest.length > 0) {
    await git(["update-index", "--add", "--remove", "-z", "--stdin"], {
      stdin: _nul(rest),
      env,
      config,
    });
  }
  return raw;
}

/** The blob ids of `files`' exact bytes (`hash-object --no-filters`), written to `env`'s store with `write`. */
async function _hashed(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  files: readonly string[],
  options: { env?: Record<string, string>; config?: Record<string, string>; write?: boolean } = {},
): Promise<string[]> {
  const args = ["hash-object", ...(options.write ? ["-w"] : []), "--no-filters", "--stdin-paths"];
  const out = await git(args, {
    // C-quoted, each: git unquotes a line that starts with `"` and drops a CR before its end.
    stdin: files.map((f) => `${_cQuoted(f)}\n`).join(""),
    env: options.env,
    config: options.config,
  });
  return _text(out.stdout).split("\n");
}

/** `path` as git reads a C-quoted name: in quotes, with `\\`, `"` and line breaks escaped. */
function _cQuoted(path: string): string {
  const escaped = path.replace(
    /[\\"\n\r\t]/g,
    (c) => c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\${c}`,
  );
  return `"${escaped}"`;
}

/** The byte-for-byte backed-up files whose bytes or mode changed (or that are gone) since. */
async function _changedBytes(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  root: string,
  raw: _RawBackup,
): Promise<string[]> {
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
    now = await _hashed(git, raw.files);
  } catch {
    return [raw.files[0]]; // one cannot be read any more
  }
  return raw.files.filter((_, i) => now[i] !== raw.oids[i]);
}

/** What {@linkcode _checkOut} needs to give files back byte for byte. */
interface _Exact {
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
async function _checkOut(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  files: readonly string[],
  env: Record<string, string>,
  exact: _Exact,
): Promise<string[]> {
  // `checkout-index -f` would delete what stands in the way (a directory at the path, a file where
  // a directory of it goes): that is someone's, so such a file is not written back.
  const blocked = files.filter((f) => _blockedWay(exact.root, f));
  const free = blocked.length === 0 ? files : files.filter((f) => !blocked.includes(f));
  const byteForByte = new Set(exact.files);
  const plain = free.filter((f) => !byteForByte.has(f));
  const raw = free.filter((f) => byteForByte.has(f));
  if (plain.length > 0) {
    await git(["checkout-index", "-f", "-q", "-z", "--stdin"], { stdin: _nul(plain), env });
  }
  if (raw.length === 0) return blocked;
  const [tree, gitDir] = [join(exact.scratch, "tree"), join(exact.scratch, "git")];
  const isolated = {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
  };
  try {
    await Deno.mkdir(tree, { recursive: true });
    await git(
      ["init", "-q", "--bare", "--template=", `--object-format=${exact.objectFormat}`, gitDir],
      { env: isolated },
    );
    await Deno.mkdir(join(gitDir, "info"), { recursive: true });
    await Deno.writeTextFile(join(gitDir, "info", "attributes"), _NO_CONVERSION);
    await git(["checkout-index", "-f", "-q", "-z", "--stdin", `--prefix=${exact.root}/`], {
      stdin: _nul(raw),
      env: { ...env, ...isolated, GIT_DIR: gitDir, GIT_WORK_TREE: tree },
    });
  } finally {
    await _removed(exact.scratch);
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
async function _unfinished(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
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
    const blobs = await _backupBlobs(git, env);
    let now: string[];
    try {
      now = await _hashed(git, compared);
    } catch {
      return [...files]; // cannot tell: all of them
    }
    compared.forEach((f, i) => now[i] !== blobs.get(f)?.oid && left.add(f));
  }
  return files.filter((f) => left.has(f));
}

/** The backup index's blobs by path: id and size (`ls-files -s` and one `cat-file --batch-check`). */
async function _backupBlobs(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  env: Record<string, string>,
): Promise<Map<string, { oid: string; size: number }>> {
  const blobs = new Map<string, { oid: string; size: number }>();
  for (const record of _records((await git(["ls-files", "-s", "-z"], { env })).stdout)) {
    // `<mode> <oid> <stage>\t<path>`
    const oid = new TextDecoder().decode(record.subarray(0, record.indexOf(0x09))).split(" ")[1];
    blobs.set(_entryPath(record), { oid, size: -1 });
  }
  if (blobs.size === 0) return blobs;
  const oids = [...new Set([...blobs.values()].map((b) => b.oid))];
  const sizes = new Map<string, number>();
  const out = await git(["cat-file", "--batch-check"], { stdin: oids.join("\n") + "\n", env });
  for (const line of _text(out.stdout).split("\n")) {
    const [oid, , size] = line.split(" ");
    sizes.set(oid, Number(size));
  }
  for (const blob of blobs.values()) blob.size = sizes.get(blob.oid) ?? -1;
  return blobs;
}

function _backupEnv(indexFile: string, store: string, objects: string): Record<string, string> {
  return {
    GIT_INDEX_FILE: indexFile,
    GIT_OBJECT_DIRECTORY: store,
    // The list is colon-separated; a path holding ':' is given C-quoted.
    GIT_ALTERNATE_OBJECT_DIRECTORIES: /[:"]/.test(objects) ? JSON.stringify(objects) : objects,
  };
}

/** Removes `path` (recursively); whether it is gone. */
async function _removed(path: string): Promise<boolean> {
  try {
    await Deno.remove(path, { recursive: true });
    return true;
  } catch (err) {
    return err instanceof Deno.errors.NotFound;
  }
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

/** The journal an apply keeps in the state directory while it mutates anything. */
interface _Journal {
  schema_version: 1;
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

async function _writeJournal(path: string, journal: _Journal): Promise<void> {
  await atomicWrite(path, `${JSON.stringify(journal)}\n`);
}

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
async function _recover(
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  where: { root: string; stateDir: string; objects: string; objectFormat: string },
): Promise<{ warnings: string[]; aged: boolean }> {
  const { root, stateDir, objects, objectFormat } = where;
  const path = join(stateDir, PRUNE_JOURNAL_FILE);
  let journal: _Journal;
  try {
    journal = JSON.parse(await Deno.readTextFile(path));
    if (
      journal?.schema_version !== 1 || !Array.isArray(journal.files) ||
      typeof journal.backup !== "string" || typeof journal.objects !== "string" ||
      typeof journal.snapshot !== "string"
    ) throw new Error("shape");
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      await _removeLeftovers(stateDir);
      return { warnings: [], aged: false };
    }
    throw new DochygieneError(
      "PRUNE_JOURNAL",
      `${path} is not a readable prune journal; an interrupted prune left it: the removed files' ` +
        `content is in the prune-*.backup.index and prune-*.objects next to it ` +
        `(GIT_INDEX_FILE=<index> GIT_OBJECT_DIRECTORY=<objects> ` +
        `GIT_ALTERNATE_OBJECT_DIRECTORIES=.git/objects git checkout-index -a); ` +
        `move them away, then run prune again`,
    );
  }
  const backup = resolve(stateDir, journal.backup);
  const store = resolve(stateDir, journal.objects);
  if (!(await pathExists(backup)) || !(await pathExists(store))) {
    const head = journal.old_head === null ? "" : `, HEAD was ${journal.old_head}`;
    throw new DochygieneError(
      "PRUNE_JOURNAL",
      `${path} records a prune (started ${journal.started_at}${head}) that cannot be rolled ` +
        `back: its backup ${journal.backup} is gone; nothing was changed. See git log -1 and ` +
        `git status (git checkout ${journal.old_head ?? "<commit>"} -- <path> gives back a ` +
        `committed file), then remove the journal and run prune again`,
    );
  }
  const done: string[] = [];
  let snapshot = [..._records(Buffer.from(journal.snapshot, "base64"))];
  const tracked = new Set(snapshot.map(_entryPath));
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
      const [tree, parents, subject] = _text(
        (await git(["log", "-1", "--no-show-signature", "--format=%T%x00%P%x00%s", head])).stdout,
      ).split("\0");
      if (
        tree === journal.tree && !parents.includes(" ") && subject.startsWith("dochygiene: prune")
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
      [..._records((await git(["ls-files", "-z"])).stdout)].map((r) => decodePath(r)),
    );
    const missing = snapshot.filter((r) => !present.has(_entryPath(r)));
    if (missing.length > 0) {
      await git(["update-index", "-z", "--index-info"], { stdin: _join0(missing) });
      done.push(`${_count(missing.length, "index entry", "index entries")} restored`);
    }
  }
  const missingFiles: string[] = [];
  const cutShort = await _cutShort(
    git,
    root,
    Array.isArray(journal.restoring) ? journal.restoring : [],
    _backupEnv(backup, store, objects),
  );
  for (const file of files) {
    if (cutShort.has(file) || !(await pathExists(join(root, file)))) missingFiles.push(file);
  }
  if (missingFiles.length > 0) {
    // Killed in this restore too, the next run writes these again.
    await _writeJournal(path, { ...journal, restoring: missingFiles });
    const env = _backupEnv(backup, store, objects);
    // A journal from before exact backups names none.
    const raw = Array.isArray(journal.raw) ? journal.raw : [];
    let blocked: string[];
    try {
      blocked = await _checkOut(git, missingFiles, env, {
        root,
        files: raw,
        objectFormat,
        scratch: join(stateDir, "prune-recover.scratch"),
      });
    } catch (err) {
      const left = await _unfinished(git, root, missingFiles, env, raw).catch(() => missingFiles);
      await _writeJournal(path, { ...journal, restoring: left });
      throw err;
    }
    // Written back: from here on, only what was not is the journal's to restore.
    await _writeJournal(path, { ...journal, restoring: blocked });
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
  await _removeLeftovers(stateDir);
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
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  root: string,
  restoring: readonly string[],
  env: Record<string, string>,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (restoring.length === 0) return found;
  const blobs = await _backupBlobs(git, env);
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
  git: (args: string[], options?: GitOptions) => ReturnType<typeof runGit>,
  oldHead: string,
  tree: string,
): Promise<{ head: string; commit: string | undefined }> {
  const head = _text(
    (await git(["rev-parse", "-q", "--verify", "HEAD"], { okCodes: [0, 1] })).stdout,
  );
  if (head === "" || head === oldHead) return { head, commit: undefined };
  // One record per commit descending from oldHead: `commit <id>`, then `<tree> <parents>`.
  const out = await git(["rev-list", "--ancestry-path", "--format=%T %P", `${oldHead}..${head}`], {
    okCodes: [0, 128],
  });
  const lines = _text(out.stdout).split("\n");
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (lines[i + 1] === `${tree} ${oldHead}`) return { head, commit: lines[i].slice(7) };
  }
  return { head, commit: undefined };
}

/** Under the lock no other prune runs, and without a journal nothing needs them: every prune-* entry is a leftover. */
async function _removeLeftovers(stateDir: string): Promise<void> {
  for await (const entry of Deno.readDir(stateDir)) {
    if (entry.name.startsWith("prune-")) await _removed(join(stateDir, entry.name));
  }
}

/** `n thing` or `n things`. */
function _count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function _text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).trim();
}

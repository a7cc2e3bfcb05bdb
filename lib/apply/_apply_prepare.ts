/**
 * The prepare phase of an apply (docs/design.md "Lifecycle deletion", "Apply"):
 * refuse a busy git, roll back a killed apply, recompute the plan from git facts
 * read now, and select the approved units with their files as the index, HEAD
 * and the disk hold them now.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { byCodePoint } from "../core/by_code_point.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { checkToplevel } from "../git/check_toplevel.ts";
import { gitBusy } from "../git/git_busy.ts";
import type { ApplyInput } from "./apply_prune.ts";
import { approvedCandidates, type Candidate, type Plan } from "../prune/plan_prune.ts";
import { type IndexEntry, readIndex } from "./_read_index.ts";
import { recover } from "./_recover.ts";
import { entryPath, type Git, records, text } from "./_prune_git.ts";
import { hashed } from "./_back_up.ts";
import { unitFinder } from "../core/unit_finder.ts";

/** What an apply deletes: the approved units and their files, as git and the disk have them now. */
export interface Selection {
  /** The project root. */
  root: string;
  /** The repository's own object directory: read by the backup, never written. */
  objects: string;
  /** The repository's object format (`sha1`, `sha256`). */
  objectFormat: string;
  /** HEAD the plan was made on (`undefined`: unborn branch). */
  oldHead: string | undefined;
  /** The approved candidates. */
  approved: Candidate[];
  /** Those with a file in HEAD: the hygiene commit's units. */
  committed: Candidate[];
  /** Maps a path to the approved unit it is in. */
  unitOf: (path: string) => string | undefined;
  /** The real index's entries under the units. */
  entries: IndexEntry[];
  /** HEAD's files under the units. */
  headFiles: Set<string>;
  /** The units with a file in HEAD. */
  inHead: Set<string>;
  /** Every file of the units: what the backup holds. */
  backupFiles: string[];
  /** Those git does not track. */
  untrackedFiles: string[];
  /** The index entries' paths: what `git rm -f` removes. */
  trackedFiles: string[];
  /** The index entries' `ls-files -s` records: what a restore puts back. */
  snapshot: Uint8Array[];
}

/**
 * Steps 1 and 2 of `applyPrune`: the plan, with what this run skips, and what it deletes
 * (`undefined`: nothing).
 *
 * @throws {DochygieneError} `GIT_BUSY`, `PRUNE_JOURNAL`, `CONFLICTS`.
 */
export async function applyPrepare(
  git: Git,
  input: ApplyInput,
): Promise<{ plan: Plan; selection: Selection | undefined }> {
  const { root, stateDir } = input;
  // git would delete in its own worktree what was read (and backed up) from the root.
  await checkToplevel(root);
  const busy = await gitBusy(root);
  if (busy) {
    throw new DochygieneError("GIT_BUSY", `${busy.state}; ${busy.fix}, then run prune again`);
  }
  // The repository's own objects: read by the backup, never written (they would stay for good).
  const [objectsPath, objectFormat] = text(
    (await git(["rev-parse", "--git-path", "objects", "--show-object-format"])).stdout,
  ).split("\n");
  const objects = resolve(root, objectsPath);
  const recovered = await recover(git, { root, stateDir, objects, objectFormat }).catch((err) => {
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
    return { plan, selection: undefined };
  }
  let approved = approvedCandidates(plan);
  if (approved.length === 0) return { plan, selection: undefined };

  // The index with its tags (raw records, re-fed verbatim on restore) and HEAD's tree.
  const [index, headTree] = await Promise.all([
    readIndex(git, unitFinder(approved.map((c) => c.path))),
    collection.head === undefined
      ? Promise.resolve(undefined)
      : git(["ls-tree", "-r", "-z", "--full-tree", collection.head]),
  ]);
  if (index.unmerged) {
    throw new DochygieneError(
      "CONFLICTS",
      "the index has unresolved conflicts; resolve them (git status) and run prune again",
    );
  }
  if (index.hidden.size > 0) {
    skipHidden(plan, index.hidden);
    approved = approved.filter((c) => !index.hidden.has(c.path));
    if (approved.length === 0) return { plan, selection: undefined };
  }
  // HEAD's files under the units, with their blobs: `<mode> <type> <oid>\t<path>`.
  const headBlobs = new Map<string, { mode: string; oid: string }>();
  const approvedUnit = unitFinder(approved.map((c) => c.path));
  for (const record of headTree ? records(headTree.stdout) : []) {
    const path = entryPath(record);
    if (approvedUnit(path) === undefined) continue;
    const [mode, , oid] = text(record.subarray(0, record.indexOf(0x09))).split(" ");
    headBlobs.set(path, { mode, oid });
  }
  const unclean = await _uncleanUnits(git, root, approved, approvedUnit, headBlobs);
  if (unclean.size > 0) {
    for (const [unit, path] of unclean) {
      plan.skipped.push({
        path: unit,
        reason: `${path} differs from HEAD though git reports it unchanged (a stale ` +
          `core.fsmonitor, or stat data that lie: git -c core.fsmonitor=false update-index ` +
          `--really-refresh, then git status, may show it), so its edit could not be given ` +
          `back; not deleted`,
      });
    }
    plan.skipped.sort((a, b) => byCodePoint(a.path, b.path));
    approved = approved.filter((c) => !unclean.has(c.path));
    if (approved.length === 0) return { plan, selection: undefined };
  }
  const unitOf = unitFinder(approved.map((c) => c.path));
  const entries = index.entries.filter((e) => unitOf(e.path) !== undefined);
  const headFiles = new Set([...headBlobs.keys()].filter((p) => unitOf(p) !== undefined));
  const inHead = new Set([...headFiles].map((p) => unitOf(p)!));
  const backupFiles: string[] = [];
  const untrackedFiles: string[] = [];
  for (const file of collection.files) {
    if (unitOf(file.path) === undefined) continue;
    backupFiles.push(file.path);
    if (!file.tracked) untrackedFiles.push(file.path);
  }
  return {
    plan,
    selection: {
      root,
      objects,
      objectFormat,
      oldHead: collection.head,
      approved,
      committed: approved.filter((c) => inHead.has(c.path)),
      unitOf,
      entries,
      headFiles,
      inHead,
      backupFiles,
      untrackedFiles,
      trackedFiles: entries.map((e) => e.path),
      snapshot: entries.map((e) => e.tagged.subarray(2)),
    },
  };
}

/**
 * The approved units git takes for clean whose bytes say otherwise (unit → the first such
 * file): a regular file in HEAD whose bytes are not HEAD's blob, neither as they are nor as
 * `hash-object` converts them (line endings, filters). git's own view rests on the index's stat
 * data and `core.fsmonitor`, which may lag; deleting such a unit as clean would drop an edit no
 * revert gives back. Both ways count because `hash-object` reads no index: it converts the CRLF
 * of a file whose blob holds CRLF, which `git add` leaves alone (`text=auto`, `core.autocrlf`).
 * One `hash-object` for all, and one more only for the files the first finds different.
 */
async function _uncleanUnits(
  git: Git,
  root: string,
  approved: readonly Candidate[],
  unitOf: (path: string) => string | undefined,
  headBlobs: ReadonlyMap<string, { mode: string; oid: string }>,
): Promise<Map<string, string>> {
  const clean = new Set(approved.filter((c) => c.tracked && !c.dirty).map((c) => c.path));
  const files: string[] = [];
  for (const [path, { mode }] of headBlobs) {
    if (!mode.startsWith("100") || !clean.has(unitOf(path)!)) continue;
    // Only a regular file can hold an edit hash-object reads (git rm checks the rest).
    try {
      if (Deno.lstatSync(join(root, path)).isFile) files.push(path);
    } catch {
      // Gone: git rm checks it.
    }
  }
  const unclean = new Map<string, string>();
  if (files.length === 0) return unclean;
  const converted = await hashed(git, files, { filters: true });
  const differ = files.filter((path, i) => converted[i] !== headBlobs.get(path)!.oid);
  if (differ.length === 0) return unclean;
  const raw = await hashed(git, differ, { filters: false });
  differ.forEach((path, i) => {
    const unit = unitOf(path)!;
    if (raw[i] !== headBlobs.get(path)!.oid && !unclean.has(unit)) unclean.set(unit, path);
  });
  return unclean;
}

/** Moves each unit holding a file git hides changes of (unit → that file) to `skipped`. */
export function skipHidden(plan: Plan, hidden: ReadonlyMap<string, string>): void {
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

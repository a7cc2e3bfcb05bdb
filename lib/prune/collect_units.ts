/**
 * The I/O edge of prune: the units each rule governs, with their git facts
 * (tracked, dirty) and ages, from a constant number of git processes.
 *
 * @module
 */

import { join } from "node:path";
import { decodePath, hasUndecodableBytes } from "../core/decode_path.ts";
import { type ExistingPaths, existingPaths, governingRule } from "../config/governing_rule.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import type { Rule } from "../config/load_config.ts";
import type { UnitFacts } from "./plan_prune.ts";
import { shallowBoundary } from "../git/read_git_ages.ts";
import { readRestoredAges } from "../git/read_restored_ages.ts";
import { type GitFacts, readGitFacts } from "../git/read_git_facts.ts";
import { runGit } from "../git/run_git.ts";

/** Options of {@linkcode collectUnits}. */
export interface CollectOptions {
  /** The rulebook. */
  rules: readonly Rule[];
  /**
   * Why a file must never be deleted (excluded directory, `.dochygiene-ignore`,
   * frozen, append-only), or `undefined`. A unit holding such a file is kept.
   * Asked only about the files of units that a `temporary` or
   * `delete-once-served` rule governs, each once.
   */
  protect: (path: string) => string | undefined;
  /**
   * git facts already being read for this root (one `git ls-files` and one
   * history pass shared by several readers, e.g. prune's scan and its units);
   * read here when absent.
   */
  gitFacts?: GitFacts;
}

/** What {@linkcode collectUnits} found. */
export interface UnitCollection {
  /** Every governed unit, sorted by path. */
  units: UnitFacts[];
  /** The files on disk and their directories (for `served_when_path`). */
  existing: ExistingPaths;
  /** The listing: tracked and untracked-not-ignored files. */
  files: ListedFile[];
  /** Paths git reports as changed (staged, unstaged, untracked; both sides of a rename). */
  changed: Set<string>;
  /** HEAD's commit id, `undefined` before the first commit. */
  head: string | undefined;
  /** Problems that did not stop the collection. */
  warnings: string[];
}

/**
 * Lists the repository once (`git ls-files` for tracked and untracked files,
 * `git status --porcelain=v1 -z` for uncommitted changes, one
 * `git log --first-parent` pass for ages, and in a shallow clone one more over
 * its commits that have a parent), groups the files into units by
 * their governing rule and attaches each unit's facts:
 *
 * - tracked: any file of it is in git's index; dirty: any path under it has
 *   an uncommitted change (an untracked file inside a tracked directory
 *   counts);
 * - age: the newest first-parent commit that touched anything under it
 *   (deleted paths included); a tracked unit never committed and an untracked
 *   file: its mtime; an untracked directory: one `stat` of the directory
 *   itself, never a walk. In a shallow clone, a unit that no commit after the
 *   one its history starts at touched is marked `shallow_age`: that commit
 *   lists every file, so its real age is unknown;
 * - changed_ms (units of a `served_when` rule with uncommitted changes only):
 *   the newest mtime of its changed files, so that a judgment made before
 *   them is not used;
 * - blocked: a directory unit holding a protected file, a file governed by
 *   another rule or unit, a submodule or nested repository, or a name that is
 *   not valid UTF-8 is never deletable, and says why.
 *
 * The number of git processes is constant, whatever the number of units.
 *
 * @example
 * ```ts
 * import { collectUnits } from "./collect_units.ts";
 * import { parseConfig } from "../config/parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) => new Deno.Command("git", { args, cwd: root }).output();
 * await git("init", "-q");
 * await Deno.mkdir(`${root}/runs/r1`, { recursive: true });
 * await Deno.writeTextFile(`${root}/runs/r1/log.md`, "x\n");
 * const { rules } = parseConfig("rules:\n  - {match: 'runs/*\/', lifetime: temporary}\n");
 * const { units } = await collectUnits(root, { rules, protect: () => undefined });
 * assert.deepEqual(units.map((u) => [u.path, u.tracked, u.age_source]), [["runs/r1/", false, "mtime"]]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function collectUnits(root: string, options: CollectOptions): Promise<UnitCollection> {
  const facts = options.gitFacts ?? readGitFacts(root);
  const [listing, status, history] = await Promise.all([
    facts.listing,
    runGit(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"]),
    facts.ages,
  ]);
  const changed = parseStatus(status.stdout);
  const warnings = [...listing.warnings, ...history.warnings];
  // In a shallow clone, the ages that are only where its history is cut.
  const undated = history.shallow ? await shallowBoundary(root, history.ages) : new Set<string>();

  type Draft = {
    facts: UnitFacts;
    files: string[];
    tracked: number;
    /** Touched by a commit after a shallow clone's cut (or the clone is not shallow). */
    dated: boolean;
    /** Its uncommitted changes, kept for `served_when` units only (their mtimes are read). */
    changed: string[];
  };
  const drafts = new Map<string, Draft>();
  const dirUnits = new Set<string>();
  const governed = new Map<string, string | undefined>();
  for (const file of listing.files) {
    const gov = governingRule(file.path, options.rules);
    governed.set(file.path, gov?.unit);
    if (gov === undefined) continue;
    let draft = drafts.get(gov.unit);
    if (!draft) {
      const kind = gov.unit.endsWith("/") ? "dir" : "file";
      draft = {
        facts: {
          path: gov.unit,
          kind,
          rule: gov.rule,
          tracked: false,
          dirty: false,
          age_ms: null,
          age_source: "git",
        },
        files: [],
        tracked: 0,
        dated: false,
        changed: [],
      };
      drafts.set(gov.unit, draft);
      if (kind === "dir") dirUnits.add(gov.unit);
    }
    draft.files.push(file.path);
    if (file.tracked) draft.tracked++;
  }

  const block = (unit: string, why: string) => {
    const draft = drafts.get(unit);
    if (draft && draft.facts.blocked === undefined) draft.facts.blocked = why;
  };
  // Anything under a directory unit that is not plainly that unit's blocks it.
  const enclosing = (path: string): string[] => {
    const out: string[] = [];
    let i = path.indexOf("/");
    while (i >= 0) {
      const dir = path.slice(0, i + 1);
      if (dirUnits.has(dir)) out.push(dir);
      i = path.indexOf("/", i + 1);
    }
    return out;
  };
  // A keep unit is never deleted, whatever it holds: only deletable units are checked (protect
  // may read the file).
  const deletable = (unit: string) => drafts.get(unit)!.facts.rule.lifetime !== "keep";
  for (const file of listing.files) {
    const own = governed.get(file.path);
    const units = new Set([...enclosing(file.path), ...(own ? [own] : [])].filter(deletable));
    if (units.size === 0) continue;
    const why = options.protect(file.path);
    for (const unit of units) {
      if (why !== undefined) {
        block(
          unit,
          unit === file.path ? `protected (${why})` : `protected: contains ${file.path} (${why})`,
        );
      } else if (own !== unit) {
        block(
          unit,
          `contains ${file.path}, which ${own ? `is governed as ${own}` : "no rule governs"}`,
        );
      } else if (file.type === "gitlink") block(unit, `contains the submodule ${file.path}`);
      else if (hasUndecodableBytes(file.path)) {
        block(unit, `contains a name that is not valid UTF-8 (${JSON.stringify(file.path)})`);
      }
    }
  }
  for (const dir of listing.opaque) {
    for (const unit of enclosing(`${dir}/`)) {
      block(unit, `contains ${dir}/, a submodule or nested repository`);
    }
    if (dirUnits.has(`${dir}/`)) block(`${dir}/`, `is a submodule or nested repository`);
  }

  for (const path of changed) {
    const own = governed.get(path);
    for (const unit of new Set([...enclosing(path), ...(own ? [own] : [])])) {
      const draft = drafts.get(unit);
      if (!draft) continue;
      draft.facts.dirty = true;
      if (draft.facts.rule.served_when !== undefined) draft.changed.push(path);
    }
  }

  for (const [path, seconds] of history.ages) {
    const ms = seconds * 1000;
    const dated = !undated.has(path);
    for (const unit of new Set([...enclosing(path), path])) {
      const draft = drafts.get(unit);
      if (!draft) continue;
      if (draft.facts.age_ms === null || ms > draft.facts.age_ms) draft.facts.age_ms = ms;
      if (dated) draft.dated = true;
    }
  }

  // A unit a hygiene commit deleted and a later one gave back exactly (its revert) is as old as
  // its content: the age it had just before the hygiene commit.
  const restored = await readRestoredAges(
    root,
    [...drafts.values()].filter((d) => d.tracked > 0 && d.facts.age_ms !== null).map((d) =>
      d.facts.path
    ),
  );
  for (const [unit, seconds] of restored) {
    const facts = drafts.get(unit)!.facts;
    if (seconds * 1000 < facts.age_ms!) facts.age_ms = seconds * 1000;
  }

  await Promise.all([...drafts.values()].map(async (draft) => {
    const facts = draft.facts;
    facts.tracked = draft.tracked > 0;
    const changedMs = _newestMtime(root, draft.changed);
    if (changedMs !== undefined) facts.changed_ms = changedMs;
    if (facts.tracked && facts.age_ms !== null) {
      if (!draft.dated) facts.shallow_age = true;
      return;
    }
    // Untracked (or never committed): the file's mtime, or ONE stat of the directory itself.
    facts.age_ms = null;
    facts.age_source = "mtime";
    try {
      const info = await Deno.lstat(join(root, facts.path));
      facts.age_ms = info.mtime?.getTime() ?? null;
    } catch {
      // Unknown age: the planner never deletes on a guess.
    }
  }));

  const units = [...drafts.values()].map((d) => d.facts);
  return {
    units,
    // `served_when_path` is proven on disk: a tracked file deleted from it proves nothing.
    existing: existingPaths(listing.files.flatMap((f) => f.absent ? [] : [f.path])),
    files: listing.files,
    changed,
    head: history.head,
    warnings,
  };
}

/** The newest mtime of `paths` (root-relative); paths gone since git listed them count for nothing. */
function _newestMtime(root: string, paths: readonly string[]): number | undefined {
  let newest: number | undefined;
  for (const path of paths) {
    try {
      const ms = Deno.lstatSync(join(root, path)).mtime?.getTime();
      if (ms !== undefined && (newest === undefined || ms > newest)) newest = ms;
    } catch {
      // Deleted: nothing new in it to judge.
    }
  }
  return newest;
}

/**
 * Parses `git status --porcelain=v1 -z --no-renames` into the set of changed
 * paths (staged, unstaged, untracked, unmerged).
 *
 * @example
 * ```ts
 * import { parseStatus } from "./collect_units.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new TextEncoder().encode(" M a.md\0?? new dir/x.md\0D  gone.md\0");
 * assert.deepEqual([...parseStatus(out)], ["a.md", "new dir/x.md", "gone.md"]);
 * ```
 */
export function parseStatus(stdout: Uint8Array): Set<string> {
  const changed = new Set<string>();
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf(0, start);
    if (end < 0) end = stdout.length;
    if (end - start > 3) {
      const x = stdout[start];
      changed.add(decodePath(stdout.subarray(start + 3, end)));
      // Renames and copies carry their source as the next record.
      if (x === 0x52 /* R */ || x === 0x43 /* C */) {
        const next = stdout.indexOf(0, end + 1);
        const stop = next < 0 ? stdout.length : next;
        changed.add(decodePath(stdout.subarray(end + 1, stop)));
        end = stop;
      }
    }
    start = end + 1;
  }
  return changed;
}

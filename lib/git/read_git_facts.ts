/**
 * The two git reads a repository's docs need — the file listing and the
 * first-parent history — started once, to be shared by every reader of the
 * same run (prune plans from a scan and from its units: one pass each, not two).
 *
 * @module
 */

import { type CandidateListing, listCandidates } from "./list_candidates.ts";
import { type GitAges, type GitTip, type KnownAges, readGitTip } from "./read_git_ages.ts";
import { readGitAgesThreaded } from "./read_git_ages_threaded.ts";

/** The listing and the history pass of one repository, in flight or done. */
export interface GitFacts {
  /** One `git ls-files` (tracked plus untracked-not-ignored). */
  listing: Promise<CandidateListing>;
  /** One `git log --first-parent` pass. */
  ages: Promise<GitAges>;
  /** HEAD, its history's shape and where git keeps its index (the pass starts from it). */
  tip: Promise<GitTip>;
}

/**
 * Starts both git reads of the repository at `root` (it must hold `.git`).
 * Both run concurrently in their own git processes; a rejection surfaces
 * where the promise is awaited. The history pass starts from `known` ages
 * when they are given (see `readGitAges`).
 *
 * @example
 * ```ts
 * import { readGitFacts } from "./read_git_facts.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const facts = readGitFacts(root);
 * assert.deepEqual((await facts.listing).files.map((f) => f.path), ["a.md"]);
 * assert.equal((await facts.ages).ages.size, 0);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function readGitFacts(root: string, known?: Promise<KnownAges | undefined>): GitFacts {
  const listing = listCandidates(root, { git: true, excludedDirs: [] });
  const tip = readGitTip(root);
  const facts = { listing, ages: readGitAgesThreaded(root, known, tip), tip };
  // Awaited by the readers; never an unhandled rejection meanwhile.
  facts.listing.catch(() => {});
  facts.ages.catch(() => {});
  facts.tip.catch(() => {});
  return facts;
}

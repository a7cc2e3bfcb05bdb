/**
 * The scanner's I/O edge: lists, reads and asks git, then hands the facts to
 * the pure {@linkcode scanDocs}.
 *
 * @module
 */

import { join } from "node:path";
import type { Clock } from "./clock.ts";
import { listCandidates } from "./list_candidates.ts";
import type { Config } from "./load_config.ts";
import { loadIgnore } from "./load_ignore.ts";
import { type GitAges, readGitAges } from "./read_git_ages.ts";
import { readDocs } from "./read_docs.ts";
import { type ScanArtifact, scanDocs, selectReads } from "./scan_docs.ts";

export { BINARY_SNIFF_BYTES, MAX_PARSE_BYTES, readDoc } from "./read_doc.ts";

/** Options of {@linkcode scanRepository}. */
export interface ScanRepositoryOptions {
  /** Absolute project root. */
  root: string;
  /** The config. */
  config: Config;
  /** The clock (the scan's `generated_at` and ages). */
  clock: Clock;
  /** Called now and then while reading, with how many docs are done of how many. */
  onProgress?: (done: number, total: number) => void;
}

/** The artifact and the problems that did not stop the scan. */
export interface ScanOutcome {
  /** The scan artifact. */
  artifact: ScanArtifact;
  /** One line each, e.g. an unreadable directory or file. */
  warnings: string[];
}

/**
 * Scans the project at `root`: lists candidates (one `git ls-files`, or a
 * walk without git), reads every doc that survives dir-prune and ignore once
 * (synchronously, analysed as it is read), reads git ages in one
 * `git log` pass running meanwhile, and builds the artifact. Reads never leave
 * the root: symlinks are not read, and a file swapped for another between
 * `lstat` and `open` is skipped.
 *
 * @example
 * ```ts
 * import { scanRepository } from "./scan_repository.ts";
 * import { defaultConfig } from "./load_config.ts";
 * import { fixedClock } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const { artifact } = await scanRepository({
 *   root,
 *   config: defaultConfig(),
 *   clock: fixedClock(new Date()),
 * });
 * assert.deepEqual(artifact.shortlist, ["a.md"]);
 * assert.equal(artifact.git, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function scanRepository(options: ScanRepositoryOptions): Promise<ScanOutcome> {
  const { root, config } = options;
  const inGit = await _exists(join(root, ".git"));
  // git log runs in its own process while this one lists and reads.
  const agesPromise: Promise<GitAges | undefined> = inGit
    ? readGitAges(root)
    : Promise.resolve(undefined);
  agesPromise.catch(() => {}); // awaited below; never an unhandled rejection meanwhile
  const [ignored, listing] = await Promise.all([
    loadIgnore(root),
    listCandidates(root, { git: inGit, excludedDirs: config.excluded_dirs }),
  ]);
  const warnings = [...listing.warnings];
  const paths = selectReads(listing.files, config, ignored);
  let gitPending = inGit;
  const settled = () => gitPending = false;
  agesPromise.then(settled, settled);
  const { reads, warnings: unread } = await readDocs(root, paths, {
    busy: () => gitPending,
    onProgress: options.onProgress,
  });
  warnings.push(...unread);
  const git = await agesPromise;
  if (git) warnings.push(...git.warnings);
  const artifact = scanDocs({
    root,
    config,
    now: options.clock.now(),
    git,
    files: listing.files,
    opaque: listing.opaque,
    ignored,
    reads,
    onDisk: _onDisk(root),
  });
  return { artifact, warnings };
}

/**
 * Whether a root-relative path exists on disk with exactly this name (letter
 * case included, also on case-insensitive filesystems): its parent directory
 * is listed once and remembered, so a thousand broken links cost one
 * `readDir` per directory rather than a thousand failed `lstat`s. A directory
 * missing from its own parent's listing is not listed at all (links into
 * made-up directories cost nothing).
 */
function _onDisk(root: string): (path: string) => boolean {
  // Directory → the names in it; `undefined` when it could not be listed for
  // another reason than not existing (it may still be traversable).
  const dirs = new Map<string, Set<string> | undefined>();
  const none = new Set<string>();
  const list = (dir: string): Set<string> | undefined => {
    if (dirs.has(dir)) return dirs.get(dir);
    let names: Set<string> | undefined = none;
    const slash = dir.lastIndexOf("/");
    const parent = dir === "" ? undefined : list(slash < 0 ? "" : dir.slice(0, slash));
    if (parent === undefined || parent.has(slash < 0 ? dir : dir.slice(slash + 1))) {
      try {
        names = new Set();
        for (const entry of Deno.readDirSync(dir === "" ? root : join(root, dir))) {
          names.add(entry.name);
        }
      } catch (err) {
        // Missing: nothing in it exists. Unreadable: nothing in it is known to exist.
        names = err instanceof Deno.errors.NotFound ? none : undefined;
      }
    }
    dirs.set(dir, names);
    return names;
  };
  return (path) => {
    const slash = path.lastIndexOf("/");
    const names = list(slash < 0 ? "" : path.slice(0, slash));
    return names !== undefined && names.has(slash < 0 ? path : path.slice(slash + 1));
  };
}

async function _exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

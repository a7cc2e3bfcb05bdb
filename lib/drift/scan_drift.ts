/**
 * The drift signals of a scan, from its facts to its signals: what counts as
 * code, the words to look for, the one bounded history read
 * ({@linkcode readDriftHistory}), then {@linkcode driftSignals}.
 *
 * @module
 */

import type { Config } from "../config/load_config.ts";
import type { FirstParentLog } from "../git/first_parent_log.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { elementExcluder, elementTerms } from "./code_element.ts";
import { codePathMatcher } from "./code_path_matcher.ts";
import type { DocDriftFacts } from "./doc_drift_facts.ts";
import { type DriftSignal, driftSignals } from "./drift_signals.ts";
import { type DriftCacheData, type DriftHistory, readDriftHistory } from "./read_drift_history.ts";

/** Bump when what the history work finds changes, so no cached answer of the old code is used. */
const _ENGINE = "drift 1";

/** What {@linkcode scanDrift} works from. */
export interface ScanDriftOptions {
  /** The project's root. */
  root: string;
  /** The config. */
  config: Config;
  /** The scan's instant. */
  now: Date;
  /**
   * Each shortlisted doc and its drift facts, iterated twice (each time anew:
   * the scan makes them from each doc's cache line as they are asked for,
   * never all at once); a `Map` will do.
   */
  docs: Iterable<readonly [path: string, facts: DocDriftFacts | undefined]>;
  /** The listing. */
  files: readonly ListedFile[];
  /**
   * Git facts: HEAD, whether shallow, the fingerprint of what shapes history
   * besides HEAD (`GitTip.history`; `undefined`: nothing is cached), each
   * path's newest first-parent commit time, and the history pass those were
   * read in (`GitAges.log`, when it read HEAD's); `undefined` outside git.
   */
  git:
    | {
      head: string | undefined;
      shallow: boolean;
      history: string | undefined;
      ages: ReadonlyMap<string, number>;
      log?: FirstParentLog;
    }
    | undefined;
  /** What a scan before kept. */
  known?: DriftCacheData;
}

/** What {@linkcode scanDrift} gives. */
export interface ScanDrift {
  /** Each doc's drift signals. */
  signals: Map<string, DriftSignal[]>;
  /** The artifact's `drift` note, when history was read. */
  note?: { commits: number; examined: number; shallow: boolean };
  /** What to keep in the scan cache (`undefined`: nothing). */
  data?: DriftCacheData;
  /** Whether `data` differs from the known data. */
  changed: boolean;
}

/**
 * The drift signals of the shortlisted docs. History is read only when
 * `stale_reference` or `code_drift` is on and HEAD has a commit; git is not
 * run at all otherwise, nor when no doc has an element or a code path.
 *
 * @example
 * ```ts
 * import { scanDrift } from "./scan_drift.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const drift = await scanDrift({
 *   root: "/nowhere",
 *   config: defaultConfig(),
 *   now: new Date("2026-02-01T00:00:00Z"),
 *   docs: new Map([["a.md", { elements: [], paths: [], review: { reviewed: "2026-01-01" } }]]),
 *   files: [],
 *   git: undefined,
 * });
 * assert.deepEqual(drift.signals.get("a.md"), [
 *   { kind: "review", reviewed: "2026-01-01", days_since: 31, interval_days: null, due: null },
 * ]);
 * ```
 */
export async function scanDrift(options: ScanDriftOptions): Promise<ScanDrift> {
  const { config, git } = options;
  const drift = config.drift;
  const isCode = codePathMatcher(config);
  const codeFiles = new Set<string>();
  for (const f of options.files) {
    if (f.tracked && f.type === "file" && isCode(f.path)) codeFiles.add(f.path);
  }
  const terms = new Set<string>();
  let pointsAtCode = false;
  const skip = elementExcluder(drift.exclude_elements);
  for (const [, facts] of options.docs) {
    if (facts === undefined) continue;
    if (drift.stale_reference) {
      for (const { element } of facts.elements) {
        if (skip(element)) continue;
        for (const term of elementTerms(element)) terms.add(term);
      }
    }
    if (facts.paths.length > 0) pointsAtCode = true;
  }
  let history: DriftHistory | undefined;
  const wantHistory = terms.size > 0 || drift.code_drift && pointsAtCode;
  if (git?.head !== undefined && wantHistory) {
    const key = JSON.stringify([
      _ENGINE,
      config.scope_globs,
      drift.exclude_code,
      git.history ?? null,
    ]);
    history = await readDriftHistory({
      root: options.root,
      head: git.head,
      key,
      isCode,
      notCode: _notCodePathspecs(config),
      terms: [...terms],
      known: git.history === undefined ? undefined : options.known,
      log: git.log,
    });
  }
  // Untracked files have no commit (even with a deleted namesake's): most files are tracked, so
  // the others are the set.
  const untracked = new Set<string>();
  for (const f of options.files) if (!f.tracked) untracked.add(f.path);
  const signals = driftSignals({
    docs: options.docs,
    config: drift,
    now: options.now,
    docSeconds: (path) => untracked.has(path) ? undefined : git?.ages.get(path),
    codeFiles,
    history,
  });
  if (history === undefined) return { signals, changed: false };
  return {
    signals,
    note: { commits: history.commits, examined: history.examined, shallow: git!.shallow },
    data: git!.history === undefined ? undefined : history.data,
    changed: history.changed,
  };
}

/**
 * Git pathspecs of paths that are docs by a `**\/*.<ext>` scope glob (as `globMatcher`'s
 * suffix test: without magic, git's `*` matches `/` too), and the state folder.
 */
function _notCodePathspecs(config: Config): string[] {
  const specs = [":(exclude).dochygiene/"];
  for (const glob of config.scope_globs) {
    const ext = /^\*\*\/\*\.([A-Za-z0-9_-]+)$/.exec(glob)?.[1];
    if (ext !== undefined) specs.push(`:(exclude)*.${ext}`);
  }
  return specs;
}

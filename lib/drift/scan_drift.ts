/**
 * The drift signals of a scan, from its facts to its signals: what counts as
 * code, the words to look for, the one bounded history read
 * ({@linkcode readDriftHistory}), then {@linkcode driftSignals}.
 *
 * @module
 */

import type { Config } from "../config/load_config.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import { contentFingerprint } from "../core/content_fingerprint.ts";
import type { FirstParentLog } from "../git/first_parent_log.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { elementExcluder, elementTerms } from "./code_element.ts";
import { codePathMatcher } from "./code_path_matcher.ts";
import { codeTargeter } from "./code_targeter.ts";
import type { DocDriftFacts } from "./doc_drift_facts.ts";
import { type DriftSignal, driftSignals, reviewSignal } from "./drift_signals.ts";
import {
  ASKS_WORDS,
  type DriftMemo,
  type DriftMemoDoc,
  parseDriftMemo,
  POINTS_AT_CODE,
} from "./drift_memo.ts";
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
   * The shortlisted docs (`keys`, in shortlist order) and each one's drift
   * facts (`get`), asked for at most twice a doc, each time anew (the scan
   * makes them from the doc's cache line; never all at once); a `Map` will do.
   */
  docs: {
    keys(): Iterable<string>;
    get(path: string): DocDriftFacts | undefined;
  };
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
  /** What a scan before kept of the history work. */
  known?: DriftCacheData;
  /**
   * The signals a scan before made (its {@linkcode DriftMemo}, unchecked),
   * whether the listing is the one they were made under, and whether a doc's
   * facts are those they were made from (its bytes unchanged).
   */
  before?: { memo: unknown; sameListing: boolean; unchanged: (path: string) => boolean };
}

/** What {@linkcode scanDrift} gives. */
export interface ScanDrift {
  /** Each doc's drift signals (arrays of their own: the caller may trim them). */
  signals: Map<string, DriftSignal[]>;
  /** The artifact's `drift` note, when history was read. */
  note?: { commits: number; examined: number; shallow: boolean };
  /** What to keep in the scan cache of the history work (`undefined`: nothing). */
  data?: DriftCacheData;
  /** Whether `data` differs from the known data. */
  changed: boolean;
  /** The signals made, for the next scan (`undefined`: not kept, as git's history cannot be cached). */
  memo?: DriftMemo;
  /** Whether `memo` differs from the one before. */
  memoChanged: boolean;
}

/**
 * The drift signals of the shortlisted docs. History is read only when
 * `stale_reference` or `code_drift` is on and HEAD has a commit; git is not
 * run at all otherwise, nor when no doc names an element or a code file. When
 * HEAD, the config and the listing are those of the scan before, an
 * unchanged doc's signals are taken from its memo (only `review`'s day counts
 * made anew), and the history is asked only about the changed docs.
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
  const { config, git, now } = options;
  const drift = config.drift;
  const isCode = codePathMatcher(config);
  const codeFiles = new Set<string>();
  // Untracked files have no commit (even with a deleted namesake's): most files are tracked, so
  // the others are the set.
  const untracked = new Set<string>();
  for (const f of options.files) {
    if (!f.tracked) untracked.add(f.path);
    else if (f.type === "file" && isCode(f.path)) codeFiles.add(f.path);
  }
  // The memo holds when everything a doc's signals rest on besides its facts is as it was.
  const memoKey = git?.history === undefined && git !== undefined
    ? undefined
    : _memoKey(config, git, untracked);
  const before = options.before;
  const memo = memoKey !== undefined && before?.sameListing
    ? parseDriftMemo(before.memo, memoKey)
    : undefined;
  const unchanged = memo === undefined ? () => false : before!.unchanged;
  // The words of HEAD's search before (a superset of the unchanged docs' words), and the new ones.
  const known = options.known;
  const terms = new Set<string>(
    memo !== undefined && git?.head !== undefined && known?.head === git.head
      ? known.grep[git.head]?.[0]
      : [],
  );
  // What the docs ask of the history: the unchanged docs' as their memo says, the others' from
  // their facts (a doc that has none and had none changes nothing).
  const fresh: string[] = [];
  const freshAsks = new Map<string, number>();
  let asks = 0;
  let lost = false;
  const skip = elementExcluder(drift.exclude_elements);
  const codeTargets = codeTargeter(codeFiles);
  let memoDoc = _inOrder(memo?.docs ?? []);
  for (const path of options.docs.keys()) {
    if (unchanged(path)) {
      asks |= memoDoc(path)?.[1] ?? 0;
      continue;
    }
    const facts = options.docs.get(path);
    if (facts === undefined) {
      lost ||= memoDoc(path) !== undefined;
      continue;
    }
    fresh.push(path);
    let doc = 0;
    if (drift.stale_reference) {
      for (const { element } of facts.elements) {
        if (skip(element)) continue;
        for (const term of elementTerms(element)) terms.add(term), doc |= ASKS_WORDS;
      }
    }
    if (drift.code_drift && codeTargets(path, facts.paths).length > 0) doc |= POINTS_AT_CODE;
    if (doc !== 0) freshAsks.set(path, doc), asks |= doc;
  }
  const wantHistory = asks !== 0;
  let history: DriftHistory | undefined;
  // Nothing changed: the history's answers and note are those the memo was made with.
  const asBefore = memo !== undefined && fresh.length === 0 && !lost;
  if (git?.head !== undefined && wantHistory && !asBefore) {
    history = await readDriftHistory({
      root: options.root,
      head: git.head,
      key: JSON.stringify([_ENGINE, config.scope_globs, drift.exclude_code, git.history ?? null]),
      isCode,
      notCode: _notCodePathspecs(config),
      terms: [...terms],
      known: git.history === undefined ? undefined : known,
      log: git.log,
    });
  }
  const made = fresh.length === 0 ? new Map<string, DriftSignal[]>() : driftSignals({
    docs: {
      *[Symbol.iterator]() {
        for (const path of fresh) yield [path, options.docs.get(path)] as const;
      },
    },
    config: drift,
    now,
    docSeconds: (path) => untracked.has(path) ? undefined : git?.ages.get(path),
    codeFiles,
    history,
  });
  // Each doc's signals in shortlist order, and the memo for the next scan.
  const signals = new Map<string, DriftSignal[]>();
  const docs: DriftMemoDoc[] = [];
  memoDoc = _inOrder(memo?.docs ?? []);
  for (const path of options.docs.keys()) {
    const kept = unchanged(path) ? memoDoc(path) : undefined;
    if (kept !== undefined) {
      if (kept[2].length > 0) {
        signals.set(
          path,
          kept[2].map((s) =>
            s.kind === "review" ? reviewSignal(s.reviewed, s.interval_days, now) : s
          ),
        );
      }
      docs.push(kept);
      continue;
    }
    const list = made.get(path);
    const doc = freshAsks.get(path) ?? 0;
    if (list !== undefined) signals.set(path, list);
    if (list !== undefined || doc !== 0) {
      docs.push([path, doc, list === undefined ? [] : [...list]]);
    }
  }
  const note = asBefore
    ? memo.note ?? undefined
    : history === undefined
    ? undefined
    : { commits: history.commits, examined: history.examined, shallow: git!.shallow };
  const next = memoKey === undefined ? undefined : { key: memoKey, note: note ?? null, docs };
  // A memo made anew differs from the one before, if any (one that did not hold is replaced).
  const memoChanged = !asBefore && (next !== undefined || (before?.memo ?? null) !== null);
  if (asBefore) {
    const data = git?.history === undefined ? undefined : known;
    return { signals, note, data, changed: false, memo: next, memoChanged };
  }
  if (history === undefined) return { signals, changed: false, memo: next, memoChanged };
  return {
    signals,
    note,
    data: git!.history === undefined ? undefined : history.data,
    changed: history.changed,
    memo: next,
    memoChanged,
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

/**
 * What every doc's drift signals rest on besides its own facts and the listing's paths: this
 * code, the config, HEAD and the history's shape, and which files are untracked (a doc's commit
 * time, the code files).
 */
function _memoKey(
  config: Config,
  git: ScanDriftOptions["git"],
  untracked: ReadonlySet<string>,
): string {
  const key = JSON.stringify([
    _ENGINE,
    config,
    git?.head ?? null,
    git?.history ?? null,
    git?.shallow ?? null,
    [...untracked],
  ]);
  return contentFingerprint(new TextEncoder().encode(key));
}

/**
 * A memo's entry by path, for paths asked in shortlist order (the listing's, by code point), as
 * the memo holds them: a merge, no map of every doc.
 */
function _inOrder(docs: readonly DriftMemoDoc[]): (path: string) => DriftMemoDoc | undefined {
  let i = 0;
  return (path) => {
    while (i < docs.length && byCodePoint(docs[i][0], path) < 0) i++;
    return i < docs.length && docs[i][0] === path ? docs[i] : undefined;
  };
}

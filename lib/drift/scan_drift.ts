/**
 * The drift signals of a scan, from its facts to its signals: what counts as
 * code, the words to look for, the one bounded history read
 * ({@linkcode readDriftHistory}), then {@linkcode driftSignals}; an unchanged
 * doc's signals as the scan before kept them ({@linkcode DriftMemo}).
 *
 * @module
 */

import type { Config } from "../config/load_config.ts";
import { anyDepthExtension } from "../config/glob_matcher.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import { contentFingerprint } from "../core/content_fingerprint.ts";
import type { FirstParentLog } from "../git/first_parent_log.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { elementExcluder, elementTerms } from "./code_element.ts";
import { codePathMatcher } from "./code_path_matcher.ts";
import { codeTargeter } from "./code_targeter.ts";
import type { DocDriftFacts } from "./doc_drift_facts.ts";
import { type DriftSignal, driftSignals, reviewSignal } from "./drift_signals.ts";
import { type DriftMemo, type DriftMemoDoc, parseDriftMemo, sameDriftMemo } from "./drift_memo.ts";
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
   * besides HEAD (`GitTip.history`; `undefined`: nothing is cached), and,
   * when the history pass is done (awaited only when needed: HEAD's code is
   * searched meanwhile), each path's newest first-parent commit time and the
   * pass itself (`GitAges.log`, when it read HEAD's); `undefined` outside git.
   */
  git:
    | {
      head: string | undefined;
      shallow: boolean;
      history: string | undefined;
      pass: Promise<{ ages: ReadonlyMap<string, number>; log?: FirstParentLog }>;
    }
    | undefined;
  /** What a scan before kept of the history work. */
  known?: DriftCacheData;
  /** Whether a shortlisted doc is not text (it has no drift facts); none is by default. */
  binary?: (path: string) => boolean;
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
 * unchanged doc's signals are those the memo keeps (only `review`'s day
 * counts made anew); with every doc unchanged, nothing else is done.
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
  const binary = options.binary ?? (() => false);
  // A doc keeps what the memo says of it when its facts are those the memo was made from, or it
  // had none then (not text) and has none now.
  const wasBinary = new Set(memo?.binary);
  const same = memo === undefined
    ? () => false
    : (path: string) => before!.unchanged(path) || (wasBinary.has(path) && binary(path));
  const kept = memo === undefined ? undefined : _kept(memo, options.docs.keys(), same);
  // Nothing changed: each doc's signals, and the history's note and answers, as the memo has them.
  if (kept?.every === true) {
    return {
      signals: _ordered(options.docs.keys(), kept.docs, new Map(), now),
      note: memo!.note ?? undefined,
      data: git?.history === undefined ? undefined : options.known,
      changed: false,
      memo,
      memoChanged: false,
    };
  }
  // The words and code files every doc asks about (one pass over their facts).
  const terms = new Set<string>();
  let pointsAtCode = false;
  const skip = elementExcluder(drift.exclude_elements);
  const codeTargets = codeTargeter(codeFiles);
  for (const path of options.docs.keys()) {
    const facts = options.docs.get(path);
    if (facts === undefined) continue;
    if (drift.stale_reference) {
      for (const { element } of facts.elements) {
        if (skip(element)) continue;
        for (const term of elementTerms(element)) terms.add(term);
      }
    }
    pointsAtCode ||= drift.code_drift && codeTargets(path, facts.paths).length > 0;
  }
  let history: DriftHistory | undefined;
  if (git?.head !== undefined && (terms.size > 0 || pointsAtCode)) {
    // Awaited only when the chain is not the known one's.
    const log = git.pass.then((pass) => pass.log);
    log.catch(() => {}); // a failed pass fails the scan where it awaits the ages
    history = await readDriftHistory({
      root: options.root,
      head: git.head,
      key: JSON.stringify([_ENGINE, config.scope_globs, drift.exclude_code, git.history ?? null]),
      isCode,
      notCode: _notCodePathspecs(config),
      terms: [...terms],
      known: git.history === undefined ? undefined : options.known,
      log,
    });
  }
  // The unchanged docs keep their signals; the others' are made.
  const ages = git === undefined ? undefined : (await git.pass).ages;
  const made = driftSignals({
    docs: {
      *[Symbol.iterator]() {
        for (const path of options.docs.keys()) {
          if (!same(path)) yield [path, options.docs.get(path)] as const;
        }
      },
    },
    config: drift,
    now,
    docSeconds: (path) => untracked.has(path) ? undefined : ages?.get(path),
    codeFiles,
    history,
  });
  const signals = _ordered(options.docs.keys(), kept?.docs ?? new Map(), made, now);
  const note = history === undefined
    ? undefined
    : { commits: history.commits, examined: history.examined, shallow: git!.shallow };
  // The memo for the next scan: each doc's signals as made (a kept doc's entry as it was), in
  // shortlist order, each list a copy (the caller may trim the ones it is given).
  let next: DriftMemo | undefined;
  if (memoKey !== undefined) {
    const docs: DriftMemoDoc[] = [];
    const binaries: string[] = [];
    for (const path of options.docs.keys()) {
      const entry = kept?.docs.get(path);
      const list = made.get(path);
      if (entry !== undefined) docs.push(entry);
      else if (list !== undefined) docs.push([path, [...list]]);
      if (binary(path)) binaries.push(path);
    }
    next = { key: memoKey, note: note ?? null, binary: binaries, docs };
  }
  // Written again only when it differs from the one before (a doc never cached, e.g. one past the
  // parse limit, has its signals made every scan: alike, they change nothing).
  const memoChanged = memo === undefined
    ? next !== undefined || (before?.memo ?? null) !== null
    : next === undefined || !sameDriftMemo(memo, next);
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
 * The memo's entries of the docs among `paths` (in shortlist order) that are the `same` as when
 * it was made, and whether every doc is.
 */
function _kept(
  memo: DriftMemo,
  paths: Iterable<string>,
  same: (path: string) => boolean,
): { docs: Map<string, DriftMemoDoc>; every: boolean } {
  const docs = new Map<string, DriftMemoDoc>();
  let every = true;
  const doc = _inOrder(memo.docs);
  for (const path of paths) {
    if (!same(path)) {
      every = false;
      continue;
    }
    const entry = doc(path);
    if (entry !== undefined) docs.set(path, entry);
  }
  return { docs, every };
}

/**
 * Each doc's signals in shortlist order (the artifact counts suppressed ones in that order): a
 * kept doc's with `review`'s day counts made anew on `now`'s date, the others' as made.
 */
function _ordered(
  paths: Iterable<string>,
  kept: ReadonlyMap<string, DriftMemoDoc>,
  made: ReadonlyMap<string, DriftSignal[]>,
  now: Date,
): Map<string, DriftSignal[]> {
  const out = new Map<string, DriftSignal[]>();
  for (const path of paths) {
    const entry = kept.get(path);
    const list = entry === undefined
      ? made.get(path)
      : entry[1].map((s) =>
        s.kind === "review" ? reviewSignal(s.reviewed, s.interval_days, now) : s
      );
    if (list !== undefined) out.set(path, list);
  }
  return out;
}

/**
 * Git pathspecs of paths that are docs by a `**\/*.<ext>` scope glob (`anyDepthExtension`: a
 * suffix test, as git's `*` without magic, which matches `/` too), and the state folder.
 */
function _notCodePathspecs(config: Config): string[] {
  const specs = [":(exclude).dochygiene/"];
  for (const glob of config.scope_globs) {
    const ext = anyDepthExtension(glob);
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

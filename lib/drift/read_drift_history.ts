/**
 * The git work behind the drift signals (docs/signals.md), a fixed number of
 * git processes per scan whatever the number of docs or elements: HEAD's
 * first-parent history (the pass the git ages made, `GitAges.log`; a
 * `git log` of its own only when that pass did not read what is needed), one
 * listing of HEAD's tree (`ls-tree`), one `diff-tree --stdin` from it to the
 * examined older trees, and their code blobs read once each (`cat-file
 * --batch`: HEAD's, then those of the older trees HEAD's did not hold), each
 * searched here once for every word wanted. What was learnt is kept in the
 * scan cache ({@linkcode DriftCacheData}).
 *
 * @module
 */

import { type FirstParentLog, readFirstParentLog } from "../git/first_parent_log.ts";
import { CodeTrees } from "./_code_trees.ts";

/** What the scan cache keeps of the history work (see {@linkcode readDriftHistory}). */
export interface DriftCacheData {
  /** What the facts depend on besides HEAD: the engine, what counts as code, the history's shape. */
  key: string;
  /** The HEAD they were read at. */
  head: string;
  /** HEAD's first-parent commits, oldest first (ends with `head`). */
  chain: string[];
  /** Their committer times, epoch seconds. */
  seconds: number[];
  /** Code path → the indexes in `chain` of the commits that changed it, ascending. */
  paths: Record<string, number[]>;
  /** Commit → the words its tree was searched for, and those it has in code. */
  grep: Record<string, [searched: string[], found: string[]]>;
}

/** Where a word was last seen (see {@linkcode DriftHistory.lastSeen}). */
export interface LastSeen {
  /** The newest examined first-parent commit whose tree has the word in code. */
  commit: string;
  /** Its committer time, epoch seconds. */
  seconds: number;
  /** The next newer examined commit, whose tree has it nowhere in code. */
  goneBy: string;
  /** Its committer time, epoch seconds. */
  goneBySeconds: number;
}

/** Options of {@linkcode readDriftHistory}. */
export interface DriftHistoryOptions {
  /** The repository's root. */
  root: string;
  /** HEAD's commit id. */
  head: string;
  /** What the facts depend on besides HEAD (see {@linkcode DriftCacheData.key}). */
  key: string;
  /** Whether a path (of any commit's tree) is code: a tracked non-doc file (docs/signals.md). */
  isCode: (path: string) => boolean;
  /**
   * Git pathspecs (`:(exclude)…`) of paths `isCode` surely rejects, left out
   * of git's diffs of older trees (most of a docs repository's changes).
   */
  notCode?: readonly string[];
  /** The words to look for (see `elementTerms`); none: no grep at all. */
  terms: readonly string[];
  /** What a scan before kept (see {@linkcode parseDriftCache}). */
  known?: DriftCacheData;
  /**
   * HEAD's first-parent history as the git ages' pass read it (`GitAges.log`:
   * whole, or the commits since a HEAD), taken instead of a `git log` of this
   * module's own wherever it covers what is needed; as a promise, awaited
   * once HEAD's search is under way.
   */
  log?: FirstParentLog | Promise<FirstParentLog | undefined>;
}

/** What {@linkcode readDriftHistory} learnt. */
export interface DriftHistory {
  /** HEAD's first-parent commits available (fewer than the project's in a shallow clone). */
  commits: number;
  /** How many older commits' trees are examined (see {@linkcode sampleIndexes}). */
  examined: number;
  /** The words HEAD's tree has in code. */
  present: ReadonlySet<string>;
  /** Each word HEAD lacks that an examined older tree has in code. */
  lastSeen: ReadonlyMap<string, LastSeen>;
  /** The committer times (epoch seconds) of the first-parent commits that changed a code path. */
  changes(path: string): number[];
  /** The data to keep in the scan cache. */
  data: DriftCacheData;
  /** Whether `data` differs from the `known` data given. */
  changed: boolean;
}

/**
 * Reads what the drift signals need from git (see the module's doc).
 *
 * @example
 * ```ts
 * import { readDriftHistory } from "./read_drift_history.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, env: { GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b",
 *     GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" } }).outputSync();
 * git("init", "-q");
 * await Deno.writeTextFile(`${root}/a.ts`, "export function oldName() {}\n");
 * git("add", "."), git("commit", "-qm", "one");
 * await Deno.writeTextFile(`${root}/a.ts`, "export function newName() {}\n");
 * git("commit", "-qam", "two");
 * const head = new TextDecoder().decode(git("rev-parse", "HEAD").stdout).trim();
 * const history = await readDriftHistory({
 *   root, head, key: "k", isCode: (p) => !p.endsWith(".md"), terms: ["oldName", "newName"],
 * });
 * assert.ok(history.present.has("newName"));
 * assert.equal(history.lastSeen.get("oldName")?.goneBy, head);
 * assert.equal(history.changes("a.ts").length, 2);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readDriftHistory(options: DriftHistoryOptions): Promise<DriftHistory> {
  const { root, head } = options;
  const known = options.known?.key === options.key ? options.known : undefined;
  const wanted = new Set(options.terms);
  const trees = new CodeTrees(root, head, wanted, options.isCode, options.notCode);
  // The HEAD grep needs only HEAD: it runs while a log of this module's own is read, if any.
  const atHead = known?.head === head ? known.grep[head] : undefined;
  const headAsk = _unasked(wanted, atHead);
  const headSearch = headAsk.length === 0
    ? Promise.resolve(new Map<string, Set<string>>())
    : trees.search(headAsk, [head]);
  headSearch.catch(() => {}); // awaited below, once the chain is known
  const data = await _chain(root, head, options.key, known, options.isCode, options.log);
  // The sampled trees never searched (all of them on a first scan) will be unless HEAD has every
  // word: their blobs are read while HEAD's are searched.
  const samples = sampleIndexes(data.chain.length);
  if (wanted.size > 0) {
    trees.prefetch(samples.map((i) => data.chain[i]).filter((c) => known?.grep[c] === undefined));
  }
  const headFound = await headSearch;
  let changed = data !== known;
  const grep: DriftCacheData["grep"] = {};
  const keep = (
    commit: string,
    asked: readonly string[],
    found: ReadonlySet<string> | undefined,
  ) => {
    const before = known?.grep[commit];
    // Nothing new asked and every word kept still wanted (a repeat scan): the answers as they were.
    if (
      before !== undefined && asked.length === 0 && before[0].every((t) => wanted.has(t)) &&
      before[1].every((t) => wanted.has(t))
    ) {
      grep[commit] = before;
      return;
    }
    const searched = new Set<string>();
    const has = new Set<string>();
    // Only the words still wanted are kept: the cache does not grow with words no doc names.
    if (before !== undefined) {
      for (const term of before[0]) if (wanted.has(term)) searched.add(term);
      for (const term of before[1]) if (wanted.has(term)) has.add(term);
      if (searched.size !== before[0].length) changed = true;
    }
    for (const term of asked) searched.add(term);
    for (const term of found ?? []) has.add(term);
    if (asked.length > 0) changed = true;
    grep[commit] = [[...searched].sort(), [...has].sort()];
  };
  keep(head, headAsk, headFound.get(head));
  const present = new Set(grep[head][1]);
  const absent = [...wanted].filter((term) => !present.has(term)).sort();
  // One grep over every sampled tree, for the words any of them was not asked for yet.
  const asks = new Set<string>();
  const commits: string[] = [];
  for (const i of samples) {
    const commit = data.chain[i];
    const missing = _unasked(new Set(absent), known?.grep[commit]);
    if (missing.length > 0) commits.push(commit);
    for (const term of missing) asks.add(term);
  }
  const found = asks.size === 0
    ? new Map<string, Set<string>>()
    : await trees.search([...asks].sort(), commits);
  for (const i of samples) {
    const commit = data.chain[i];
    keep(commit, commits.includes(commit) ? [...asks] : [], found.get(commit));
  }
  if (known !== undefined && Object.keys(known.grep).length !== Object.keys(grep).length) {
    changed = true;
  }
  // Newest examined tree first: the first that has a word is where it was last seen.
  const lastSeen = new Map<string, LastSeen>();
  let newer = data.chain.length - 1;
  for (const i of [...samples].sort((a, b) => b - a)) {
    const has = grep[data.chain[i]][1];
    for (const term of has) {
      if (present.has(term) || lastSeen.has(term)) continue;
      lastSeen.set(term, {
        commit: data.chain[i],
        seconds: data.seconds[i],
        goneBy: data.chain[newer],
        goneBySeconds: data.seconds[newer],
      });
    }
    newer = i;
  }
  // A word found after an older sample only: `goneBy` is the next newer sample (all newer lack it).
  const result = { ...data, grep };
  return {
    commits: data.chain.length,
    examined: samples.length,
    present,
    lastSeen,
    changes: (path) => (data.paths[path] ?? []).map((i) => data.seconds[i]),
    data: result,
    changed,
  };
}

/**
 * The older first-parent commits whose trees are searched, as indexes into a
 * chain of `length` commits (oldest 0, HEAD `length - 1`), newest first: for
 * each k ≥ 0 the newest commit before HEAD whose index is a multiple of 2^k
 * (dense near HEAD), and every multiple of the stride — the smallest power
 * of two that makes at most {@linkcode SPREAD} of them — down to the root
 * (spread over all history). Both stay the same from one HEAD to the next but
 * for a few, so cached answers stay of use.
 *
 * @example
 * ```ts
 * import { sampleIndexes } from "./read_drift_history.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(sampleIndexes(10), [8, 7, 6, 5, 4, 3, 2, 1, 0]);
 * assert.equal(sampleIndexes(9168).length, 24);
 * assert.deepEqual(sampleIndexes(1), []);
 * ```
 */
export function sampleIndexes(length: number): number[] {
  if (length < 2) return [];
  const out = new Set<number>();
  const top = length - 2;
  for (let step = 1;; step *= 2) {
    const index = Math.floor(top / step) * step;
    out.add(index);
    if (index === 0) break;
  }
  let stride = 1;
  while (Math.floor(top / stride) + 1 > SPREAD) stride *= 2;
  for (let index = 0; index <= top; index += stride) out.add(index);
  return [...out].sort((a, b) => b - a);
}

/** At most this many trees spread evenly over the history (besides the dense ones near HEAD). */
export const SPREAD = 24;

/**
 * The drift data a scan cache holds, checked field by field; `undefined` when
 * it is not well formed (then it is read again).
 *
 * @example
 * ```ts
 * import { parseDriftCache } from "./read_drift_history.ts";
 * import assert from "node:assert/strict";
 *
 * const data = { key: "k", head: "a".repeat(40), chain: ["a".repeat(40)], seconds: [1], paths: {}, grep: {} };
 * assert.deepEqual(parseDriftCache(data), data);
 * assert.equal(parseDriftCache({ ...data, seconds: [] }), undefined);
 * ```
 */
export function parseDriftCache(value: unknown): DriftCacheData | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const { key, head, chain, seconds, paths, grep } = v;
  if (typeof key !== "string" || typeof head !== "string") return undefined;
  if (!Array.isArray(chain) || !Array.isArray(seconds) || chain.length !== seconds.length) {
    return undefined;
  }
  if (chain.at(-1) !== head || !chain.every((c) => typeof c === "string")) return undefined;
  if (!seconds.every((s) => Number.isSafeInteger(s))) return undefined;
  if (!_isRecord(paths) || !_isRecord(grep)) return undefined;
  for (const list of Object.values(paths)) {
    if (!Array.isArray(list)) return undefined;
    if (!list.every((i) => Number.isSafeInteger(i) && i >= 0 && i < chain.length)) return undefined;
  }
  for (const pair of Object.values(grep)) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    if (!pair.every((l) => Array.isArray(l) && l.every((t) => typeof t === "string"))) {
      return undefined;
    }
  }
  return value as DriftCacheData;
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The wanted words a cached search of a tree did not ask for. */
function _unasked(wanted: ReadonlySet<string>, cached: DriftCacheData["grep"][string] | undefined) {
  if (cached === undefined) return [...wanted].sort();
  const asked = new Set(cached[0]);
  return [...wanted].filter((term) => !asked.has(term)).sort();
}

/**
 * HEAD's first-parent chain and the commits that changed each code path: the
 * known data when HEAD has not moved, else the known data plus the commits
 * since (when HEAD moved on along its first-parent line), else the whole
 * history — each from the ages' pass `shared` when it read just that, else
 * from a `git log` of its own.
 */
async function _chain(
  root: string,
  head: string,
  key: string,
  known: DriftCacheData | undefined,
  isCode: (path: string) => boolean,
  pass: FirstParentLog | Promise<FirstParentLog | undefined> | undefined,
): Promise<DriftCacheData> {
  if (known?.head === head) return known;
  const shared = await pass;
  const log = shared?.commits[0] === head ? shared : undefined;
  // A whole history read already is the known data plus the commits since, or more.
  if (known !== undefined && (log === undefined || log.since !== undefined)) {
    const since = log?.since === known.head
      ? _codeChanges(log, isCode)
      : await _log(root, known.head, head, isCode).catch(() => undefined);
    if (since !== undefined && since.commits.length > 0 && since.parent === known.head) {
      const offset = known.chain.length;
      const paths: Record<string, number[]> = {};
      for (const [path, list] of Object.entries(known.paths)) paths[path] = [...list];
      for (const [path, list] of Object.entries(since.paths)) {
        (paths[path] ??= []).push(...list.map((i) => i + offset));
      }
      return {
        key,
        head,
        chain: [...known.chain, ...since.commits],
        seconds: [...known.seconds, ...since.seconds],
        paths,
        grep: known.grep,
      };
    }
  }
  const all = log !== undefined && log.since === undefined
    ? _codeChanges(log, isCode)
    : await _log(root, undefined, head, isCode);
  return {
    key,
    head,
    chain: all.commits,
    seconds: all.seconds,
    paths: all.paths,
    grep: known?.grep ?? {},
  };
}

/** One first-parent `git log` pass of this module's own: up to `head`, from after `since`. */
async function _log(
  root: string,
  since: string | undefined,
  head: string,
  isCode: (path: string) => boolean,
) {
  return _codeChanges((await readFirstParentLog(root, { since, to: head })).log, isCode);
}

/** A pass's commits oldest first, and its code paths → the indexes of the commits that changed them. */
function _codeChanges(log: FirstParentLog, isCode: (path: string) => boolean) {
  const { starts, changed } = log;
  const count = log.commits.length;
  // Per path id: 1 code, 2 not, 0 not asked yet.
  const code = new Uint8Array(log.paths.length);
  const paths: Record<string, number[]> = {};
  for (let j = 0; j < count; j++) {
    const i = count - 1 - j; // git lists newest first
    for (let k = starts[i]; k < starts[i + 1]; k++) {
      const id = changed[k];
      if (code[id] === 0) code[id] = isCode(log.paths[id]) ? 1 : 2;
      if (code[id] === 1) (paths[log.paths[id]] ??= []).push(j);
    }
  }
  return {
    commits: log.commits.toReversed(),
    seconds: log.seconds.toReversed(),
    paths,
    parent: log.parent,
  };
}

/**
 * One doc's line of the scan cache (`scan_cache.ts`): its facts written as
 * one flat JSON array ({@linkcode encodeCacheEntry}), and read back, checked
 * field by field, into an object that makes each fact when it is asked for
 * ({@linkcode parseCacheRow}). Apart from the file's header and checksum,
 * which `ScanCache` keeps.
 *
 * @module
 */

import type { BrokenLink, FragmentRef, MissingPath } from "../links/check_doc_links.ts";
import type { DocSummary } from "./summarize_doc.ts";
import type { DocDriftFacts } from "../drift/doc_drift_facts.ts";

/**
 * One doc's line of the cache: its line count (a fact of its bytes, so that
 * an unchanged doc is not even decoded), summary and link targets, as one flat
 * JSON array, then a tab and the paths its link check probed; a listed path
 * it names is stored as its index in the listing (`indexOf`), which the cache
 * is only used under.
 *
 * @example
 * ```ts
 * import { encodeCacheEntry, parseCacheRow } from "./_cache_row.ts";
 * import assert from "node:assert/strict";
 *
 * const summary = {
 *   hygiene: undefined,
 *   appendOnly: false,
 *   status: "done",
 *   checkboxes: { done: 1, open: 0 },
 *   anchors: new Set(["a"]),
 *   linkFacts: { broken: [], fragments: [], missing: [] },
 *   suppressions: [{ line: 3, op: "next" as const, kinds: ["missing_path", "broken_link"] }],
 * };
 * const listed = ["a.md", "b.md"];
 * const indexOf = (path: string) => listed.indexOf(path);
 * const line = encodeCacheEntry(3, summary, ["b.md", "docs"], ["c.md"], indexOf);
 * const doc = parseCacheRow(line, listed);
 * const { hygiene, appendOnly, status, checkboxes, anchors, linkFacts, suppressions } = doc!
 *   .summary;
 * assert.deepEqual(
 *   { hygiene, appendOnly, status, checkboxes, anchors, linkFacts, suppressions },
 *   summary,
 * );
 * assert.deepEqual([doc?.lines, doc?.targets], [3, ["b.md", "docs"]]);
 * assert.deepEqual(doc?.probed(), ["c.md"]);
 * ```
 */
export function encodeCacheEntry(
  lines: number,
  summary: DocSummary,
  targets: readonly string[],
  probed: readonly string[],
  indexOf: (path: string) => number,
): string {
  const { hygiene, appendOnly, status, checkboxes, anchors, linkFacts } = summary;
  const malformed = summary.malformedFrontmatter;
  const ref = (path: string) => {
    const index = indexOf(path);
    return index >= 0 ? index : path;
  };
  // One flat array (see `_Row`): parsing it makes one object, not one per fact.
  const row: unknown[] = [
    lines,
    hygiene ?? null,
    appendOnly,
    status ?? null,
    checkboxes?.done ?? -1,
    checkboxes?.open ?? -1,
    malformed === undefined ? null : [malformed.line, malformed.reason, malformed.hygiene],
    anchors.size,
    ...anchors,
    linkFacts.broken.length,
  ];
  for (const b of linkFacts.broken) row.push(b.line, b.target, b.hint);
  row.push(linkFacts.fragments.length);
  for (const f of linkFacts.fragments) row.push(f.line, f.target, ref(f.path), f.fragment);
  row.push(linkFacts.missing.length);
  for (const m of linkFacts.missing) row.push(m.line, m.path);
  const suppressions = summary.suppressions ?? [];
  row.push(suppressions.length);
  for (const d of suppressions) row.push(d.line, d.op, d.kinds.join(","));
  row.push(targets.length);
  for (const target of targets) row.push(ref(target));
  // After a tab (JSON holds none): parsed only when asked for. The drift facts after another.
  // Always there (`null` for none): a line cut after the probed paths is not well formed.
  const drift = summary.drift === undefined
    ? "null"
    : JSON.stringify(_driftRow(summary.drift, ref));
  // Joined, not concatenated: one flat string (a concatenation is a tree of its parts, which
  // outlive it once it is flattened; the scan holds 100,000 of these lines).
  return [JSON.stringify(row), JSON.stringify(probed.map(ref)), drift].join("\t");
}

/**
 * A doc's line as {@linkcode encodeCacheEntry} wrote it, parsed: its cached
 * facts, its listed paths named by their index in `listed` (the paths of the
 * listing the cache was made under); `undefined` when it is not well formed
 * (then the doc is analysed again). With `keep`, the entry keeps the parsed
 * facts (a scan of few docs: ~1 KB a doc); else only its line, and makes the
 * facts again when asked (see `KEEP_FACTS_UP_TO`).
 *
 * @example
 * ```ts
 * import { parseCacheRow } from "./_cache_row.ts";
 * import assert from "node:assert/strict";
 *
 * const line = '[2,null,false,null,-1,-1,null,0,0,0,0,0,1,0]\t[]\tnull';
 * assert.deepEqual(parseCacheRow(line, ["a.md"])?.targets, ["a.md"]);
 * assert.equal(parseCacheRow(line, []), undefined); // index 0 names no listed path
 * assert.equal(parseCacheRow("[2]", ["a.md"]), undefined);
 * ```
 */
export function parseCacheRow(
  line: string,
  listed: readonly string[],
  keep = false,
): CachedDoc | undefined {
  const tab = line.indexOf("\t");
  if (tab < 0) return undefined;
  let row: unknown;
  try {
    row = JSON.parse(line.slice(0, tab));
  } catch {
    return undefined;
  }
  if (!_isRow(row, listed.length) || line.indexOf("\t", tab + 1) < 0) return undefined;
  const entry = new _CachedEntry(line, tab, row, listed, keep);
  _last = { id: entry.id, row };
  return entry;
}

/** One doc's cached facts: its line count, summary, and the paths it links to. */
export interface CachedDoc {
  /** The doc's line count. */
  lines: number;
  /** The summary, as the reading thread made it (without links). */
  summary: DocSummary;
  /** The existing paths the doc links to, once each (its inbound links elsewhere). */
  targets: string[];
  /**
   * The other paths its link check looked up (see `DocLinkFacts.probed`),
   * read when asked (only a change in the listing or on disk needs them);
   * `undefined` when they are not well formed.
   */
  probed(): string[] | undefined;
}

/**
 * A doc's line as parsed: one flat array, checked whole by {@linkcode _isRow}:
 * `lines, hygiene, appendOnly, status, done, open` (-1 each without checkboxes),
 * `malformed` (`null`, or a malformed frontmatter's `[line, reason, hygiene]`),
 * then each list as its length and its items' fields in turn: anchors (1),
 * broken links (line, target, hint), fragments (line, target, path, fragment),
 * missing paths (line, path), suppression comments (line, op, kinds joined by
 * `,`), targets (path); a listed path by its index.
 */
type _Row = readonly unknown[];

/**
 * A scan of up to this many docs keeps each doc's parsed facts from its line (~1 KB a doc, a
 * parse saved a doc); a larger one keeps only the lines and parses a doc's again when asked
 * (docs/benchmarks.md "The scanner at scale").
 */
export const KEEP_FACTS_UP_TO = 40_000;

/** Where a row's anchors start (after their count). */
const _ANCHORS = 8;

/**
 * The row parsed last, with its entry's number: the scan asks one doc's facts together, so each
 * entry keeps only its line and is parsed again when another was asked for since (a scan of
 * 100,000 docs holds their lines, not their facts as objects; docs/benchmarks.md "The scanner at
 * scale"). Not the entry itself: its line may be a slice of a whole cache file's text, which
 * would then outlive the scan.
 */
let _last: { id: number; row: _Row } | undefined;
let _entries = 0;

/**
 * A doc's cached facts: with the row kept (a scan of few docs), made from it;
 * else made from its line each time they are asked for, so that a large scan
 * holds one of these a doc, its line and the few facts every doc is asked for
 * (its line count and exclusion), nothing made of the rest.
 */
class _CachedEntry implements CachedDoc, DocSummary {
  readonly lines: number;
  readonly appendOnly: boolean;
  readonly hygiene: DocSummary["hygiene"];
  /** This entry's number among those made (see `_last`). */
  readonly id: number = ++_entries;
  #line: string;
  /** Where the row ends (the first tab). */
  #tab: number;
  #listed: readonly string[];
  /** The row, when kept (a scan of few docs); else parsed again when asked for. */
  #kept: _Row | undefined;
  /** With the row kept: the drift facts once asked for (`null` until then). */
  #keptDrift: DocDriftFacts | undefined | null = null;

  constructor(line: string, tab: number, row: _Row, listed: readonly string[], keep: boolean) {
    this.#line = line;
    this.#tab = tab;
    this.#listed = listed;
    if (keep) this.#kept = row;
    this.lines = row[0] as number;
    this.hygiene = (row[1] ?? undefined) as DocSummary["hygiene"];
    this.appendOnly = row[2] as boolean;
  }

  get summary(): DocSummary {
    return this;
  }

  /** The row, checked whole when the line was first parsed. */
  #row(): _Row {
    if (this.#kept !== undefined) return this.#kept;
    if (_last?.id !== this.id) {
      _last = { id: this.id, row: JSON.parse(this.#line.slice(0, this.#tab)) as _Row };
    }
    return _last.row;
  }

  /**
   * Drift facts that are not well formed count as none (the doc's other facts were checked
   * whole when its line was read; these are asked for only by the drift signals, after the
   * docs were read).
   */
  get drift(): DocDriftFacts | undefined {
    if (this.#keptDrift !== null) return this.#keptDrift;
    const text = this.#line.slice(this.#line.indexOf("\t", this.#tab + 1) + 1);
    const drift = text === "null" ? undefined : _parseDrift(text, this.#listed) ?? undefined;
    // Kept with the row (the drift signals ask twice: for the words to search, then per doc).
    if (this.#kept !== undefined) this.#keptDrift = drift;
    return drift;
  }

  get status(): string | undefined {
    return (this.#row()[3] ?? undefined) as string | undefined;
  }

  get malformedFrontmatter(): DocSummary["malformedFrontmatter"] {
    const m = this.#row()[6] as [number, string, boolean] | null;
    return m === null ? undefined : { line: m[0], reason: m[1], hygiene: m[2] };
  }

  get checkboxes(): DocSummary["checkboxes"] {
    const row = this.#row();
    const done = row[4] as number;
    return done < 0 ? undefined : { done, open: row[5] as number };
  }

  get anchors(): Set<string> {
    const row = this.#row();
    return new Set(row.slice(_ANCHORS, _ANCHORS + (row[_ANCHORS - 1] as number)) as string[]);
  }

  get linkFacts(): DocSummary["linkFacts"] {
    const row = this.#row();
    let i = _ANCHORS + (row[_ANCHORS - 1] as number);
    const broken: BrokenLink[] = [];
    for (let n = row[i++] as number; n > 0; n--, i += 3) {
      broken.push({
        kind: "broken_link",
        line: row[i] as number,
        target: row[i + 1] as string,
        hint: row[i + 2] as BrokenLink["hint"],
      });
    }
    const fragments: FragmentRef[] = [];
    for (let n = row[i++] as number; n > 0; n--, i += 4) {
      fragments.push({
        line: row[i] as number,
        target: row[i + 1] as string,
        path: storedPath(row[i + 2], this.#listed)!,
        fragment: row[i + 3] as string,
      });
    }
    const missing: MissingPath[] = [];
    for (let n = row[i++] as number; n > 0; n--, i += 2) {
      missing.push({ kind: "missing_path", line: row[i] as number, path: row[i + 1] as string });
    }
    return { broken, fragments, missing };
  }

  get suppressions(): DocSummary["suppressions"] {
    const row = this.#row();
    let i = _suppressionsAt(row);
    const n = row[i++] as number;
    if (n === 0) return undefined;
    const out: NonNullable<DocSummary["suppressions"]> = [];
    for (let k = 0; k < n; k++, i += 3) {
      const kinds = row[i + 2] as string;
      out.push({
        line: row[i] as number,
        op: row[i + 1] as "disable" | "enable" | "next",
        kinds: kinds === "" ? [] : kinds.split(","),
      });
    }
    return out;
  }

  get targets(): string[] {
    const row = this.#row();
    const at = row.length - (row[_targetsAt(row)] as number);
    const targets: string[] = [];
    for (let i = at; i < row.length; i++) targets.push(storedPath(row[i], this.#listed)!);
    return targets;
  }

  probed(): string[] | undefined {
    const line = this.#line;
    try {
      return _paths(
        JSON.parse(line.slice(this.#tab + 1, line.indexOf("\t", this.#tab + 1))),
        this.#listed,
      );
    } catch {
      return undefined;
    }
  }
}

/** A row's malformed-frontmatter slot when set: `[line, reason, hygiene]`. */
function _isMalformed(value: unknown): boolean {
  return Array.isArray(value) && value.length === 3 && isCount(value[0]) && value[0] >= 1 &&
    typeof value[1] === "string" && typeof value[2] === "boolean";
}

/** Where a row's suppression count stands (its lists walked by their counts). */
function _suppressionsAt(row: _Row): number {
  let i = _ANCHORS + (row[_ANCHORS - 1] as number);
  i += 1 + 3 * (row[i] as number);
  i += 1 + 4 * (row[i] as number);
  i += 1 + 2 * (row[i] as number);
  return i;
}

/** Where a row's target count stands. */
function _targetsAt(row: _Row): number {
  const i = _suppressionsAt(row);
  return i + 1 + 3 * (row[i] as number);
}

/**
 * Whether `row` is a doc's row (see {@linkcode _Row}) whose every field is
 * of its kind, naming listed paths by an index below `listed`, and nothing
 * more.
 */
function _isRow(row: unknown, listed: number): row is _Row {
  if (!Array.isArray(row) || row.length < _ANCHORS) return false;
  const [lines, hygiene, appendOnly, status, done, open, malformed] = row;
  if (
    !isCount(lines) ||
    !(hygiene === null || hygiene === "frozen" || hygiene === "append-only") ||
    typeof appendOnly !== "boolean" || !(status === null || typeof status === "string") ||
    !(done === -1 && open === -1 || isCount(done) && isCount(open)) ||
    !(malformed === null || _isMalformed(malformed))
  ) {
    return false;
  }
  // Each list as its count and its items' fields in turn (see `_Row`), checked in place.
  const n = row.length;
  let i = _ANCHORS - 1;
  let count = row[i++];
  if (!isCount(count) || i + count > n) return false;
  for (const end = i + count; i < end; i++) if (typeof row[i] !== "string") return false;
  count = row[i++]; // broken links
  if (!isCount(count) || i + 3 * count > n) return false;
  for (const end = i + 3 * count; i < end; i += 3) {
    const hint = row[i + 2];
    if (!_isLine(row[i]) || typeof row[i + 1] !== "string") return false;
    if (hint !== null && hint !== "case" && hint !== "extension") return false;
  }
  count = row[i++]; // fragments
  if (!isCount(count) || i + 4 * count > n) return false;
  for (const end = i + 4 * count; i < end; i += 4) {
    if (!_isLine(row[i]) || typeof row[i + 1] !== "string") return false;
    if (!_isRef(row[i + 2], listed) || typeof row[i + 3] !== "string") return false;
  }
  count = row[i++]; // missing paths
  if (!isCount(count) || i + 2 * count > n) return false;
  for (const end = i + 2 * count; i < end; i += 2) {
    if (!_isLine(row[i]) || typeof row[i + 1] !== "string") return false;
  }
  count = row[i++]; // suppression comments
  if (!isCount(count) || i + 3 * count > n) return false;
  for (const end = i + 3 * count; i < end; i += 3) {
    const op = row[i + 1];
    if (!_isLine(row[i]) || typeof row[i + 2] !== "string") return false;
    if (op !== "disable" && op !== "enable" && op !== "next") return false;
  }
  count = row[i++]; // targets
  if (!isCount(count) || i + count !== n) return false;
  for (; i < n; i++) if (!_isRef(row[i], listed)) return false;
  return true;
}

/** A listed path by its index below `listed`, or any other path as itself. */
function _isRef(value: unknown, listed: number): boolean {
  return typeof value === "string" || isCount(value) && value < listed;
}

/** Stored paths (see {@linkcode storedPath}); `undefined` when any is not one. */
function _paths(refs: unknown, listed: readonly string[]): string[] | undefined {
  if (!Array.isArray(refs)) return undefined;
  const paths: string[] = [];
  for (const ref of refs) {
    const path = storedPath(ref, listed);
    if (path === undefined) return undefined;
    paths.push(path);
  }
  return paths;
}

/** A stored path: a listed one by its index in `listed`, any other as itself. */
export function storedPath(ref: unknown, listed: readonly string[]): string | undefined {
  return typeof ref === "string" ? ref : isCount(ref) ? listed[ref] : undefined;
}

/** A count: a safe integer, not negative. */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A 1-based line number. */
function _isLine(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/**
 * A doc's drift facts as one array: `[line, element, …]`, the paths (a listed one by its index,
 * as the row's), `[reviewed, interval]` or `null`.
 */
function _driftRow(drift: DocDriftFacts, ref: (path: string) => string | number): unknown[] {
  const elements: unknown[] = [];
  for (const { line, element } of drift.elements) elements.push(line, element);
  const review = drift.review === undefined
    ? null
    : [drift.review.reviewed, drift.review.interval ?? null];
  return [elements, drift.paths.map(ref), review];
}

/**
 * The drift facts {@linkcode _driftRow} wrote (`undefined` for none); `null` when they are not
 * well formed.
 */
function _parseDrift(text: string, listed: readonly string[]): DocDriftFacts | undefined | null {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    return null;
  }
  if (row === null) return undefined;
  if (!Array.isArray(row) || row.length !== 3) return null;
  const [flat, paths, review] = row;
  if (!Array.isArray(flat) || flat.length % 2 !== 0) return null;
  const elements: DocDriftFacts["elements"] = [];
  for (let i = 0; i < flat.length; i += 2) {
    if (!_isLine(flat[i]) || typeof flat[i + 1] !== "string") return null;
    elements.push({ line: flat[i], element: flat[i + 1] });
  }
  const stored = _paths(paths, listed);
  if (stored === undefined) return null;
  const facts: DocDriftFacts = { elements, paths: stored };
  if (review !== null) {
    if (!Array.isArray(review) || review.length !== 2 || typeof review[0] !== "string") {
      return null;
    }
    if (review[1] !== null && !isCount(review[1])) return null;
    facts.review = review[1] === null
      ? { reviewed: review[0] }
      : { reviewed: review[0], interval: review[1] };
  }
  return facts;
}

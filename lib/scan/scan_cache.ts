/**
 * The scan cache (`.dochygiene/scan-cache.json`): what the reading threads
 * made of each doc — its summary and link facts — keyed by the doc's path and
 * bytes, with the listing and the disk answers they were made under, so that
 * a scan reads every doc but analyses and link-checks only those whose facts
 * may have changed (see `ListingChange` and {@linkcode DiskRecord}). A cache
 * of another version, or whose bytes are not those its checksum names, is
 * not used at all.
 *
 * @module
 */

import type { BrokenLink, FragmentRef, MissingPath } from "../links/check_doc_links.ts";
import { contentFingerprint } from "../core/content_fingerprint.ts";
import { type DiskAnswer, DiskRecord } from "../links/disk_record.ts";
import type { PathIndexSource } from "../links/path_index.ts";
import type { KnownAges } from "../git/read_git_ages.ts";
import type { DocSummary } from "./summarize_doc.ts";
import { VERSION } from "../core/version.ts";

/** File name of the scan cache inside the state directory. */
export const SCAN_CACHE_FILE_NAME = "scan-cache.json";

/**
 * What made the cached facts, besides the docs, the listing and the disk, and
 * how they are written: bump it whenever the analysis or the link check
 * changes what it finds, or the file's format changes, so that no cache made
 * by the old code is trusted.
 */
const _ENGINE = `dochygiene ${VERSION}, analysis 3, format 5`;

/**
 * The cache's key of a doc's bytes: their length and content fingerprint
 * (see `content_fingerprint.ts`; 64 bits of hash: an accidental collision of
 * two versions of one doc is not expected, one crafted on purpose is
 * possible).
 *
 * @example
 * ```ts
 * import { cacheKey } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cacheKey({ bytes: 4, fingerprint: "3:a:b" }), "4/3:a:b");
 * assert.equal(cacheKey({ bytes: 4 }), undefined);
 * ```
 */
export function cacheKey(read: { bytes: number; fingerprint?: string }): string | undefined {
  return read.fingerprint === undefined ? undefined : `${read.bytes}/${read.fingerprint}`;
}

/**
 * The listing as the cache compares it: every path, which are not regular
 * files, and the opaque directories, exactly.
 *
 * @example
 * ```ts
 * import { cacheListing } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const a = cacheListing({ paths: ["a.md", "b"], nonFiles: ["b"], opaque: [] });
 * assert.notEqual(a, cacheListing({ paths: ["a.md", "b"], nonFiles: [], opaque: [] }));
 * ```
 */
export function cacheListing(source: PathIndexSource): string {
  // No path holds a NUL: it separates paths, two separate the three lists.
  return `${source.paths.join("\0")}\0\0${source.nonFiles.join("\0")}\0\0${
    source.opaque.join("\0")
  }`;
}

/**
 * A listed path's index in `paths` (-1 for any other): how
 * {@linkcode encodeCacheEntry} stores listed paths. The index is made on
 * first need.
 *
 * @example
 * ```ts
 * import { listingIndex } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const indexOf = listingIndex(["a.md", "b.md"]);
 * assert.equal(indexOf("b.md"), 1);
 * assert.equal(indexOf("docs"), -1);
 * ```
 */
export function listingIndex(paths: readonly string[]): (path: string) => number {
  let indexes: Map<string, number> | undefined;
  return (path) => {
    if (indexes === undefined) {
      indexes = new Map();
      for (let i = 0; i < paths.length; i++) indexes.set(paths[i], i);
    }
    return indexes.get(path) ?? -1;
  };
}

/**
 * One doc's line of the cache: its line count (a fact of its bytes, so that
 * an unchanged doc is not even decoded), summary and link targets, as one flat
 * JSON array, then a tab and the paths its link check probed; a listed path
 * it names is stored as its index in the listing (`indexOf`), which the cache
 * is only used under.
 *
 * @example
 * ```ts
 * import { cacheListing, encodeCacheEntry, ScanCache } from "./scan_cache.ts";
 * import { DiskRecord } from "../links/disk_record.ts";
 * import assert from "node:assert/strict";
 *
 * const summary = {
 *   hygiene: undefined,
 *   appendOnly: false,
 *   status: "done",
 *   checkboxes: { done: 1, open: 0 },
 *   anchors: new Set(["a"]),
 *   linkFacts: { broken: [], fragments: [], missing: [] },
 * };
 * const source = { paths: ["a.md", "b.md"], nonFiles: [], opaque: [] };
 * const indexOf = (path: string) => source.paths.indexOf(path);
 * const line = encodeCacheEntry(3, summary, ["b.md", "docs"], ["c.md"], indexOf);
 * const bytes = ScanCache.format(cacheListing(source), new DiskRecord(), [
 *   ["a.md", "4/3:a:b", line, ""],
 * ]);
 * const cache = ScanCache.parse(bytes);
 * assert.equal(cache?.key("a.md"), "4/3:a:b");
 * const doc = cache?.doc("a.md", source.paths);
 * const { hygiene, appendOnly, status, checkboxes, anchors, linkFacts } = doc!.summary;
 * assert.deepEqual({ hygiene, appendOnly, status, checkboxes, anchors, linkFacts }, summary);
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
  row.push(targets.length);
  for (const target of targets) row.push(ref(target));
  // After a tab (JSON holds none): parsed only when asked for.
  return `${JSON.stringify(row)}\t${JSON.stringify(probed.map(ref))}`;
}

/**
 * A scan cache as read from its file: the listing and disk answers it was
 * made under, and each doc's key; a doc's entry is parsed when it is asked
 * for. It also keeps the git ages the scan had (see `KnownAges`), and the
 * blob id of each doc whose bytes were git's (so that a doc git vouches still
 * has them is not even read). The file: a checksum line (the fingerprint of
 * every byte after it), a header line (JSON: the version, listing, disk
 * answers, git ages and each doc's path, key and blob id), then each doc's
 * line, in the same order.
 *
 * @example
 * ```ts
 * import { cacheListing, ScanCache } from "./scan_cache.ts";
 * import { DiskRecord } from "../links/disk_record.ts";
 * import assert from "node:assert/strict";
 *
 * const listing = cacheListing({ paths: ["a.md"], nonFiles: [], opaque: [] });
 * const bytes = ScanCache.format(listing, new DiskRecord([["sdist", "exists"]]), []);
 * const cache = ScanCache.parse(bytes);
 * assert.deepEqual(cache?.source(), { paths: ["a.md"], nonFiles: [], opaque: [] });
 * assert.deepEqual(cache?.disk.entries(), [["sdist", "exists"]]);
 * // Not a cache of this version, or not these bytes: not used.
 * assert.equal(ScanCache.parse(new TextEncoder().encode("{}\n")), undefined);
 * bytes[bytes.length - 3] ^= 1;
 * assert.equal(ScanCache.parse(bytes), undefined);
 * ```
 */
export class ScanCache {
  /** The listing the facts were made under (see {@linkcode cacheListing}). */
  readonly listing: string;
  /** The disk's answers the facts were made under. */
  readonly disk: DiskRecord;
  #text: string;
  #source: PathIndexSource | null | undefined;
  #history: _History | null;
  #ages: KnownAges | null | undefined;
  /** Path → its index in `#keys` and `#starts`. */
  #docs: Map<string, number>;
  #keys: string[];
  #oids: string[];
  /** Where each doc's line starts in `#text`, and where the text ends (one more than docs). */
  #starts: Int32Array;

  private constructor(
    header: _Header,
    text: string,
    docs: Map<string, number>,
    starts: Int32Array,
  ) {
    this.listing = header.listing;
    this.disk = new DiskRecord(header.disk);
    this.#text = text;
    this.#docs = docs;
    this.#keys = header.keys;
    this.#oids = header.oids;
    this.#starts = starts;
    this.#history = header.history;
  }

  /**
   * The cache in `bytes`, or `undefined` when it is not one this version of
   * dochygiene made (another version, not a cache at all, or bytes changed
   * since it was written: it is then rebuilt). Only the header is parsed here;
   * a doc's line that is not well formed is found when it is asked for.
   */
  static parse(bytes: Uint8Array): ScanCache | undefined {
    const sumEnd = bytes.indexOf(0x0a);
    if (sumEnd < 0) return undefined;
    const body = bytes.subarray(sumEnd + 1);
    if (_decoder.decode(bytes.subarray(0, sumEnd)) !== contentFingerprint(body)) {
      return undefined;
    }
    const text = _decoder.decode(body);
    let end = text.indexOf("\n");
    if (end < 0) return undefined;
    let header: unknown;
    try {
      header = JSON.parse(text.slice(0, end));
    } catch {
      return undefined;
    }
    if (!_isHeader(header)) return undefined;
    const { paths } = header;
    const docs = new Map<string, number>();
    const starts = new Int32Array(paths.length + 1);
    for (let i = 0; i < paths.length; i++) {
      docs.set(paths[i], i);
      starts[i] = end + 1;
      end = text.indexOf("\n", end + 1);
      if (end < 0) return undefined;
    }
    starts[paths.length] = end + 1;
    // Every line accounted for: nothing after the last one.
    return end + 1 === text.length ? new ScanCache(header, text, docs, starts) : undefined;
  }

  /**
   * The bytes of a cache made under `listing` (see {@linkcode cacheListing})
   * and `disk`: a checksum line, a header line, then each doc's line (from
   * {@linkcode encodeCacheEntry}), given with the doc's path, key and blob id
   * ("" for none); with the git ages `known` (listed paths stored by
   * `indexOf`, as in the lines).
   */
  static format(
    listing: string,
    disk: DiskRecord,
    docs: readonly (readonly [path: string, key: string, line: string, oid: string])[],
    known?: { ages: KnownAges; indexOf: (path: string) => number },
  ): Uint8Array {
    const history: _History | null = known === undefined ? null : {
      head: known.ages.head,
      history: known.ages.history,
      ages: known.ages.ages.entries().map(([path, seconds]): [string | number, number] => {
        const index = known.indexOf(path);
        return [index >= 0 ? index : path, seconds];
      }).toArray(),
    };
    const header = JSON.stringify({
      dochygiene_scan_cache: _ENGINE,
      listing,
      // Sorted: the same facts make the same file.
      disk: disk.entries().sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
      history,
      paths: docs.map(([path]) => path),
      keys: docs.map(([, key]) => key),
      oids: docs.map(([, , , oid]) => oid),
    });
    const text = `${header}\n${docs.map(([, , line]) => `${line}\n`).join("")}`;
    // The body is encoded after room for the checksum line, which is then put just before it:
    // no copy of the whole (an ASCII body's length in bytes is its length; else it is measured).
    const room = 64;
    const size = /[\u0080-\uffff]/.test(text) ? _encoder.encode(text).length : text.length;
    const bytes = new Uint8Array(room + size);
    _encoder.encodeInto(text, bytes.subarray(room));
    const sum = _encoder.encode(`${contentFingerprint(bytes.subarray(room))}\n`);
    bytes.set(sum, room - sum.length);
    return bytes.subarray(room - sum.length);
  }

  /** How many docs have an entry. */
  get size(): number {
    return this.#keys.length;
  }

  /** The key of the bytes `path`'s entry was made from; `undefined` without one. */
  key(path: string): string | undefined {
    const i = this.#docs.get(path);
    return i === undefined ? undefined : this.#keys[i];
  }

  /**
   * `path`'s cached facts, its listed paths named by their index in `listed`
   * (the paths of the listing the cache was made under); `undefined` without
   * an entry, or with one that is not well formed.
   */
  doc(path: string, listed: readonly string[]): CachedDoc | undefined {
    const line = this.line(path);
    const tab = line?.indexOf("\t") ?? -1;
    if (tab < 0) return undefined;
    let row: unknown;
    try {
      row = JSON.parse(line!.slice(0, tab));
    } catch {
      return undefined;
    }
    return _isRow(row, listed.length)
      ? new _CachedEntry(row, line!.slice(tab + 1), listed)
      : undefined;
  }

  /**
   * The listing the facts were made under, as the reading threads had it;
   * `undefined` when the header does not hold one.
   */
  source(): PathIndexSource | undefined {
    if (this.#source === undefined) {
      const lists = this.listing.split("\0\0").map((list) => list === "" ? [] : list.split("\0"));
      this.#source = lists.length === 3 && lists.every((list) => !list.includes(""))
        ? { paths: lists[0], nonFiles: lists[1], opaque: lists[2] }
        : null;
    }
    return this.#source ?? undefined;
  }

  /** The blob id of the bytes `path`'s entry was made from, when they were git's ("" if not). */
  oid(path: string): string | undefined {
    const i = this.#docs.get(path);
    return i === undefined ? undefined : this.#oids[i];
  }

  /**
   * The git ages the cache keeps (listed paths named by their index in the
   * listing it was made under); `undefined` without them, or when one names
   * no path.
   */
  ages(): KnownAges | undefined {
    if (this.#ages === undefined) {
      this.#ages = this.#history === null ? null : _knownAges(this.#history, this.source()?.paths);
    }
    return this.#ages ?? undefined;
  }

  /** `path`'s line as stored (written again as it is when its doc is unchanged). */
  line(path: string): string | undefined {
    const i = this.#docs.get(path);
    return i === undefined ? undefined : this.#text.slice(this.#starts[i], this.#starts[i + 1] - 1);
  }
}

/** The header of a cache file. */
interface _Header {
  listing: string;
  disk: [string, DiskAnswer][];
  history: _History | null;
  paths: string[];
  keys: string[];
  oids: string[];
}

/** The git ages a cache keeps: path (a listed one by its index) → commit time, in the header. */
interface _History {
  head: string;
  history: string;
  ages: [string | number, number][];
}

function _isHeader(value: unknown): value is _Header {
  if (typeof value !== "object" || value === null) return false;
  const header = value as Record<string, unknown>;
  const { listing, disk, paths, keys, oids } = header;
  if (
    header.dochygiene_scan_cache !== _ENGINE || typeof listing !== "string" ||
    !(header.history === null || _isHistory(header.history)) ||
    !Array.isArray(disk) || !Array.isArray(paths) || !Array.isArray(keys) ||
    !Array.isArray(oids) || paths.length !== keys.length || paths.length !== oids.length
  ) {
    return false;
  }
  for (const pair of disk) {
    if (
      !Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" ||
      !/^(?:[sc]|h\d+\/)/.test(pair[0]) || !_isAnswer(pair[1])
    ) {
      return false;
    }
  }
  for (let i = 0; i < paths.length; i++) {
    if (typeof paths[i] !== "string" || typeof keys[i] !== "string") return false;
    if (typeof oids[i] !== "string") return false;
  }
  return true;
}

function _isHistory(value: unknown): value is _History {
  if (typeof value !== "object" || value === null) return false;
  const { head, history, ages } = value as Record<string, unknown>;
  if (
    typeof head !== "string" || !/^[0-9a-f]{40,64}$/.test(head) || typeof history !== "string" ||
    !Array.isArray(ages)
  ) {
    return false;
  }
  for (const pair of ages) {
    if (
      !Array.isArray(pair) || pair.length !== 2 ||
      !(typeof pair[0] === "string" || _isCount(pair[0])) || !_isCount(pair[1])
    ) {
      return false;
    }
  }
  return true;
}

function _isAnswer(value: unknown): value is DiskAnswer {
  return typeof value === "boolean" || value === "exists" || value === "opaque" ||
    value === "missing";
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
 * missing paths (line, path), targets (path); a listed path by its index.
 */
type _Row = readonly unknown[];

/** Where a row's anchors start (after their count). */
const _ANCHORS = 8;

/**
 * A doc's cached facts, made from its row when asked for: a scan holds
 * 20,000 of these, most of which are only written out again, so each is one
 * object and its row until then.
 */
class _CachedEntry implements CachedDoc, DocSummary {
  readonly lines: number;
  readonly appendOnly: boolean;
  #row: _Row;
  #probed: string;
  #listed: readonly string[];
  #anchors: Set<string> | undefined;
  #linkFacts: DocSummary["linkFacts"] | undefined;
  /** The probed paths, parsed on first need (`null` until then). */
  #paths: string[] | undefined | null = null;

  constructor(row: _Row, probed: string, listed: readonly string[]) {
    this.#row = row;
    this.#probed = probed;
    this.#listed = listed;
    this.lines = row[0] as number;
    this.appendOnly = row[2] as boolean;
  }

  get summary(): DocSummary {
    return this;
  }

  get hygiene(): DocSummary["hygiene"] {
    return (this.#row[1] ?? undefined) as DocSummary["hygiene"];
  }

  get status(): string | undefined {
    return (this.#row[3] ?? undefined) as string | undefined;
  }

  get malformedFrontmatter(): DocSummary["malformedFrontmatter"] {
    const m = this.#row[6] as [number, string, boolean] | null;
    return m === null ? undefined : { line: m[0], reason: m[1], hygiene: m[2] };
  }

  get checkboxes(): DocSummary["checkboxes"] {
    const done = this.#row[4] as number;
    return done < 0 ? undefined : { done, open: this.#row[5] as number };
  }

  get anchors(): Set<string> {
    return this.#anchors ??= new Set(
      this.#row.slice(_ANCHORS, _ANCHORS + (this.#row[_ANCHORS - 1] as number)) as string[],
    );
  }

  get linkFacts(): DocSummary["linkFacts"] {
    if (this.#linkFacts !== undefined) return this.#linkFacts;
    const row = this.#row;
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
        path: _path(row[i + 2], this.#listed)!,
        fragment: row[i + 3] as string,
      });
    }
    const missing: MissingPath[] = [];
    for (let n = row[i++] as number; n > 0; n--, i += 2) {
      missing.push({ kind: "missing_path", line: row[i] as number, path: row[i + 1] as string });
    }
    return this.#linkFacts = { broken, fragments, missing };
  }

  /** Made anew each time: only counting (once) and rare rewrites ask. */
  get targets(): string[] {
    const row = this.#row;
    const at = row.length - (row[_targetsAt(row)] as number);
    const targets: string[] = [];
    for (let i = at; i < row.length; i++) targets.push(_path(row[i], this.#listed)!);
    return targets;
  }

  probed(): string[] | undefined {
    if (this.#paths === null) {
      try {
        this.#paths = _paths(JSON.parse(this.#probed), this.#listed);
      } catch {
        this.#paths = undefined;
      }
    }
    return this.#paths;
  }
}

/** A row's malformed-frontmatter slot when set: `[line, reason, hygiene]`. */
function _isMalformed(value: unknown): boolean {
  return Array.isArray(value) && value.length === 3 && _isCount(value[0]) && value[0] >= 1 &&
    typeof value[1] === "string" && typeof value[2] === "boolean";
}

/** Where a row's target count stands (its lists walked by their counts). */
function _targetsAt(row: _Row): number {
  let i = _ANCHORS + (row[_ANCHORS - 1] as number);
  i += 1 + 3 * (row[i] as number);
  i += 1 + 4 * (row[i] as number);
  i += 1 + 2 * (row[i] as number);
  return i;
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
    !_isCount(lines) ||
    !(hygiene === null || hygiene === "frozen" || hygiene === "append-only") ||
    typeof appendOnly !== "boolean" || !(status === null || typeof status === "string") ||
    !(done === -1 && open === -1 || _isCount(done) && _isCount(open)) ||
    !(malformed === null || _isMalformed(malformed))
  ) {
    return false;
  }
  let i = _ANCHORS - 1;
  for (const fields of _LISTS) {
    const n = row[i++];
    if (!_isCount(n) || i + n * fields.length > row.length) return false;
    for (let k = 0; k < n; k++) {
      for (const field of fields) if (!_isField(field, row[i++], listed)) return false;
    }
  }
  return i === row.length;
}

/** A row's lists in turn, as the kinds of their items' fields. */
const _LISTS: readonly (readonly _Field[])[] = [
  ["string"], // anchors
  ["line", "string", "hint"], // broken links
  ["line", "string", "ref", "string"], // fragments
  ["line", "string"], // missing paths
  ["ref"], // targets
];

type _Field = "string" | "line" | "hint" | "ref";

function _isField(field: _Field, value: unknown, listed: number): boolean {
  switch (field) {
    case "string":
      return typeof value === "string";
    case "line":
      return _isLine(value);
    case "hint":
      return value === null || value === "case" || value === "extension";
    case "ref":
      return typeof value === "string" || _isCount(value) && value < listed;
  }
}

/** The ages kept, with listed paths named by their index in `listed`; `null` when one names no path. */
function _knownAges(history: _History, listed: readonly string[] | undefined): KnownAges | null {
  if (listed === undefined) return null;
  const ages = new Map<string, number>();
  for (const [ref, seconds] of history.ages) {
    const path = _path(ref, listed);
    if (path === undefined) return null;
    ages.set(path, seconds);
  }
  return { head: history.head, history: history.history, ages };
}

/** Stored paths (see {@linkcode _path}); `undefined` when any is not one. */
function _paths(refs: unknown, listed: readonly string[]): string[] | undefined {
  if (!Array.isArray(refs)) return undefined;
  const paths: string[] = [];
  for (const ref of refs) {
    const path = _path(ref, listed);
    if (path === undefined) return undefined;
    paths.push(path);
  }
  return paths;
}

/** A stored path: a listed one by its index in `listed`, any other as itself. */
function _path(ref: unknown, listed: readonly string[]): string | undefined {
  return typeof ref === "string" ? ref : _isCount(ref) ? listed[ref] : undefined;
}

/** A count: a safe integer, not negative. */
function _isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A 1-based line number. */
function _isLine(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

const _decoder = new TextDecoder();
const _encoder = new TextEncoder();

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

import { contentFingerprint } from "../core/content_fingerprint.ts";
import { type DiskAnswer, DiskRecord } from "../links/disk_record.ts";
import type { PathIndexSource } from "../links/path_index.ts";
import type { KnownAges } from "../git/read_git_ages.ts";
import { VERSION } from "../core/version.ts";
import { type CachedDoc, isCount, parseCacheRow, storedPath } from "./_cache_row.ts";
import { type DriftCacheData, parseDriftCache } from "../drift/read_drift_history.ts";
import type { DriftMemo } from "../drift/drift_memo.ts";
import { keepHeapNearLive } from "../core/keep_heap_near_live.ts";

// A doc's line is made and read in `_cache_row.ts`; the rest of the scanner imports it from here.
export { type CachedDoc, encodeCacheEntry, KEEP_FACTS_UP_TO } from "./_cache_row.ts";

/** File name of the scan cache inside the state directory. */
export const SCAN_CACHE_FILE_NAME = "scan-cache.json";

/**
 * What made the cached facts, besides the docs, the listing and the disk, and
 * how they are written: bump it whenever the analysis or the link check
 * changes what it finds, or the file's format changes, so that no cache made
 * by the old code is trusted.
 */
const _ENGINE = `dochygiene ${VERSION}, analysis 6, format 10`;

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
 * files, the opaque directories, and the docs site, exactly.
 *
 * @example
 * ```ts
 * import { cacheListing } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const a = cacheListing({ paths: ["a.md", "b"], nonFiles: ["b"], opaque: [] });
 * assert.notEqual(a, cacheListing({ paths: ["a.md", "b"], nonFiles: [], opaque: [] }));
 * const site = { root: "docs", rootLinks: true };
 * assert.notEqual(a, cacheListing({ paths: ["a.md", "b"], nonFiles: ["b"], opaque: [], site }));
 * ```
 */
export function cacheListing(source: PathIndexSource): string {
  // No path holds a NUL: it separates paths, two separate the lists (a fourth: the docs site).
  const site = source.site === undefined
    ? ""
    : `\0\0${source.site.rootLinks ? "+" : "-"}${source.site.root}`;
  return `${source.paths.join("\0")}\0\0${source.nonFiles.join("\0")}\0\0${
    source.opaque.join("\0")
  }${site}`;
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
 * A scan cache as read from its file: the listing and disk answers it was
 * made under, and each doc's key; a doc's entry is parsed when it is asked
 * for. It also keeps the git ages the scan had (see `KnownAges`), and the
 * blob id of each doc whose bytes were git's (so that a doc git vouches still
 * has them is not even read). The file: a header line (JSON: the version,
 * listing, disk answers, git ages and each doc's path, key and blob id), each
 * doc's line in the same order, then a checksum line (of every byte before it,
 * taken a piece at a time: the file is written as it is made, never held
 * whole).
 *
 * @example
 * ```ts
 * import { cacheListing, ScanCache } from "./scan_cache.ts";
 * import { DiskRecord } from "../links/disk_record.ts";
 * import assert from "node:assert/strict";
 *
 * const listing = cacheListing({ paths: ["a.md"], nonFiles: [], opaque: [] });
 * const line = "[2,null,false,null,-1,-1,null,0,0,0,0,0,1,0]\t[]\tnull"; // see encodeCacheEntry
 * const disk = new DiskRecord([["sdist", "exists"]]);
 * const pieces = ScanCache.format(listing, disk, [["a.md", "4/3:a:b", line, ""]]);
 * const bytes = Uint8Array.from(pieces.flatMap((piece) => [...piece]));
 * const cache = ScanCache.parse(bytes);
 * assert.deepEqual(cache?.source(), { paths: ["a.md"], nonFiles: [], opaque: [] });
 * assert.deepEqual(cache?.disk.entries(), [["sdist", "exists"]]);
 * assert.equal(cache?.key("a.md"), "4/3:a:b");
 * assert.deepEqual(cache?.doc("a.md", ["a.md"])?.targets, ["a.md"]);
 * // Not a cache of this version, or not these bytes: not used.
 * assert.equal(ScanCache.parse(new TextEncoder().encode("{}\n")), undefined);
 * bytes[10] ^= 1;
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
  #drift: unknown;
  #driftMemo: unknown;
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
    this.#drift = header.drift;
    this.#driftMemo = header.drift_signals;
  }

  /**
   * The cache in `bytes`, or `undefined` when it is not one this version of
   * dochygiene made (another version, not a cache at all, or bytes changed
   * since it was written: it is then rebuilt). Only the header is parsed here;
   * a doc's line that is not well formed is found when it is asked for.
   */
  static parse(bytes: Uint8Array): ScanCache | undefined {
    if (bytes.at(-1) !== 0x0a) return undefined;
    const sumStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    if (sumStart === 0) return undefined;
    const body = bytes.subarray(0, sumStart);
    if (_decoder.decode(bytes.subarray(sumStart, bytes.length - 1)) !== cacheChecksum(body)) {
      return undefined;
    }
    const headerEnd = body.indexOf(0x0a);
    let header: unknown;
    try {
      header = JSON.parse(_decoder.decode(body.subarray(0, headerEnd)));
    } catch {
      return undefined;
    }
    if (!_isHeader(header)) return undefined;
    // The docs' lines apart from the header (which is parsed and let go of: a third of the file).
    const text = _decoder.decode(body.subarray(headerEnd + 1));
    const { paths } = header;
    const docs = new Map<string, number>();
    const starts = new Int32Array(paths.length + 1);
    let end = -1;
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
   * and `disk`, in pieces as they are made: a header line, each doc's line (from
   * {@linkcode encodeCacheEntry}), given with the doc's path, key and blob id
   * ("" for none); with the git ages `known` (listed paths stored by
   * `indexOf`, as in the lines), then the checksum line.
   */
  static *format(
    listing: string,
    disk: DiskRecord,
    docs: readonly (readonly [path: string, key: string, line: string, oid: string])[],
    known?: { ages: KnownAges; indexOf: (path: string) => number },
    drift?: { history?: DriftCacheData; memo?: DriftMemo },
  ): Generator<Uint8Array> {
    const out = new _Pieces();
    // The header line, a field at a time (never the whole header as one string: at 100,000 docs
    // it is ~25 MB), then each doc's line.
    yield* out.put(`{"dochygiene_scan_cache":${JSON.stringify(_ENGINE)},"listing":`);
    yield* out.put(JSON.stringify(listing));
    // Sorted: the same facts make the same file.
    const answers = disk.entries().sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    yield* out.list(',"disk":', answers.values(), (answer) => JSON.stringify(answer));
    yield* out.put(',"history":');
    if (known === undefined) yield* out.put("null");
    else {
      const { head, history, ages } = known.ages;
      yield* out.put(`{"head":${JSON.stringify(head)},"history":${JSON.stringify(history)}`);
      yield* out.list(',"ages":', ages.entries(), ([path, seconds]) => {
        const index = known.indexOf(path);
        return `[${index >= 0 ? index : JSON.stringify(path)},${seconds}]`;
      });
      yield* out.put("}");
    }
    yield* out.put(`,"drift":${JSON.stringify(drift?.history ?? null)}`);
    const memo = drift?.memo;
    if (memo === undefined) yield* out.put(`,"drift_signals":null`);
    else {
      // A doc at a time, as the docs' lines (a memo of 100,000 docs' signals is some MB).
      const { key, note, binary, docs } = memo;
      yield* out.put(`,"drift_signals":{"key":${JSON.stringify(key)}`);
      yield* out.put(`,"note":${JSON.stringify(note)}`);
      yield* out.list(',"binary":', binary, (path) => JSON.stringify(path));
      yield* out.list(',"docs":', docs, (doc) => JSON.stringify(doc));
      yield* out.put("}");
    }
    yield* out.list(',"paths":', docs.values(), ([path]) => JSON.stringify(path));
    yield* out.list(',"keys":', docs.values(), ([, key]) => JSON.stringify(key));
    yield* out.list(',"oids":', docs.values(), ([, , , oid]) => JSON.stringify(oid));
    yield* out.put("}\n");
    for (const [, , line] of docs) yield* out.put(`${line}\n`);
    yield* out.end();
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
   * an entry, or with one that is not well formed. With `keep`, the facts are
   * kept parsed (see `parseCacheRow`).
   */
  doc(path: string, listed: readonly string[], keep = false): CachedDoc | undefined {
    const line = this.line(path);
    return line === undefined ? undefined : parseCacheRow(line, listed, keep);
  }

  /**
   * The listing the facts were made under, as the reading threads had it;
   * `undefined` when the header does not hold one.
   */
  source(): PathIndexSource | undefined {
    if (this.#source === undefined) {
      const lists = this.listing.split("\0\0").map((list) => list === "" ? [] : list.split("\0"));
      const site = lists.length === 4 && lists[3].length === 1 ? lists[3][0] : undefined;
      this.#source = (lists.length === 3 || site !== undefined) &&
          lists.every((list) => !list.includes(""))
        ? { paths: lists[0], nonFiles: lists[1], opaque: lists[2] }
        : null;
      if (this.#source && site !== undefined) {
        this.#source.site = { root: site.slice(1), rootLinks: site[0] === "+" };
      }
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

  /** What the drift signals' history work kept (see `readDriftHistory`); `undefined` without it. */
  drift(): DriftCacheData | undefined {
    return parseDriftCache(this.#drift);
  }

  /** The drift signals the scan made (a `DriftMemo`, unchecked: see `parseDriftMemo`); `null` for none. */
  driftMemo(): unknown {
    return this.#driftMemo;
  }

  /** Whether the file holds drift data at all (unchecked: no parse). */
  hasDrift(): boolean {
    return this.#drift !== undefined && this.#drift !== null;
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
  drift: unknown;
  drift_signals: unknown;
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
      !(typeof pair[0] === "string" || isCount(pair[0])) || !isCount(pair[1])
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

/** The ages kept, with listed paths named by their index in `listed`; `null` when one names no path. */
function _knownAges(history: _History, listed: readonly string[] | undefined): KnownAges | null {
  if (listed === undefined) return null;
  const ages = new Map<string, number>();
  for (const [ref, seconds] of history.ages) {
    const path = storedPath(ref, listed);
    if (path === undefined) return null;
    ages.set(path, seconds);
  }
  return { head: history.head, history: history.history, ages };
}

/** The cache file is written, and checked, in pieces of this many bytes. */
const _PIECE = 1 << 20;

/**
 * The checksum line's text for a cache's `body` (every byte before that
 * line): the fingerprint of the fingerprints of its pieces of 1 MiB, so that a
 * file written piece by piece is signed without being held whole.
 *
 * @example
 * ```ts
 * import { cacheChecksum } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const body = new TextEncoder().encode("{}\n");
 * assert.equal(cacheChecksum(body), cacheChecksum(body.slice()));
 * assert.notEqual(cacheChecksum(body), cacheChecksum(new TextEncoder().encode("{ }\n")));
 * ```
 */
export function cacheChecksum(body: Uint8Array): string {
  const sums: string[] = [];
  for (let at = 0; at < body.length; at += _PIECE) {
    sums.push(contentFingerprint(body.subarray(at, at + _PIECE)));
  }
  return _pieceSums(sums);
}

function _pieceSums(sums: readonly string[]): string {
  return contentFingerprint(_encoder.encode(sums.join(" ")));
}

/**
 * Text encoded as UTF-8 into pieces of {@linkcode _PIECE} bytes, each handed out when full,
 * then the last one and the checksum line ({@linkcode cacheChecksum}).
 */
class _Pieces {
  #piece = new Uint8Array(_PIECE);
  #at = 0;
  #sums: string[] = [];

  /** Puts `text`, handing out the pieces it fills. */
  *put(text: string): Generator<Uint8Array> {
    let from = 0;
    while (true) {
      const { read, written } = _encoder.encodeInto(
        from === 0 ? text : text.slice(from),
        this.#piece.subarray(this.#at),
      );
      this.#at += written;
      from += read;
      if (from === text.length) break;
      // The next character does not fit whole: its bytes end this piece and begin the next.
      const units = text.codePointAt(from)! > 0xffff ? 2 : 1;
      const bytes = _encoder.encode(text.slice(from, from + units));
      const fits = _PIECE - this.#at;
      this.#piece.set(bytes.subarray(0, fits), this.#at);
      this.#at = _PIECE;
      yield this.#full();
      this.#piece.set(bytes.subarray(fits));
      this.#at = bytes.length - fits;
      from += units;
      if (from === text.length) break;
    }
    if (this.#at === _PIECE) yield this.#full();
  }

  /** Puts `prefix`, then `items` made text by `show` as a JSON array, a thousand at a time. */
  *list<T>(prefix: string, items: Iterable<T>, show: (item: T) => string): Generator<Uint8Array> {
    yield* this.put(`${prefix}[`);
    let batch: string[] = [];
    let first = true;
    for (const item of items) {
      batch.push(show(item));
      if (batch.length === 1000) {
        yield* this.put(`${first ? "" : ","}${batch.join(",")}`);
        batch = [];
        first = false;
      }
    }
    yield* this.put(`${first || batch.length === 0 ? "" : ","}${batch.join(",")}]`);
  }

  /** The last piece and the checksum line. */
  *end(): Generator<Uint8Array> {
    const last = this.#piece.subarray(0, this.#at);
    if (last.length > 0) this.#sums.push(contentFingerprint(last));
    yield last;
    yield _encoder.encode(`${_pieceSums(this.#sums)}\n`);
  }

  #full(): Uint8Array {
    keepHeapNearLive();
    const piece = this.#piece;
    this.#sums.push(contentFingerprint(piece));
    this.#piece = new Uint8Array(_PIECE);
    this.#at = 0;
    return piece;
  }
}

const _decoder = new TextDecoder();
const _encoder = new TextEncoder();

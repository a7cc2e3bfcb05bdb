/**
 * The scan cache (`.dochygiene/scan-cache.json`): what the reading threads
 * made of each doc — its summary and link facts — keyed by the doc's path and
 * bytes, so that a scan reads every doc but analyses and link-checks only
 * those whose bytes changed. Its facts are trusted only while everything they
 * were made from is as it was: the same dochygiene, the same listing (every
 * path, exactly), and the disk answering every question the link check asked
 * it the same (see {@linkcode DiskRecord}). Anything else makes a cold scan.
 *
 * @module
 */

import type { BrokenLink, FragmentRef, MissingPath } from "./check_doc_links.ts";
import { type DiskAnswer, DiskRecord } from "./disk_record.ts";
import type { PathIndexSource } from "./path_index.ts";
import type { DocSummary } from "./summarize_doc.ts";
import { VERSION } from "./version.ts";

/** File name of the scan cache inside the state directory. */
export const SCAN_CACHE_FILE_NAME = "scan-cache.json";

/**
 * What made the cached facts, besides the docs, the listing and the disk:
 * bump the format whenever the analysis or the link check changes what it
 * finds, so that no cache made by the old code is trusted.
 */
const _ENGINE = `dochygiene ${VERSION}, analysis 1`;

/** One doc's cached facts: its summary, and the paths it links to (its inbound links elsewhere). */
export interface CachedDoc {
  /** The summary, as the reading thread made it (without links). */
  summary: DocSummary;
  /** The existing paths the doc links to, once each. */
  targets: string[];
}

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
 * One line of the cache: a doc's path, key, summary and link targets, as
 * JSON; a listed path it names is stored as its index in the listing
 * (`indexOf`), which the cache is only used under.
 *
 * @example
 * ```ts
 * import { encodeCacheEntry, ScanCache } from "./scan_cache.ts";
 * import { DiskRecord } from "./disk_record.ts";
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
 * const listing = ["a.md", "b.md"];
 * const indexOf = (path: string) => listing.indexOf(path);
 * const line = encodeCacheEntry("a.md", "4/3:a:b", summary, ["b.md", "docs"], indexOf);
 * const cache = ScanCache.parse(ScanCache.format("a.md\0b.md", new DiskRecord(), [line]));
 * assert.equal(cache?.key("a.md"), "4/3:a:b");
 * assert.deepEqual(cache?.doc("a.md", listing), { summary, targets: ["b.md", "docs"] });
 * ```
 */
export function encodeCacheEntry(
  path: string,
  key: string,
  summary: DocSummary,
  targets: readonly string[],
  indexOf: (path: string) => number,
): string {
  const { hygiene, appendOnly, status, checkboxes, anchors, linkFacts } = summary;
  const ref = (path: string) => {
    const index = indexOf(path);
    return index >= 0 ? index : path;
  };
  return JSON.stringify([
    path,
    key,
    hygiene ?? null,
    appendOnly,
    status ?? null,
    checkboxes === undefined ? null : [checkboxes.done, checkboxes.open],
    [...anchors],
    linkFacts.broken.map((b) => [b.line, b.target, b.hint]),
    linkFacts.fragments.map((f) => [f.line, f.target, ref(f.path), f.fragment]),
    linkFacts.missing.map((m) => [m.line, m.path]),
    targets.map(ref),
  ]);
}

/**
 * A scan cache as read from its file: the listing and disk answers it was
 * made under, and each doc's key; a doc's entry is parsed when it is asked
 * for.
 *
 * @example
 * ```ts
 * import { ScanCache } from "./scan_cache.ts";
 * import { DiskRecord } from "./disk_record.ts";
 * import assert from "node:assert/strict";
 *
 * const text = ScanCache.format("a.md", new DiskRecord([["sdist", "exists"]]), []);
 * const cache = ScanCache.parse(text);
 * assert.equal(cache?.listing, "a.md");
 * assert.deepEqual(cache?.disk.entries(), [["sdist", "exists"]]);
 * assert.equal(ScanCache.parse("{}"), undefined); // not a cache of this version: not used
 * assert.equal(ScanCache.parse("not json"), undefined);
 * ```
 */
export class ScanCache {
  /** The listing the facts were made under (see {@linkcode cacheListing}). */
  readonly listing: string;
  /** The disk's answers the facts were made under. */
  readonly disk: DiskRecord;
  /** Path → [key, line]. */
  #lines: Map<string, [string, string]>;

  private constructor(listing: string, disk: DiskRecord, lines: Map<string, [string, string]>) {
    this.listing = listing;
    this.disk = disk;
    this.#lines = lines;
  }

  /**
   * The cache in `text`, or `undefined` when it is not one this version of
   * dochygiene made (another version, or not a cache at all: it is then
   * rebuilt, never trusted in part). Only each line's path and key are read
   * here.
   */
  static parse(text: string): ScanCache | undefined {
    let end = text.indexOf("\n");
    if (end < 0) end = text.length;
    let header: unknown;
    try {
      header = JSON.parse(text.slice(0, end));
    } catch {
      return undefined;
    }
    if (!_isHeader(header)) return undefined;
    const lines = new Map<string, [string, string]>();
    for (let start = end + 1; start < text.length; start = end + 1) {
      end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end);
      const head = _pathAndKey(line);
      if (head === undefined) return undefined;
      lines.set(head[0], [head[1], line]);
    }
    return new ScanCache(header.listing, new DiskRecord(header.disk), lines);
  }

  /** The text of a cache: a header line, then `lines` (from {@linkcode encodeCacheEntry}). */
  static format(listing: string, disk: DiskRecord, lines: readonly string[]): string {
    const header = JSON.stringify({
      dochygiene_scan_cache: _ENGINE,
      listing,
      disk: disk.entries(),
    });
    return `${header}\n${lines.map((line) => `${line}\n`).join("")}`;
  }

  /** How many docs have an entry. */
  get size(): number {
    return this.#lines.size;
  }

  /** The key of the bytes `path`'s entry was made from; `undefined` without one. */
  key(path: string): string | undefined {
    return this.#lines.get(path)?.[0];
  }

  /**
   * `path`'s cached facts, the listed paths named by their index in `listing`
   * (the listing the cache was made under); `undefined` without an entry, or
   * with one that is not well formed.
   */
  doc(path: string, listing: readonly string[]): CachedDoc | undefined {
    const line = this.#lines.get(path)?.[1];
    if (line === undefined) return undefined;
    try {
      return _doc(JSON.parse(line), listing);
    } catch {
      return undefined;
    }
  }

  /** `path`'s entry as stored (written again as it is when its doc is unchanged). */
  line(path: string): string | undefined {
    return this.#lines.get(path)?.[1];
  }
}

/**
 * The path and key at the start of a line (`["path","key",`), read without
 * parsing the rest; `undefined` when the line does not start so.
 */
function _pathAndKey(line: string): [string, string] | undefined {
  if (!line.startsWith('["')) return undefined;
  let i = 2;
  let escaped = false;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22 /* " */) break;
    if (c === 0x5c /* \ */) {
      escaped = true;
      i++;
    }
  }
  if (line.charCodeAt(i + 1) !== 0x2c || line.charCodeAt(i + 2) !== 0x22) return undefined;
  const keyEnd = line.indexOf('"', i + 3);
  if (keyEnd < 0) return undefined;
  let path: unknown;
  try {
    path = escaped ? JSON.parse(line.slice(1, i + 1)) : line.slice(2, i);
  } catch {
    return undefined;
  }
  return typeof path === "string" ? [path, line.slice(i + 3, keyEnd)] : undefined;
}

function _isHeader(
  value: unknown,
): value is { listing: string; disk: [string, DiskAnswer][] } {
  if (typeof value !== "object" || value === null) return false;
  const header = value as Record<string, unknown>;
  return header.dochygiene_scan_cache === _ENGINE && typeof header.listing === "string" &&
    Array.isArray(header.disk) &&
    header.disk.every((pair) =>
      Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string" &&
      /^(?:[sc]|h\d+\/)/.test(pair[0]) && _isAnswer(pair[1])
    );
}

function _isAnswer(value: unknown): value is DiskAnswer {
  return typeof value === "boolean" || value === "exists" || value === "opaque" ||
    value === "missing";
}

/** A parsed entry, checked shape by shape; `undefined` when anything is off. */
function _doc(row: unknown, listing: readonly string[]): CachedDoc | undefined {
  if (!Array.isArray(row) || row.length !== 11) return undefined;
  const [, , hygiene, appendOnly, status, checkboxes, anchors, broken, fragments, missing, refs] =
    row;
  if (
    !(hygiene === null || hygiene === "frozen" || hygiene === "append-only") ||
    typeof appendOnly !== "boolean" || !(status === null || typeof status === "string") ||
    !(checkboxes === null || _isTuple(checkboxes, ["number", "number"])) ||
    !_isStrings(anchors) || !Array.isArray(refs) ||
    !_isTuples<[number, string, BrokenLink["hint"]]>(broken, ["number", "string", "hint"]) ||
    !_isTuples<[number, string, unknown, string]>(fragments, [
      "number",
      "string",
      "ref",
      "string",
    ]) ||
    !_isTuples<[number, string]>(missing, ["number", "string"])
  ) {
    return undefined;
  }
  const targets: string[] = [];
  for (const ref of refs) {
    const target = _path(ref, listing);
    if (target === undefined) return undefined;
    targets.push(target);
  }
  const fragmentRefs: FragmentRef[] = [];
  for (const [line, target, ref, fragment] of fragments) {
    const path = _path(ref, listing);
    if (path === undefined) return undefined;
    fragmentRefs.push({ line, target, path, fragment });
  }
  const summary: DocSummary = {
    hygiene: hygiene ?? undefined,
    appendOnly,
    status: status ?? undefined,
    checkboxes: checkboxes === null ? undefined : { done: checkboxes[0], open: checkboxes[1] },
    anchors: new Set(anchors),
    linkFacts: {
      broken: broken.map(([line, target, hint]): BrokenLink => ({
        kind: "broken_link",
        line,
        target,
        hint,
      })),
      fragments: fragmentRefs,
      missing: missing.map(([line, path]): MissingPath => ({ kind: "missing_path", line, path })),
    },
  };
  return { summary, targets };
}

/** A stored path: a listed one by its index in `listing`, any other as itself. */
function _path(ref: unknown, listing: readonly string[]): string | undefined {
  if (typeof ref === "string") return ref;
  return typeof ref === "number" && Number.isInteger(ref) ? listing[ref] : undefined;
}

type _Type = "number" | "string" | "hint" | "ref";

function _isTuple(value: unknown, types: readonly _Type[]): boolean {
  if (!Array.isArray(value) || value.length !== types.length) return false;
  for (let i = 0; i < types.length; i++) {
    const v = value[i];
    const type = types[i];
    const ok = type === "hint"
      ? v === null || v === "case" || v === "extension"
      : type === "number"
      ? typeof v === "number"
      : type === "string"
      ? typeof v === "string"
      : typeof v === "string" || typeof v === "number";
    if (!ok) return false;
  }
  return true;
}

function _isTuples<T>(value: unknown, types: readonly _Type[]): value is T[] {
  return Array.isArray(value) && value.every((v) => _isTuple(v, types));
}

function _isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

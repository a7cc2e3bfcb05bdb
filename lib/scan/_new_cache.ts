/**
 * The scan's new cache, made from what the scan read and what it took from
 * the cache before: the unchanged docs' lines as stored, the others' new ones,
 * and the disk's answers both rest on (docs/scan.md "The scan cache").
 *
 * @module
 */

import type { FileRead } from "./scan_docs.ts";
import {
  type CachedDoc,
  cacheKey,
  encodeCacheEntry,
  listingIndex,
  ScanCache,
} from "./scan_cache.ts";
import { DiskRecord } from "../links/disk_record.ts";
import type { GitAges, KnownAges } from "../git/read_git_ages.ts";
import type { DriftCacheData } from "../drift/read_drift_history.ts";
import type { DriftMemo } from "../drift/drift_memo.ts";

/** What {@linkcode newCache} works with. */
export interface NewCacheInput {
  paths: readonly string[];
  reads: ReadonlyMap<string, FileRead>;
  /** Each doc given its cached facts, with them. */
  taken: ReadonlyMap<string, CachedDoc>;
  /** The cache the docs read as `cached` took their facts from (the disk answering alike). */
  cache: ScanCache | undefined;
  /** The cache's disk questions answered otherwise now, with the new answers. */
  changed: DiskRecord | undefined;
  /** The cache was made under another listing (its lines name paths by their index in it). */
  relisted: boolean;
  /** The listing, as the cache compares it. */
  listing: string;
  /** The listed paths. */
  listed: readonly string[];
  /** The disk's answers to the link checks just made. */
  disk: DiskRecord;
  /** The git ages read (kept when complete). */
  ages: GitAges | undefined;
  /** The ages the cache read kept. */
  agesBefore: KnownAges | undefined;
  /** The drift signals' history data and signals to keep. */
  drift: { history?: DriftCacheData; memo?: DriftMemo } | undefined;
  /** Whether it differs from the cache's. */
  driftChanged: boolean;
}

/**
 * The new cache, made when called: the unchanged docs' lines as stored (made
 * again under another listing, which they name paths by their index in), the
 * others' new ones, under this listing and the disk answers of both;
 * `undefined` when it would be the cache as it was.
 */
export function newCache(c: NewCacheInput): (() => Iterable<Uint8Array>) | undefined {
  const { cache, ages } = c;
  // Ages read complete are kept for the next scan, which starts from them (see `KnownAges`).
  const known: KnownAges | undefined = ages?.head !== undefined && ages.history !== undefined
    ? { head: ages.head, history: ages.history, ages: ages.ages }
    : undefined;
  const agesKept = known?.head === c.agesBefore?.head && known?.history === c.agesBefore?.history;
  let cached = 0;
  let fresh = 0;
  for (const path of c.paths) {
    const read = c.reads.get(path);
    if (read?.kind !== "text") continue;
    // A cached doc whose blob id is new (just committed, or git vouches for it again) is kept
    // with it, as a new entry.
    if (read.cached && (read.oid ?? "") === cache?.oid(path)) cached++;
    else if (read.cached || read.cacheEntry !== undefined) fresh++;
  }
  if (
    cache !== undefined && !c.relisted && !c.changed?.size && fresh === 0 &&
    cached === cache.size && agesKept && !c.driftChanged
  ) {
    return undefined;
  }
  return () => {
    const lines: [string, string, string, string][] = [];
    // The paths the taken docs' checks probed, each doc's parsed once here.
    const probedByTaken: string[] = [];
    const listedIndex = c.relisted ? listingIndex(c.listed) : undefined;
    for (const path of c.paths) {
      const read = c.reads.get(path);
      if (read?.kind !== "text") continue;
      if (read.cached) {
        const doc = c.taken.get(path)!;
        const probed = doc.probed();
        // Not written again: its probed paths (needed to keep what its facts rest on) are lost.
        if (probed === undefined) continue;
        for (const path of probed) probedByTaken.push(path);
        const line = listedIndex === undefined
          ? cache!.line(path)!
          : encodeCacheEntry(read.lines, read.summary!, doc.targets, probed, listedIndex);
        lines.push([path, cache!.key(path)!, line, read.oid ?? ""]);
      } else if (read.cacheEntry !== undefined) {
        lines.push([path, cacheKey(read)!, read.cacheEntry, read.oid ?? ""]);
      }
    }
    // The facts taken from the cache rest on the answers to what their checks asked, as they
    // are now (the others are left behind); the new facts on the answers just recorded.
    let answers = c.disk;
    if (cache !== undefined && c.taken.size > 0) {
      answers = new DiskRecord();
      answers.add(cache.disk.about(probedByTaken));
      if (c.changed !== undefined) answers.add(c.changed.about(probedByTaken));
      answers.merge(c.disk);
    }
    const indexOf = listedIndex ?? listingIndex(c.listed);
    return ScanCache.format(
      c.listing,
      answers,
      lines,
      known && { ages: known, indexOf },
      c.drift,
    );
  };
}

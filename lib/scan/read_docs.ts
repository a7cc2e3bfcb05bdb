/**
 * The scanner's reading phase: every doc read once, synchronously, analysed
 * and (given the listing) link-checked and summarised as it is read — on this
 * thread and, for large repositories, on helper threads at the same time
 * (one to three, as the cores allow), all taking batches of paths from a
 * shared counter; each helper posts each batch's results, then its inbound
 * link counts. The stages live apart: one thread's reading (`_thread_reader.ts`,
 * what a helper loads) and the helper threads (`_read_helper.ts`); this module
 * hands out the work and puts the results back in path order.
 *
 * @module
 */

import { showUndecodable } from "../core/decode_path.ts";
import type { PathIndexSource } from "../links/path_index.ts";
import { DiskRecord } from "../links/disk_record.ts";
import type { FileRead } from "./scan_docs.ts";
import { ReadHelper, runHelper } from "./_read_helper.ts";
import { readAnalysedBatch, threadReader } from "./_thread_reader.ts";
import { parseCacheRow } from "./_cache_row.ts";
import { keepHeapNearLive } from "../core/keep_heap_near_live.ts";

// The helper threads' handle is part of this module's interface (`ReadDocsOptions.helpers`).
export { ReadHelper };

/** Options of {@linkcode readDocs}. */
export interface ReadDocsOptions {
  /**
   * Use helper threads (Web Workers) from this many docs on, one more for each
   * as many docs again, as far as {@linkcode helperThreads} allows (default
   * {@linkcode PARALLEL_FROM}); `Infinity` never does. What a helper that
   * cannot start or fails took is read on this thread.
   */
  parallelFrom?: number;
  /** Called now and then with how many docs are taken (being read or done) of how many. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Look each doc up in its directory's listing first (each thread lists a
   * directory once): one listed as a regular file is read without an `lstat`
   * (its `mtimeMs` is then `NaN`: the caller fetches it when it needs it).
   */
  skipLstat?: boolean;
  /**
   * The listing: when given, each doc's links are also checked against it as
   * the doc is read (its `linkFacts`), on the thread that read it, with paths
   * missing from the listing looked up on disk.
   */
  links?: PathIndexSource;
  /** With `links`: keep each doc's links in its summary (prune's dangling-link check). */
  keepLinks?: boolean;
  /**
   * With `links`, for the scan cache: record the disk's answers to the link
   * check (the result's `disk`) and give each summarised doc its cache entry;
   * a doc whose cache key (see `cacheKey`) is `expect[i]` (`paths[i]`'s) is
   * marked `cached` instead of analysed.
   */
  cache?: {
    /** Keep each doc's parsed facts from its line (a scan of few docs; see `parseCacheRow`). */
    keepFacts?: boolean;
    expect?: readonly string[];
    /**
     * The blob id git vouches each doc (by index) has (see `ListedFile.oid`;
     * "" for none): a doc read whole whose bytes hash to it is given it as
     * its `oid`.
     */
    oids?: readonly string[];
    /** Hash the bytes of each doc read whole against `oids` (see above); default `false`. */
    record?: boolean;
    /**
     * 1 for each doc (by index) git vouches has the bytes whose facts the
     * cache holds (its `oids` blob is the one the cache's facts were made
     * from, under the `expect`ed key): marked `cached` without being read,
     * when its directory lists it as a regular file.
     */
    vouched?: Uint8Array;
    /**
     * The disk answers the expected facts rest on: asked again by the first
     * helper when it was given them ahead ({@linkcode ReadHelper.recheck}),
     * or else by this thread once it has read its share (its directory
     * listings are then at hand); the result's `changed` holds the
     * questions it answers otherwise, and the docs marked `cached` that `keep`
     * does not keep are analysed after all, on this thread.
     */
    recheck?: DiskRecord;
    /**
     * Gives a read marked `cached` its cached facts (its summary and line
     * count), on this thread, as soon as this thread has the read (so that the
     * helpers read on meanwhile); `false` when they cannot be had, and the doc
     * is then analysed after all.
     */
    take?: (path: string, read: FileRead & { kind: "text" }) => boolean;
    /**
     * Once the recheck found questions the disk now answers otherwise
     * (`changed`, with the new answers): whether a doc that took cached facts
     * keeps them (else it is analysed after all).
     */
    keep?: (path: string, changed: DiskRecord) => boolean;
    /** Told of each doc read again in the end (a doc `take` gave cached facts may be one). */
    drop?: (path: string) => void;
  };
  /**
   * Helper threads started ahead with {@linkcode ReadHelper} (their start-up
   * then overlaps the caller's listing): used as far as the paths call for
   * helpers (more are started when they call for more), all closed in the end.
   */
  helpers?: readonly ReadHelper[];
  /** The cores helper threads are planned for (default: `navigator.hardwareConcurrency`). */
  cores?: number;
  /** Paths taken from the shared counter at once (default 64). */
  batch?: number;
  /**
   * Start this thread's reading only once each helper has returned its first
   * batch (or ended): for tests that pin what the helpers read, whatever the
   * machine's load (default `false`).
   */
  helpersFirst?: boolean;
}

/** What {@linkcode readDocs} gave. */
export interface ReadDocsResult {
  /** Path → what reading gave, in the order of the paths; unreadable docs are left out. */
  reads: Map<string, FileRead>;
  /** One line per doc that was left out for a reason worth telling, in path order. */
  warnings: string[];
  /**
   * With `links`: for each existing path, how many summarised docs that are
   * not frozen or append-only link to it (empty otherwise).
   */
  inbound: Map<string, number>;
  /**
   * How many docs each helper thread used read, in the order they were started (0 for one
   * that failed or was given up); helpers closed unused are not listed.
   */
  helperDocs: number[];
  /** With `cache`: every thread's disk answers to its link checks. */
  disk: DiskRecord;
  /** With `cache.recheck`: the questions of it the disk answers otherwise, with its answers. */
  changed?: DiskRecord;
}

/** Docs from which a helper thread pays for its start-up (about 50 ms), and for each more one. */
export const PARALLEL_FROM = 2000;

/**
 * Helper threads at most: each costs ~15 MB (its own index of the listing, on
 * 20,000 docs), and with four reading threads the scan's serial parts (the
 * listing, the pure pipeline, the artifact: ~0.4 s on 20,000 docs) are
 * already about half of it by estimate (not measured: the machine it was
 * built on has two cores).
 */
const _MAX_HELPERS = 3;

/**
 * How many helper threads {@linkcode readDocs} uses for `docs` docs: one per
 * `parallelFrom` docs, but no more than the other cores (at least one, which
 * overlaps the reads' waits even on one core) and `_MAX_HELPERS` (three).
 *
 * @example
 * ```ts
 * import { helperThreads } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(helperThreads(1999, 2000, 8), 0);
 * assert.equal(helperThreads(4000, 2000, 8), 2);
 * assert.equal(helperThreads(20000, 2000, 8), 3);
 * assert.equal(helperThreads(20000, 2000, 2), 1);
 * assert.equal(helperThreads(20000, 2000, 1), 1);
 * ```
 */
export function helperThreads(
  docs: number,
  parallelFrom: number = PARALLEL_FROM,
  cores: number = navigator.hardwareConcurrency ?? 1,
): number {
  const cap = Math.max(1, Math.min(cores - 1, _MAX_HELPERS));
  // `parallelFrom` 0 (tests): as many as allowed, from the first doc.
  return docs < parallelFrom ? 0 : Math.min(cap, Math.floor(docs / Math.max(parallelFrom, 1)));
}

/** Docs taken from the shared counter at once. */
const _BATCH = 64;

/** Milliseconds between two progress reports and turns of the event loop (see `readDocs`). */
const _TURN_MS = 100;

/**
 * Reads and analyses every doc of `paths` (root-relative) with
 * {@linkcode readAnalysedBatch}. Deterministic whatever the threads do:
 * results are put back in path order. The event loop only turns every 100 ms, and only
 * with a helper thread: a process writing to a pipe this thread reads (e.g.
 * `git log`) waits meanwhile — read such output on a thread of its own
 * (`readGitAgesThreaded`).
 *
 * @example
 * ```ts
 * import { readDocs } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n\n- [ ] x\n");
 * const { reads, warnings } = await readDocs(root, ["a.md", "gone.md"]);
 * assert.deepEqual([...reads.keys()], ["a.md"]);
 * const a = reads.get("a.md");
 * assert.ok(a?.kind === "text");
 * assert.deepEqual(a.analysis?.checkboxes, { done: 0, open: 1 });
 * assert.deepEqual(warnings, []);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readDocs(
  root: string,
  paths: readonly string[],
  options: ReadDocsOptions = {},
): Promise<ReadDocsResult> {
  const skipLstat = options.skipLstat ?? false;
  const results: (FileRead | string | undefined)[] = new Array(paths.length);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const links = options.links;
  const keepLinks = options.keepLinks ?? false;
  const batch = options.batch ?? _BATCH;
  const cache = options.cache !== undefined;
  const { expect, oids, record, vouched } = options.cache ?? {};
  const job = {
    root,
    paths,
    skipLstat,
    counter,
    batch,
    links,
    keepLinks,
    cache,
    expect,
    oids,
    record: record ?? false,
    vouched,
  };
  const wanted = helperThreads(paths.length, options.parallelFrom, options.cores);
  const started = options.helpers ?? [];
  for (const helper of started.slice(wanted)) helper.close();
  const helpers = started.slice(0, wanted);
  while (helpers.length < wanted) helpers.push(new ReadHelper());
  // One claim per helper: 0 until it takes up the job (1), or until this thread gives it up (2).
  const claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(helpers.length, 1)));
  // Cached facts are taken as soon as this thread has the reads (a doc whose facts cannot be
  // had is analysed in the end).
  const taker = options.cache?.take;
  const takeCached = (start: number, end: number) => {
    if (taker === undefined) return;
    for (let i = start; i < end; i++) {
      const read = results[i];
      if (
        typeof read === "object" && read.kind === "text" && read.cached && !taker(paths[i], read)
      ) {
        results[i] = undefined; // analysed in the end
      }
    }
  };
  const firsts = helpers.map(() => Promise.withResolvers<void>());
  const helping = helpers.map((helper, slot) => {
    const helped = runHelper(helper, { ...job, claims, slot }, results, (start, end) => {
      firsts[slot].resolve();
      takeCached(start, end);
    });
    (helped ?? Promise.resolve()).then(() => firsts[slot].resolve());
    return helped;
  });
  if (options.helpersFirst) await Promise.all(firsts.map(({ promise }) => promise));
  const { regular, summarizer, onDisk } = threadReader(job);
  const inbound = summarizer?.inbound ?? new Map<string, number>();
  let lastTurn = performance.now();
  let batches = 0;
  const take = () => Atomics.add(counter, 0, batch);
  for (let start = take(); start < paths.length; start = take()) {
    const end = Math.min(start + batch, paths.length);
    await readAnalysedBatch(root, paths, start, end, regular, summarizer, results, 0);
    takeCached(start, end);
    // A look at the heap costs a few µs: once every 8 batches.
    if (++batches % 8 === 0) keepHeapNearLive();
    if (performance.now() - lastTurn > _TURN_MS) {
      options.onProgress?.(Math.min(Atomics.load(counter, 0), paths.length), paths.length);
      // Take the helpers' results delivered so far (unpacking them is work this thread does
      // anyway), instead of all of them after the loop. Only a timer turn delivers a worker's
      // messages, and it sleeps for the timer's resolution (~2 ms): rarely, then.
      if (helpers.length > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      lastTurn = performance.now();
    }
  }
  options.onProgress?.(paths.length, paths.length);
  // Every batch is taken: a helper that has not taken up the job (still loading, or stuck) has
  // nothing to read; it is closed rather than waited for.
  for (const [slot, helper] of helpers.entries()) {
    if (Atomics.compareExchange(claims, slot, 0, 2) === 0) helper.close();
  }
  const helperDocs: number[] = [];
  const disk = summarizer?.disk ?? new DiskRecord();
  // Threads that got another answer to one question (the disk changed meanwhile) make it one
  // that is never asked alike again (see `DiskRecord.merge`).
  for (const helped of await Promise.all(helping)) {
    helperDocs.push(helped?.docs ?? 0);
    if (helped === undefined) continue;
    for (const [path, count] of helped.inbound) {
      inbound.set(path, (inbound.get(path) ?? 0) + count);
    }
    disk.merge(helped.disk);
  }
  // Asked by a helper ahead of the reading (see `ReadHelper.recheck`), or else by this thread
  // now that it has the listings of its docs' directories.
  const recheck = options.cache?.recheck;
  const changed = recheck && (await helpers[0]?.rechecked ?? recheck.differences(onDisk));
  const keep = options.cache?.keep;
  const reads = new Map<string, FileRead>();
  const warnings: string[] = [];
  // Docs read here in the end are analysed whatever the cache holds (their new facts recorded
  // and made cache entries, as any other's).
  const uncached = summarizer && { ...summarizer, expect: undefined, vouched: undefined };
  for (let i = 0; i < paths.length; i++) {
    const result = results[i];
    // A batch a helper took but never returned (it failed), a doc whose cached facts could not
    // be had, or, when the disk no longer answers as the cached facts rest on, a doc marked
    // cached: read (again) here.
    if (
      result === undefined ||
      changed !== undefined && changed.size > 0 && typeof result === "object" &&
        result.kind === "text" && result.cached && keep?.(paths[i], changed) !== true
    ) {
      options.cache?.drop?.(paths[i]);
      await readAnalysedBatch(root, paths, i, i + 1, regular, uncached, results, 0);
    }
    const read = results[i]!;
    // A doc analysed for the cache comes with its line, not its summary: the facts are made from
    // the line when asked for (a doc's line is a fraction of its summary's size).
    if (typeof read === "object" && read.kind === "text" && read.summary === undefined) {
      if (read.cacheEntry !== undefined) {
        read.summary = parseCacheRow(read.cacheEntry, links!.paths, options.cache?.keepFacts)
          ?.summary;
        // A line just made that does not read back is a defect, never facts quietly lost.
        if (read.summary === undefined) {
          throw new Error(`the scan cache line made for ${_show(paths[i])} does not read back`);
        }
      }
    }
    if (typeof read !== "string") reads.set(paths[i], read);
    else if (read !== "") warnings.push(`${_show(paths[i])}: ${read}; it was left out`);
  }
  return { reads, warnings, inbound, helperDocs, disk, changed };
}

/** A path for a one-line message: undecodable bytes shown as `\xNN`. */
function _show(path: string): string {
  return JSON.stringify(showUndecodable(path));
}

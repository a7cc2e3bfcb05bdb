/**
 * The scanner's reading phase: every doc read once, synchronously, analysed
 * and (given the listing) link-checked and summarised as it is read — on this
 * thread and, for large repositories, on helper threads at the same time
 * (one to three, as the cores allow), all taking batches of paths from a
 * shared counter; each helper posts each batch's results, then its inbound
 * link counts.
 *
 * @module
 */

import { analyzeDoc } from "../markdown/analyze_doc.ts";
import { type LinkChecker, linkChecker } from "../links/check_doc_links.ts";
import { hasUndecodableBytes, showUndecodable } from "../core/decode_path.ts";
import { type DirEntries, dirEntries } from "../fs/dir_entries.ts";
import { loadYaml, YamlNotLoadedError } from "../yaml/load_yaml.ts";
import {
  type DiskLookup,
  diskState,
  PathIndex,
  type PathIndexSource,
} from "../links/path_index.ts";
import { cachedRead, readDocSync } from "./read_doc.ts";
import { encodeCacheEntry, listingIndex } from "./scan_cache.ts";
import { summarizeDoc } from "./summarize_doc.ts";
import { type DiskAnswer, DiskRecord } from "../links/disk_record.ts";
import type { FileRead } from "./scan_docs.ts";

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

/** How a reading thread summarises each doc (see {@linkcode summarizeDoc}). */
export interface Summarizer {
  /** The thread's link checker. */
  check: LinkChecker;
  /** Keep each doc's links in its summary. */
  keepLinks: boolean;
  /** The thread's inbound link counts, added to as docs are summarised. */
  inbound: Map<string, number>;
  /** For the scan cache: the disk's answers to the thread's link checks, recorded. */
  disk?: DiskRecord;
  /** For the scan cache: the cache key of each path (by index) whose cached facts hold. */
  expect?: readonly string[];
  /** For the scan cache: the blob id git vouches each path (by index) has ("" for none). */
  oids?: readonly string[];
  /** For the scan cache: hash the bytes of each doc read whole against `oids`. */
  record?: boolean;
  /** For the scan cache: 1 for each path (by index) taken as `expect`ed without a read. */
  vouched?: Uint8Array;
  /** For the scan cache: a listed path's index in the listing (-1 for any other). */
  indexOf?: (path: string) => number;
  /** Whether a `.gitattributes` file is in the path's directory or one above it (on disk). */
  attributed: (path: string) => boolean;
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
    const helped = _runHelper(helper, { ...job, claims, slot }, results, (start, end) => {
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
  const take = () => Atomics.add(counter, 0, batch);
  for (let start = take(); start < paths.length; start = take()) {
    const end = Math.min(start + batch, paths.length);
    await readAnalysedBatch(root, paths, start, end, regular, summarizer, results, 0);
    takeCached(start, end);
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
    if (typeof read !== "string") reads.set(paths[i], read);
    else if (read !== "") warnings.push(`${_show(paths[i])}: ${read}; it was left out`);
  }
  return { reads, warnings, inbound, helperDocs, disk, changed };
}

/**
 * Reads `paths[start..end)` with {@linkcode readDocSync} into `results`, at
 * the same indexes less `offset`, and attaches each text doc's analysis or,
 * given a `summarizer`, its summary instead (links checked; the text and
 * analysis are not kept); a doc left out gets why instead ("" when
 * silently: so is a path `regular` says is beneath a symlink). The batch is read
 * first, then analysed (~10 % faster than doc by doc: the reads and the
 * analysis each keep their code and data warm). Docs
 * whose frontmatter needs the full YAML parser before it is loaded are left
 * in the first pass; the thread then loads the parser (once)
 * and analyses them.
 *
 * @example
 * ```ts
 * import { readAnalysedBatch } from "./read_docs.ts";
 * import type { FileRead } from "./scan_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n\n- [x] done\n");
 * const results: (FileRead | string | undefined)[] = [];
 * await readAnalysedBatch(root, ["a.md", "gone.md"], 0, 2, () => false, undefined, results, 0);
 * const a = results[0];
 * assert.ok(typeof a === "object" && a.kind === "text");
 * assert.deepEqual(a.analysis?.checkboxes, { done: 1, open: 0 });
 * assert.equal(results[1], "");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readAnalysedBatch(
  root: string,
  paths: readonly string[],
  start: number,
  end: number,
  regular: (path: string) => boolean | null,
  summarizer: Summarizer | undefined,
  results: (FileRead | string | undefined)[],
  offset: number,
): Promise<void> {
  const expect = summarizer?.expect;
  const oids = summarizer?.oids;
  const vouched = summarizer?.vouched;
  for (let i = start; i < end; i++) {
    const listed = regular(paths[i]);
    // Git's word on a doc under a `.gitattributes` may be of bytes that only convert to its
    // blob (line endings, filters): such a doc is read, and its bytes not taken for the blob.
    const plain = oids?.[i] && !summarizer!.attributed(paths[i]);
    // Bytes git vouches are those the cache has the facts of are not even read, and bytes the
    // cache has the facts of are not analysed: the caller takes the cached facts.
    results[i - offset] = listed === true && vouched?.[i] === 1 && plain
      ? cachedRead(expect![i], oids![i])!
      : listed === null
      ? ""
      : readDocSync(root, paths[i], {
        regularFile: listed,
        expect: expect?.[i] || undefined,
        oid: plain && summarizer!.record ? oids![i] : undefined,
      });
  }
  let waiting = false;
  for (let i = start; i < end; i++) {
    const read = results[i - offset];
    if (read !== undefined && typeof read !== "string") {
      const result = _analysed(read, paths[i], summarizer);
      results[i - offset] = result;
      if (typeof result !== "string" && _waitsForYaml(result)) waiting = true;
    }
  }
  if (!waiting) return;
  await loadYaml();
  for (let i = start; i < end; i++) {
    const read = results[i - offset];
    if (read !== undefined && typeof read !== "string" && _waitsForYaml(read)) {
      results[i - offset] = _analysed(read, paths[i], summarizer);
    }
  }
}

/**
 * Attaches the analysis, or the summary, to a read; or says why it is left out. A doc whose
 * frontmatter needs the full YAML parser before it is loaded comes back with neither.
 */
function _analysed(read: FileRead, path: string, summarizer?: Summarizer): FileRead | string {
  if (read.kind !== "text" || read.cached) return read;
  try {
    const analysis = analyzeDoc(read.text, path);
    if (summarizer === undefined) read.analysis = analysis;
    else {
      const facts = summarizer.check(path, analysis);
      read.summary = summarizeDoc(
        analysis,
        facts,
        summarizer.inbound,
        summarizer.keepLinks,
      );
      read.text = "";
      if (summarizer.indexOf !== undefined && read.fingerprint !== undefined) {
        read.cacheEntry = encodeCacheEntry(
          read.lines,
          read.summary,
          facts.targets,
          facts.probed,
          summarizer.indexOf,
        );
      }
    }
  } catch (err) {
    // Left as read (neither analysis nor summary): readDocs loads the parser and analyses it again.
    if (err instanceof YamlNotLoadedError) return read;
    return `could not be analysed (${_reason(err)})`;
  }
  return read;
}

/** A text doc left unanalysed by {@linkcode _analysed} until the full YAML parser is loaded. */
function _waitsForYaml(read: FileRead): boolean {
  return read.kind === "text" && !read.cached && read.analysis === undefined &&
    read.summary === undefined;
}

/** What one reading thread works with (see {@linkcode threadReader}). */
export interface ThreadReader {
  /**
   * Whether a path is listed as a regular file in its directory (read with
   * no lstat); `null` beneath a symlink (never read); `false` otherwise (read
   * with an lstat, which tells a doc gone from one made since the listing).
   * Always `false` without `skipLstat`.
   */
  regular: (path: string) => boolean | null;
  /** The thread's summarizer, given the listing. */
  summarizer: Summarizer | undefined;
  /** The thread's look on disk, from its cache of directory listings (nothing recorded). */
  onDisk: DiskLookup;
}

/**
 * Sets up one reading thread for a job: one cache of directory listings,
 * shared by the lstat-free reads (`skipLstat`) and, given the listing, by the
 * link checker's look on disk for unlisted targets; the index built from the
 * listing; the thread's inbound link counts.
 *
 * @example
 * ```ts
 * import { threadReader } from "./read_docs.ts";
 * import { analyzeDoc } from "../markdown/analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * await Deno.writeTextFile(`${root}/built.md`, "# Not listed, but on disk\n");
 * await Deno.symlink("a.md", `${root}/link.md`);
 * await Deno.symlink(root, `${root}/up`);
 * const links = { paths: ["a.md", "link.md"], nonFiles: ["link.md"], opaque: [] };
 * const { regular, summarizer } = threadReader({ root, skipLstat: true, links, keepLinks: false });
 * const kinds = ["a.md", "link.md", "gone.md", "up/a.md"].map(regular);
 * assert.deepEqual(kinds, [true, false, false, null]);
 * const facts = summarizer!.check("a.md", analyzeDoc("[b](built.md) [c](gone.md)\n", "a.md"));
 * assert.deepEqual(facts.targets, ["built.md"]);
 * assert.deepEqual(facts.broken.map((b) => b.target), ["gone.md"]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function threadReader(
  job:
    & Pick<HelperJob, "root" | "skipLstat" | "links" | "keepLinks">
    & Partial<Pick<HelperJob, "cache" | "expect" | "oids" | "record" | "vouched">>,
  entry: DirEntries = dirEntries(job.root),
): ThreadReader {
  const disk = job.cache ? new DiskRecord() : undefined;
  const onDisk = diskState(entry);
  const links = job.links;
  let check: LinkChecker | undefined;
  return {
    // Unknown (a directory on the way cannot be read), or a name no listing can hold (not
    // UTF-8): the read itself says why.
    regular: job.skipLstat
      ? (path) => {
        const kind = entry(path);
        if (kind === "file") return true;
        // Beneath a symlink: never read. Missing from a listing (maybe taken before the doc was
        // made, as a helper's rechecking can be): its lstat tells.
        return kind === "linked" && !hasUndecodableBytes(path) ? null : false;
      }
      : () => false,
    summarizer: links
      ? {
        // Made on first need: a thread whose docs all come from the scan cache checks no link.
        check: (path, doc) => {
          check ??= linkChecker(new PathIndex(links, disk?.watch(onDisk) ?? onDisk));
          return check(path, doc);
        },
        keepLinks: job.keepLinks,
        inbound: new Map(),
        disk,
        expect: job.expect,
        oids: job.oids,
        record: job.record,
        vouched: job.vouched,
        indexOf: disk === undefined ? undefined : listingIndex(links.paths),
        attributed: _attributed(entry),
      }
      : undefined,
    onDisk,
  };
}

/**
 * Whether a path has a `.gitattributes` file in its directory or one above it, by `entry`'s
 * directory listings (each directory's answer kept).
 */
function _attributed(entry: DirEntries): (path: string) => boolean {
  const known = new Map<string, boolean>();
  const inDir = (dir: string): boolean => {
    let found = known.get(dir);
    if (found === undefined) {
      const slash = dir.lastIndexOf("/");
      found = entry(dir === "" ? ".gitattributes" : `${dir}/.gitattributes`) !== "missing" ||
        dir !== "" && inDir(slash < 0 ? "" : dir.slice(0, slash));
      known.set(dir, found);
    }
    return found;
  };
  return (path) => {
    const slash = path.lastIndexOf("/");
    return inDir(slash < 0 ? "" : path.slice(0, slash));
  };
}

/**
 * A message from a helper: loaded, one batch's results, the end with its inbound link counts,
 * or its failure (after the results of every batch it finished).
 */
export type HelperMessage =
  | { ready: true }
  | { changed: [string, DiskAnswer][] | null }
  | {
    start: number;
    results: (FileRead | string | typeof CACHED_AS_EXPECTED | typeof CACHED_WITH_OID)[];
  }
  | { done: true; inbound: Map<string, number>; disk: [string, DiskAnswer][] }
  | { failed: string };

/**
 * A helper's result for a doc read with no `lstat` whose bytes have the key
 * `expect`ed: posted as this number, not as its read (see `cachedRead`), so
 * that nearly nothing is copied between the threads for an unchanged doc.
 */
export const CACHED_AS_EXPECTED = 0;

/** Like {@linkcode CACHED_AS_EXPECTED}, for a read whose `oid` is the job's for its doc. */
export const CACHED_WITH_OID = 1;

/** What each helper is started with. */
export interface HelperJob {
  /** Absolute project root. */
  root: string;
  /** Root-relative paths. */
  paths: readonly string[];
  /** Look docs up in their directory's listing to skip their `lstat`. */
  skipLstat: boolean;
  /** The shared counter: the index of the next batch to take. */
  counter: Int32Array;
  /** Paths per batch. */
  batch: number;
  /** The listing, when links are checked as docs are read. */
  links: PathIndexSource | undefined;
  /** Keep each doc's links in its summary. */
  keepLinks: boolean;
  /** For the scan cache: record disk answers, make cache entries. */
  cache: boolean;
  /** For the scan cache: the cache key of each path (by index) whose cached facts hold. */
  expect: readonly string[] | undefined;
  /** For the scan cache: the blob id git vouches each path (by index) has ("" for none). */
  oids: readonly string[] | undefined;
  /** For the scan cache: hash the bytes of each doc read whole against `oids`. */
  record: boolean;
  /** For the scan cache: 1 for each path (by index) taken as `expect`ed without a read. */
  vouched: Uint8Array | undefined;
  /** Each helper's claim on the job: 0 not yet, 1 taken up by the helper, 2 given up by `readDocs`. */
  claims: Int32Array;
  /** This helper's index into `claims`. */
  slot: number;
}

/**
 * A helper thread for {@linkcode readDocs} (a Web Worker loading the reader
 * and analyser). Starting one before the listing is done overlaps its
 * start-up (~50 ms) with the listing; `readDocs` takes it over.
 *
 * @example
 * ```ts
 * import { ReadHelper, readDocs } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const helper = new ReadHelper(); // starts loading now
 * const { reads } = await readDocs(root, ["a.md"], { helpers: [helper], parallelFrom: 0 });
 * assert.equal(reads.size, 1);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class ReadHelper {
  #worker: Worker | undefined;
  #onClosed: () => void = () => {};
  /**
   * Settles `true` once the thread has loaded, `false` when it cannot (or never, when it is
   * closed first).
   */
  readonly ready: Promise<boolean>;
  /** Settles when the helper is closed, by anyone (`readDocs` then stops waiting for it). */
  readonly closed: Promise<void>;
  /** Settles with what {@linkcode ReadHelper.recheck} found (`undefined` when it could not ask). */
  rechecked: Promise<DiskRecord | undefined> | undefined;
  #onRechecked: (changed: DiskRecord | undefined) => void = () => {};
  #listener: ((message: _JobMessage) => void) | undefined;

  /** Starts the thread; where Workers are unavailable, the helper does nothing. */
  constructor() {
    let loaded: (value: boolean) => void = () => {};
    this.ready = new Promise((resolve) => loaded = resolve);
    this.closed = new Promise((resolve) => this.#onClosed = resolve);
    try {
      this.#worker = new Worker(new URL("./read_docs_worker.ts", import.meta.url), {
        type: "module",
      });
      this.#worker.onmessage = (event: MessageEvent<HelperMessage>) => {
        const message = event.data;
        if ("ready" in message) loaded(message.ready === true);
        else if ("changed" in message) {
          this.#onRechecked(message.changed === null ? undefined : new DiskRecord(message.changed));
        } else this.#listener?.(message);
      };
      // A thread that cannot load is closed: readDocs then reads everything on its own thread.
      this.#worker.onerror = (event) => {
        event.preventDefault();
        this.close();
        loaded(false);
      };
    } catch {
      this.#worker = undefined; // no workers here: the caller's thread reads everything
      loaded(false);
    }
  }

  /** The thread, until closed. */
  get worker(): Worker | undefined {
    return this.#worker;
  }

  /**
   * Has the thread ask the disk `questions` again (the scan cache's, see
   * `DiskRecord`), before it is given docs to read (e.g. while the caller
   * waits for the listing), from the directory listings it then reads its
   * docs with; `rechecked` settles with the questions answered otherwise.
   */
  recheck(root: string, questions: DiskRecord): void {
    this.rechecked = new Promise((resolve) => this.#onRechecked = resolve);
    if (this.#worker === undefined) this.#onRechecked(undefined);
    else this.#worker.postMessage({ recheck: questions.entries(), root });
  }

  /** Hands each message of the job to `listener` (one job at a time). */
  listen(listener: (message: _JobMessage) => void): void {
    this.#listener = listener;
  }

  /** Stops the thread (idempotent). */
  close(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#onClosed();
    this.#onRechecked(undefined);
  }
}

/** A helper's message about the job it was given (the others go to `ReadHelper` itself). */
type _JobMessage = Exclude<HelperMessage, { ready: true } | { changed: unknown }>;

/** What a helper thread that finished gave: its inbound link counts, disk answers and how many docs it read. */
interface _Helped {
  inbound: Map<string, number>;
  disk: [string, DiskAnswer][];
  docs: number;
}

/**
 * Runs one helper thread on the shared counter, telling `onResults` of each
 * batch of results it gives. Resolves with its inbound link counts and how
 * many docs it read when it has returned every batch it took; when it fails (to
 * start, or midway), is closed by anyone or is given up, with `undefined` after
 * clearing every result it gave, so that this thread reads and counts them all
 * again. Never rejects; closes the helper.
 */
function _runHelper(
  helper: ReadHelper,
  job: HelperJob,
  results: (FileRead | string | undefined)[],
  onResults: (start: number, end: number) => void,
): Promise<_Helped | undefined> | undefined {
  const worker = helper.worker;
  if (worker === undefined) return undefined;
  const given: number[] = [];
  let docs = 0;
  let settled = false;
  return new Promise((resolve) => {
    const finish = (done?: { inbound: Map<string, number>; disk: [string, DiskAnswer][] }) => {
      if (settled) return; // a late error after the end changes nothing
      settled = true;
      helper.close();
      if (done === undefined) {
        for (const start of given) results.fill(undefined, start, start + job.batch);
      }
      resolve(done === undefined ? undefined : { ...done, docs });
    };
    helper.listen((message) => {
      if (settled) return;
      if ("failed" in message) return finish();
      if ("done" in message) return finish(message);
      message.results.forEach((result, k) => {
        const i = message.start + k;
        results[i] = result === CACHED_AS_EXPECTED
          ? cachedRead(job.expect![i])
          : result === CACHED_WITH_OID
          ? cachedRead(job.expect![i], job.oids![i])
          : result;
      });
      given.push(message.start);
      docs += message.results.length;
      onResults(message.start, message.start + message.results.length);
    });
    // A helper that cannot load or throws is not fatal: its share is read here.
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
    };
    worker.onmessageerror = () => finish();
    // Closed from outside (or given up): no event would ever come.
    helper.closed.then(() => finish());
    worker.postMessage(job);
  });
}

/** A path for a one-line message: undecodable bytes shown as `\xNN`. */
function _show(path: string): string {
  return JSON.stringify(showUndecodable(path));
}

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

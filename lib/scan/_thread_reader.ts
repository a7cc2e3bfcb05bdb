/**
 * One reading thread of `readDocs` (`read_docs.ts`), the same on the caller's thread and on each
 * helper (`read_docs_worker.ts`): its directory listings, link checker and inbound counts
 * ({@linkcode threadReader}), and the reading and analysis of one batch of paths
 * ({@linkcode readAnalysedBatch}). Apart from the helper machinery so that a helper loads only
 * what it reads with.
 *
 * @module
 */

import { analyzeDoc } from "../markdown/analyze_doc.ts";
import { type LinkChecker, linkChecker } from "../links/check_doc_links.ts";
import { hasUndecodableBytes } from "../core/decode_path.ts";
import { type DirEntries, dirEntries } from "../fs/dir_entries.ts";
import { loadYaml, YamlNotLoadedError } from "../yaml/load_yaml.ts";
import { type DiskLookup, diskState, PathIndex } from "../links/path_index.ts";
import { DiskRecord } from "../links/disk_record.ts";
import { cachedRead, readDocSync } from "./read_doc.ts";
import { encodeCacheEntry, listingIndex } from "./scan_cache.ts";
import { summarizeDoc } from "./summarize_doc.ts";
import type { FileRead } from "./scan_docs.ts";
import type { HelperJob } from "./_read_helper.ts";

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
 * import { readAnalysedBatch } from "./_thread_reader.ts";
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
        // The line holds the facts: the summary is not handed over, and the scan keeps only the
        // line (the facts made from it when asked; see `parseCacheRow`). Not its links, which a
        // caller that keeps them takes from the summary.
        if (!summarizer.keepLinks) read.summary = undefined;
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
    read.summary === undefined && read.cacheEntry === undefined;
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
 * import { threadReader } from "./_thread_reader.ts";
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

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

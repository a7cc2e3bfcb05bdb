/**
 * The scanner's I/O edge: lists, reads and asks git, then hands the facts to
 * the pure {@linkcode scanDocs}.
 *
 * @module
 */

import { detectSite } from "../site/detect_site.ts";
import { join } from "node:path";
import { analyzeDoc } from "../markdown/analyze_doc.ts";
import type { DocLink } from "../markdown/extract_links.ts";
import { type Clock, LAST_ISO_MS } from "../core/clock.ts";
import { type CandidateListing, listCandidates, type ListedFile } from "../git/list_candidates.ts";
import { type GitFacts, readGitFacts } from "../git/read_git_facts.ts";
import type { Config } from "../config/load_config.ts";
import { loadIgnore } from "../config/load_ignore.ts";
import type { GitAges, GitTip } from "../git/read_git_ages.ts";
import { PARALLEL_FROM, readDocs, ReadHelper } from "./read_docs.ts";
import { MAX_PARSE_BYTES } from "./read_doc.ts";
import { type DiskLookup, diskState, pathIndexSource } from "../links/path_index.ts";
import { type CachedDoc, cacheListing, KEEP_FACTS_UP_TO, ScanCache } from "./scan_cache.ts";
import { ListingChange } from "../links/listing_change.ts";
import { contentExclusion } from "./summarize_doc.ts";
import { type FileRead, type ScanArtifact, scanDocs, selectReads } from "./scan_docs.ts";
import { contentIdentity } from "../core/content_fingerprint.ts";
import { dirEntries } from "../fs/dir_entries.ts";
import { loadGlobEngine, needsGlobEngine } from "../config/glob_matcher.ts";
import { pathExists } from "../fs/path_exists.ts";
import { scanDrift } from "../drift/scan_drift.ts";
import { suppressSignals } from "./suppress_signals.ts";
import { keepHeapNearLive } from "../core/keep_heap_near_live.ts";
import { newCache } from "./_new_cache.ts";

/** Options of {@linkcode scanRepository}. */
export interface ScanRepositoryOptions {
  /** Absolute project root. */
  root: string;
  /** The config. */
  config: Config;
  /** The clock (the scan's `generated_at` and ages). */
  clock: Clock;
  /** Called now and then while reading, with how many docs are taken (being read or done) of how many. */
  onProgress?: (done: number, total: number) => void;
  /**
   * git facts already being read for this root (one `git ls-files` and one
   * history pass shared by several readers, e.g. prune's scan and its units);
   * read here when absent.
   */
  gitFacts?: GitFacts;
  /**
   * Also hand back the links of every shortlisted doc, from the analysis made
   * while reading (prune's dangling-link check), so nobody reads the docs twice.
   */
  keepLinks?: boolean;
  /**
   * The scan cache file (see `scan_cache.ts`): read (when it is a regular
   * file), its facts taken for docs they still hold for (same bytes; nothing
   * in the listing or on disk their link check looked at changed), and the
   * new cache handed back as `cachePieces`. Not with `keepLinks` (the cache
   * keeps no links).
   */
  cacheFile?: string;
  /**
   * With `cacheFile`: takes the new cache (its bytes in pieces, made as they are asked for;
   * not called when it would not change) as soon as the signals are made, so that the caller
   * writes it before the artifact is serialised; `cachePieces` is then not handed back.
   */
  onCache?: (pieces: () => Iterable<Uint8Array>) => Promise<void>;
}

/** The artifact and the problems that did not stop the scan. */
export interface ScanOutcome {
  /** The scan artifact. */
  artifact: ScanArtifact;
  /** One line each, e.g. an unreadable directory or file. */
  warnings: string[];
  /** With `keepLinks`: each shortlisted doc's links (binary docs have none). */
  links?: Map<string, DocLink[]>;
  /**
   * With `cacheFile`: the new cache to write there (its bytes in pieces, made as they are
   * asked for), `undefined` when it would not change.
   */
  cachePieces?: () => Iterable<Uint8Array>;
}

/**
 * Scans the project at `root`: lists candidates (one `git ls-files`, or a
 * walk without git), reads every doc that survives dir-prune and ignore once
 * (synchronously, analysed as it is read), reads git ages in one
 * `git log` pass running meanwhile, and builds the artifact. Reads never leave
 * the root: symlinks are not read, and a file swapped for another between
 * `lstat` and `open` is skipped.
 *
 * @example
 * ```ts
 * import { scanRepository } from "./scan_repository.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import { fixedClock } from "../core/clock.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const { artifact } = await scanRepository({
 *   root,
 *   config: defaultConfig(),
 *   clock: fixedClock(new Date()),
 * });
 * assert.deepEqual(artifact.shortlist, ["a.md"]);
 * assert.equal(artifact.git, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function scanRepository(options: ScanRepositoryOptions): Promise<ScanOutcome> {
  const { root, config } = options;
  // Before git reads its index for the listing (see `record` below).
  const started = Date.now();
  const inGit = await pathExists(join(root, ".git"));
  // Never with keepLinks (the cache keeps no links).
  const cacheRead = options.cacheFile !== undefined && !options.keepLinks
    ? _readCache(options.cacheFile)
    : undefined;
  // `git ls-files` starts first (each thread below takes ~15 ms of this one to create), then
  // git log in its own process, read on its own thread while this one lists and reads (no pass
  // at all when the cache's ages are of this HEAD, and only over the commits since when HEAD
  // moved on).
  const facts = inGit
    ? options.gitFacts ?? readGitFacts(root, cacheRead?.then((cache) => cache?.ages()))
    : undefined;
  const listingPromise = facts?.listing ??
    listCandidates(root, { git: false, excludedDirs: config.excluded_dirs });
  listingPromise.catch(() => {}); // awaited below; never an unhandled rejection meanwhile
  // A large index promises many docs: one helper thread loads while git lists (more, where the
  // cores allow, are started once the docs are known to be many: most files may not be docs).
  const helpers = inGit && _indexBytes(root) >= PARALLEL_FROM * 64 ? [new ReadHelper()] : [];
  try {
    return await _scan(options, started, facts, listingPromise, cacheRead, helpers);
  } finally {
    for (const helper of helpers) helper.close();
  }
}

async function _scan(
  options: ScanRepositoryOptions,
  started: number,
  facts: GitFacts | undefined,
  listingPromise: Promise<CandidateListing>,
  cacheRead: Promise<ScanCache | undefined> | undefined,
  helpers: ReadHelper[],
): Promise<ScanOutcome> {
  const { root, config } = options;
  const inGit = facts !== undefined;
  const caching = cacheRead !== undefined;
  // The cache is read while git lists (this thread waits for it anyway).
  const [ignored, listing, cache] = await Promise.all([
    loadIgnore(root),
    listingPromise,
    cacheRead?.then((cache) => {
      // While git still lists, the helper asks the disk the cache's questions again (most
      // likely of use: the listing is most likely the cache's or close to it).
      if (cache !== undefined) helpers[0]?.recheck(root, cache.disk);
      return cache;
    }),
  ]);
  const warnings = [...listing.warnings];
  // The scan sees the working tree: a tracked file not on disk is not there (the listing may be
  // shared with prune, which keeps it in its unit).
  const files = listing.files.some((f) => f.absent)
    ? listing.files.filter((f) => !f.absent)
    : listing.files;
  const globs = [
    ...config.scope_globs,
    ...config.rules.flatMap((r) => r.served_when_path ? [r.match, r.served_when_path] : [r.match]),
    ...config.drift.exclude_docs,
    ...config.drift.exclude_code,
  ];
  const listedPaths = files.map((f) => f.path);
  if (needsGlobEngine(globs, listedPaths)) await loadGlobEngine();
  const paths = selectReads(files, config, ignored);
  const readText = _textReader(root);
  // The renderer's config is read once per scan; the reading threads resolve site-root links
  // as it does.
  const site = detectSite(listedPaths, readText, config.links);
  const source = pathIndexSource(files, listing.opaque, site);
  const listed = caching ? cacheListing(source) : undefined;
  // Under another listing, only the docs whose link facts it cannot touch take cached facts
  // (listed paths are stored by their index in the listing the cache was made under).
  const before = cache === undefined || cache.listing === listed ? undefined : cache.source();
  const change = before && ListingChange.between(before, source);
  const valid = cache?.listing === listed || change !== undefined ? cache : undefined;
  const cachedPaths = change === undefined ? source.paths : before!.paths;
  // Each doc that took cached facts, with them (its links are counted in the end); under
  // another listing, the facts read to tell whether it touches them.
  const taken = new Map<string, CachedDoc>();
  const parsed = new Map<string, CachedDoc>();
  // Their links, counted as they are taken (the reading threads count the others').
  const cachedInbound = new Map<string, number>();
  // A scan of few docs keeps each doc's parsed facts; a large one only their lines.
  const keepFacts = paths.length <= KEEP_FACTS_UP_TO;
  const expect = valid && paths.map((path) => {
    const key = valid.key(path);
    if (key === undefined || change === undefined) return key ?? "";
    const doc = parsed.get(path) ?? valid.doc(path, cachedPaths, keepFacts);
    const probed = doc?.probed();
    if (doc === undefined || probed === undefined || change.touches(doc.targets, probed)) {
      return "";
    }
    parsed.set(path, doc);
    return key;
  });
  // The blob id git vouches each doc has; a doc whose blob the cache's facts were made from is
  // not even read. Not with attributes for every path in `.git/info/attributes`: git's word
  // may then be of bytes that only convert to the blob (see `ListedFile.oid`).
  const index = caching && inGit ? _indexFacts((await facts.tip).files) : undefined;
  const oids = index !== undefined && !index.attributes ? _vouchedOids(files, paths) : undefined;
  // A blob id is kept with the bytes read only from an index written before the second this
  // scan began: git compares times to the second, so a same-size rewrite that puts the mtime
  // back in the second the index recorded could pass for unchanged (git's racy-entry rule).
  const record = index !== undefined &&
    Math.floor(index.indexMs / 1000) < Math.floor(started / 1000);
  const vouched = expect && oids && Uint8Array.from(
    paths,
    (path, i) => expect[i] !== "" && oids[i] !== "" && valid!.oid(path) === oids[i] ? 1 : 0,
  );
  const { reads, warnings: unread, inbound, disk, changed } = await readDocs(root, paths, {
    onProgress: options.onProgress,
    // In git mode most docs take their age from git, not mtime: their lstat is skipped.
    skipLstat: inGit,
    links: source,
    keepLinks: options.keepLinks,
    helpers,
    // Each doc's facts made as its cache line even when no cache is read or written (`--no-cache`):
    // the lean record a large scan holds. Not for prune's scan, which keeps each doc's links.
    cache: options.keepLinks ? undefined : {
      keepFacts,
      expect,
      oids,
      record,
      vouched,
      recheck: valid?.disk,
      take: (path, read) => {
        const cached = parsed.get(path) ?? valid?.doc(path, cachedPaths, keepFacts);
        if (cached === undefined) return false;
        read.summary = cached.summary;
        read.lines = cached.lines;
        taken.set(path, cached);
        _count(cachedInbound, cached, 1);
        return true;
      },
      drop: (path) => {
        const cached = taken.get(path);
        if (cached !== undefined) _count(cachedInbound, cached, -1);
        taken.delete(path);
      },
      // Facts whose link check asked nothing the disk now answers otherwise.
      keep: (path, changed) => {
        const probed = taken.get(path)!.probed();
        return probed !== undefined && !changed.concerns(probed);
      },
    },
  });
  warnings.push(...unread);
  keepHeapNearLive();
  for (const [target, count] of cachedInbound) {
    if (count !== 0) inbound.set(target, (inbound.get(target) ?? 0) + count);
  }
  // The drift signals (not for prune's scan, which keeps links instead), when any is on: off,
  // they would find nothing and keep no history data, and no doc's drift facts are parsed.
  const { stale_reference, code_drift, review } = config.drift;
  const driftOn = !options.keepLinks && (stale_reference || code_drift || review);
  const now = options.clock.now();
  const late: string[] = [];
  const agesRead = facts?.ages.then((ages) => ({ ages, git: _isoDatable(ages, late)! }));
  agesRead?.catch(() => {}); // awaited below
  const tip = driftOn && facts !== undefined ? await facts.tip : undefined;
  const pass = agesRead?.then(({ git }) => ({ ages: git.ages, log: git.log }));
  pass?.catch(() => {}); // awaited by the drift signals, or failing the scan below
  const runDrift = (shortlist: readonly string[]) =>
    scanDrift({
      root,
      config,
      now,
      // Made as they are asked for, each time (from each doc's cache line): never all at once.
      docs: {
        keys: () => shortlist,
        get: (path) => {
          const read = reads.get(path);
          return read?.kind === "text" ? read.summary?.drift : undefined;
        },
      },
      files,
      git: tip === undefined ? undefined : { ...tip, pass: pass! },
      binary: (path) => reads.get(path)?.kind !== "text",
      known: cache?.drift(),
      // The signals the cache's scan made hold for the docs that took their facts from it.
      before: cache === undefined ? undefined : {
        memo: cache.driftMemo(),
        sameListing: valid !== undefined && change === undefined,
        unchanged: (path) => taken.has(path),
      },
    });
  // Started now, on the docs that will be shortlisted (checked below), while git's history pass
  // may still run (a long history takes longer than reading the docs): HEAD's code is searched
  // meanwhile.
  const early = driftOn ? _shortlist(paths, reads) : undefined;
  const driftEarly = early === undefined ? undefined : runDrift(early);
  driftEarly?.catch(() => {}); // awaited below
  const { ages, git } = (await agesRead) ?? {};
  warnings.push(...late);
  if (git) warnings.push(...git.warnings);
  // One pass over the listing, which holds every doc read once (no set of tracked paths).
  for (const { path, tracked } of files) {
    const read = reads.get(path);
    if (read === undefined || !Number.isNaN(read.mtimeMs) || (tracked && git?.ages.has(path))) {
      continue;
    }
    try {
      read.mtimeMs = Deno.lstatSync(join(root, path)).mtime?.getTime() ?? 0;
    } catch {
      read.mtimeMs = 0; // removed since it was read
    }
  }
  const artifact = scanDocs({
    root,
    site,
    readText,
    config,
    now,
    git,
    files,
    opaque: listing.opaque,
    ignored,
    reads,
    inbound,
    // Only for docs the readers did not summarise (none: they were given the listing).
    onDisk: _lazyDiskLookup(root),
    // Only for docs whose fingerprints are equal: read again and compared byte for byte (line
    // endings counted as `\n`). A doc changed or gone since its first read is no duplicate.
    contentOf: (path) => {
      const full = `${root}/${path}`;
      try {
        // Never through a symlink (it may lead out of the root): the doc was a regular file.
        return Deno.lstatSync(full).isFile ? contentIdentity(Deno.readFileSync(full)) : undefined;
      } catch {
        return undefined;
      }
    },
  });
  keepHeapNearLive();
  let drift = driftOn && early !== undefined && _same(early, artifact.shortlist)
    ? await driftEarly
    : undefined;
  if (driftOn && drift === undefined) {
    await driftEarly?.catch(() => {});
    drift = await runDrift(artifact.shortlist);
  }
  if (drift !== undefined) {
    // Drift findings are suppressed by the doc's comments too (docs/signals.md).
    const suppressed = artifact.suppressed ?? { total: 0, by_kind: {}, by_path: {} };
    for (const [path, list] of drift.signals) {
      const read = reads.get(path);
      const suppressions = read?.kind === "text" ? read.summary?.suppressions : undefined;
      if (suppressions !== undefined) suppressSignals(path, list, suppressions, suppressed);
      artifact.signals[path].push(...list);
    }
    if (suppressed.total > 0) artifact.suppressed = suppressed;
    if (drift.note !== undefined) artifact.drift = drift.note;
  }
  keepHeapNearLive();
  let cachePieces = listed === undefined ? undefined : newCache({
    paths,
    reads,
    taken,
    cache: valid,
    changed,
    relisted: change !== undefined,
    listing: listed,
    listed: source.paths,
    disk,
    ages,
    agesBefore: cache?.ages(),
    drift: drift && { history: drift.data, memo: drift.memo },
    // New history work or signals, or drift data where the cache had none (or none where it had
    // some).
    driftChanged: drift?.changed === true || drift?.memoChanged === true ||
      (drift?.data !== undefined) !== (cache?.hasDrift() === true),
  });
  if (cachePieces !== undefined && options.onCache !== undefined) {
    await options.onCache(cachePieces);
    cachePieces = undefined;
  }
  if (!options.keepLinks) return { artifact, warnings, cachePieces };
  const links = new Map<string, DocLink[]>();
  for (const path of artifact.shortlist) {
    const read = reads.get(path);
    if (read?.kind !== "text") continue;
    // With keepLinks, every summary the readers made kept its doc's links.
    links.set(path, read.summary?.links ?? (read.analysis ?? analyzeDoc(read.text, path)).links);
  }
  return { artifact, warnings, links };
}

/**
 * The ages without those of commits dated after 9999-12-31 (git accepts such dates; ISO-8601
 * cannot show them): their docs take their mtime, with a warning. A copy: prune shares the ages
 * and keeps such a unit as dated in the future.
 */
function _isoDatable(git: GitAges | undefined, warnings: string[]): GitAges | undefined {
  if (git === undefined) return undefined;
  let late = 0;
  for (const seconds of git.ages.values()) if (seconds * 1000 > LAST_ISO_MS) late++;
  if (late === 0) return git;
  warnings.push(
    `${late} file${late === 1 ? "'s" : "s'"} newest commit is dated after the year 9999; ` +
      `${late === 1 ? "its age falls" : "their ages fall"} back to the mtime (fix the commit date)`,
  );
  const ages = new Map([...git.ages].filter(([, seconds]) => seconds * 1000 <= LAST_ISO_MS));
  return { ...git, ages };
}

/**
 * The docs `scanDocs` shortlists, known before it runs: those read, in listing order, less the
 * frozen and append-only ones; `undefined` when a text doc has no summary yet (`scanDocs` makes
 * it).
 */
function _shortlist(paths: readonly string[], reads: ReadonlyMap<string, FileRead>) {
  const out: string[] = [];
  for (const path of paths) {
    const read = reads.get(path);
    if (read === undefined) continue;
    if (read.kind === "text") {
      if (read.summary === undefined) return undefined;
      if (contentExclusion(read.summary) !== undefined) continue;
    }
    out.push(path);
  }
  return out;
}

/** Whether two lists hold the same strings in the same order. */
function _same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A scan cache larger than this is not read (20,000 docs make ~9 MB). */
const _MAX_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The scan cache at `file`, when it is one (of this version); only a regular file, the one
 * `lstat` saw (never through a symlink swapped in since), of at most `_MAX_CACHE_BYTES`.
 * Read asynchronously: meanwhile this thread drains `git ls-files` (it stops when its pipe is full).
 */
async function _readCache(file: string): Promise<ScanCache | undefined> {
  try {
    const seen = Deno.lstatSync(file);
    if (!seen.isFile || seen.size > _MAX_CACHE_BYTES) return undefined;
    using handle = await Deno.open(file, { read: true });
    const info = await handle.stat();
    if (!info.isFile || info.ino !== seen.ino || info.dev !== seen.dev) return undefined;
    if (info.size > _MAX_CACHE_BYTES) return undefined;
    const bytes = new Uint8Array(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = await handle.read(bytes.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    return ScanCache.parse(bytes.subarray(0, filled));
  } catch {
    return undefined;
  }
}

/**
 * Counts (`by` 1) or uncounts (-1) a doc's links that took its facts from the cache into
 * `inbound`, as the reading threads count the others' (frozen and append-only docs' links do not
 * count).
 */
function _count(inbound: Map<string, number>, doc: CachedDoc, by: number): void {
  if (contentExclusion(doc.summary) !== undefined) return;
  for (const target of doc.targets) inbound.set(target, (inbound.get(target) ?? 0) + by);
}

/** The blob id git vouches each of `paths` (listed files, in the listing's order) has; "" for none. */
function _vouchedOids(files: readonly ListedFile[], paths: readonly string[]): string[] {
  const oids: string[] = [];
  let f = 0;
  for (const path of paths) {
    while (files[f].path !== path) f++;
    oids.push(files[f].oid ?? "");
  }
  return oids;
}

/**
 * What git's word on the working tree rests on beyond the listing: whether `info/attributes`
 * holds anything, and when the index was last written (epoch milliseconds); `undefined` when
 * either cannot be told.
 */
function _indexFacts(files: GitTip["files"]): { attributes: boolean; indexMs: number } | undefined {
  let attributes = false;
  try {
    attributes = Deno.statSync(files.attributes).size > 0;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) return undefined;
  }
  try {
    const indexMs = Deno.statSync(files.index).mtime?.getTime();
    return indexMs === undefined ? undefined : { attributes, indexMs };
  } catch {
    return undefined;
  }
}

/** {@linkcode diskState} over {@linkcode dirEntries}, whose cache is only made on first need. */
function _lazyDiskLookup(root: string): DiskLookup {
  let lookup: DiskLookup | undefined;
  const made = () => lookup ??= diskState(dirEntries(root));
  return Object.assign((path: string) => made()(path), {
    caseTwin: (path: string) => made().caseTwin?.(path) ?? false,
    holds: (dir: string, count: number) => made().holds?.(dir, count) ?? false,
  });
}

/**
 * Reads a root-relative regular file (never through a symlink) as text, up to the size a doc is
 * analysed whole at (a renderer's config, a linked page's anchors).
 */
function _textReader(root: string): (path: string) => string | undefined {
  return (path) => {
    try {
      const full = join(root, path);
      const info = Deno.lstatSync(full);
      if (!info.isFile || info.size > MAX_PARSE_BYTES) return undefined;
      return new TextDecoder().decode(Deno.readFileSync(full));
    } catch {
      return undefined;
    }
  };
}

/** Size of the git index (0 when unknown, e.g. in a worktree, whose `.git` is a file): ~64+ bytes per file. */
function _indexBytes(root: string): number {
  try {
    return Deno.statSync(join(root, ".git", "index")).size;
  } catch {
    return 0;
  }
}

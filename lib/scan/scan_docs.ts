/**
 * The scanner's logic as a pure function over injected facts: the exclusion
 * pipeline and every signal of docs/design.md "The scanner".
 *
 * @module
 */

import { analyzeDoc, type DocAnalysis } from "../markdown/analyze_doc.ts";
import { byCodePoint } from "../core/by_code_point.ts";
import { datedName } from "../core/dated_name.ts";
import {
  type ExistingPaths,
  existingPaths,
  governingRule,
  servedByPath,
} from "../config/governing_rule.ts";
import { globMatcher } from "../config/glob_matcher.ts";
import { contentFingerprint } from "../core/content_fingerprint.ts";
import type { ListedFile } from "../git/list_candidates.ts";
import { ALWAYS_EXCLUDED_DIRS, type Config } from "../config/load_config.ts";
import {
  hasAnchor,
  type LinkChecker,
  linkChecker,
  type MissingPath,
} from "../links/check_doc_links.ts";
import { contentExclusion, type DocSummary, summarizeDoc } from "./summarize_doc.ts";
import { type DiskLookup, PathIndex, pathIndexSource } from "../links/path_index.ts";
import type { DriftSignal } from "../drift/drift_signals.ts";
import { type SiteLinkCheck, siteLinkCheck } from "../links/site_link_check.ts";
import { giveNearMisses } from "./_near_misses.ts";
import { type SuppressedCounts, suppressSignals } from "./suppress_signals.ts";
import type { ReadText, Site } from "../site/detect_site.ts";
import { AlikeSignals } from "./_alike_signals.ts";
import { keepHeapNearLive } from "../core/keep_heap_near_live.ts";

/** Version of the artifact schema. */
export const SCAN_SCHEMA_VERSION = 1;

/** Why a candidate is not in the shortlist. */
export type ExclusionReason = "dir" | "ignore" | "frozen" | "append_only";

/** One objective fact about a shortlisted doc. */
export type Signal =
  | { kind: "age"; days: number; last_commit: string | null; source: "git" | "mtime" }
  | { kind: "size"; bytes: number; lines: number }
  | { kind: "checkboxes"; done: number; open: number }
  | { kind: "dated_name"; date: string }
  | { kind: "status"; value: string }
  | { kind: "lifecycle"; rule: string; lifetime: string; served: boolean | null }
  | { kind: "inbound_links"; count: number }
  | { kind: "duplicate"; of: string[] }
  | { kind: "broken_link"; line: number; target: string; hint: "case" | "extension" | null }
  | { kind: "broken_anchor"; line: number; target: string }
  | {
    kind: "missing_path";
    line: number;
    path: string;
    /** The one listed path that ends in `path` (its near miss), when there is exactly one. */
    hint?: string;
    /** How many listed paths end in `path`, when there are several. */
    candidates?: number;
  }
  | { kind: "malformed_frontmatter"; line: number; reason: string; hygiene: boolean }
  | DriftSignal;

/** The scan artifact (`.dochygiene/scan.json`), exactly the schema of docs/design.md "The scanner". */
export interface ScanArtifact {
  /** Always 1. */
  schema_version: number;
  /** When the scan ran (ISO-8601 UTC with milliseconds). */
  generated_at: string;
  /** Absolute project root. */
  root: string;
  /** `null` outside a repository; `head` is `null` before the first commit. */
  git: { head: string | null; shallow: boolean } | null;
  /**
   * What the drift signals' history rests on (docs/signals.md): the
   * first-parent commits available, how many older trees were searched, and
   * whether the clone is shallow; absent when no history was read (outside
   * git, before the first commit, or `stale_reference` and `code_drift` off).
   */
  drift?: { commits: number; examined: number; shallow: boolean };
  /** The scope globs used. */
  scope_globs: string[];
  /** The excluded directory names used (`.git` and `.dochygiene` are implied). */
  excluded_dirs: string[];
  /** How many candidates, shortlisted and excluded per reason. */
  counts: {
    candidates: number;
    shortlisted: number;
    excluded: { dir: number; ignore: number; frozen: number; append_only: number };
  };
  /** Ignored, frozen and append-only paths (dir-pruned ones are only counted). */
  excluded: { path: string; reason: Exclude<ExclusionReason, "dir"> }[];
  /** Shortlisted paths. */
  shortlist: string[];
  /**
   * Signals per shortlisted path. Alike signals (the age of one commit, an
   * inbound count, a status, a checkbox count) are one frozen object shared by
   * the docs that have it (docs/library.md).
   */
  signals: Record<string, Signal[]>;
  /**
   * Only with `scan.ts --fail-on`: its verdict (`failed` means exit 1 for
   * findings, not a run that could not be done; see docs/reference.md).
   */
  fail_on?: { kinds: string[]; failed: boolean; counts: Record<string, number> };
  /**
   * Findings taken out of `signals` by inline suppression comments, counted
   * (in all, by kind, by doc); only when there are any (docs/signals.md
   * "Suppressing findings").
   */
  suppressed?: SuppressedCounts;
}

/** What reading one file gave. */
export type FileRead =
  | {
    kind: "text";
    /** Decoded text (invalid UTF-8 replaced by U+FFFD, BOM removed); only a prefix when `truncated`; "" once summarised. */
    text: string;
    /** Size in bytes of the whole file. */
    bytes: number;
    /** Lines of the whole file (`\n`, `\r\n` or a lone `\r` end a line; a last unterminated line counts). */
    lines: number;
    /** Only a prefix was analysed: the file is over the parse limit. */
    truncated: boolean;
    /** The content's fingerprint for duplicates (see `content_fingerprint.ts`); absent when `truncated`. */
    fingerprint?: string;
    /** Modification time, epoch milliseconds (`NaN` if not read: the age comes from git). */
    mtimeMs: number;
    /** The analysis of `text`, when the reader already made it (else made here). */
    analysis?: DocAnalysis;
    /**
     * What the scan needs of the doc, when the reader already made it (then
     * `text` is "" and `analysis` absent: they are not kept); else made here.
     */
    summary?: DocSummary;
    /**
     * The bytes are those the scan cache has facts of: the reader made no
     * summary and kept no text, and `lines` is 0 (the caller takes both from
     * the cache).
     */
    cached?: boolean;
    /** The doc's new scan cache line, when the reader made its summary for the cache. */
    cacheEntry?: string;
    /**
     * The blob id of the bytes read, when it is the one git's index holds and
     * vouches for (see `ListedFile.oid`): the scan cache keeps it, and a later
     * scan takes the doc's facts without reading it while git vouches for
     * that blob.
     */
    oid?: string;
  }
  | { kind: "binary"; bytes: number; lines: number; mtimeMs: number };

/** The injected facts {@linkcode scanDocs} works from. */
export interface ScanInput {
  /** Absolute project root. */
  root: string;
  /** The config. */
  config: Config;
  /** The scan's instant. */
  now: Date;
  /** Git facts; `undefined` outside a repository. */
  git:
    | { head: string | undefined; shallow: boolean; ages: ReadonlyMap<string, number> }
    | undefined;
  /** Every file of the project (the listing; any scope). */
  files: readonly ListedFile[];
  /** Directories whose contents are unknown: links into them are not checked. */
  opaque: readonly string[];
  /** The `.dochygiene-ignore` matcher. */
  ignored: (path: string) => boolean;
  /**
   * Whether a root-relative path the listing does not hold exists on disk all
   * the same (a gitignored build output), or lies beneath a symlink there
   * (`opaque`); asked only for link and inline-code targets with no listed
   * path of any letter case. Default: never.
   */
  onDisk?: DiskLookup;
  /**
   * What reading gave for the paths {@linkcode selectReads} returned; a path
   * missing here could not be read and is left out (not a candidate).
   */
  reads: ReadonlyMap<string, FileRead>;
  /**
   * The inbound link counts the readers made with the summaries they made
   * (see `readDocs`); the links of docs summarised here are added.
   */
  inbound?: ReadonlyMap<string, number>;
  /**
   * The content of a doc as a string key (`contentIdentity` of its bytes),
   * asked only for docs whose fingerprints are equal, to tell duplicates from
   * a fingerprint collision; `undefined` when it cannot be read. Default
   * (tests): equal fingerprints are taken as duplicates, which is not exact.
   */
  contentOf?: (path: string) => string | undefined;
  /**
   * The docs site, when the docs are published by a renderer (see
   * `detectSite`): links and anchors of its pages are checked as it resolves
   * them. Default: GitHub's rules everywhere.
   */
  site?: Site;
  /** A page's text, read for its anchors under the site's renderer (only with `site`). */
  readText?: ReadText;
}

/**
 * The paths the scanner must read: listed regular files in scope that are not
 * dir-pruned or ignored (so excluded files are never read). Symlinks and
 * submodules are not documents.
 *
 * @example
 * ```ts
 * import { selectReads } from "./scan_docs.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const files = ["a.md", "node_modules/x.md", "skip.md", "b.txt"]
 *   .map((path) => ({ path, tracked: true, type: "file" as const }));
 * const paths = selectReads(files, defaultConfig(), (p) => p === "skip.md");
 * assert.deepEqual(paths, ["a.md"]);
 * ```
 */
export function selectReads(
  files: readonly ListedFile[],
  config: Config,
  ignored: (path: string) => boolean,
): string[] {
  const stage = _stager(config, ignored);
  return files.filter((f) => f.type === "file" && stage(f.path) === "read").map((f) => f.path);
}

/**
 * Runs the pipeline (scope → dir-prune → ignore → frozen → append-only,
 * short-circuiting) and attaches every signal to the shortlist. Pure: the
 * listing, reads, git ages and clock are injected. Output order is
 * deterministic (paths by code point).
 *
 * @example
 * ```ts
 * import { scanDocs } from "./scan_docs.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# Plan\n\nSee [b](b.md) and [gone](gone.md).\n";
 * const artifact = scanDocs({
 *   root: "/r",
 *   config: defaultConfig(),
 *   now: new Date("2026-11-30T00:00:00.000Z"),
 *   git: undefined,
 *   files: [
 *     { path: "a.md", tracked: false, type: "file" },
 *     { path: "b.md", tracked: false, type: "file" },
 *   ],
 *   opaque: [],
 *   ignored: () => false,
 *   reads: new Map([
 *     ["a.md", { kind: "text", text, bytes: text.length, lines: 3, truncated: false, mtimeMs: 0 }],
 *     ["b.md", { kind: "text", text: "# B\n", bytes: 4, lines: 1, truncated: false, mtimeMs: 0 }],
 *   ]),
 * });
 * assert.deepEqual(artifact.shortlist, ["a.md", "b.md"]);
 * assert.deepEqual(
 *   artifact.signals["a.md"].find((s) => s.kind === "broken_link"),
 *   { kind: "broken_link", line: 3, target: "gone.md", hint: null },
 * );
 * assert.deepEqual(artifact.signals["b.md"].find((s) => s.kind === "inbound_links"), {
 *   kind: "inbound_links",
 *   count: 1,
 * });
 * ```
 */
export function scanDocs(input: ScanInput): ScanArtifact {
  const { config, now } = input;
  const stage = _stager(config, input.ignored);
  const counts = { dir: 0, ignore: 0, frozen: 0, append_only: 0 };
  const excluded: ScanArtifact["excluded"] = [];
  const shortlist: string[] = [];
  // Each text doc's summary (read or made here), by path: one entry a doc, no object around it.
  const analysed = new Map<string, DocSummary>();
  // Summaries the readers did not make are made here, links checked against the listing.
  let check: LinkChecker | undefined;
  const inbound = new Map<string, number>();
  // The listing as an index, built once on first need (the link check and the site's share it).
  let pathIndex: PathIndex | undefined;
  const index = () => pathIndex ??= _index(input);
  const summarize = (read: FileRead & { kind: "text" }, path: string) => {
    const analysis = read.analysis ?? analyzeDoc(read.text, path);
    const facts = (check ??= linkChecker(index()))(path, analysis);
    return summarizeDoc(analysis, facts, inbound);
  };

  // The listing comes sorted; sorting again is only paid when it is not.
  const files = _isSorted(input.files)
    ? input.files
    : [...input.files].sort((a, b) => byCodePoint(a.path, b.path));
  // Whether each shortlisted doc is tracked, by its index in `shortlist`.
  const tracked: boolean[] = [];
  for (const file of files) {
    if (file.type !== "file") continue;
    const path = file.path;
    const step = stage(path);
    if (step === "out") continue;
    if (step === "dir" || step === "ignore") {
      counts[step]++;
      if (step === "ignore") excluded.push({ path, reason: "ignore" });
      continue;
    }
    const read = input.reads.get(path);
    if (read === undefined) continue;
    let doc: DocSummary | undefined;
    if (read.kind === "text") {
      doc = read.summary ?? summarize(read, path);
      analysed.set(path, doc);
      const reason = contentExclusion(doc);
      if (reason !== undefined) {
        counts[reason]++;
        excluded.push({ path, reason });
        continue;
      }
    }
    shortlist.push(path);
    tracked.push(file.tracked);
  }

  const duplicates = _duplicates(analysed.keys(), input.reads, input.contentOf);
  const rules = config.rules;
  const existing = rules.some((r) => r.served_when_path !== undefined)
    ? existingPaths(input.files.map((f) => f.path))
    : undefined;
  // Linked doc → its headings, or `null` when fragments into it are not checked.
  const headings = new Map<string, ReadonlySet<string> | null>();
  const signals: Record<string, Signal[]> = {};
  let siteCheck: SiteLinkCheck | undefined;
  const site = input.site === undefined
    ? undefined
    : () => siteCheck ??= siteLinkCheck(input.site!, index(), input.readText ?? (() => undefined));
  // Missing paths, given their near misses once every doc's are known (one pass over the listing).
  const misses: [path: string, signal: MissingPath][] = [];
  // A signal many docs have alike (the same commit's age, inbound count, status or checkboxes) is
  // one frozen object: a scan of 100,000 docs makes ~5 of these a doc. Keyed by number where
  // the kind allows (no key string made a doc).
  const alike = new AlikeSignals(now);
  const suppressed: SuppressedCounts = { total: 0, by_kind: {}, by_path: {} };
  for (const [i, path] of shortlist.entries()) {
    if (i % 1024 === 1023) keepHeapNearLive();
    const read = input.reads.get(path)!;
    const doc = analysed.get(path);
    // Untracked files have no commit, even when a deleted namesake has one.
    const seconds = tracked[i] ? input.git?.ages.get(path) : undefined;
    const list: Signal[] = [alike.age(read, seconds), {
      kind: "size",
      bytes: read.bytes,
      lines: read.lines,
    }];
    // Each fact asked for once, before another doc's are (a summary may be made from its cache
    // line when asked; see `parseCacheRow`).
    const checkboxes = doc?.checkboxes;
    const status = doc?.status;
    const malformed = doc?.malformedFrontmatter;
    const suppressions = doc?.suppressions;
    if (checkboxes) {
      const { done, open } = checkboxes;
      list.push(alike.checkboxes(done, open));
    }
    const date = datedName(path);
    if (date !== undefined) list.push({ kind: "dated_name", date });
    if (status !== undefined) {
      list.push(alike.status(status));
    }
    if (malformed !== undefined) list.push({ kind: "malformed_frontmatter", ...malformed });
    const lifecycle = _lifecycle(path, rules, existing);
    if (lifecycle) list.push(lifecycle);
    const count = (input.inbound?.get(path) ?? 0) + (inbound.get(path) ?? 0);
    list.push(alike.inbound(count));
    const dup = duplicates.get(path);
    if (dup) list.push({ kind: "duplicate", of: dup });
    if (doc) {
      _linkFindings(list, path, doc.linkFacts, input.reads, analysed, headings, site, misses);
    }
    if (suppressions !== undefined) suppressSignals(path, list, suppressions, suppressed);
    // An exact copy: a list grown by pushes keeps room for ~19 (100,000 docs' lists, ~13 MB).
    signals[path] = list.slice();
  }

  giveNearMisses(misses, input.files, signals);
  excluded.sort((a, b) => byCodePoint(a.path, b.path));
  const artifact: ScanArtifact = {
    schema_version: SCAN_SCHEMA_VERSION,
    generated_at: now.toISOString(),
    root: input.root,
    git: input.git === undefined
      ? null
      : { head: input.git.head ?? null, shallow: input.git.shallow },
    scope_globs: [...config.scope_globs],
    excluded_dirs: [...config.excluded_dirs],
    counts: {
      candidates: shortlist.length + counts.dir + counts.ignore + counts.frozen +
        counts.append_only,
      shortlisted: shortlist.length,
      excluded: counts,
    },
    excluded,
    shortlist,
    signals,
  };
  if (suppressed.total > 0) artifact.suppressed = suppressed;
  return artifact;
}

type _Stage = "out" | "dir" | "ignore" | "read";

function _isSorted(files: readonly ListedFile[]): boolean {
  for (let i = 1; i < files.length; i++) {
    if (byCodePoint(files[i - 1].path, files[i].path) > 0) return false;
  }
  return true;
}

/** Scope, then dir-prune, then ignore: the pipeline's name-only steps. */
function _stager(config: Config, ignored: (path: string) => boolean): (path: string) => _Stage {
  const inScope = globMatcher(config.scope_globs);
  // Excluded names by length: a directory name is compared in place, not sliced out and hashed.
  const dirs: string[][] = [];
  for (const dir of [...ALWAYS_EXCLUDED_DIRS, ...config.excluded_dirs]) {
    (dirs[dir.length] ??= []).push(dir);
  }
  return (path) => {
    if (!inScope(path)) return "out";
    for (let start = 0, end = path.indexOf("/"); end >= 0; end = path.indexOf("/", start)) {
      for (const dir of dirs[end - start] ?? []) if (path.startsWith(dir, start)) return "dir";
      start = end + 1;
    }
    if (ignored(path)) return "ignore";
    return "read";
  };
}

/** Docs GitHub renders as Markdown, whose headings are link fragments. */
const _RENDERED = /\.(md|markdown)$/i;

/**
 * Appends a doc's link signals to `list`: broken links, broken anchors and
 * missing paths, each kind by line (the missing paths also to `misses`, to
 * be given their near misses). One by one: no arrays in between, and a
 * spread call overflows the stack on a doc with ~100,000 findings.
 */
function _linkFindings(
  list: Signal[],
  path: string,
  linkFacts: DocSummary["linkFacts"],
  reads: ReadonlyMap<string, FileRead>,
  analysed: ReadonlyMap<string, DocSummary>,
  headings: Map<string, ReadonlySet<string> | null>,
  site: (() => SiteLinkCheck) | undefined,
  misses: [path: string, signal: MissingPath][],
): void {
  const { broken, fragments, missing } = linkFacts;
  // Under a docs renderer, a page's links broken by GitHub's rules may lead to a page.
  const check = site?.();
  const inSite = check?.covers(path) === true;
  const siteAnchors: Signal[] = [];
  for (const signal of broken) {
    const page = inSite ? check!.resolve(path, signal.target) : undefined;
    if (page === undefined) list.push(signal);
    else if (page.fragment !== undefined) {
      const known = check!.anchors(page.path);
      if (known !== undefined && !hasAnchor(known, page.fragment)) {
        siteAnchors.push({ kind: "broken_anchor", line: signal.line, target: signal.target });
      }
    }
  }
  const anchorsFrom = list.length;
  for (const signal of siteAnchors) list.push(signal);
  for (const ref of fragments) {
    // A page's fragment into a page: against the anchors its renderer makes.
    if (inSite && check!.covers(ref.path)) {
      const known = check!.anchors(ref.path);
      if (known === undefined || hasAnchor(known, ref.fragment)) continue;
      list.push({ kind: "broken_anchor", line: ref.line, target: ref.target });
      continue;
    }
    // A fragment into the doc itself is listed only when the doc lacks it (see checkDocLinks).
    if (ref.path !== path) {
      let known = headings.get(ref.path);
      if (known === undefined) headings.set(ref.path, known = _headings(ref.path, reads, analysed));
      if (known === null || hasAnchor(known, ref.fragment)) continue;
    }
    list.push({ kind: "broken_anchor", line: ref.line, target: ref.target });
  }
  // Fragments are in document order; anchors are listed by line like the rest.
  if (list.length - anchorsFrom > 1) {
    const anchors = list.splice(anchorsFrom) as Extract<Signal, { kind: "broken_anchor" }>[];
    for (const signal of anchors.sort((a, b) => a.line - b.line)) list.push(signal);
  }
  for (const signal of missing) {
    list.push(signal);
    misses.push([path, signal]);
  }
}

/** Headings of a rendered, fully analysed doc (fragments are checked against them), else `null`. */
function _headings(
  target: string,
  reads: ReadonlyMap<string, FileRead>,
  analysed: ReadonlyMap<string, DocSummary>,
): ReadonlySet<string> | null {
  const other = analysed.get(target);
  const read = reads.get(target);
  return other !== undefined && read?.kind === "text" && !read.truncated &&
      _RENDERED.test(target)
    ? other.anchors
    : null;
}

/** The index of the listing, with the input's on-disk fallback. */
function _index(input: ScanInput): PathIndex {
  return new PathIndex(pathIndexSource(input.files, input.opaque, input.site), input.onDisk);
}

/** The text docs `paths` whose content another has, with the others' paths. */
function _duplicates(
  paths: Iterable<string>,
  reads: ReadonlyMap<string, FileRead>,
  contentOf: ((path: string) => string | undefined) | undefined,
): Map<string, string[]> {
  // A fingerprint's first doc, or all of its docs once there are two (most docs have no twin:
  // no list is made for them).
  const groups = new Map<string, string | string[]>();
  for (const path of paths) {
    const read = reads.get(path) as FileRead & { kind: "text" };
    // A read made by hand (tests) may come without one: its text stands in (a BOM or invalid
    // UTF-8 is then not told apart, as the readers' byte fingerprints do).
    const key = read.truncated
      ? undefined
      : read.fingerprint ?? contentFingerprint(new TextEncoder().encode(read.text));
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, path);
    else if (typeof group === "string") groups.set(key, [group, path]);
    else group.push(path);
  }
  const result = new Map<string, string[]>();
  for (const candidates of groups.values()) {
    if (typeof candidates === "string") continue;
    for (const group of _sameContent(candidates, contentOf)) {
      group.sort(byCodePoint);
      for (const path of group) result.set(path, group.filter((p) => p !== path));
    }
  }
  return result;
}

/** Docs of equal fingerprints split by their content, when it can be asked for; groups of two or more. */
function _sameContent(
  paths: string[],
  contentOf: ((path: string) => string | undefined) | undefined,
): string[][] {
  if (contentOf === undefined) return [paths];
  const byContent = new Map<string, string[]>();
  for (const path of paths) {
    const content = contentOf(path);
    if (content === undefined) continue; // gone or unreadable since: not a duplicate
    const group = byContent.get(content);
    if (group) group.push(path);
    else byContent.set(content, [path]);
  }
  return [...byContent.values()].filter((group) => group.length > 1);
}

function _lifecycle(
  path: string,
  rules: Config["rules"],
  existing: ExistingPaths | undefined,
): Signal | undefined {
  if (rules.length === 0) return undefined;
  const governs = governingRule(path, rules);
  if (governs === undefined) return undefined;
  const { rule, unit } = governs;
  const served = rule.served_when_path !== undefined && existing !== undefined
    ? servedByPath(rule, unit, existing) !== undefined
    : null;
  return { kind: "lifecycle", rule: rule.match, lifetime: rule.lifetime, served };
}

/**
 * The scanner's logic as a pure function over injected facts: the exclusion
 * pipeline and every signal of DESIGN.md "The scanner".
 *
 * @module
 */

import { analyzeDoc, type DocAnalysis } from "./analyze_doc.ts";
import { byCodePoint } from "./by_code_point.ts";
import { datedName } from "./dated_name.ts";
import {
  type ExistingPaths,
  existingPaths,
  governingRule,
  servedByPath,
} from "./governing_rule.ts";
import { globMatcher } from "./glob_matcher.ts";
import type { ListedFile } from "./list_candidates.ts";
import { ALWAYS_EXCLUDED_DIRS, type Config } from "./load_config.ts";
import { resolveLink } from "./resolve_link.ts";

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
  | { kind: "missing_path"; line: number; path: string };

/** The scan artifact (`.dochygiene/scan.json`), exactly DESIGN.md's schema. */
export interface ScanArtifact {
  /** Always 1. */
  schema_version: number;
  /** When the scan ran (ISO-8601 UTC with milliseconds). */
  generated_at: string;
  /** Absolute project root. */
  root: string;
  /** `null` outside a repository; `head` is `null` before the first commit. */
  git: { head: string | null; shallow: boolean } | null;
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
  /** Signals per shortlisted path. */
  signals: Record<string, Signal[]>;
}

/** What reading one file gave. */
export type FileRead =
  | {
    kind: "text";
    /** Decoded text (invalid UTF-8 replaced by U+FFFD, BOM removed); only a prefix when `truncated`. */
    text: string;
    /** Size in bytes of the whole file. */
    bytes: number;
    /** Lines of the whole file (`\n`, `\r\n` or a lone `\r` end a line; a last unterminated line counts). */
    lines: number;
    /** Only a prefix was analysed: the file is over the parse limit. */
    truncated: boolean;
    /** Identity for duplicates when `text` does not carry the bytes exactly (invalid UTF-8, BOM). */
    contentKey?: string;
    /** Modification time, epoch milliseconds (`NaN` if not read: the age comes from git). */
    mtimeMs: number;
    /** The analysis of `text`, when the reader already made it (else made here). */
    analysis?: DocAnalysis;
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
   * the same (a gitignored build output); asked only for link and inline-code
   * targets with no listed path of any letter case. Default: never.
   */
  onDisk?: (path: string) => boolean;
  /**
   * What reading gave for the paths {@linkcode selectReads} returned; a path
   * missing here could not be read and is left out (not a candidate).
   */
  reads: ReadonlyMap<string, FileRead>;
}

/**
 * The paths the scanner must read: listed regular files in scope that are not
 * dir-pruned or ignored (so excluded files are never read). Symlinks and
 * submodules are not documents.
 *
 * @example
 * ```ts
 * import { selectReads } from "./scan_docs.ts";
 * import { defaultConfig } from "./load_config.ts";
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
 * import { defaultConfig } from "./load_config.ts";
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
  const analysed = new Map<string, { read: FileRead & { kind: "text" }; doc: DocAnalysis }>();

  const files = [...input.files].sort((a, b) => byCodePoint(a.path, b.path));
  for (const file of files) {
    if (file.type !== "file") continue;
    const step = stage(file.path);
    if (step === "out") continue;
    if (step === "dir" || step === "ignore") {
      counts[step]++;
      if (step === "ignore") excluded.push({ path: file.path, reason: "ignore" });
      continue;
    }
    const read = input.reads.get(file.path);
    if (read === undefined) continue;
    if (read.kind === "text") {
      const doc = read.analysis ?? analyzeDoc(read.text, file.path);
      analysed.set(file.path, { read, doc });
      if (doc.hygiene === "frozen") {
        counts.frozen++;
        excluded.push({ path: file.path, reason: "frozen" });
        continue;
      }
      if (doc.appendOnly || doc.hygiene === "append-only") {
        counts.append_only++;
        excluded.push({ path: file.path, reason: "append_only" });
        continue;
      }
    }
    shortlist.push(file.path);
  }

  const index = _pathIndex(input.files, input.opaque, input.onDisk);
  const shortlisted = new Set(shortlist);
  // Link target → what is known about it, looked up once per link.
  const targets = new Map<string, _Target>();
  const findings = new Map<string, Signal[]>();
  for (const path of shortlist) {
    const entry = analysed.get(path);
    if (entry === undefined) continue;
    findings.set(path, _linkFindings(path, entry.doc, analysed, index, shortlisted, targets));
  }
  const duplicates = _duplicates(analysed);
  const rules = config.rules;
  const existing = rules.some((r) => r.served_when_path !== undefined)
    ? existingPaths(input.files.map((f) => f.path))
    : undefined;

  const tracked = new Set(input.files.filter((f) => f.tracked).map((f) => f.path));
  const signals: Record<string, Signal[]> = {};
  const isoOf = new Map<number, string>();
  for (const path of shortlist) {
    const read = input.reads.get(path) as FileRead;
    const doc = analysed.get(path)?.doc;
    // Untracked files have no commit, even when a deleted namesake has one.
    const seconds = tracked.has(path) ? input.git?.ages.get(path) : undefined;
    const list: Signal[] = [_age(read, seconds, now, isoOf), {
      kind: "size",
      bytes: read.bytes,
      lines: read.lines,
    }];
    if (doc?.checkboxes) {
      list.push({ kind: "checkboxes", done: doc.checkboxes.done, open: doc.checkboxes.open });
    }
    const date = datedName(path);
    if (date !== undefined) list.push({ kind: "dated_name", date });
    if (doc?.status !== undefined) list.push({ kind: "status", value: doc.status });
    const lifecycle = _lifecycle(path, rules, existing);
    if (lifecycle) list.push(lifecycle);
    list.push({ kind: "inbound_links", count: targets.get(path)?.count ?? 0 });
    const dup = duplicates.get(path);
    if (dup) list.push({ kind: "duplicate", of: dup });
    list.push(...(findings.get(path) ?? []));
    signals[path] = list;
  }

  excluded.sort((a, b) => byCodePoint(a.path, b.path));
  return {
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
}

type _Stage = "out" | "dir" | "ignore" | "read";

/** Scope, then dir-prune, then ignore: the pipeline's name-only steps. */
function _stager(config: Config, ignored: (path: string) => boolean): (path: string) => _Stage {
  const inScope = globMatcher(config.scope_globs);
  const dirs = new Set([...ALWAYS_EXCLUDED_DIRS, ...config.excluded_dirs]);
  return (path) => {
    if (!inScope(path)) return "out";
    for (let start = 0, end = path.indexOf("/"); end >= 0; end = path.indexOf("/", start)) {
      if (dirs.has(path.slice(start, end))) return "dir";
      start = end + 1;
    }
    if (ignored(path)) return "ignore";
    return "read";
  };
}

interface _PathIndex {
  /** Files and every ancestor directory (no trailing slash; the root is ""). */
  exists: Set<string>;
  /** Lower-cased `exists`, for the `case` hint. */
  folded: Set<string>;
  /** Directories (and symlinks) whose contents are unknown. */
  opaque: Set<string>;
  /** First segments of `opaque` (a path under none of them is under no opaque directory). */
  opaqueTops: Set<string>;
  /** The on-disk fallback, memoised. */
  onDisk: (path: string) => boolean;
}

function _pathIndex(
  files: readonly ListedFile[],
  opaque: readonly string[],
  onDisk: ((path: string) => boolean) | undefined,
): _PathIndex {
  const exists = new Set<string>([""]);
  for (const { path } of files) {
    exists.add(path);
    for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
      const dir = path.slice(0, i);
      if (exists.has(dir)) break;
      exists.add(dir);
    }
  }
  // The state and git directories are never listed: paths into them are not checked.
  const opaqueSet = new Set([...opaque, ...ALWAYS_EXCLUDED_DIRS]);
  for (const dir of opaque) {
    for (let i = dir.lastIndexOf("/"); i > 0; i = dir.lastIndexOf("/", i - 1)) {
      exists.add(dir.slice(0, i));
    }
    exists.add(dir);
  }
  for (const f of files) if (f.type !== "file") opaqueSet.add(f.path);
  const folded = new Set<string>();
  for (const p of exists) folded.add(p.toLowerCase());
  const seen = new Map<string, boolean>();
  const memo = (path: string) => {
    let found = seen.get(path);
    if (found === undefined) seen.set(path, found = onDisk?.(path) ?? false);
    return found;
  };
  const opaqueTops = new Set<string>();
  for (const dir of opaqueSet) opaqueTops.add(dir.split("/")[0]);
  return { exists, folded, opaque: opaqueSet, opaqueTops, onDisk: memo };
}

/** Listed (exactly), or on disk when no listed path differs from it only by letter case. */
function _exists(path: string, index: _PathIndex): boolean {
  if (index.exists.has(path)) return true;
  return !index.folded.has(path.toLowerCase()) && index.onDisk(path);
}

function _underOpaque(path: string, index: _PathIndex): boolean {
  const slash = path.indexOf("/");
  if (slash < 0 || !index.opaqueTops.has(path.slice(0, slash))) return false;
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
    if (index.opaque.has(path.slice(0, i))) return true;
  }
  return false;
}

/** Docs GitHub renders as Markdown, whose headings are link fragments. */
const _RENDERED = /\.(md|markdown)$/i;

function _linkFindings(
  path: string,
  doc: DocAnalysis,
  analysed: ReadonlyMap<string, { read: FileRead & { kind: "text" }; doc: DocAnalysis }>,
  index: _PathIndex,
  shortlisted: ReadonlySet<string>,
  targets: Map<string, _Target>,
): Signal[] {
  const links: Signal[] = [];
  const anchors: Signal[] = [];
  const paths: Signal[] = [];
  for (const link of doc.links) {
    const resolved = resolveLink(path, link.target);
    if (resolved === undefined) continue;
    const fragment = resolved.fragment;
    if (resolved.path === undefined || resolved.path === path) {
      if (fragment && !_hasAnchor(doc.anchors, fragment)) {
        anchors.push({ kind: "broken_anchor", line: link.line, target: link.target });
      }
      continue;
    }
    // Resolved paths never end in `/`.
    const target = resolved.path === "." ? "" : resolved.path;
    let known = targets.get(target);
    if (known === undefined) {
      targets.set(target, known = _target(target, analysed, index, shortlisted));
    }
    if (known.state === "exists") {
      // Each doc's links are checked together: one compare counts distinct linking docs.
      if (known.shortlisted && target !== path && known.last !== path) {
        known.count++;
        known.last = path;
      }
      if (fragment && known.anchors !== undefined && !_hasAnchor(known.anchors, fragment)) {
        anchors.push({ kind: "broken_anchor", line: link.line, target: link.target });
      }
    } else if (known.state === "missing") {
      links.push({ kind: "broken_link", line: link.line, target: link.target, hint: known.hint });
    }
  }
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  for (const inline of doc.inlinePaths) {
    const candidate = inline.path.replace(/^\.\//, "").replace(/\/+$/, "");
    if (index.opaque.has(candidate) || _underOpaque(candidate, index)) continue;
    if (_exists(candidate, index)) continue;
    // A path relative to the doc's own directory is not missing either.
    const local = dir === "" ? undefined : resolveLink(path, candidate)?.path;
    if (local !== undefined && _exists(local, index)) continue;
    paths.push({ kind: "missing_path", line: inline.line, path: inline.path });
  }
  const byLine = (a: Signal, b: Signal) =>
    (a as { line: number }).line - (b as { line: number }).line;
  return [...links.sort(byLine), ...anchors.sort(byLine), ...paths.sort(byLine)];
}

/** What the link checker knows about one resolved link target. */
interface _Target {
  /** `opaque`: under a directory whose contents are unknown (not checked). */
  state: "exists" | "opaque" | "missing";
  /** For a missing target: the near miss. */
  hint: "case" | "extension" | null;
  /** An existing, shortlisted doc (its inbound links are counted). */
  shortlisted: boolean;
  /** Headings of an existing, rendered, fully analysed doc (fragments are checked against them). */
  anchors: ReadonlySet<string> | undefined;
  /** Distinct docs linking here, and the last one counted. */
  count: number;
  last: string;
}

function _target(
  target: string,
  analysed: ReadonlyMap<string, { read: FileRead & { kind: "text" }; doc: DocAnalysis }>,
  index: _PathIndex,
  shortlisted: ReadonlySet<string>,
): _Target {
  const known: _Target = {
    state: "exists",
    hint: null,
    shortlisted: false,
    anchors: undefined,
    count: 0,
    last: "",
  };
  if (_exists(target, index)) {
    known.shortlisted = shortlisted.has(target);
    const other = analysed.get(target);
    if (other !== undefined && !other.read.truncated && _RENDERED.test(target)) {
      known.anchors = other.doc.anchors;
    }
  } else if (index.opaque.has(target) || _underOpaque(target, index)) known.state = "opaque";
  else {
    known.state = "missing";
    known.hint = index.folded.has(target.toLowerCase())
      ? "case"
      : index.exists.has(`${target}.md`)
      ? "extension"
      : null;
  }
  return known;
}

function _hasAnchor(anchors: ReadonlySet<string>, fragment: string): boolean {
  return anchors.has(fragment) || anchors.has(fragment.toLowerCase());
}

function _duplicates(
  analysed: ReadonlyMap<string, { read: FileRead & { kind: "text" } }>,
): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [path, { read }] of analysed) {
    if (read.truncated) continue;
    const key = read.contentKey ??
      (read.text.includes("\r") ? read.text.replace(/\r\n?/g, "\n") : read.text);
    const group = groups.get(key);
    if (group) group.push(path);
    else groups.set(key, [path]);
  }
  const result = new Map<string, string[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort(byCodePoint);
    for (const path of group) result.set(path, group.filter((p) => p !== path));
  }
  return result;
}

function _age(
  read: FileRead,
  commitSeconds: number | undefined,
  now: Date,
  isoOf: Map<number, string>,
): Signal {
  if (commitSeconds !== undefined) {
    const ms = commitSeconds * 1000;
    // Many docs share a commit: its time is formatted once.
    let iso = isoOf.get(commitSeconds);
    if (iso === undefined) isoOf.set(commitSeconds, iso = new Date(ms).toISOString());
    return {
      kind: "age",
      days: Math.floor((now.getTime() - ms) / 86_400_000),
      last_commit: iso,
      source: "git",
    };
  }
  return {
    kind: "age",
    days: Math.floor((now.getTime() - read.mtimeMs) / 86_400_000),
    last_commit: null,
    source: "mtime",
  };
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

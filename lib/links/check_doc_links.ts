/**
 * The link facts of one document that need no other document: which links
 * point at missing paths, which inline-code paths are missing, and where the
 * rest point. Made by the reading threads, in parallel, as each doc is read.
 *
 * @module
 */

import type { DocAnalysis } from "../markdown/analyze_doc.ts";
import { pathHash, type PathIndex, type TargetState } from "./path_index.ts";
import { type ResolvedLink, resolveLink, resolveRootLink } from "./resolve_link.ts";

/** A link with a fragment into an existing doc (or into the doc itself). */
export interface FragmentRef {
  /** 1-based line of the link. */
  line: number;
  /** The target as written. */
  target: string;
  /** The resolved root-relative path (`""` for the root); the doc's own path for `#x`. */
  path: string;
  /** The decoded fragment, when there is one. */
  fragment: string;
}

/** A link to a path that does not exist: the scan's `broken_link` signal. */
export interface BrokenLink {
  /** The signal's kind. */
  kind: "broken_link";
  /** 1-based line of the link. */
  line: number;
  /** The target as written. */
  target: string;
  /** The near miss: a listed path differing only by letter case, or by a missing `.md`. */
  hint: "case" | "extension" | null;
}

/** An inline-code path that does not exist: the scan's `missing_path` signal. */
export interface MissingPath {
  /** The signal's kind. */
  kind: "missing_path";
  /** 1-based line of the code span. */
  line: number;
  /** The path as written. */
  path: string;
}

/** What {@linkcode checkDocLinks} found: signals by line, the rest in document order. */
export interface DocLinkFacts {
  /** Links to paths that do not exist, by line. */
  broken: BrokenLink[];
  /** The existing paths linked to, other than the doc itself, once each (inbound links are counted from them). */
  targets: string[];
  /**
   * Links with a fragment into another existing path (checked later, against
   * that doc's headings) or into the doc itself when it has no such anchor.
   */
  fragments: FragmentRef[];
  /** Inline-code paths that exist neither from the root nor from the doc's directory, by line. */
  missing: MissingPath[];
  /**
   * Every other path the check looked up, once each: link targets the
   * listing does not hold (missing, opaque, or found on disk only), and
   * inline-code paths as looked for from the root and from the doc's
   * directory. Under another listing, the facts hold while none of
   * these nor of `targets` changed (see `ListingChange`).
   */
  probed: string[];
}

/**
 * Resolves every link of a doc and checks its path against `index`; checks
 * its inline-code paths from the root and from the doc's directory. A
 * site-root link (`/x`) is resolved against the repository root, or the
 * source root of the docs site holding the doc (see `index.site`), when its
 * first segment exists there or it names a Markdown file. Links that are not
 * checked (URLs, other site-root links, out of the root, under an opaque
 * directory) are left out. `memo` caches the state of each resolved target
 * across docs.
 *
 * @example
 * ```ts
 * import { checkDocLinks } from "./check_doc_links.ts";
 * import { PathIndex } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new PathIndex({ paths: ["docs/a.md", "README.md"], nonFiles: [], opaque: [] });
 * const facts = checkDocLinks("docs/a.md", {
 *   links: [
 *     { line: 1, target: "../README.md#usage", kind: "inline" },
 *     { line: 2, target: "b.md", kind: "inline" },
 *     { line: 3, target: "https://example.com", kind: "inline" },
 *   ],
 *   inlinePaths: [{ line: 4, path: "src/gone.ts" }],
 *   anchors: new Set(),
 * }, index);
 * assert.deepEqual(facts.targets, ["README.md"]);
 * assert.deepEqual(facts.fragments, [
 *   { line: 1, target: "../README.md#usage", path: "README.md", fragment: "usage" },
 * ]);
 * assert.deepEqual(facts.broken, [{ kind: "broken_link", line: 2, target: "b.md", hint: null }]);
 * assert.deepEqual(facts.missing, [{ kind: "missing_path", line: 4, path: "src/gone.ts" }]);
 * ```
 */
export function checkDocLinks(
  path: string,
  doc: Pick<DocAnalysis, "links" | "inlinePaths" | "anchors">,
  index: PathIndex,
  memo: Map<string, TargetState> = new Map(),
): DocLinkFacts {
  return _check(path, doc, index, memo, new Map());
}

/** {@linkcode checkDocLinks}, remembering across docs whether an inline-code path exists from the root too. */
function _check(
  path: string,
  doc: Pick<DocAnalysis, "links" | "inlinePaths" | "anchors">,
  index: PathIndex,
  memo: Map<string, TargetState>,
  rooted: Map<string, boolean>,
): DocLinkFacts {
  const targets = new _Distinct();
  const probed = new _Distinct();
  const facts: DocLinkFacts = {
    broken: [],
    targets: targets.items,
    fragments: [],
    missing: [],
    probed: probed.items,
  };
  const from = new _From(path, index);
  for (const link of doc.links) {
    let target = _resolvePlain(link.target, from);
    let fragment: string | undefined;
    if (target === undefined) {
      const resolved = link.target.trimStart().startsWith("/")
        ? _resolveRooted(path, link.target, index, probed)
        : resolveLink(path, link.target);
      if (resolved === undefined) continue;
      target = resolved.path ?? path;
      fragment = resolved.fragment;
      from.listed = undefined;
    } else if (target === null) continue;
    else {
      if (target === "") target = path;
      fragment = from.fragment(link.target);
    }
    if (target === path) {
      if (fragment && !hasAnchor(doc.anchors, fragment)) {
        facts.fragments.push({ line: link.line, target: link.target, path, fragment });
      }
      continue;
    }
    // Resolved paths never end in `/`.
    if (target === ".") target = "";
    // Most targets are listed (as the plain resolve found, or else one lookup tells). The
    // rest are remembered (they may cost a disk look).
    const listed = from.listed ?? index.listed(target);
    let state: TargetState | undefined = listed ? "exists" : memo.get(target);
    if (state === undefined) {
      state = index.classify(target);
      memo.set(target, state);
    }
    // What the listing lacks was looked for further (near misses, the disk), even when found.
    if (!listed) probed.add(target);
    if (state === "exists") {
      targets.add(target);
      if (fragment) {
        facts.fragments.push({ line: link.line, target: link.target, path: target, fragment });
      }
    } else if (state !== "opaque") {
      facts.broken.push({ kind: "broken_link", line: link.line, target: link.target, hint: state });
    }
  }
  const inDir = path.includes("/");
  for (const inline of doc.inlinePaths) {
    const candidate = _normalizeInline(inline.path);
    probed.add(candidate);
    let found = rooted.get(candidate);
    if (found === undefined) {
      found = index.isOpaque(candidate) || index.exists(candidate);
      rooted.set(candidate, found);
    }
    if (found || inDir && _existsFrom(candidate, from, probed)) continue;
    facts.missing.push({ kind: "missing_path", line: inline.line, path: inline.path });
  }
  // Stable: links on one line keep their order.
  if (facts.broken.length > 1) facts.broken.sort(_byLine);
  if (facts.missing.length > 1) facts.missing.sort(_byLine);
  return facts;
}

/** Checks one analysed doc's links (see {@linkcode linkChecker}). */
export type LinkChecker = (
  path: string,
  doc: Pick<DocAnalysis, "links" | "inlinePaths" | "anchors">,
) => DocLinkFacts;

/**
 * {@linkcode checkDocLinks} against one index, remembering each target's state
 * across the docs it is given (one per thread).
 *
 * @example
 * ```ts
 * import { linkChecker } from "./check_doc_links.ts";
 * import { PathIndex } from "./path_index.ts";
 * import { analyzeDoc } from "../markdown/analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const check = linkChecker(new PathIndex({ paths: ["a.md", "b.md"], nonFiles: [], opaque: [] }));
 * const facts = check("a.md", analyzeDoc("[b](b.md) [c](gone.md)\n", "a.md"));
 * assert.deepEqual(facts.targets, ["b.md"]);
 * assert.deepEqual(facts.broken.map((b) => b.target), ["gone.md"]);
 * ```
 */
export function linkChecker(index: PathIndex): LinkChecker {
  const memo = new Map<string, TargetState>();
  const rooted = new Map<string, boolean>();
  return (path, doc) => _check(path, doc, index, memo, rooted);
}

/**
 * Whether `fragment` names one of `anchors`, as written or lower-cased
 * (heading slugs are lower case).
 *
 * @example
 * ```ts
 * import { hasAnchor } from "./check_doc_links.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(hasAnchor(new Set(["install"]), "Install"));
 * assert.ok(!hasAnchor(new Set(["install"]), "usage"));
 * ```
 */
export function hasAnchor(anchors: ReadonlySet<string>, fragment: string): boolean {
  return anchors.has(fragment) || anchors.has(fragment.toLowerCase());
}

function _byLine(a: { line: number }, b: { line: number }): number {
  return a.line - b.line;
}

/** Strings in the order first added, each once: a scan of the few of most docs, a set for many. */
class _Distinct {
  readonly items: string[] = [];
  #set: Set<string> | undefined;

  add(item: string): void {
    if (this.#set !== undefined) {
      if (this.#set.has(item)) return;
      this.#set.add(item);
    } else if (this.items.includes(item)) return;
    else if (this.items.length === 15) this.#set = new Set([...this.items, item]);
    this.items.push(item);
  }
}

/**
 * A site-root link (`/x`) of the doc `path`: against the repository root (as
 * GitHub renders it), or the source root of the docs site holding the doc
 * (when its renderer resolves them so; else not checked). Checked only when
 * its first segment exists there (for a VitePress site, also in its `public`
 * directory, whose files are served at the root) or it names a Markdown
 * file: other such links are URLs of a site the docs are published on
 * (`/powershell/module/x` on learn.microsoft.com). The first segment is noted
 * in `probed` (facts change when it appears). See docs/signals.md "Links".
 */
function _resolveRooted(
  path: string,
  target: string,
  index: PathIndex,
  probed: _Distinct,
): ResolvedLink | undefined {
  const site = index.site;
  const inSite = site !== undefined && (site.root === "" || path.startsWith(`${site.root}/`));
  if (inSite && !site.rootLinks) return undefined;
  const root = inSite ? site.root : "";
  const resolved = resolveRootLink(root, target);
  const to = resolved?.path;
  if (to === undefined || to === "." || to === root) return resolved;
  const prefix = root === "" ? "" : `${root}/`;
  if (!to.startsWith(prefix)) return undefined;
  if (_MARKDOWN.test(to)) return resolved;
  const slash = to.indexOf("/", prefix.length);
  const top = slash < 0 ? to : to.slice(0, slash);
  probed.add(top);
  if (index.listed(top)) return resolved;
  if (inSite) {
    const served = `${prefix}public/${top.slice(prefix.length)}`;
    probed.add(served);
    if (index.listed(served)) return resolved;
  }
  return undefined;
}

/** A Markdown file's name: a link to one names a source, not a site's URL. */
const _MARKDOWN = /\.(?:md|markdown)$/i;

/** Whether an inline-code path exists relative to the doc's own directory (noted in `probed`). */
function _existsFrom(candidate: string, from: _From, probed: _Distinct): boolean {
  const local = _resolvePlain(candidate, from);
  if (local === undefined) {
    const path = resolveLink(from.path, candidate)?.path;
    if (path === undefined) return false;
    probed.add(path);
    return from.index.isOpaque(path) || from.index.exists(path);
  }
  // `""` is the doc itself by a bare fragment: no path.
  if (local === null || local === "") return false;
  probed.add(local);
  return from.listed || from.index.isOpaque(local) || from.index.exists(local);
}

/** An inline-code path without a leading `./` and trailing slashes. */
function _normalizeInline(path: string): string {
  const start = path.startsWith("./") ? 2 : 0;
  let end = path.length;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  return start === 0 && end === path.length ? path : path.slice(start, end);
}

const _HASH = 0x23;
const _DOT = 0x2e;
const _SLASH = 0x2f;

// What a target's character is to {@linkcode _resolvePlain}, by ASCII code.
const _PLAIN = 0;
/** `/` and `.`: plain unless after a `/`. */
const _SEPARATOR = 1;
const _FRAGMENT = 2;
/** Needs trimming, unescaping, decoding, or ends the path (`?`), or may start a scheme (`:`). */
const _OTHER = 3;
const _KIND = new Uint8Array(0x80).map((_, c) =>
  c <= 0x20 || c === 0x7f || "%&:?\\".includes(String.fromCharCode(c))
    ? _OTHER
    : c === _SLASH || c === _DOT
    ? _SEPARATOR
    : c === _HASH
    ? _FRAGMENT
    : _PLAIN
);

/**
 * A doc's directory and those its links climb to with `../`, found as
 * {@linkcode resolveLink} finds them (the same `lastIndexOf` steps) but once
 * per doc, with their hashes; and what {@linkcode _resolvePlain} found of the
 * last target beyond its path.
 */
class _From {
  readonly path: string;
  readonly index: PathIndex;
  /** Where the last plain target has its `#`, or -1. */
  hashAt = -1;
  /**
   * Whether the last plain target resolved to a listed path; `undefined` when unknown (not plain).
   * Read only right after `_resolvePlain` returned a path other than the doc itself.
   */
  listed: boolean | undefined;
  // By the number of `../` climbed (the last slash is -1: the root), built on first need.
  #slashes: number[] | undefined;
  #prefixes: string[] = [];
  #hashes: number[] = [];
  #clean: boolean | undefined;

  constructor(path: string, index: PathIndex) {
    this.path = path;
    this.index = index;
  }

  /**
   * How many `../` the doc's links may climb: as many as its path has slashes;
   * -1 for a path starting with `/`, whose links are left to `resolveLink`.
   */
  get climbs(): number {
    return (this.#slashes ??= this.#climb()).length - 1;
  }

  #climb(): number[] {
    const path = this.path;
    if (path.startsWith("/")) return [];
    const slashes = [path.lastIndexOf("/")];
    for (let slash = slashes[0]; slash >= 0;) {
      slashes.push(slash = path.lastIndexOf("/", slash - 1));
    }
    return slashes;
  }

  /** Whether the doc's directory needs no normalising (as `resolveLink` checks a joined path). */
  get clean(): boolean {
    if (this.#clean === undefined) {
      const dir = this.prefix(0);
      this.#clean = !dir.startsWith(".") && !dir.includes("//") && !dir.includes("/.");
    }
    return this.#clean;
  }

  /** The directory `ups` levels up (at most {@linkcode _From.climbs}), with its trailing `/`; `""` for the root. */
  prefix(ups: number): string {
    let prefix = this.#prefixes[ups];
    if (prefix === undefined) {
      const slash = (this.#slashes ??= this.#climb())[ups];
      prefix = this.#prefixes[ups] = slash < 0 ? "" : this.path.slice(0, slash + 1);
    }
    return prefix;
  }

  /** The {@linkcode pathHash} of {@linkcode _From.prefix}`(ups)`. */
  prefixHash(ups: number): number {
    let hash = this.#hashes[ups];
    if (hash === undefined) hash = this.#hashes[ups] = pathHash(this.prefix(ups));
    return hash;
  }

  /** The fragment of the last plain target (no decoding needed), `undefined` when none or empty. */
  fragment(target: string): string | undefined {
    const at = this.hashAt;
    return at < 0 || at === target.length - 1 ? undefined : target.slice(at + 1);
  }
}

/**
 * What {@linkcode resolveLink} makes of a plain target in one pass over its
 * characters: printable ASCII, nothing to trim, unescape, decode or normalise
 * past its leading `./` and `../` (the common relative link). Returns the
 * resolved path (`""` for the doc itself with a fragment), `null` when the
 * link is not checked, `undefined` when the target is not plain.
 */
function _resolvePlain(target: string, from: _From): string | null | undefined {
  const n = target.length;
  // `#x`: the doc itself.
  if (target.charCodeAt(0) === _HASH) {
    return _plainFragment(target, 0, from) ? (n > 1 ? "" : null) : undefined;
  }
  const climbs = from.climbs;
  if (climbs < 0) return undefined;
  let i = 0;
  let ups = 0;
  while (target.charCodeAt(i) === _DOT) {
    const next = target.charCodeAt(i + 1);
    if (next === _SLASH) i += 2;
    else if (next === _DOT && target.charCodeAt(i + 2) === _SLASH) {
      // Past the root: not checked, whatever follows (decoding leaves this prefix as it is).
      if (++ups > climbs) return null;
      i += 3;
    } else return undefined;
  }
  const start = i;
  let hash = from.prefixHash(ups);
  for (; i < n; i++) {
    const c = target.charCodeAt(i);
    const kind = c < 0x80 ? _KIND[c] : _OTHER;
    if (kind !== _PLAIN) {
      if (kind === _FRAGMENT) break;
      // A leading `/` or `.`, and `//` or `/.`, need normalising.
      if (kind === _OTHER || i === start || target.charCodeAt(i - 1) === _SLASH) return undefined;
    }
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  const end = i;
  from.hashAt = -1;
  if (end < n && !_plainFragment(target, end, from)) return undefined;
  if (end === start) return undefined;
  // A trailing `/` needs normalising; the doc's own directory is joined as it is only when
  // it needs none either.
  if (target.charCodeAt(end - 1) === _SLASH || start === 0 && !from.clean) return undefined;
  const tail = start === 0 && end === n ? target : target.slice(start, end);
  const prefix = from.prefix(ups);
  const listed = from.index.listedJoin(hash, prefix, tail);
  from.listed = listed !== undefined;
  return listed ?? prefix + tail;
}

/**
 * Whether the fragment of `target` (from its `#` at `at`) is plain: nothing to
 * decode, nothing to trim at the end. Notes where it starts in `from`.
 */
function _plainFragment(target: string, at: number, from: _From): boolean {
  const n = target.length;
  for (let i = at + 1; i < n; i++) {
    const c = target.charCodeAt(i);
    if (c === 0x25 /* % */ || c === 0x26 /* & */ || c === 0x5c /* \ */) return false;
  }
  const last = target.charCodeAt(n - 1);
  from.hashAt = at;
  return last > 0x20 && last < 0x7f;
}

/**
 * The link facts of one document that need no other document: which links
 * point at missing paths, which inline-code paths are missing, and where the
 * rest point. Made by the reading threads, in parallel, as each doc is read.
 *
 * @module
 */

import type { DocAnalysis } from "./analyze_doc.ts";
import type { PathIndex, TargetState } from "./path_index.ts";
import { resolveLink } from "./resolve_link.ts";

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
}

/**
 * Resolves every link of a doc and checks its path against `index`; checks
 * its inline-code paths from the root and from the doc's directory. Links
 * that are not checked (URLs, root-absolute, out of the root, under an opaque
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
  const facts: DocLinkFacts = { broken: [], targets: [], fragments: [], missing: [] };
  const targets = facts.targets;
  // Each target once: a scan of the few targets of most docs, a set for docs with many.
  let linked: Set<string> | undefined;
  for (const link of doc.links) {
    const resolved = resolveLink(path, link.target);
    if (resolved === undefined) continue;
    const { fragment } = resolved;
    if (resolved.path === undefined || resolved.path === path) {
      if (fragment && !hasAnchor(doc.anchors, fragment)) {
        facts.fragments.push({ line: link.line, target: link.target, path, fragment });
      }
      continue;
    }
    // Resolved paths never end in `/`.
    const target = resolved.path === "." ? "" : resolved.path;
    // Most targets are listed: one lookup. The rest are remembered (they may cost a disk look).
    let state: TargetState | undefined = index.listed(target) ? "exists" : memo.get(target);
    if (state === undefined) {
      state = index.classify(target);
      memo.set(target, state);
    }
    if (state === "exists") {
      if (linked !== undefined) {
        if (!linked.has(target)) {
          linked.add(target);
          targets.push(target);
        }
      } else if (!targets.includes(target)) {
        targets.push(target);
        if (targets.length === 16) linked = new Set(targets);
      }
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
    if (index.isOpaque(candidate) || index.exists(candidate)) continue;
    // A path relative to the doc's own directory is not missing either.
    const local = inDir ? resolveLink(path, candidate)?.path : undefined;
    if (local !== undefined && index.exists(local)) continue;
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
 * import { analyzeDoc } from "./analyze_doc.ts";
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
  return (path, doc) => checkDocLinks(path, doc, index, memo);
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

/** An inline-code path without a leading `./` and trailing slashes. */
function _normalizeInline(path: string): string {
  const start = path.startsWith("./") ? 2 : 0;
  let end = path.length;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  return start === 0 && end === path.length ? path : path.slice(start, end);
}

/**
 * What the scanner keeps of a text doc once it is read, analysed and its links
 * checked: few objects, so that passing it from a reading thread costs little
 * (structured clone pays per object; strings are copied at memory speed).
 *
 * @module
 */

import type { DocAnalysis } from "../markdown/analyze_doc.ts";
import type { DocLinkFacts } from "../links/check_doc_links.ts";
import type { DocLink } from "../markdown/extract_links.ts";
import { type DocDriftFacts, docDriftFacts } from "../drift/doc_drift_facts.ts";

/** A text doc as the scanner's pure part needs it. */
export interface DocSummary {
  /** The frontmatter's `hygiene:` value, when it is `frozen` or `append-only`. */
  hygiene: DocAnalysis["hygiene"];
  /** Append-only by frontmatter or by the dated-log heuristic. */
  appendOnly: boolean;
  /** The doc's status, when it states one. */
  status: string | undefined;
  /** Task-list items outside code; `undefined` when there are none. */
  checkboxes: DocAnalysis["checkboxes"];
  /** Heading slugs and explicit anchors. */
  anchors: Set<string>;
  /** The link facts that need no other doc (its link targets are counted, not kept). */
  linkFacts: Omit<DocLinkFacts, "targets" | "probed">;
  /** The doc's links, kept only on request (prune's dangling-link check). */
  links?: DocLink[];
  /** A frontmatter that cannot be parsed (see `DocAnalysis.malformedFrontmatter`). */
  malformedFrontmatter?: DocAnalysis["malformedFrontmatter"];
  /** Its inline suppression comments, when it has any (see `DocAnalysis.suppressions`). */
  suppressions?: DocAnalysis["suppressions"];
  /** What the drift signals need (docs/signals.md), when the doc has any of it. */
  drift?: DocDriftFacts;
}

/**
 * Summarises a text doc from its analysis and its link facts, and counts its
 * link targets into `inbound` (target path → linking docs) unless the doc is
 * frozen or append-only (see {@linkcode contentExclusion}): only shortlisted
 * docs' links count.
 *
 * @example
 * ```ts
 * import { summarizeDoc } from "./summarize_doc.ts";
 * import { analyzeDoc } from "../markdown/analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const facts = { broken: [], targets: ["b.md"], fragments: [], missing: [], probed: [] };
 * const inbound = new Map<string, number>();
 * const text = "# A\n\n- [ ] x [b](b.md)\n";
 * const a = summarizeDoc(analyzeDoc(text, "a.md"), facts, inbound);
 * summarizeDoc(analyzeDoc(text, "c.md"), facts, inbound);
 * assert.deepEqual(a.checkboxes, { done: 0, open: 1 });
 * assert.equal(a.links, undefined);
 * assert.equal(inbound.get("b.md"), 2);
 * ```
 */
export function summarizeDoc(
  analysis: DocAnalysis,
  linkFacts: DocLinkFacts,
  inbound: Map<string, number>,
  keepLinks = false,
): DocSummary {
  const { targets, probed: _, ...facts } = linkFacts;
  // Kept until the artifact is made: no string of it may be a slice of the doc's text (V8 keeps
  // a slice's whole parent: ~2 KB a doc, a quarter of the scan's heap).
  const summary: DocSummary = {
    hygiene: analysis.hygiene,
    appendOnly: analysis.appendOnly,
    status: analysis.status === undefined ? undefined : _own(analysis.status),
    checkboxes: analysis.checkboxes,
    anchors: _ownSet(analysis.anchors),
    linkFacts: {
      broken: facts.broken.map((b) => ({ ...b, target: _own(b.target) })),
      fragments: facts.fragments.map((f) => ({
        ...f,
        target: _own(f.target),
        path: _own(f.path),
        fragment: _own(f.fragment),
      })),
      missing: facts.missing.map((m) => ({ ...m, path: _own(m.path) })),
    },
  };
  if (keepLinks) summary.links = analysis.links;
  // Older analyses (made by hand in tests) may lack the tokens.
  const drift = analysis.inlineTokens === undefined ? undefined : docDriftFacts(analysis, targets);
  if (drift !== undefined) summary.drift = drift;
  if (analysis.malformedFrontmatter !== undefined) {
    summary.malformedFrontmatter = analysis.malformedFrontmatter;
  }
  if (analysis.suppressions?.length) summary.suppressions = analysis.suppressions;
  if (contentExclusion(summary) === undefined) {
    for (const target of targets) inbound.set(target, (inbound.get(target) ?? 0) + 1);
  }
  return summary;
}

/**
 * Why the pipeline excludes a doc for what it says: `frozen` (frontmatter
 * `hygiene: frozen`), `append_only` (`hygiene: append-only` or a dated log),
 * or `undefined` when it does not.
 *
 * @example
 * ```ts
 * import { contentExclusion } from "./summarize_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(contentExclusion({ hygiene: "frozen", appendOnly: false }), "frozen");
 * assert.equal(contentExclusion({ hygiene: undefined, appendOnly: true }), "append_only");
 * assert.equal(contentExclusion({ hygiene: undefined, appendOnly: false }), undefined);
 * ```
 */
export function contentExclusion(
  doc: Pick<DocSummary, "hygiene" | "appendOnly">,
): "frozen" | "append_only" | undefined {
  if (doc.hygiene === "frozen") return "frozen";
  return doc.appendOnly || doc.hygiene === "append-only" ? "append_only" : undefined;
}

/**
 * `text` as a string of its own: V8 makes a slice of 13 or more characters share its parent
 * (here, the doc's whole text); concatenating, then slicing, flattens a short copy instead.
 */
function _own(text: string): string {
  return text.length < 13 ? text : (" " + text).slice(1);
}

/** The anchors, each a string of its own (a set only copied when one is a long slice). */
function _ownSet(anchors: Set<string>): Set<string> {
  for (const anchor of anchors) {
    if (anchor.length >= 13) return new Set([...anchors].map(_own));
  }
  return anchors;
}

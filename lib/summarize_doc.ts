/**
 * What the scanner keeps of a text doc once it is read, analysed and its links
 * checked: few objects, so that passing it from a reading thread costs little
 * (structured clone pays per object; strings are copied at memory speed).
 *
 * @module
 */

import type { DocAnalysis } from "./analyze_doc.ts";
import type { DocLinkFacts } from "./check_doc_links.ts";
import type { DocLink } from "./extract_links.ts";

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
  /** The link facts that need no other doc. */
  linkFacts: DocLinkFacts;
  /** The content's identity for duplicates: the text with line endings normalised to `\n`. */
  contentKey: string;
  /** The doc's links, kept only on request (prune's dangling-link check). */
  links?: DocLink[];
}

/**
 * Summarises a text doc from its analysis and its link facts. `content` is
 * the text, or the read's byte-exact content key when the text does not carry
 * the bytes exactly (invalid UTF-8, a BOM).
 *
 * @example
 * ```ts
 * import { summarizeDoc } from "./summarize_doc.ts";
 * import { analyzeDoc } from "./analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const facts = { broken: [], targets: [], fragments: [], missing: [] };
 * const a = summarizeDoc("# A\r\n\r\n- [ ] x\r\n", analyzeDoc("# A\n\n- [ ] x\n", "a.md"), facts);
 * const b = summarizeDoc("# A\n\n- [ ] x\n", analyzeDoc("# A\n\n- [ ] x\n", "b.md"), facts);
 * assert.equal(a.contentKey, b.contentKey);
 * assert.deepEqual(a.checkboxes, { done: 0, open: 1 });
 * assert.equal(a.links, undefined);
 * ```
 */
export function summarizeDoc(
  content: string,
  analysis: DocAnalysis,
  linkFacts: DocLinkFacts,
  keepLinks = false,
): DocSummary {
  const summary: DocSummary = {
    hygiene: analysis.hygiene,
    appendOnly: analysis.appendOnly,
    status: analysis.status,
    checkboxes: analysis.checkboxes,
    anchors: analysis.anchors,
    linkFacts,
    // Hashing 20,000 texts in JavaScript costs more than keeping them.
    contentKey: content.includes("\r") ? content.replace(/\r\n?/g, "\n") : content,
  };
  if (keepLinks) summary.links = analysis.links;
  return summary;
}

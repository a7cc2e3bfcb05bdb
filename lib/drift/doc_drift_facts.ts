/**
 * What the drift signals need of one doc, made where the doc is read and kept
 * in the scan cache: its code elements, the paths it points at, its declared
 * review.
 *
 * @module
 */

import type { DocAnalysis } from "../markdown/analyze_doc.ts";
import { codeElement } from "./code_element.ts";
import { type ReviewFacts, reviewFacts } from "./review_facts.ts";

/** One doc's drift facts (see {@linkcode docDriftFacts}). */
export interface DocDriftFacts {
  /** Code elements named in inline code, by line (see `codeElement`). */
  elements: { line: number; element: string }[];
  /**
   * The existing paths it links to, then its inline-code paths as written
   * (resolved against the listing later, from the root or the doc's folder).
   */
  paths: string[];
  /** Its declared review, when it declares a valid one. */
  review?: ReviewFacts;
}

/**
 * A doc's drift facts from its analysis and the existing paths it links to;
 * `undefined` when it has none of them.
 *
 * @example
 * ```ts
 * import { docDriftFacts } from "./doc_drift_facts.ts";
 * import assert from "node:assert/strict";
 *
 * const facts = docDriftFacts({
 *   frontmatter: { last_reviewed: "2026-01-02" },
 *   inlinePaths: [{ line: 4, path: "src/cli.ts" }],
 *   inlineTokens: [{ line: 3, code: "parseConfig()" }, { line: 3, code: "yes" }],
 * }, ["src/main.ts"]);
 * assert.deepEqual(facts, {
 *   elements: [{ line: 3, element: "parseConfig()" }],
 *   paths: ["src/main.ts", "src/cli.ts"],
 *   review: { reviewed: "2026-01-02" },
 * });
 * ```
 */
export function docDriftFacts(
  analysis: Pick<DocAnalysis, "frontmatter" | "inlinePaths" | "inlineTokens">,
  targets: readonly string[],
): DocDriftFacts | undefined {
  const elements: DocDriftFacts["elements"] = [];
  for (const { line, code } of analysis.inlineTokens) {
    const element = codeElement(code);
    if (element !== undefined) elements.push({ line, element });
  }
  const paths = [...targets];
  for (const { path } of analysis.inlinePaths) paths.push(path);
  const review = reviewFacts(analysis.frontmatter);
  if (elements.length === 0 && paths.length === 0 && review === undefined) return undefined;
  return review === undefined ? { elements, paths } : { elements, paths, review };
}

/**
 * GitHub's heading anchors: the slug rules of `github-slugger` (what GitHub
 * and remark-validate-links use) plus explicit HTML anchors.
 *
 * @module
 */

import { type MarkdownDoc, parseMarkdown, scanBlock } from "./parse_markdown.ts";
import { scanInline } from "./scan_inline.ts";

// github-slugger 2.0.0 removes every character outside letters, marks, decimal
// and letter numbers, connector punctuation (`_`), the circled letters Ⓐ–ⓩ,
// space and `-`. Written with Unicode properties instead of its 8 kB generated
// table; the two differ only on code points unassigned in the table's Unicode
// version (letters added since are kept here, as GitHub keeps them).
const REMOVED = /[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\u24B6-\u24E9 -]/gu;
const REMOVED_ASCII = /[^a-z0-9_ -]/g;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The slug of one heading's plain text, without de-duplication: lower case,
 * punctuation and symbols (emoji included) removed, each space → `-`.
 *
 * @example
 * ```ts
 * import { githubSlug } from "./github_slug.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(githubSlug("Hello, World! 🎉"), "hello-world-");
 * assert.equal(githubSlug("Crème brûlée & co."), "crème-brûlée--co");
 * ```
 */
export function githubSlug(text: string): string {
  // Most headings are ASCII letters, digits and spaces: nothing to remove, no regex needed.
  if (_isPlainAscii(text)) return text.toLowerCase().replaceAll(" ", "-");
  // Other ASCII text takes the same rule restricted to ASCII, without Unicode classes.
  const removed = NON_ASCII.test(text) ? REMOVED : REMOVED_ASCII;
  return text.toLowerCase().replace(removed, "").replace(/ /g, "-");
}

/**
 * De-duplicating slugger, as `github-slugger`'s `BananaSlug`: the second
 * `Intro` becomes `intro-1`, the third `intro-2`, and a later literal
 * `Intro 1` then gets `intro-1-1`.
 *
 * @example
 * ```ts
 * import { GithubSlugger } from "./github_slug.ts";
 * import assert from "node:assert/strict";
 *
 * const slugger = new GithubSlugger();
 * assert.deepEqual(["Intro", "Intro", "Intro 1"].map((h) => slugger.slug(h)), [
 *   "intro",
 *   "intro-1",
 *   "intro-1-1",
 * ]);
 * ```
 */
export class GithubSlugger {
  #occurrences = new Map<string, number>();

  /** The unique slug for the next heading with this text. */
  slug(text: string): string {
    return _uniqueSlug(this.#occurrences, text);
  }

  /** Forgets all slugs handed out so far. */
  reset(): void {
    this.#occurrences.clear();
  }
}

/**
 * The plain text a heading renders to, as GitHub (and mdast's `toString`)
 * see it: code spans keep their content, links keep their text, emphasis
 * markers, raw HTML and image alt text are dropped, entities decoded.
 *
 * @example
 * ```ts
 * import { headingText } from "./github_slug.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(headingText("The `run()` [API](api.md) _now_ ![logo](l.png)"), "The run() API now ");
 * ```
 */
export function headingText(inline: string, labels?: ReadonlySet<string>): string {
  return scanInline(inline, { text: true, labels }).text ?? "";
}

/**
 * Every anchor a document defines: GitHub slugs of its ATX and setext
 * headings (duplicates numbered, headings in code ignored), `id` attributes
 * of any HTML element and `name` attributes of `<a>` elements.
 *
 * @example
 * ```ts
 * import { headingAnchors } from "./github_slug.ts";
 * import assert from "node:assert/strict";
 *
 * const anchors = headingAnchors('# Intro\n\n## Intro\n\nSub\n---\n\n<a name="top"></a>\n');
 * assert.deepEqual([...anchors], ["intro", "intro-1", "sub", "top"]);
 * ```
 */
export function headingAnchors(doc: string | MarkdownDoc): Set<string> {
  const parsed = typeof doc === "string" ? parseMarkdown(doc) : doc;
  const anchors = new Set<string>();
  // A plain map, not a GithubSlugger: constructing one per document costs more than the slugs.
  const occurrences = new Map<string, number>();
  for (const block of parsed.blocks) {
    const scan = scanBlock(block, parsed);
    if (block.kind === "heading") anchors.add(_uniqueSlug(occurrences, scan.text ?? ""));
    for (const tag of scan.tags) _addExplicit(anchors, tag.name, tag.attributes);
  }
  return anchors;
}

// GithubSlugger's de-duplication, on a map of the slugs handed out so far.
function _uniqueSlug(occurrences: Map<string, number>, text: string): string {
  const original = githubSlug(text);
  let result = original;
  while (occurrences.has(result)) {
    const n = occurrences.get(original)! + 1;
    occurrences.set(original, n);
    result = `${original}-${n}`;
  }
  occurrences.set(result, 0);
  return result;
}

// Whether `text` has only ASCII letters, digits, `_`, ` ` and `-` (what no slug rule removes).
function _isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (!letter && !(c >= 0x30 && c <= 0x39) && c !== 0x5f && c !== 0x20 && c !== 0x2d) {
      return false;
    }
  }
  return true;
}

function _addExplicit(anchors: Set<string>, name: string, attributes: Map<string, string>): void {
  const id = attributes.get("id");
  if (id) anchors.add(id);
  const anchorName = name === "a" ? attributes.get("name") : undefined;
  if (anchorName) anchors.add(anchorName);
}

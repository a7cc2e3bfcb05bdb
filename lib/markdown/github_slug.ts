/**
 * GitHub's heading anchors: the slug rules of `github-slugger` (what GitHub
 * and remark-validate-links use) plus explicit HTML anchors. The same walk
 * takes a docs renderer's slugs (`lib/site/site_anchors.ts`).
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
    return _uniqueSlug(this.#occurrences, githubSlug(text));
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
 * How a renderer makes a document's heading anchors (see
 * {@linkcode headingAnchors}); the defaults are GitHub's.
 */
export interface AnchorRules {
  /** The slug of a heading's plain text, before de-duplication (default: {@linkcode githubSlug}). */
  slug?: (text: string) => string;
  /**
   * Whether a heading ending in `{#id}` has the anchor `id`, its text not
   * slugged nor counted for de-duplication (docs renderers; not GitHub).
   */
  explicitIds?: boolean;
}

/**
 * Every anchor a document defines: the slugs of its ATX and setext headings
 * (duplicates numbered as `github-slugger` does: `x`, `x-1`, `x-2`; headings
 * in code ignored), `id` attributes of any HTML element and `name` attributes
 * of `<a>` elements. GitHub's slugs unless `rules` say otherwise. Given text,
 * the frontmatter is skipped without its YAML being parsed: anchors need no
 * frontmatter values, so this never needs the full YAML parser.
 *
 * @example
 * ```ts
 * import { headingAnchors } from "./github_slug.ts";
 * import assert from "node:assert/strict";
 *
 * const anchors = headingAnchors('# Intro\n\n## Intro\n\nSub\n---\n\n<a name="top"></a>\n');
 * assert.deepEqual([...anchors], ["intro", "intro-1", "sub", "top"]);
 * const upper = { slug: (text: string) => text.toUpperCase(), explicitIds: true };
 * assert.deepEqual([...headingAnchors("# a\n\n# a\n\n# b {#c}\n", upper)], ["A", "A-1", "c"]);
 * ```
 */
export function headingAnchors(doc: string | MarkdownDoc, rules?: AnchorRules): Set<string> {
  const parsed = typeof doc === "string" ? parseMarkdown(doc, { yaml: false }) : doc;
  const slug = rules?.slug ?? githubSlug;
  const explicitIds = rules?.explicitIds === true;
  const anchors = new Set<string>();
  // A plain map, not a GithubSlugger: constructing one per document costs more than the slugs.
  const occurrences = new Map<string, number>();
  for (const block of parsed.blocks) {
    const scan = scanBlock(block, parsed);
    if (block.kind === "heading") {
      const text = scan.text ?? "";
      const explicit = explicitIds ? _EXPLICIT_ID.exec(text) : null;
      anchors.add(explicit !== null ? explicit[1] : _uniqueSlug(occurrences, slug(text)));
    }
    for (const tag of scan.tags) _addExplicit(anchors, tag.name, tag.attributes);
  }
  return anchors;
}

/** A trailing explicit heading id: `{#id}`, after the heading's text. */
const _EXPLICIT_ID = /\s*\{#([^\s}]+)\}\s*$/;

// GithubSlugger's de-duplication of the slug `original`, on a map of the slugs handed out so far.
function _uniqueSlug(occurrences: Map<string, number>, original: string): string {
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

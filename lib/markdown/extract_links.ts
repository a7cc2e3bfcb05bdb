/**
 * The links of a Markdown document, as GitHub renders them.
 *
 * @module
 */

import { type MarkdownDoc, parseMarkdown, scanBlock } from "./parse_markdown.ts";

/** One link in a document. */
export interface DocLink {
  /** 1-based line of the link's start (the `[`, `![`, definition or tag). */
  line: number;
  /** The destination as written (`../a.md#x`), without `<` `>` or title. */
  target: string;
  /** Inline link, image, reference definition, or an HTML `href`/`src` attribute. */
  kind: "inline" | "image" | "reference" | "html";
}

/**
 * Every link in a document: inline links `[t](x "title")` (also `<x>`
 * destinations), images, reference definitions `[id]: x`, and `href`/`src`
 * attributes of raw HTML tags. Nothing inside fenced or indented code, inline
 * code spans, HTML comments or the YAML frontmatter is a link; backslash
 * escapes are honoured. Linear in the size of the text. Sorted by line, then
 * position.
 *
 * @example
 * ```ts
 * import { extractLinks } from "./extract_links.ts";
 * import assert from "node:assert/strict";
 *
 * const links = extractLinks(
 *   '[a](a.md) ![i](i.png) `[no](x)`\n<img src="logo.svg">\n\n~~~\n[no](y)\n~~~\n[r]: ./r.md\n',
 * );
 * assert.deepEqual(links, [
 *   { line: 1, target: "a.md", kind: "inline" },
 *   { line: 1, target: "i.png", kind: "image" },
 *   { line: 2, target: "logo.svg", kind: "html" },
 *   { line: 7, target: "./r.md", kind: "reference" },
 * ]);
 * ```
 */
export function extractLinks(doc: string | MarkdownDoc): DocLink[] {
  const parsed = typeof doc === "string" ? parseMarkdown(doc) : doc;
  // Links with their offsets in their block (-1 for definitions), in parallel arrays.
  const links: DocLink[] = [];
  const offsets: number[] = [];
  for (const d of parsed.definitions) {
    links.push({ line: d.line, target: d.destination, kind: "reference" });
    offsets.push(-1);
  }
  for (const block of parsed.blocks) {
    const scan = scanBlock(block, parsed);
    for (const l of scan.links) {
      const kind = l.image ? "image" : "inline";
      links.push({ line: scan.lineOf(l.offset), target: l.destination, kind });
      offsets.push(l.offset);
    }
    for (const tag of scan.tags) {
      for (const attribute of _LINK_ATTRIBUTES) {
        const target = tag.attributes.get(attribute);
        if (target === undefined) continue;
        links.push({ line: scan.lineOf(tag.offset), target, kind: "html" });
        offsets.push(tag.offset);
      }
    }
  }
  return _inOrder(links, offsets) ? links : _sorted(links, offsets);
}

const _LINK_ATTRIBUTES = ["href", "src"];

// Whether the links are already sorted by line, then offset (the usual case: blocks come in
// line order, and definitions, which come first, are rare).
function _inOrder(links: DocLink[], offsets: number[]): boolean {
  for (let i = 1; i < links.length; i++) {
    const d = links[i - 1].line - links[i].line || offsets[i - 1] - offsets[i];
    if (d > 0) return false;
  }
  return true;
}

// The links stably sorted by line, then offset.
function _sorted(links: DocLink[], offsets: number[]): DocLink[] {
  const order = links.map((_, i) => i);
  order.sort((a, b) => links[a].line - links[b].line || offsets[a] - offsets[b]);
  return order.map((i) => links[i]);
}

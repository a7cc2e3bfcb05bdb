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
  const found: { link: DocLink; offset: number }[] = parsed.definitions.map((d) => ({
    link: { line: d.line, target: d.destination, kind: "reference" },
    offset: -1,
  }));
  for (const block of parsed.blocks) {
    const scan = scanBlock(block, parsed);
    for (const l of scan.links) {
      const kind = l.image ? "image" : "inline";
      found.push({
        link: { line: scan.lineOf(l.offset), target: l.destination, kind },
        offset: l.offset,
      });
    }
    for (const tag of scan.tags) {
      for (const attribute of ["href", "src"]) {
        const target = tag.attributes.get(attribute);
        if (target === undefined) continue;
        found.push({
          link: { line: scan.lineOf(tag.offset), target, kind: "html" },
          offset: tag.offset,
        });
      }
    }
  }
  found.sort((a, b) => a.link.line - b.link.line || a.offset - b.offset);
  return found.map((f) => f.link);
}

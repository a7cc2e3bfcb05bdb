/**
 * A linear-time scanner for CommonMark inline syntax: links and images (with
 * their destinations), code spans, raw HTML tags and comments, autolinks,
 * backslash escapes and — on request — the plain text a heading renders to.
 *
 * @module
 */

import { decodeEntities } from "./_decode_entities.ts";
import { nextSpecial, SPECIAL, SPECIAL_TEXT } from "./_inline_chars.ts";
import type { HtmlTag, InlineScan, ScanInlineOptions } from "./_inline_scan.ts";
import { InlineScanner } from "./_inline_scanner.ts";
import { normalizeLabel } from "./_link_definitions.ts";
import { scanSimple } from "./_scan_simple.ts";
import { TagFinder } from "./_tag_finder.ts";

export type {
  HtmlTag,
  InlineCode,
  InlineLink,
  InlineScan,
  ScanInlineOptions,
} from "./_inline_scan.ts";
export { decodeEntities, normalizeLabel };

/**
 * Scans one block's inline content (a paragraph's lines joined with `\n`, or
 * a heading's text). Follows CommonMark precedence: code spans, autolinks and
 * raw HTML bind tighter than links; links do not nest; a backslash escapes
 * ASCII punctuation. HTML comments hide what is inside them. Every step is
 * amortised constant time, so hostile input (100,000 `[`, unclosed titles,
 * unmatched backticks) stays linear.
 *
 * @example
 * ```ts
 * import { scanInline } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * const scan = scanInline("See [the guide](docs/guide.md \"Guide\") and `a/b.ts`, not \\[x](y).");
 * assert.deepEqual(scan.links.map((l) => l.destination), ["docs/guide.md"]);
 * assert.deepEqual(scan.codeSpans.map((c) => c.content), ["a/b.ts"]);
 * assert.equal(scanInline("Use `x` _now_ [here](#h)", { text: true }).text, "Use x now here");
 * ```
 */
export function scanInline(src: string, options: ScanInlineOptions = {}): InlineScan {
  // Many blocks have no syntax at all: skip building the scanner for them.
  const first = nextSpecial(src, 0, options.text ? SPECIAL_TEXT : SPECIAL);
  if (first < 0) {
    return options.text
      ? { links: [], codeSpans: [], tags: [], text: src }
      : { links: [], codeSpans: [], tags: [] };
  }
  // Most of the rest have only simple links and code spans: those need no scanner state.
  const simple = options.text ? undefined : scanSimple(src, first);
  return simple ?? new InlineScanner(src, options).run(first);
}

/**
 * Finds the start tags of raw HTML (an HTML block), skipping comments.
 *
 * @example
 * ```ts
 * import { scanHtml } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * const tags = scanHtml('<p align="center">\n<img src="logo.png"> <!-- <a href="x"> -->\n</p>');
 * assert.deepEqual(tags.map((t) => t.attributes.get("src") ?? t.name), ["p", "logo.png"]);
 * ```
 */
export function scanHtml(src: string): HtmlTag[] {
  const tags: HtmlTag[] = [];
  const finder = new TagFinder(src);
  let i = src.indexOf("<");
  while (i >= 0) {
    const comment = finder.commentEnd(i);
    if (comment >= 0) {
      i = src.indexOf("<", comment);
      continue;
    }
    const tag = finder.tagAt(i);
    if (tag?.tag) tags.push(tag.tag);
    i = src.indexOf("<", tag ? tag.end : i + 1);
  }
  return tags;
}

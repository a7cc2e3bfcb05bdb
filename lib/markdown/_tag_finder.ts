/**
 * Raw HTML as CommonMark recognises it inline and in HTML blocks: comments,
 * and start and end tags whose attributes are entity-decoded.
 *
 * @module
 */

import { decodeEntities } from "./_decode_entities.ts";
import type { HtmlTag } from "./_inline_scan.ts";
import { NextIndex } from "./_next_index.ts";

const OPEN_TAG =
  /^<([A-Za-z][A-Za-z0-9-]*)((?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*)\s*\/?>$/;
const CLOSE_TAG = /^<\/[A-Za-z][A-Za-z0-9-]*\s*>$/;
const ATTRIBUTES = /([A-Za-z_:][\w.:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * Finds raw HTML in a text: comments, and start and end tags with their
 * attributes. Each lookup is amortised constant time over one text (the next
 * `>`, `<` and `-->` are memoised), so scanning every `<` of it stays linear.
 *
 * @example
 * ```ts
 * import { TagFinder } from "./_tag_finder.ts";
 * import assert from "node:assert/strict";
 *
 * const src = '<!-- x --><a href="a&amp;b.md">';
 * const finder = new TagFinder(src);
 * assert.equal(finder.commentEnd(0), 10);
 * assert.equal(finder.tagAt(10)?.tag?.attributes.get("href"), "a&b.md");
 * ```
 */
export class TagFinder {
  readonly #gt: NextIndex;
  readonly #lt: NextIndex;
  readonly #commentEnd: NextIndex;
  /** A finder over `src`. */
  constructor(private readonly src: string) {
    this.#gt = new NextIndex(src, ">");
    this.#lt = new NextIndex(src, "<");
    this.#commentEnd = new NextIndex(src, "-->");
  }

  /** End offset of an HTML comment starting at `i`, or -1. */
  commentEnd(i: number): number {
    const src = this.src;
    if (!src.startsWith("<!--", i)) return -1;
    if (src.startsWith(">", i + 4)) return i + 5;
    if (src.startsWith("->", i + 4)) return i + 6;
    const end = this.#commentEnd.from(i + 4);
    return end < 0 ? -1 : end + 3;
  }

  /** A start or end tag at `i` (ending at the next `>`, with no `<` before it). */
  tagAt(i: number): { tag?: HtmlTag; end: number } | undefined {
    const gt = this.#gt.from(i + 1);
    if (gt < 0) return undefined;
    const lt = this.#lt.from(i + 1);
    if (lt >= 0 && lt < gt) return undefined;
    const candidate = this.src.slice(i, gt + 1);
    if (CLOSE_TAG.test(candidate)) return { end: gt + 1 };
    const m = OPEN_TAG.exec(candidate);
    if (!m) return undefined;
    const attributes = new Map<string, string>();
    for (const a of m[2].matchAll(ATTRIBUTES)) {
      const name = a[1].toLowerCase();
      if (!attributes.has(name)) attributes.set(name, decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""));
    }
    return { tag: { offset: i, name: m[1].toLowerCase(), attributes }, end: gt + 1 };
  }
}

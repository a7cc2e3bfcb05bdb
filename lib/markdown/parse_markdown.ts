/**
 * A linear, line-based Markdown block scanner: just enough CommonMark/GFM
 * structure to know which text is prose (where links, code spans and task
 * items live), which is a heading, which is raw HTML, and which is code.
 *
 * @module
 */

import type {
  BlockScan,
  LinkDefinition,
  MarkdownBlock,
  MarkdownDoc,
  RawBlock,
  RawDoc,
} from "./_markdown_doc.ts";
import { splitBlocks } from "./_split_blocks.ts";
import { type FrontmatterOptions, parseFrontmatter } from "./parse_frontmatter.ts";
import {
  type HtmlTag,
  type InlineCode,
  type InlineLink,
  type InlineScan,
  scanHtml,
  scanInline,
} from "./scan_inline.ts";

export type { BlockScan, LinkDefinition, MarkdownBlock, MarkdownDoc } from "./_markdown_doc.ts";
export type { FrontmatterOptions } from "./parse_frontmatter.ts";

/**
 * Splits a Markdown document into the blocks that matter for hygiene signals,
 * in one linear pass. Fenced code (``` and ~~~, at any indentation, inside
 * lists and blockquotes; unclosed fences run to the end), indented code and
 * the frontmatter are left out. HTML blocks follow CommonMark's start and end
 * conditions. Reference definitions at the start of a paragraph are taken out
 * of it into `definitions`. With `{ yaml: false }` the frontmatter is skipped
 * without its YAML being parsed (see `parseFrontmatter`): for readers of the
 * body alone, which then never need the full YAML parser.
 *
 * @example
 * ```ts
 * import { parseMarkdown } from "./parse_markdown.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseMarkdown("# Title\n\n~~~\n[x](y)\n~~~\n- [x] done\n\n[a]: ./a.md\n");
 * assert.deepEqual(doc.blocks.map((b) => b.kind), ["heading", "paragraph"]);
 * assert.equal(doc.blocks[1].task, "done");
 * assert.deepEqual(doc.definitions, [{ line: 8, label: "a", destination: "./a.md" }]);
 * ```
 */
export function parseMarkdown(text: string, options?: FrontmatterOptions): MarkdownDoc {
  const frontmatter = parseFrontmatter(text, options);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Most documents have no `\r`: their lines are walked with indexOf, without an array of them
  // (and without a string for an empty line). The others are split.
  const lf = text.indexOf("\r") < 0;
  const { blocks, definitions } = splitBlocks(text, lf, frontmatter.bodyStart);
  const doc: RawDoc = {
    frontmatter,
    blocks,
    definitions,
    labels: _labels(definitions),
    text: lf ? text : undefined,
  };
  return doc;
}

/**
 * Scans a block's inline content once and remembers the result: links, code
 * spans and tags for prose; tags only for HTML blocks; headings also get
 * their plain text.
 *
 * @example
 * ```ts
 * import { parseMarkdown, scanBlock } from "./parse_markdown.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseMarkdown("# A `b`\n\ntext\n[x](y.md)\n");
 * assert.equal(scanBlock(doc.blocks[0], doc).text, "A b");
 * const scan = scanBlock(doc.blocks[1], doc);
 * assert.equal(scan.lineOf(scan.links[0].offset), 4);
 * ```
 */
export function scanBlock(block: MarkdownBlock, doc: MarkdownDoc): BlockScan {
  if (block.scan) return block.scan;
  const src = block.lines.length === 1 ? block.lines[0] : _source(block, doc);
  const inline: InlineScan = block.kind === "html"
    ? { links: [], codeSpans: [], tags: scanHtml(src) }
    : scanInline(src, { text: block.kind === "heading", labels: doc.labels });
  const scan = new _BlockScan(inline, src, block.line, block.lines.length === 1);
  block.scan = scan;
  return scan;
}

// A BlockScan whose `lineOf` is a method rather than a closure (one object per block, not
// three), and finds the line breaks only when asked about a block of several lines.
class _BlockScan implements BlockScan {
  links: InlineLink[];
  codeSpans: InlineCode[];
  tags: HtmlTag[];
  text: string | undefined;
  #src: string;
  #firstLine: number;
  #breaks: number[] | undefined;

  constructor(inline: InlineScan, src: string, firstLine: number, oneLine: boolean) {
    this.links = inline.links;
    this.codeSpans = inline.codeSpans;
    this.tags = inline.tags;
    this.text = inline.text;
    this.#src = src;
    this.#firstLine = firstLine;
    this.#breaks = oneLine ? _NO_BREAKS : undefined;
  }

  lineOf(offset: number): number {
    const breaks = this.#breaks ??= _breaks(this.#src);
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (breaks[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return this.#firstLine + lo;
  }
}

const _NO_BREAKS: number[] = [];

// The definitions' labels (without an intermediate array: most documents have none).
function _labels(definitions: LinkDefinition[]): Set<string> {
  const labels = new Set<string>();
  for (const d of definitions) labels.add(d.label);
  return labels;
}

// A block's lines joined with `\n`: a slice of the text when they are whole lines of it (one
// allocation, no copy), else a join.
function _source(block: MarkdownBlock, doc: MarkdownDoc): string {
  const text = (doc as RawDoc).text;
  const b = block as RawBlock;
  return text === undefined || b.raw !== true ? block.lines.join("\n") : text.slice(b.start, b.end);
}

// The offsets of the line breaks in `src`.
function _breaks(src: string): number[] {
  const breaks: number[] = [];
  for (let i = src.indexOf("\n"); i >= 0; i = src.indexOf("\n", i + 1)) breaks.push(i);
  return breaks;
}

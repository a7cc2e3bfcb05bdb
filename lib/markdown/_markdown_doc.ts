/**
 * What `parseMarkdown` returns, shared by its stages: the public
 * document and block types (re-exported by `parse_markdown.ts`) and the
 * offsets the parser keeps beside them.
 *
 * @module
 */

import type { Frontmatter } from "./parse_frontmatter.ts";
import type { InlineScan } from "./_inline_scan.ts";

/** A block of a Markdown document, with container markers stripped. */
export interface MarkdownBlock {
  /** `paragraph` (prose, tables, list item text), `heading`, or raw `html`. */
  kind: "paragraph" | "heading" | "html";
  /** 1-based line number of `lines[0]`. */
  line: number;
  /** Content lines: blockquote markers, list markers and indentation removed. */
  lines: string[];
  /** Heading level 1–6 (headings only). */
  level?: number;
  /** Task-list state, for a paragraph (or the heading it became) that starts a `- [ ]` / `- [x]` item. */
  task?: "done" | "open";
  /** Whether the paragraph starts a list item. */
  listItem?: boolean;
  /** The block's inline scan, once `scanBlock` made it. */
  scan?: BlockScan;
}

/** A link reference definition `[label]: destination`. */
export interface LinkDefinition {
  /** 1-based line of the definition. */
  line: number;
  /** The label, normalised (trimmed, whitespace collapsed, lower case). */
  label: string;
  /** The destination as written, without `<` `>`. */
  destination: string;
}

/** A parsed document: frontmatter, blocks in order, reference definitions. */
export interface MarkdownDoc {
  /** The frontmatter (see `parseFrontmatter`). */
  frontmatter: Frontmatter;
  /** Prose, heading and HTML blocks in document order (code is left out). */
  blocks: MarkdownBlock[];
  /** Reference definitions in document order. */
  definitions: LinkDefinition[];
  /** Normalised labels of all definitions. */
  labels: Set<string>;
}

/** A block's inline content, scanned once (see `scanBlock`). */
export interface BlockScan extends InlineScan {
  /** Maps an offset in the block's joined lines to a 1-based line number. */
  lineOf: (offset: number) => number;
}

/**
 * A block as parseMarkdown makes it: with where its lines are in the text, so
 * that scanBlock can take a block of whole consecutive lines as one slice of
 * the text instead of joining them.
 */
export interface RawBlock extends MarkdownBlock {
  /** Every line is a whole line of the text, unchanged. */
  raw: boolean;
  /** Where the lines start in the text (`\n`-only text and `raw` only). */
  start: number;
  /** Where the lines end in the text (`\n`-only text and `raw` only). */
  end: number;
}

/** A document as parseMarkdown makes it: with its text, for {@linkcode RawBlock}'s offsets. */
export interface RawDoc extends MarkdownDoc {
  /** The text (BOM removed), when its lines end with `\n` only; else `undefined`. */
  text: string | undefined;
}

/**
 * A new block. Every block gets all fields, in one order, so that the loops
 * over blocks see one shape.
 *
 * @example
 * ```ts
 * import { newBlock } from "./_markdown_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const block = newBlock("heading", 3, ["Title"], 1, undefined, undefined);
 * assert.deepEqual(Object.keys(block), [
 *   "kind", "line", "lines", "level", "task", "listItem", "scan", "raw", "start", "end",
 * ]);
 * ```
 */
export function newBlock(
  kind: MarkdownBlock["kind"],
  line: number,
  lines: string[],
  level: number | undefined,
  task: MarkdownBlock["task"],
  listItem: true | undefined,
): RawBlock {
  return {
    kind,
    line,
    lines,
    level,
    task,
    listItem,
    scan: undefined,
    raw: false,
    start: 0,
    end: 0,
  };
}

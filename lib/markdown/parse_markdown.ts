/**
 * A linear, line-based Markdown block scanner: just enough CommonMark/GFM
 * structure to know which text is prose (where links, code spans and task
 * items live), which is a heading, which is raw HTML, and which is code.
 *
 * @module
 */

import { type Frontmatter, parseFrontmatter } from "./parse_frontmatter.ts";
import {
  type HtmlTag,
  type InlineCode,
  type InlineLink,
  type InlineScan,
  normalizeLabel,
  scanHtml,
  scanInline,
} from "./scan_inline.ts";

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
  /** The block's inline scan, once {@linkcode scanBlock} made it. */
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
  /** The frontmatter (see {@linkcode parseFrontmatter}). */
  frontmatter: Frontmatter;
  /** Prose, heading and HTML blocks in document order (code is left out). */
  blocks: MarkdownBlock[];
  /** Reference definitions in document order. */
  definitions: LinkDefinition[];
  /** Normalised labels of all definitions. */
  labels: Set<string>;
}

// What parseMarkdown records beyond the exported types, so that scanBlock can take a block of
// whole consecutive lines as one slice of the text instead of joining them.
interface _Block extends MarkdownBlock {
  /** Every line is a whole line of the text, unchanged. */
  raw: boolean;
  /** Where the lines are in the text (`\n`-only text and `raw` only): start and end offsets. */
  start: number;
  end: number;
}
interface _Doc extends MarkdownDoc {
  /** The text (BOM removed), when its lines end with `\n` only; else `undefined`. */
  text: string | undefined;
}

const QUOTE_MARKER = /^ {0,3}> ?/;
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const HTML_BLOCK_TAGS = "address|article|aside|base|basefont|blockquote|body|caption|center|col|" +
  "colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|" +
  "frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|" +
  "ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|" +
  "track|ul";
const ATTRIBUTE = String
  .raw`\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>\x60]+|'[^']*'|"[^"]*"))?`;
// CommonMark's seven HTML block start conditions: [start, end ("blank" = a blank line), can
// interrupt a paragraph].
const HTML_STARTS: [RegExp, RegExp | "blank", boolean][] = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i, true],
  [/^<!--/, /-->/, true],
  [/^<\?/, /\?>/, true],
  [/^<!\[CDATA\[/, /\]\]>/, true],
  [/^<![A-Za-z]/, />/, true],
  [new RegExp(`^</?(?:${HTML_BLOCK_TAGS})(?:[\\s>]|/>|$)`, "i"), "blank", true],
  [
    new RegExp(
      String
        .raw`^(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$`,
    ),
    "blank",
    false,
  ],
];
const DEFINITION_LABEL = /^ {0,3}\[((?:[^\\[\]]|\\.){1,999})\]:/;

/**
 * Splits a Markdown document into the blocks that matter for hygiene signals,
 * in one linear pass. Fenced code (``` and ~~~, at any indentation, inside
 * lists and blockquotes; unclosed fences run to the end), indented code and
 * the frontmatter are left out. HTML blocks follow CommonMark's start and end
 * conditions. Reference definitions at the start of a paragraph are taken out
 * of it into `definitions`.
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
export function parseMarkdown(text: string): MarkdownDoc {
  const frontmatter = parseFrontmatter(text);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Most documents have no `\r`: their lines are walked with indexOf, without an array of them
  // (and without a string for an empty line). The others are split.
  const lf = text.indexOf("\r") < 0;
  const lines = lf ? undefined : text.split(/\r\n|\r|\n/);
  let next = lf ? _lineStart(text, frontmatter.bodyStart) : 0; // the next line's offset (`lf`)
  const blocks: MarkdownBlock[] = [];
  const definitions: LinkDefinition[] = [];
  // An open fence or HTML block, with the container it opened in: it also ends when a line
  // leaves that container (fewer `>` markers, or less indented than its list item).
  let fence: { char: string; length: number; depth: number; indent: number } | undefined;
  let html:
    | { block: _Block; end: RegExp | "blank"; depth: number; indent: number }
    | undefined;
  let para: _Block | undefined;
  // The quote depth and list content column the open paragraph started in.
  let paraDepth = 0;
  let paraIndent = -1;
  let listDepth = 0; // the quote depth of the list whose content column is listIndent
  let listIndent = -1;
  // The content columns of the open list items, outermost first (listIndent is the last).
  const listStack: number[] = [];
  // Closes the items whose content column is right of `indent`.
  const leaveItems = (indent: number) => {
    while (listStack.length > 0 && indent < listStack[listStack.length - 1]) listStack.pop();
    listIndent = listStack.length > 0 ? listStack[listStack.length - 1] : -1;
  };
  let blankBefore = true;

  lineLoop: for (
    let i = frontmatter.bodyStart;
    lines ? i < lines.length : next <= text.length;
    i++
  ) {
    const start = next;
    let line: string;
    if (lines) line = lines[i];
    else {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      line = end === start ? "" : text.slice(start, end);
      next = end + 1;
    }
    let s = line;
    let depth = 0;
    let indent = 0;
    let chars = 0;
    let blank = false;
    const open = fence ?? html;
    // Inside an open fence or HTML block only the markers of the quotes it sits in are
    // markers: a further `>` is content (`>>> print(1)`, `> ``` ` in a fence), unless the
    // line leaves the block's container (then the line is taken again, as any other).
    for (let quotes = open ? open.depth : Infinity;;) {
      const c0 = s.charCodeAt(0); // most lines start with a letter: no call for them
      if ((c0 === 0x3e || c0 === 0x20) && quotes > depth && _quoted(s)) {
        for (let m = QUOTE_MARKER.exec(s); m && depth < quotes; m = QUOTE_MARKER.exec(s)) {
          s = s.slice(m[0].length);
          depth++;
        }
      }
      // The indentation's width (tabs to multiples of 4) and length, inline: runs per line.
      indent = 0;
      for (chars = 0; chars < s.length; chars++) {
        const c = s.charCodeAt(chars);
        if (c === 0x20) indent++;
        else if (c === 0x09) indent += 4 - (indent % 4);
        else break;
      }
      blank = chars === s.length;
      if (open && (fence ?? html) && (depth < open.depth || (!blank && indent < open.indent))) {
        fence = html = undefined;
        leaveItems(indent);
        if (depth === quotes) {
          quotes = Infinity; // more markers may follow: taken now
          continue;
        }
      }
      break;
    }
    if (fence) {
      if (_closesFence(s, fence)) fence = undefined;
      continue;
    }
    if (html) {
      if (html.end === "blank") {
        if (!blank) {
          html.block.lines.push(s);
          continue;
        }
        html = undefined;
      } else {
        html.block.lines.push(s);
        if (html.end.test(s)) html = undefined;
        continue;
      }
    }
    if (blank) {
      para = _flush(para, blocks, definitions);
      blankBefore = true;
      continue;
    }
    let content = chars === 0 ? s : s.slice(chars);
    // A quote marker the open paragraph does not have opens a block quote, which ends it.
    if (para && depth > paraDepth) para = _flush(para, blocks, definitions);
    // A line outside the open paragraph's list item or quote can only continue it lazily: never as
    // its setext underline (`- Usage` + `---` is a list and a thematic break).
    const lazy = para !== undefined && (depth < paraDepth || indent < paraIndent);
    // Outside them, an HTML block of any kind starts (`- a` then `<span>`): it ends the paragraph.
    if (lazy && content[0] === "<" && HTML_STARTS.some(([re]) => re.test(content))) {
      para = _flush(para, blocks, definitions);
    }
    // The quote a list was in is closed: so is the list.
    if (depth < listDepth && listStack.length > 0) leaveItems(-1);
    // A line left of an item's content column ends that item (and those nested in it), unless it
    // continues a paragraph; it may still be in an outer item.
    if (
      listIndent >= 0 && indent < listIndent && (blankBefore || !para || _startsBlock(content)) &&
      _listMarker(content) === 0
    ) leaveItems(indent);
    const wasBlank = blankBefore;
    blankBefore = false;
    // Indented 4 or more past the container: code, or with a paragraph open, its text (no
    // block starts there: `p` then `    ---` is no heading).
    const indented = indent >= Math.max(listIndent, 0) + 4;
    if (!para && indented) continue; // indented code
    let listItem = false;
    let task: "done" | "open" | undefined;
    let column = indent;
    let otherAt = -2; // see _lastOtherThanBreak (-2: not known yet)
    for (;;) {
      if (indented) break;
      const first = content[0];
      if (first === ">" && listItem) {
        content = content.replace(QUOTE_MARKER, "");
        continue;
      }
      const f = first === "`" || first === "~" ? FENCE_OPEN.exec(content) : null;
      if (f && !(f[1][0] === "`" && f[2].includes("`"))) {
        para = _flush(para, blocks, definitions);
        fence = {
          char: f[1][0],
          length: f[1].length,
          depth,
          indent: _container(listIndent, column),
        };
        continue lineLoop;
      }
      if (first === "#" && _isAtx(content)) {
        para = _flush(para, blocks, definitions);
        blocks.push(
          _block("heading", i + 1, [_atxText(content)], _atxLevel(content), undefined, undefined),
        );
        continue lineLoop;
      }
      if (para && !listItem && !lazy && (first === "=" || first === "-") && _isSetext(content)) {
        const level = content[0] === "=" ? 1 : 2;
        // A task item's text can be a heading: the box stays (GitHub renders both).
        // Its text ends with each line (trailing spaces, a hard break, are not in the slug).
        const lines = para.lines.map((l) => l.trimEnd());
        const heading = _block("heading", para.line, lines, level, para.task, undefined);
        heading.raw = para.raw && lines.every((l, k) => l === para!.lines[k]);
        heading.start = para.start;
        heading.end = para.end;
        para = undefined;
        if (_takeDefinitions(heading, definitions)) blocks.push(heading);
        continue lineLoop;
      }
      if (first === "<" && (listItem || indent - Math.max(listIndent, 0) < 4)) {
        const start = HTML_STARTS.find(([re, , interrupts]) =>
          (interrupts || !para) && re.test(content)
        );
        if (start) {
          para = _flush(para, blocks, definitions);
          const block = _block("html", i + 1, [content], undefined, undefined, undefined);
          blocks.push(block);
          const end = start[1];
          if (end === "blank" || !end.test(content.slice(2))) {
            html = { block, end, depth, indent: _container(listIndent, column) };
          }
          continue lineLoop;
        }
      }
      // Each container level looks at a shorter rest of the line: a rest holding a character
      // that a break ending the line cannot hold is none, found once per line (`- - - … x`
      // stays linear).
      if (otherAt === -2 && _BREAK_CHARS.has(first)) otherAt = _lastOtherThanBreak(line);
      if (line.length - content.length > otherAt && _isThematicBreak(content)) {
        para = _flush(para, blocks, definitions);
        continue lineLoop;
      }
      const marker = _listMarker(content);
      if (marker > 0) {
        const spaces = _spaces(content, marker);
        const rest = content.slice(marker + spaces);
        // A marker interrupts no paragraph: after a blank line, at the start, nested in this
        // line's item, as the next item of the paragraph's list (left of its text), or outside
        // the quote the paragraph is in. Nested in the paragraph's item, it does (below).
        const inList = listItem || !para || wasBlank || depth < paraDepth ||
          (para.listItem === true && indent < listIndent);
        // Only a bullet or `1.`/`1)` may interrupt a paragraph, and only with content.
        const bulletOrOne = marker === 1 || (marker === 2 && content[0] === "1");
        if (inList || (bulletOrOne && !_isBlank(rest))) {
          para = _flush(para, blocks, definitions);
          listItem = true;
          leaveItems(column); // the items whose text is right of this marker end
          column += marker + (spaces >= 1 && spaces <= 4 ? spaces : 1);
          listStack.push(column);
          listIndent = column;
          listDepth = depth;
          content = rest;
          const t = _taskMarker(content);
          if (t > 0 && task === undefined) {
            task = content[1] === " " ? "open" : "done";
            content = content.slice(t);
          }
          if (_isBlank(content)) {
            if (task) blocks.push(_block("paragraph", i + 1, [""], undefined, task, true));
            continue lineLoop;
          }
          continue;
        }
      }
      break;
    }
    if (!para) {
      para = _block("paragraph", i + 1, [], undefined, task, listItem || undefined);
      paraDepth = depth;
      // In a list only at the list's own quote depth (`> - a` then `b`: b is outside both).
      paraIndent = depth === listDepth ? listIndent : -1;
      para.raw = true;
      para.start = start;
    }
    para.lines.push(content);
    // Paragraph lines are consecutive: the paragraph stays raw while each is a whole line.
    if (content !== line) para.raw = false;
    para.end = start + line.length;
  }
  para = _flush(para, blocks, definitions);
  const doc: _Doc = {
    frontmatter,
    blocks,
    definitions,
    labels: _labels(definitions),
    text: lf ? text : undefined,
  };
  return doc;
}

/** A block's inline content, scanned once (see {@linkcode scanBlock}). */
export interface BlockScan extends InlineScan {
  /** Maps an offset in the block's joined lines to a 1-based line number. */
  lineOf: (offset: number) => number;
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
  const text = (doc as _Doc).text;
  const b = block as _Block;
  return text === undefined || b.raw !== true ? block.lines.join("\n") : text.slice(b.start, b.end);
}

// The offset of line `line` (0-based) of a text with `\n` line ends; past the end (length + 1)
// when it has fewer lines.
function _lineStart(text: string, line: number): number {
  let at = 0;
  for (let k = 0; k < line; k++) {
    const end = text.indexOf("\n", at);
    if (end < 0) return text.length + 1;
    at = end + 1;
  }
  return at;
}

// The offsets of the line breaks in `src`.
function _breaks(src: string): number[] {
  const breaks: number[] = [];
  for (let i = src.indexOf("\n"); i >= 0; i = src.indexOf("\n", i + 1)) breaks.push(i);
  return breaks;
}

// The content column of the list item a block opens in (0 outside lists).
function _container(listIndent: number, column: number): number {
  return listIndent >= 0 && column >= listIndent ? listIndent : 0;
}

// Whether the line starts a block that interrupts a paragraph: a fence, an ATX heading, an HTML
// block of the kinds that may, or a thematic break (`` `x` y `` or `#tag` are text).
function _startsBlock(content: string): boolean {
  const c = content[0];
  if (c === "`" || c === "~") {
    const f = FENCE_OPEN.exec(content);
    return f !== null && !(f[1][0] === "`" && f[2].includes("`"));
  }
  if (c === "#") return _isAtx(content);
  if (c === "<") return HTML_STARTS.some(([re, , interrupts]) => interrupts && re.test(content));
  return _isThematicBreak(content);
}

function _quoted(s: string): boolean {
  for (let i = 0; i < 4 && i < s.length; i++) {
    if (s[i] === ">") return true;
    if (s[i] !== " ") return false;
  }
  return false;
}

// Every block gets all fields, in one order, so that the loops over blocks see one shape.
function _block(
  kind: MarkdownBlock["kind"],
  line: number,
  lines: string[],
  level: number | undefined,
  task: MarkdownBlock["task"],
  listItem: true | undefined,
): _Block {
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

// Ends the open paragraph: its leading definitions go to `definitions`, the rest (if any) to
// `blocks`. Returns `undefined`, the new open paragraph.
function _flush(
  para: MarkdownBlock | undefined,
  blocks: MarkdownBlock[],
  definitions: LinkDefinition[],
): undefined {
  if (para && _takeDefinitions(para, definitions)) blocks.push(para);
  return undefined;
}

// The width of a list marker (`-`, `*`, `+`, or 1–9 digits and `.` or `)`) that starts `s`
// and is followed by a space, a tab or the end; 0 when there is none.
function _listMarker(s: string): number {
  const c = s.charCodeAt(0);
  let k = 1;
  if (c !== 0x2d && c !== 0x2a && c !== 0x2b) {
    k = 0;
    while (k < 10 && _isDigit(s.charCodeAt(k))) k++;
    if (k === 0 || k > 9) return 0;
    const d = s.charCodeAt(k);
    if (d !== 0x2e && d !== 0x29) return 0;
    k++;
  }
  if (k === s.length) return k;
  const after = s.charCodeAt(k);
  return after === 0x20 || after === 0x09 ? k : 0;
}

// A task marker `[ ]`, `[x]` or `[X]` followed by spaces and tabs (all taken) or the end:
// its length with those spaces, 0 when there is none.
function _taskMarker(s: string): number {
  if (s.charCodeAt(0) !== 0x5b || s.charCodeAt(2) !== 0x5d) return 0;
  const c = s[1];
  if (c !== " " && c !== "x" && c !== "X") return 0;
  // GitHub (cmark-gfm) wants whitespace after the box: `- [ ]` alone is text, `- [ ] ` a task.
  const spaces = _spaces(s, 3);
  return spaces > 0 ? 3 + spaces : 0;
}

// How many spaces and tabs start at `from`.
function _spaces(s: string, from: number): number {
  let k = from;
  while (s.charCodeAt(k) === 0x20 || s.charCodeAt(k) === 0x09) k++;
  return k - from;
}

function _isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// `s.trim() === ""` without the new string: ASCII is decided here, anything else by `trim`.
function _isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
    return c < 128 ? false : s.trim() === "";
  }
  return true;
}

function _closesFence(s: string, fence: { char: string; length: number }): boolean {
  const t = s.trim();
  if (t.length < fence.length) return false;
  for (let i = 0; i < t.length; i++) if (t[i] !== fence.char) return false;
  return true;
}

const _BREAK_CHARS = new Set(["-", "*", "_"]);

// The last index of a character that a thematic break ending the line cannot hold: one other
// than space, tab and the line's last such character, itself `-`, `*` or `_` (-1 when none).
function _lastOtherThanBreak(line: string): number {
  let i = line.length - 1;
  while (i >= 0 && (line[i] === " " || line[i] === "\t")) i--;
  if (i < 0) return -1;
  const c = line[i];
  if (c !== "-" && c !== "*" && c !== "_") return i;
  for (; i >= 0; i--) {
    const ch = line[i];
    if (ch !== c && ch !== " " && ch !== "\t") return i;
  }
  return -1;
}

function _isThematicBreak(s: string): boolean {
  const c = s[0];
  if (c !== "-" && c !== "*" && c !== "_") return false;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === c) count++;
    else if (ch !== " " && ch !== "\t") return false;
  }
  return count >= 3;
}

// `#` to `######` followed by a space, a tab or the end.
function _isAtx(s: string): boolean {
  const level = _atxLevel(s);
  if (level === 0 || level > 6) return false;
  if (level === s.length) return true;
  const c = s.charCodeAt(level);
  return c === 0x20 || c === 0x09;
}

// A setext underline: a run of `=` or of `-`, then only spaces and tabs.
function _isSetext(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c !== 0x3d && c !== 0x2d) return false;
  let k = 1;
  while (s.charCodeAt(k) === c) k++;
  return k + _spaces(s, k) === s.length;
}

function _atxLevel(s: string): number {
  let level = 0;
  while (s[level] === "#") level++;
  return level;
}

function _atxText(s: string): string {
  let t = s.slice(_atxLevel(s)).trim();
  // A closing sequence of `#`s is dropped when it is preceded by a space (or is all there is).
  let end = t.length;
  while (end > 0 && t[end - 1] === "#") end--;
  if (end === 0) return "";
  if (end < t.length && (t[end - 1] === " " || t[end - 1] === "\t")) t = t.slice(0, end).trimEnd();
  return t;
}

// Moves leading reference definitions out of a paragraph or setext heading;
// false when nothing is left of the block.
function _takeDefinitions(block: MarkdownBlock, into: LinkDefinition[]): boolean {
  let taken = 0;
  while (taken < block.lines.length) {
    const line = block.lines[taken];
    if (!_mayBeDefinition(line)) break;
    const m = DEFINITION_LABEL.exec(line);
    if (!m || m[1].trim() === "" || m[1].startsWith("^")) break; // `[^x]:` is a footnote
    let rest = line.slice(m[0].length).trim();
    let used = 1;
    if (rest === "" && taken + 1 < block.lines.length) {
      rest = block.lines[taken + 1].trim();
      used = 2;
    }
    const destination = _definitionDestination(rest);
    if (destination === undefined) break;
    into.push({ line: block.line + taken, label: normalizeLabel(m[1]), destination });
    taken += used;
  }
  if (taken === 0) return true;
  // A raw block now starts after the taken lines (each a whole line with its `\n`).
  for (let k = 0; k < taken; k++) (block as _Block).start += block.lines[k].length + 1;
  block.lines = block.lines.slice(taken);
  block.line += taken;
  block.task = undefined;
  return block.lines.length > 0;
}

// Whether a line starts with up to 3 spaces and `[`: a cheap test before DEFINITION_LABEL.
function _mayBeDefinition(line: string): boolean {
  for (let i = 0; i < 4; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5b) return true;
    if (c !== 0x20) return false;
  }
  return false;
}

// The destination of a definition line's rest, when the rest is a valid
// destination optionally followed by whitespace and a title.
function _definitionDestination(rest: string): string | undefined {
  if (rest.startsWith("<")) {
    const close = rest.indexOf(">");
    if (close < 0 || rest.slice(1, close).includes("<")) return undefined;
    return _titleOnly(rest.slice(close + 1)) ? rest.slice(1, close) : undefined;
  }
  const m = /^\S+/.exec(rest);
  if (!m || !_balanced(m[0])) return undefined;
  return _titleOnly(rest.slice(m[0].length)) ? m[0] : undefined;
}

/**
 * Whether what follows a definition's destination is nothing, or whitespace and a title closed
 * on this line with nothing after it (`[a]: b.md "t" x` is a paragraph, as `[a]: b.md "t`).
 */
function _titleOnly(after: string): boolean {
  if (after === "") return true;
  if (after[0] !== " " && after[0] !== "\t") return false;
  const title = after.trimStart();
  const open = title[0];
  const close = open === "(" ? ")" : open;
  if (open !== '"' && open !== "'" && open !== "(") return false;
  for (let i = 1; i < title.length; i++) {
    if (title[i] === "\\") i++;
    else if (title[i] === close) return title.slice(i + 1).trim() === "";
    else if (open === "(" && title[i] === "(") return false;
  }
  return false;
}

// Whether a bare destination's unescaped parentheses balance (CommonMark requires it).
function _balanced(destination: string): boolean {
  let depth = 0;
  for (let i = 0; i < destination.length; i++) {
    const c = destination[i];
    if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

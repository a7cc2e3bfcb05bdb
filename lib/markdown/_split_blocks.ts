/**
 * The block structure of a Markdown document, in one linear pass over its
 * lines: the containers each line sits in (block quotes, list items), the
 * fences and HTML blocks they open and close, paragraphs, headings and
 * reference definitions. What one line's content shows is `_block_syntax.ts`.
 *
 * @module
 */

import {
  atxLevel,
  atxText,
  BREAK_CHARS,
  closesFence,
  countSpaces,
  htmlBlockEnd,
  isAtx,
  isBlank,
  isSetext,
  isThematicBreak,
  lastOtherThanBreak,
  listMarker,
  openingFence,
  QUOTE_MARKER,
  quoted,
  startsBlock,
  taskMarker,
} from "./_block_syntax.ts";
import { takeDefinitions } from "./_link_definitions.ts";
import {
  type LinkDefinition,
  type MarkdownBlock,
  newBlock,
  type RawBlock,
} from "./_markdown_doc.ts";

/**
 * The blocks and reference definitions of `text` from line `bodyStart` (0-based: the line after
 * the frontmatter) on; fenced and indented code are left out. `lf` says the text has no `\r`: its
 * lines are then walked without splitting it, and a block of whole lines records where it is in
 * the text (see {@linkcode RawBlock}).
 *
 * @example
 * ```ts
 * import { splitBlocks } from "./_split_blocks.ts";
 * import assert from "node:assert/strict";
 *
 * const { blocks } = splitBlocks("> - [ ] a\n>   b\n\n    code\n", true, 0);
 * assert.deepEqual(blocks.map((b) => [b.kind, b.lines, b.task]), [["paragraph", ["a", "b"], "open"]]);
 * ```
 */
export function splitBlocks(
  text: string,
  lf: boolean,
  bodyStart: number,
): { blocks: MarkdownBlock[]; definitions: LinkDefinition[] } {
  const lines = lf ? undefined : text.split(/\r\n|\r|\n/);
  let next = lf ? _lineStart(text, bodyStart) : 0; // the next line's offset (`lf`)
  const blocks: MarkdownBlock[] = [];
  const definitions: LinkDefinition[] = [];
  // An open fence or HTML block, with the container it opened in: it also ends when a line
  // leaves that container (fewer `>` markers, or less indented than its list item).
  let fence: { char: string; length: number; depth: number; indent: number } | undefined;
  let html:
    | { block: RawBlock; end: RegExp | "blank"; depth: number; indent: number }
    | undefined;
  let para: RawBlock | undefined;
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
    let i = bodyStart;
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
      if ((c0 === 0x3e || c0 === 0x20) && quotes > depth && quoted(s)) {
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
      if (closesFence(s, fence)) fence = undefined;
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
    if (lazy && content[0] === "<" && htmlBlockEnd(content, false) !== undefined) {
      para = _flush(para, blocks, definitions);
    }
    // The quote a list was in is closed: so is the list.
    if (depth < listDepth && listStack.length > 0) leaveItems(-1);
    // A line left of an item's content column ends that item (and those nested in it), unless it
    // continues a paragraph; it may still be in an outer item.
    if (
      listIndent >= 0 && indent < listIndent && (blankBefore || !para || startsBlock(content)) &&
      listMarker(content) === 0
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
    let otherAt = -2; // see lastOtherThanBreak (-2: not known yet)
    for (;;) {
      if (indented) break;
      const first = content[0];
      if (first === ">" && listItem) {
        content = content.replace(QUOTE_MARKER, "");
        continue;
      }
      const run = openingFence(content);
      if (run !== undefined) {
        para = _flush(para, blocks, definitions);
        fence = {
          char: run[0],
          length: run.length,
          depth,
          indent: _container(listIndent, column),
        };
        continue lineLoop;
      }
      if (first === "#" && isAtx(content)) {
        para = _flush(para, blocks, definitions);
        blocks.push(
          newBlock("heading", i + 1, [atxText(content)], atxLevel(content), undefined, undefined),
        );
        continue lineLoop;
      }
      if (para && !listItem && !lazy && (first === "=" || first === "-") && isSetext(content)) {
        const level = content[0] === "=" ? 1 : 2;
        // A task item's text can be a heading: the box stays (GitHub renders both).
        // Its text ends with each line (trailing spaces, a hard break, are not in the slug).
        const lines = para.lines.map((l) => l.trimEnd());
        const heading = newBlock("heading", para.line, lines, level, para.task, undefined);
        heading.raw = para.raw && lines.every((l, k) => l === para!.lines[k]);
        heading.start = para.start;
        heading.end = para.end;
        para = undefined;
        if (takeDefinitions(heading, definitions)) blocks.push(heading);
        continue lineLoop;
      }
      if (first === "<" && (listItem || indent - Math.max(listIndent, 0) < 4)) {
        const end = htmlBlockEnd(content, para !== undefined);
        if (end !== undefined) {
          para = _flush(para, blocks, definitions);
          const block = newBlock("html", i + 1, [content], undefined, undefined, undefined);
          blocks.push(block);
          if (end === "blank" || !end.test(content.slice(2))) {
            html = { block, end, depth, indent: _container(listIndent, column) };
          }
          continue lineLoop;
        }
      }
      // Each container level looks at a shorter rest of the line: a rest holding a character
      // that a break ending the line cannot hold is none, found once per line (`- - - … x`
      // stays linear).
      if (otherAt === -2 && BREAK_CHARS.has(first)) otherAt = lastOtherThanBreak(line);
      if (line.length - content.length > otherAt && isThematicBreak(content)) {
        para = _flush(para, blocks, definitions);
        continue lineLoop;
      }
      const marker = listMarker(content);
      if (marker > 0) {
        const spaces = countSpaces(content, marker);
        const rest = content.slice(marker + spaces);
        // A marker interrupts no paragraph: after a blank line, at the start, nested in this
        // line's item, as the next item of the paragraph's list (left of its text), or outside
        // the quote the paragraph is in. Nested in the paragraph's item, it does (below).
        const inList = listItem || !para || wasBlank || depth < paraDepth ||
          (para.listItem === true && indent < listIndent);
        // Only a bullet or `1.`/`1)` may interrupt a paragraph, and only with content.
        const bulletOrOne = marker === 1 || (marker === 2 && content[0] === "1");
        if (inList || (bulletOrOne && !isBlank(rest))) {
          para = _flush(para, blocks, definitions);
          listItem = true;
          leaveItems(column); // the items whose text is right of this marker end
          column += marker + (spaces >= 1 && spaces <= 4 ? spaces : 1);
          listStack.push(column);
          listIndent = column;
          listDepth = depth;
          content = rest;
          const t = taskMarker(content);
          if (t > 0 && task === undefined) {
            task = content[1] === " " ? "open" : "done";
            content = content.slice(t);
          }
          if (isBlank(content)) {
            if (task) blocks.push(newBlock("paragraph", i + 1, [""], undefined, task, true));
            continue lineLoop;
          }
          continue;
        }
      }
      break;
    }
    if (!para) {
      para = newBlock("paragraph", i + 1, [], undefined, task, listItem || undefined);
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
  return { blocks, definitions };
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

// The content column of the list item a block opens in (0 outside lists).
function _container(listIndent: number, column: number): number {
  return listIndent >= 0 && column >= listIndent ? listIndent : 0;
}

// Ends the open paragraph: its leading definitions go to `definitions`, the rest (if any) to
// `blocks`. Returns `undefined`, the new open paragraph.
function _flush(
  para: RawBlock | undefined,
  blocks: MarkdownBlock[],
  definitions: LinkDefinition[],
): undefined {
  if (para && takeDefinitions(para, definitions)) blocks.push(para);
  return undefined;
}

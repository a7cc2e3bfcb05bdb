/**
 * Link reference definitions (`[label]: destination "title"`): CommonMark
 * takes them from the start of a paragraph (or of the text of a setext
 * heading) when the paragraph ends.
 *
 * @module
 */

import type { LinkDefinition, RawBlock } from "./_markdown_doc.ts";

const DEFINITION_LABEL = /^ {0,3}\[((?:[^\\[\]]|\\.){1,999})\]:/;

/**
 * Moves a paragraph's (or setext heading's) leading reference definitions into
 * `into`; the block then starts after them. False when nothing is left of it.
 *
 * @example
 * ```ts
 * import { takeDefinitions } from "./_link_definitions.ts";
 * import { newBlock } from "./_markdown_doc.ts";
 * import type { LinkDefinition } from "./_markdown_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const block = newBlock("paragraph", 1, ["[A]: ./a.md", "text"], undefined, undefined, undefined);
 * const into: LinkDefinition[] = [];
 * assert.equal(takeDefinitions(block, into), true);
 * assert.deepEqual(into, [{ line: 1, label: "a", destination: "./a.md" }]);
 * assert.deepEqual([block.line, block.lines], [2, ["text"]]);
 * ```
 */
export function takeDefinitions(block: RawBlock, into: LinkDefinition[]): boolean {
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
  for (let k = 0; k < taken; k++) block.start += block.lines[k].length + 1;
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

/**
 * Normalises a link label for matching: trimmed, inner whitespace collapsed,
 * case folded.
 *
 * @example
 * ```ts
 * import { normalizeLabel } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeLabel("  Foo \n Bar "), "foo bar");
 * ```
 */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The block syntax one line can show, tested on the line's content (its
 * container markers and indentation already taken off): fences, ATX and setext
 * headings, thematic breaks, list and task markers, HTML block starts. The
 * line loop that keeps the containers is `_split_blocks.ts`.
 *
 * @module
 */

/** A block quote marker: up to 3 spaces, `>` and an optional space. */
export const QUOTE_MARKER: RegExp = /^ {0,3}> ?/;

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

/** The characters a thematic break is made of. */
export const BREAK_CHARS: ReadonlySet<string> = new Set(["-", "*", "_"]);

/**
 * The run of backticks or tildes that opens a fence at the start of `s`, or
 * `undefined` (a backtick fence's info string holds no backtick: `` ```x` ``
 * is a code span).
 *
 * @example
 * ```ts
 * import { openingFence } from "./_block_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(openingFence("~~~~ ts"), "~~~~");
 * assert.equal(openingFence("```a`b"), undefined);
 * ```
 */
export function openingFence(s: string): string | undefined {
  const c = s[0];
  if (c !== "`" && c !== "~") return undefined;
  const f = FENCE_OPEN.exec(s);
  return f !== null && !(f[1][0] === "`" && f[2].includes("`")) ? f[1] : undefined;
}

/** Whether `s` closes a fence of `fence.length` or more `fence.char`s (spaces around allowed). */
export function closesFence(s: string, fence: { char: string; length: number }): boolean {
  const t = s.trim();
  if (t.length < fence.length) return false;
  for (let i = 0; i < t.length; i++) if (t[i] !== fence.char) return false;
  return true;
}

/**
 * The end condition of the HTML block that `s` starts (a pattern, or `"blank"`
 * for a blank line), or `undefined` when it starts none. With `interrupting`,
 * only the kinds that may interrupt a paragraph count.
 *
 * @example
 * ```ts
 * import { htmlBlockEnd } from "./_block_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(htmlBlockEnd("<div>", true), "blank");
 * assert.equal(htmlBlockEnd("<span>", true), undefined);
 * assert.equal(htmlBlockEnd("<span>", false), "blank");
 * ```
 */
export function htmlBlockEnd(s: string, interrupting: boolean): RegExp | "blank" | undefined {
  for (const [start, end, interrupts] of HTML_STARTS) {
    if ((interrupts || !interrupting) && start.test(s)) return end;
  }
  return undefined;
}

/**
 * Whether the line starts a block that interrupts a paragraph: a fence, an ATX
 * heading, an HTML block of the kinds that may, or a thematic break
 * (`` `x` y `` or `#tag` are text).
 */
export function startsBlock(content: string): boolean {
  const c = content[0];
  if (c === "`" || c === "~") return openingFence(content) !== undefined;
  if (c === "#") return isAtx(content);
  if (c === "<") return htmlBlockEnd(content, true) !== undefined;
  return isThematicBreak(content);
}

/** Whether `s` starts with up to 3 spaces and `>`: a quote marker (see {@linkcode QUOTE_MARKER}). */
export function quoted(s: string): boolean {
  for (let i = 0; i < 4 && i < s.length; i++) {
    if (s[i] === ">") return true;
    if (s[i] !== " ") return false;
  }
  return false;
}

/**
 * The width of a list marker (`-`, `*`, `+`, or 1–9 digits and `.` or `)`)
 * that starts `s` and is followed by a space, a tab or the end; 0 when there
 * is none.
 *
 * @example
 * ```ts
 * import { listMarker } from "./_block_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(["- a", "12) b", "1234567890. c", "-x"].map(listMarker), [1, 3, 0, 0]);
 * ```
 */
export function listMarker(s: string): number {
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

/**
 * A task marker `[ ]`, `[x]` or `[X]` followed by spaces and tabs (all taken):
 * its length with those spaces, 0 when there is none.
 */
export function taskMarker(s: string): number {
  if (s.charCodeAt(0) !== 0x5b || s.charCodeAt(2) !== 0x5d) return 0;
  const c = s[1];
  if (c !== " " && c !== "x" && c !== "X") return 0;
  // GitHub (cmark-gfm) wants whitespace after the box: `- [ ]` alone is text, `- [ ] ` a task.
  const spaces = countSpaces(s, 3);
  return spaces > 0 ? 3 + spaces : 0;
}

/** How many spaces and tabs start at `from`. */
export function countSpaces(s: string, from: number): number {
  let k = from;
  while (s.charCodeAt(k) === 0x20 || s.charCodeAt(k) === 0x09) k++;
  return k - from;
}

function _isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `s.trim() === ""` without the new string: ASCII is decided here, anything else by `trim`. */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
    return c < 128 ? false : s.trim() === "";
  }
  return true;
}

/**
 * The last index of a character that a thematic break ending the line cannot
 * hold: one other than space, tab and the line's last such character, itself
 * `-`, `*` or `_` (-1 when none).
 */
export function lastOtherThanBreak(line: string): number {
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

/** Whether `s` is a thematic break: 3 or more of one of `-`, `*`, `_`, and spaces or tabs. */
export function isThematicBreak(s: string): boolean {
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

/** Whether `s` is an ATX heading: `#` to `######` followed by a space, a tab or the end. */
export function isAtx(s: string): boolean {
  const level = atxLevel(s);
  if (level === 0 || level > 6) return false;
  if (level === s.length) return true;
  const c = s.charCodeAt(level);
  return c === 0x20 || c === 0x09;
}

/** Whether `s` is a setext underline: a run of `=` or of `-`, then only spaces and tabs. */
export function isSetext(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c !== 0x3d && c !== 0x2d) return false;
  let k = 1;
  while (s.charCodeAt(k) === c) k++;
  return k + countSpaces(s, k) === s.length;
}

/** How many `#` start `s`: an ATX heading's level. */
export function atxLevel(s: string): number {
  let level = 0;
  while (s[level] === "#") level++;
  return level;
}

/**
 * An ATX heading's text: trimmed, without its closing sequence of `#`s.
 *
 * @example
 * ```ts
 * import { atxText } from "./_block_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(["## Usage ##", "# C#", "### ###"].map(atxText), ["Usage", "C#", ""]);
 * ```
 */
export function atxText(s: string): string {
  let t = s.slice(atxLevel(s)).trim();
  // A closing sequence of `#`s is dropped when it is preceded by a space (or is all there is).
  let end = t.length;
  while (end > 0 && t[end - 1] === "#") end--;
  if (end === 0) return "";
  if (end < t.length && (t[end - 1] === " " || t[end - 1] === "\t")) t = t.slice(0, end).trimEnd();
  return t;
}

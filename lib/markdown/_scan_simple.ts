/**
 * The fast paths of the inline scan: most blocks hold only links like
 * `[text](path.md)` and one-line code spans like `` `x` ``, which need none of
 * the scanner's state (brackets, delimiters, the work budget). Each finds what
 * the general scanner (`_inline_scanner.ts`) would.
 *
 * @module
 */

import {
  BACKSLASH,
  BACKTICK,
  BANG,
  isAsciiPunct,
  LBRACKET,
  LT,
  nextSpecial,
  RBRACKET,
  SPECIAL,
} from "./_inline_chars.ts";
import type { InlineCode, InlineLink, InlineScan } from "./_inline_scan.ts";

/**
 * The scan of a text whose syntax is only simple links (see
 * {@linkcode simpleLinkText}), simple code spans (see
 * {@linkcode simpleCodeClose}), backslash escapes and stray `]` or `!`, found
 * without the scanner's state: what the scanner finds for such a text.
 * `undefined` at anything else (a `<`, or a `[` or backtick that starts no
 * simple link or span): the scanner then starts over. `start` is the first
 * character that can start syntax.
 *
 * @example
 * ```ts
 * import { scanSimple } from "./_scan_simple.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(scanSimple("a [b](c.md) `d`", 2), {
 *   links: [{ offset: 2, destination: "c.md", image: false }],
 *   codeSpans: [{ offset: 12, content: "d" }],
 *   tags: [],
 * });
 * assert.equal(scanSimple("a <b>", 2), undefined);
 * ```
 */
export function scanSimple(src: string, start: number): InlineScan | undefined {
  const links: InlineLink[] = [];
  const codeSpans: InlineCode[] = [];
  const n = src.length;
  for (let i = start; i >= 0; i = i < n ? nextSpecial(src, i, SPECIAL) : -1) {
    const c = src.charCodeAt(i);
    if (c === BACKTICK) {
      const close = simpleCodeClose(src, i);
      if (close < 0) return undefined;
      codeSpans.push({ offset: i, content: stripPadding(src.slice(i + 1, close)) });
      i = close + 1;
    } else if (c === LBRACKET || (c === BANG && src.charCodeAt(i + 1) === LBRACKET)) {
      const image = c === BANG;
      const text = simpleLinkText(src, image ? i + 1 : i);
      const end = text < 0 ? -1 : simpleDestinationEnd(src, text + 2);
      if (end < 0) return undefined;
      links.push({ offset: i, destination: src.slice(text + 2, end), image });
      i = end + 1;
    } else if (c === BACKSLASH) {
      i += isAsciiPunct(src.charCodeAt(i + 1)) ? 2 : 1;
    } else if (c === RBRACKET || c === BANG) {
      i++; // a `]` without an opener, a `!` without `[`: literal
    } else return undefined;
  }
  return { links, codeSpans, tags: [] };
}

/**
 * A simple code span's closing backtick, for the backtick at `i` that starts a run: one or more
 * characters, none a backtick or line break, then a lone backtick. -1 when there is none.
 */
export function simpleCodeClose(src: string, i: number): number {
  let k = i + 1;
  for (; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === BACKTICK) break;
    if (c === 0x0a) return -1;
  }
  if (k === i + 1 || k >= src.length || src.charCodeAt(k + 1) === BACKTICK) return -1;
  return k;
}

/**
 * A simple link's `]`, for the `[` at `open`: the text has no `\`, `[`, backtick, `<` or `!`,
 * and `(` follows. -1 when there is none.
 */
export function simpleLinkText(src: string, open: number): number {
  for (let k = open + 1; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === RBRACKET) return src.charCodeAt(k + 1) === 0x28 ? k : -1;
    if (c === BACKSLASH || c === LBRACKET || c === BACKTICK || c === LT || c === BANG) return -1;
  }
  return -1;
}

/**
 * A simple link destination's closing `)`, for the destination starting at `from`: it does not
 * start with `<`, and has no controls, space, `\`, `(` or DEL. -1 when there is none.
 */
export function simpleDestinationEnd(src: string, from: number): number {
  if (src.charCodeAt(from) === LT) return -1;
  for (let k = from; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === 0x29) return k;
    if (!((c >= 0x21 && c <= 0x7e && c !== 0x28 && c !== BACKSLASH) || c >= 0x80)) return -1;
  }
  return -1;
}

/**
 * A code span's content with one space stripped from both ends, when it has a space at both
 * ends and is not all white space (CommonMark's padding).
 */
export function stripPadding(content: string): string {
  return content.length > 1 && content[0] === " " && content.at(-1) === " " &&
      content.trim() !== ""
    ? content.slice(1, -1)
    : content;
}

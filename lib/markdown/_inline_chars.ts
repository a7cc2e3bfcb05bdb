/**
 * The characters inline syntax is made of, and the search for the next one:
 * shared by the fast paths (`_scan_simple.ts`) and the scanner
 * (`_inline_scanner.ts`).
 *
 * @module
 */

/** `\` */
export const BACKSLASH = 0x5c;
/** `` ` `` */
export const BACKTICK = 0x60;
/** `<` */
export const LT = 0x3c;
/** `!` */
export const BANG = 0x21;
/** `[` */
export const LBRACKET = 0x5b;
/** `]` */
export const RBRACKET = 0x5d;
/** `_` */
export const UNDERSCORE = 0x5f;
/** `&` */
export const AMP = 0x26;
/** The characters that can start syntax (global: for {@linkcode nextSpecial}). */
export const SPECIAL: RegExp = /[\\`<![\]]/g;
/** {@linkcode SPECIAL}, and `_` and `&`, which matter only for the plain text. */
export const SPECIAL_TEXT: RegExp = /[\\`<![\]_&]/g;

/**
 * The offset of the first match of `re` (global) at or after `i`, or -1. A
 * native regex search beats a charCode loop here: the gaps between syntax
 * characters are long.
 *
 * @example
 * ```ts
 * import { nextSpecial, SPECIAL } from "./_inline_chars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nextSpecial("a [b] c", 0, SPECIAL), 2);
 * assert.equal(nextSpecial("a [b] c", 5, SPECIAL), -1);
 * ```
 */
export function nextSpecial(src: string, i: number, re: RegExp): number {
  re.lastIndex = i;
  return re.test(src) ? re.lastIndex - 1 : -1;
}

/** ASCII punctuation (what a backslash escapes): `!`–`/`, `:`–`@`, `[`–`` ` ``, `{`–`~`. */
export function isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e);
}

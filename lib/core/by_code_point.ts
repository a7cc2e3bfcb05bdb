/**
 * Deterministic ordering of paths by Unicode code point (not UTF-16 code
 * unit order, which puts an emoji before U+FFFD).
 *
 * @module
 */

/**
 * Compares two strings by code point, for `Array.prototype.sort`. Lone
 * surrogates (how `decodePath` carries undecodable bytes of a
 * file name) order as their own code points.
 *
 * @example
 * ```ts
 * import { byCodePoint } from "./by_code_point.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(["\u{1F600}", "\uFFFD", "a"].sort(byCodePoint), ["a", "\uFFFD", "\u{1F600}"]);
 * ```
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return _rank(x) - _rank(y);
  }
  return a.length - b.length;
}

/** Code units remapped so that surrogates (astral code points) sort after U+E000–U+FFFF. */
function _rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

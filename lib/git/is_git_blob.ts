/**
 * Whether bytes are those of a git blob, by its id: the scanner checks the
 * bytes it read against the blob id git's index holds for the file, to know
 * that the facts it made of them are those of that blob.
 *
 * @module
 */

/**
 * Whether `oid` is the SHA-1 blob id of `bytes` (what `git hash-object`
 * gives in a repository whose object format is SHA-1, the default: the SHA-1
 * of `blob <length>\0` followed by the bytes, as 40 lower-case hex digits).
 * Hashes the bytes where they are, with nothing made per call (a scan hashes
 * every doc it reads); `false` for any `oid` that is not 40 hex digits.
 *
 * @example
 * ```ts
 * import { isGitBlob } from "./is_git_blob.ts";
 * import assert from "node:assert/strict";
 *
 * // `printf 'a\n' | git hash-object --stdin`
 * const a = new TextEncoder().encode("a\n");
 * assert.ok(isGitBlob(a, "78981922613b2afb6025042ff6bd878ac1994e85"));
 * assert.ok(!isGitBlob(a, "78981922613b2afb6025042ff6bd878ac1994e86"));
 * // The empty blob.
 * assert.ok(isGitBlob(new Uint8Array(), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"));
 * ```
 */
export function isGitBlob(bytes: Uint8Array, oid: string): boolean {
  if (oid.length !== 40) return false;
  _hash(bytes);
  for (let word = 0; word < 5; word++) {
    const value = _h[word];
    for (let nibble = 0; nibble < 8; nibble++) {
      const digit = (value >>> (28 - 4 * nibble)) & 0xf;
      if (oid.charCodeAt(word * 8 + nibble) !== _HEX[digit]) return false;
    }
  }
  return true;
}

/** `blob `, as bytes. */
const _BLOB = [98, 108, 111, 98, 32];

/** The character codes of the hex digits, lower case. */
const _HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/** Hashes the blob of `bytes` into `_h`. */
function _hash(bytes: Uint8Array): void {
  const h = _h;
  h[0] = 0x67452301;
  h[1] = 0xefcdab89 | 0;
  h[2] = 0x98badcfe | 0;
  h[3] = 0x10325476;
  h[4] = 0xc3d2e1f0 | 0;
  // The header, `blob <length>\0`, in `_head`.
  const head = _head;
  let length = 0;
  for (; length < _BLOB.length; length++) head[length] = _BLOB[length];
  const digits = String(bytes.length);
  for (let i = 0; i < digits.length; i++) head[length++] = digits.charCodeAt(i);
  head[length++] = 0;
  const total = length + bytes.length;
  // The message is the header, then the bytes, then padding: its whole blocks are hashed from
  // the bytes themselves, the first (which holds the header) and the last from `_block`.
  const block = _block;
  let pos = 0;
  const whole = total - (total % 64);
  while (pos < whole) {
    if (pos >= length) {
      _compress(bytes, pos - length);
    } else {
      _fill(block, head, length, bytes, pos, 64);
      _compress(block, 0);
    }
    pos += 64;
  }
  // The tail: what is left, 0x80, zeros, and the length in bits (64-bit big-endian).
  const rest = total - whole;
  block.fill(0);
  _fill(block, head, length, bytes, pos, rest);
  block[rest] = 0x80;
  const end = rest + 9 > 64 ? 128 : 64;
  const bits = total * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  for (let i = 0; i < 4; i++) {
    block[end - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    block[end - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }
  _compress(block, 0);
  if (end === 128) _compress(block, 64);
}

/** The hash state, reused (one thread hashes one message at a time). */
const _h = new Int32Array(5);
/** The message schedule, reused. */
const _w = new Int32Array(80);
/** The blocks that hold the header or the padding. */
const _block = new Uint8Array(128);
/** The header (`blob ` and at most 16 digits and a NUL). */
const _head = new Uint8Array(32);

/**
 * Copies `length` bytes of the message (the header, `headLength` bytes of
 * `head`, then `bytes`) from `pos` into `block`.
 */
function _fill(
  block: Uint8Array,
  head: Uint8Array,
  headLength: number,
  bytes: Uint8Array,
  pos: number,
  length: number,
): void {
  let i = 0;
  for (; i < length && pos + i < headLength; i++) block[i] = head[pos + i];
  for (let from = pos + i - headLength; i < length; i++) block[i] = bytes[from++];
}

/** Hashes the 64-byte block of `src` at `offset` into `_h`. */
function _compress(src: Uint8Array, offset: number): void {
  const w = _w;
  for (let t = 0; t < 16; t++) {
    const i = offset + t * 4;
    w[t] = (src[i] << 24) | (src[i + 1] << 16) | (src[i + 2] << 8) | src[i + 3];
  }
  for (let t = 16; t < 80; t++) {
    const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
    w[t] = (x << 1) | (x >>> 31);
  }
  const h = _h;
  let a = h[0];
  let b = h[1];
  let c = h[2];
  let d = h[3];
  let e = h[4];
  // The four rounds of twenty, each with its own function and constant.
  for (let t = 0; t < 20; t++) {
    const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + w[t] + 0x5a827999) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = temp;
  }
  for (let t = 20; t < 40; t++) {
    const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + w[t] + 0x6ed9eba1) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = temp;
  }
  for (let t = 40; t < 60; t++) {
    const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + w[t] + 0x8f1bbcdc) |
      0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = temp;
  }
  for (let t = 60; t < 80; t++) {
    const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + w[t] + 0xca62c1d6) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = temp;
  }
  h[0] = (h[0] + a) | 0;
  h[1] = (h[1] + b) | 0;
  h[2] = (h[2] + c) | 0;
  h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0;
}

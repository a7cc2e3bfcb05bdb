/**
 * File names as git and the filesystem hand them over: bytes, not always
 * UTF-8.
 *
 * @module
 */

/**
 * Decodes a file name from raw bytes: UTF-8 where valid, and each byte of an
 * invalid sequence as the lone surrogate U+DC80–U+DCFF (the "surrogateescape"
 * convention of PEP 383). The mapping is one-to-one, so two distinct names
 * never collide, and `JSON.stringify` writes such a byte as `\udcXX`. A
 * decoded string with such a surrogate names a file Deno cannot open.
 *
 * @example
 * ```ts
 * import { decodePath } from "./decode_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodePath(new Uint8Array([0x63, 0xc3, 0xa9])), "c\u00e9");
 * assert.equal(decodePath(new Uint8Array([0x63, 0xe9])), "c\udce9");
 * ```
 */
export function decodePath(bytes: Uint8Array): string {
  try {
    return _strict.decode(bytes);
  } catch {
    let out = "";
    let i = 0;
    while (i < bytes.length) {
      const len = _sequenceLength(bytes, i);
      if (len === 0) {
        out += String.fromCharCode(0xdc00 + bytes[i]);
        i++;
      } else {
        out += _strict.decode(bytes.subarray(i, i + len));
        i += len;
      }
    }
    return out;
  }
}

/**
 * Splits NUL-terminated records (git's `-z` output) and decodes each with
 * {@linkcode decodePath}. Bytes after the last NUL are an unterminated
 * (truncated) record and are dropped. Valid UTF-8 output, the common case, is
 * decoded in one go.
 *
 * @example
 * ```ts
 * import { decodeNulTerminated } from "./decode_path.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new Uint8Array([0x61, 0, 0xe9, 0, 0x62]);
 * assert.deepEqual(decodeNulTerminated(bytes), ["a", "\udce9"]);
 * ```
 */
export function decodeNulTerminated(bytes: Uint8Array): string[] {
  let records: string[];
  try {
    records = _strict.decode(bytes).split("\0");
  } catch {
    records = [];
    let start = 0;
    for (let end = bytes.indexOf(0); end >= 0; end = bytes.indexOf(0, start)) {
      records.push(decodePath(bytes.subarray(start, end)));
      start = end + 1;
    }
    return records;
  }
  records.pop(); // after the last NUL: empty, or a truncated record
  return records;
}

/**
 * Whether `path` carries undecodable bytes (see {@linkcode decodePath}).
 *
 * @example
 * ```ts
 * import { decodePath, hasUndecodableBytes } from "./decode_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(hasUndecodableBytes(decodePath(new Uint8Array([0xff]))));
 * assert.ok(!hasUndecodableBytes("caf\u00e9.md"));
 * ```
 */
export function hasUndecodableBytes(path: string): boolean {
  return _UNDECODABLE.test(path);
}

/**
 * `path` with each undecodable byte (see {@linkcode decodePath}) shown as
 * `\xNN`, for messages; a surrogate pair (a valid astral character) is kept.
 *
 * @example
 * ```ts
 * import { decodePath, showUndecodable } from "./decode_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(showUndecodable(decodePath(new Uint8Array([0x63, 0xe9]))), "c\\xe9");
 * assert.equal(showUndecodable("\u{10080}.md"), "\u{10080}.md");
 * ```
 */
export function showUndecodable(path: string): string {
  return path.replace(_UNDECODABLES, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16)}`);
}

/** A lone surrogate U+DC80–U+DCFF: one undecodable byte (not the second half of a pair). */
const _UNDECODABLE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const _UNDECODABLES = new RegExp(_UNDECODABLE.source, "g");

const _strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when invalid. */
function _sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1];
    if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
    if (c === 0xed && c1 >= 0xa0) return 0; // UTF-16 surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1];
    if (c === 0xf0 && c1 < 0x90) return 0; // overlong
    if (c === 0xf4 && c1 >= 0x90) return 0; // > U+10FFFF
    return 4;
  }
  return 0;
}

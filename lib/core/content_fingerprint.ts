/**
 * The identity of a doc's content for the scan's `duplicate` signal: its
 * bytes with line endings (`\r\n`, a lone `\r`) counted as `\n`, so a CRLF
 * copy of a doc is its duplicate. Readers take a short fingerprint of it;
 * only docs whose fingerprints are equal are compared byte for byte.
 *
 * @module
 */

/**
 * A fingerprint of `bytes` with line endings counted as `\n`: that length and
 * two 32-bit hashes of the same words (not cryptographic: a collision can be
 * searched for in seconds). Equal contents give equal fingerprints; different
 * contents rarely do, and {@linkcode contentIdentity} tells those apart: equal
 * fingerprints are never taken as proof. ~3 µs for a 2 KB doc, four bytes at
 * a time.
 *
 * @example
 * ```ts
 * import { contentFingerprint } from "./content_fingerprint.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assert.equal(contentFingerprint(bytes("a\r\nb\rc\n")), contentFingerprint(bytes("a\nb\nc\n")));
 * assert.notEqual(contentFingerprint(bytes("a\n")), contentFingerprint(bytes("b\n")));
 * ```
 */
export function contentFingerprint(bytes: Uint8Array): string {
  // Whole 32-bit words from an aligned view; the last 0–3 bytes one by one. Bytes not aligned
  // (e.g. the scan cache's body, after its checksum line) are copied a piece at a time into one
  // small aligned buffer, never whole: a copy of a 14 MB cache cost ~8 ms and as much garbage.
  const count = bytes.length >>> 2;
  const aligned = bytes.byteOffset % 4 === 0;
  const all = aligned ? new Int32Array(bytes.buffer, bytes.byteOffset, count) : undefined;
  const scratch = aligned ? undefined : new Int32Array(Math.min(count, _PIECE_WORDS));
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let start = 0; start < count; start += _PIECE_WORDS) {
    const end = Math.min(count, start + _PIECE_WORDS);
    let words = all;
    if (scratch !== undefined) {
      new Uint8Array(scratch.buffer).set(bytes.subarray(start * 4, end * 4));
      words = scratch;
    }
    for (let i = all === undefined ? 0 : start, last = i + end - start; i < last; i++) {
      const w = words![i];
      // A word holding a `\r` byte (a zero byte in w ^ 0x0d0d0d0d): hash the normalised bytes instead.
      const x = w ^ 0x0d0d0d0d;
      if ((((x - 0x01010101) | 0) & ~x & -0x7f7f7f80) !== 0) {
        return contentFingerprint(_normalized(bytes));
      }
      h1 = Math.imul(h1 ^ w, 0x01000193);
      h1 ^= h1 >>> 15;
      h2 = Math.imul(h2 ^ w, 0x5bd1e995);
      h2 ^= h2 >>> 13;
    }
  }
  for (let i = count * 4; i < bytes.length; i++) {
    if (bytes[i] === 0x0d) return contentFingerprint(_normalized(bytes));
    h1 = Math.imul(h1 ^ bytes[i], 0x01000193);
    h2 = Math.imul(h2 ^ bytes[i], 0x5bd1e995);
  }
  return `${bytes.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}

/** Words hashed per piece of a view that is not aligned (64 KiB). */
const _PIECE_WORDS = 1 << 14;

/**
 * The content itself, as a string key: `bytes` with line endings counted as
 * `\n`, one character per byte. Two docs are duplicates when their identities
 * are equal.
 *
 * @example
 * ```ts
 * import { contentIdentity } from "./content_fingerprint.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assert.equal(contentIdentity(bytes("é\r\n")), contentIdentity(bytes("é\n")));
 * assert.notEqual(contentIdentity(bytes("\ufeffa\n")), contentIdentity(bytes("a\n")));
 * ```
 */
export function contentIdentity(bytes: Uint8Array): string {
  return _latin1.decode(bytes.indexOf(0x0d) >= 0 ? _normalized(bytes) : bytes);
}

/** `bytes` with each `\r\n` and lone `\r` as `\n`. */
function _normalized(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x0d) out[n++] = b;
    else if (bytes[i + 1] !== 0x0a) out[n++] = 0x0a;
  }
  return out.subarray(0, n);
}

// Every byte to its own character (WHATWG windows-1252 maps all 256 distinctly).
const _latin1 = new TextDecoder("windows-1252");

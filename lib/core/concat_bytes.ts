/**
 * Joins byte chunks (read piece by piece from a stream) into one array.
 *
 * @module
 */

/**
 * The chunks one after the other in one `Uint8Array` of `size` bytes (their
 * total length, which the reader has counted already).
 *
 * @example
 * ```ts
 * import { concatBytes } from "./concat_bytes.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = concatBytes([new Uint8Array([1, 2]), new Uint8Array([3])], 3);
 * assert.deepEqual([...bytes], [1, 2, 3]);
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

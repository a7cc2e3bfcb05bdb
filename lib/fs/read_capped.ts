/**
 * Reading an input stream with a size cap, so a huge stdin fails fast
 * instead of filling memory.
 *
 * @module
 */

import { concatBytes } from "../core/concat_bytes.ts";

/**
 * Reads `stream` to the end, or stops (cancelling it) as soon as more than
 * `maxBytes` arrived and returns `undefined`.
 *
 * @example
 * ```ts
 * import { readCapped } from "./read_capped.ts";
 * import assert from "node:assert/strict";
 *
 * const small = new Blob(["hello"]).stream();
 * assert.equal(new TextDecoder().decode(await readCapped(small, 10)), "hello");
 * assert.equal(await readCapped(new Blob(["hello"]).stream(), 4), undefined);
 * ```
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks, total);
}

import assert from "node:assert/strict";
import { contentFingerprint } from "../../lib/core/content_fingerprint.ts";

/** `text` encoded at byte `offset` of a larger buffer (not 4-aligned unless `offset` is). */
function at(offset: number, text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const buffer = new Uint8Array(offset + bytes.length);
  buffer.set(bytes, offset);
  return buffer.subarray(offset);
}

Deno.test("contentFingerprint gives bytes at any offset the fingerprint of the same bytes aligned", () => {
  // Over several 64 KiB pieces, with a tail of 0-3 bytes, and with a `\r` in a later piece.
  const long = Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join("");
  for (const text of [long, long + "ab", `${long}a\r\nb${long}`, "", "abc", "abcdefg"]) {
    const aligned = contentFingerprint(at(0, text));
    for (const offset of [1, 2, 3, 5]) assert.equal(contentFingerprint(at(offset, text)), aligned);
  }
  assert.equal(
    contentFingerprint(at(1, `${long}a\r\nb`)),
    contentFingerprint(at(0, `${long}a\nb`)),
  );
  assert.notEqual(contentFingerprint(at(3, `${long}x`)), contentFingerprint(at(0, `${long}y`)));
});

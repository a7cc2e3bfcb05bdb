import assert from "node:assert/strict";
import { cacheChecksum, cacheListing, ScanCache } from "../../lib/scan/scan_cache.ts";
import { DiskRecord } from "../../lib/links/disk_record.ts";
import { joinPieces } from "../support/helpers.ts";

const MIB = 1 << 20;

Deno.test("a cache over 1 MiB, a character of 2, 3 or 4 bytes split across its pieces, reads back as written", () => {
  const listing = cacheListing({ paths: ["a.md", "b.md"], nonFiles: [], opaque: [] });
  const docsWith = (first: string, second: string) =>
    [["a.md", "k1", first, ""], ["b.md", "k2", second, ""]] as const;
  // The header line's length (the lines do not change it).
  const headerBytes = joinPieces(ScanCache.format(listing, new DiskRecord(), docsWith("x", "y")))
    .indexOf(0x0a) + 1;
  for (const char of ["é", "中", "😀"]) {
    const size = new TextEncoder().encode(char).length;
    for (let before = 1; before < size; before++) {
      // The second line's character starts `before` bytes before the first piece ends.
      const length = MIB - before - headerBytes - 1 - 2;
      const first = `[${"1,".repeat(length / 2)}`.slice(0, length - 2) + "1]";
      assert.equal(first.length, length);
      const second = `["${char.repeat(3)}"]\t[]\tnull`;
      const pieces = [...ScanCache.format(listing, new DiskRecord(), docsWith(first, second))];
      assert.equal(pieces[0].length, MIB, "the first piece is full");
      const bytes = joinPieces(pieces);
      assert.equal(bytes[MIB - before - 1], 0x22, "the character starts where it should"); // `"`
      // Valid UTF-8 throughout: the same bytes as the whole text encoded at once.
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      assert.deepEqual(bytes, new TextEncoder().encode(text));
      const sumAt = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
      assert.equal(
        new TextDecoder().decode(bytes.subarray(sumAt, -1)),
        cacheChecksum(bytes.subarray(0, sumAt)),
      );
      const cache = ScanCache.parse(bytes);
      assert.ok(cache !== undefined, `${char}, ${before} of its bytes in the first piece`);
      assert.equal(cache.line("a.md"), first);
      assert.equal(cache.line("b.md"), second);
      assert.equal(cache.key("b.md"), "k2");
    }
  }
});

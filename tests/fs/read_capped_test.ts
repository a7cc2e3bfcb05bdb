import assert from "node:assert/strict";
import { readCapped } from "../../lib/fs/read_capped.ts";

function chunks(n: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  let cancelled = false;
  return new ReadableStream({
    pull(controller) {
      if (cancelled) return;
      if (sent === n) return controller.close();
      sent++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
    cancel() {
      cancelled = true;
    },
  });
}

Deno.test("readCapped joins every chunk up to the cap", async () => {
  const out = await readCapped(chunks(4, 3), 12);
  assert.equal(new TextDecoder().decode(out), "aaaaaaaaaaaa");
});

Deno.test("readCapped stops at the first byte over the cap, without reading an endless stream", async () => {
  assert.equal(await readCapped(chunks(Infinity, 1024), 10_000), undefined);
});

Deno.test("an empty stream is zero bytes", async () => {
  assert.equal((await readCapped(chunks(0, 1), 0))?.length, 0);
});

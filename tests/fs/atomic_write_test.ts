import assert from "node:assert/strict";
import { atomicWrite, syncDir } from "../../lib/fs/atomic_write.ts";
import { entryNames, tempDir } from "../support/helpers.ts";

Deno.test("atomicWrite creates and then replaces a file, leaving no temp file", async () => {
  await using dir = await tempDir();
  await atomicWrite(`${dir.path}/s.json`, "old\n");
  await atomicWrite(`${dir.path}/s.json`, new TextEncoder().encode("new\n"));
  assert.equal(await Deno.readTextFile(`${dir.path}/s.json`), "new\n");
  assert.deepEqual(await entryNames(dir.path), ["s.json"]);
});

Deno.test("atomicWrite writes large content completely", async () => {
  await using dir = await tempDir();
  const big = "x".repeat(3 * 1024 * 1024 + 7);
  await atomicWrite(`${dir.path}/big`, big);
  assert.equal((await Deno.stat(`${dir.path}/big`)).size, big.length);
});

Deno.test("atomicWrite replaces a symlink at the path instead of writing through it", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await Deno.writeTextFile(`${outside.path}/victim`, "precious");
  await Deno.symlink(`${outside.path}/victim`, `${dir.path}/state.json`);
  await atomicWrite(`${dir.path}/state.json`, "mine");
  assert.equal(await Deno.readTextFile(`${outside.path}/victim`), "precious");
  assert.ok((await Deno.lstat(`${dir.path}/state.json`)).isFile);
  assert.equal(await Deno.readTextFile(`${dir.path}/state.json`), "mine");
});

Deno.test("a failed atomicWrite removes its temp file and keeps the old content", async () => {
  await using dir = await tempDir();
  // The target is a non-empty directory: the rename fails after the temp file was written.
  await Deno.mkdir(`${dir.path}/target`);
  await Deno.writeTextFile(`${dir.path}/target/keep`, "k");
  await assert.rejects(atomicWrite(`${dir.path}/target`, "data"));
  assert.deepEqual(await entryNames(dir.path), ["target"]);
  assert.equal(await Deno.readTextFile(`${dir.path}/target/keep`), "k");
});

Deno.test("atomicWrite into a missing directory fails without creating anything", async () => {
  await using dir = await tempDir();
  await assert.rejects(atomicWrite(`${dir.path}/missing/s.json`, "x"), Deno.errors.NotFound);
  assert.deepEqual(await entryNames(dir.path), []);
});

Deno.test("syncDir tolerates a missing directory", async () => {
  await syncDir("/nonexistent/dochygiene");
});

import assert from "node:assert/strict";
import { atomicWriteChunks } from "../../lib/fs/atomic_write_chunks.ts";
import { tempFileOf } from "../../lib/fs/atomic_write.ts";
import { entryNames, tempDir } from "../support/helpers.ts";

Deno.test("pieces are written in order, strings as UTF-8, replacing the file whole", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/scan.json`;
  await Deno.writeTextFile(path, "old");
  await atomicWriteChunks(path, ["{", new TextEncoder().encode('"é": '), "1}\n"]);
  assert.equal(await Deno.readTextFile(path), '{"é": 1}\n');
  assert.deepEqual(await entryNames(dir.path), ["scan.json"]);
});

Deno.test("a failure midway leaves the old file and no temp file", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/scan.json`;
  await Deno.writeTextFile(path, "old");
  let tempSeen = "";
  const pieces = function* () {
    yield "{";
    // The temp file exists, named as staleTempFiles expects, while pieces are written.
    tempSeen = [...Deno.readDirSync(dir.path)].map((e) => e.name).find((n) => n !== "scan.json")!;
    throw new Error("serialising failed");
  };
  await assert.rejects(atomicWriteChunks(path, pieces()), /serialising failed/);
  assert.equal(tempFileOf(tempSeen)?.target, "scan.json");
  assert.equal(await Deno.readTextFile(path), "old");
  assert.deepEqual(await entryNames(dir.path), ["scan.json"]);
});

Deno.test("a directory where the file belongs is STATE_DIR_INVALID, left in place", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/scan.json`);
  await assert.rejects(
    atomicWriteChunks(`${dir.path}/scan.json`, ["{}"]),
    (err: Error & { code?: string }) => err.code === "STATE_DIR_INVALID",
  );
  assert.ok((await Deno.stat(`${dir.path}/scan.json`)).isDirectory);
});

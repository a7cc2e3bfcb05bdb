/**
 * An atomic write of a large file made piece by piece.
 *
 * @module
 */

import { writeAll, writeTemp } from "./_write_temp.ts";
import { syncDir } from "./atomic_write.ts";
import { dirname } from "./path.ts";

/**
 * Writes `chunks` to `path` as `atomicWrite` does — a temp file named
 * `.<name>.tmp-<pid>-<ms>-<n>` (so `staleTempFiles` finds it when a writer is
 * killed), fsync, rename, fsync of the directory — but writes each chunk as
 * it comes, so the whole file is never held in memory. On failure the temp
 * file is removed and the error thrown.
 *
 * With `reread`, returns the file written opened for reading from its start
 * (the caller closes it): the very bytes written, even if another writer
 * replaces `path` meanwhile — for printing them too without making them twice.
 *
 * @example
 * ```ts
 * import { atomicWriteChunks } from "./atomic_write_chunks.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await atomicWriteChunks(`${dir}/a.json`, ["{", '"a": 1', "}\n"]);
 * assert.equal(await Deno.readTextFile(`${dir}/a.json`), '{"a": 1}\n');
 * using written = await atomicWriteChunks(`${dir}/b.txt`, ["x", "y"], { reread: true });
 * assert.equal(new TextDecoder().decode(await new Response(written.readable).bytes()), "xy");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function atomicWriteChunks(
  path: string,
  chunks: Iterable<string | Uint8Array>,
  options: { reread: true },
): Promise<Deno.FsFile>;
export function atomicWriteChunks(
  path: string,
  chunks: Iterable<string | Uint8Array>,
  options?: { reread?: boolean },
): Promise<Deno.FsFile | undefined>;
export async function atomicWriteChunks(
  path: string,
  chunks: Iterable<string | Uint8Array>,
  options: { reread?: boolean } = {},
): Promise<Deno.FsFile | undefined> {
  const dir = dirname(path);
  const encoder = new TextEncoder();
  const file = writeTemp(path, (file) => {
    for (const chunk of chunks) {
      writeAll(file, typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    }
  }, options.reread === true);
  try {
    await syncDir(dir);
  } catch (err) {
    file?.close();
    throw err;
  }
  return file;
}

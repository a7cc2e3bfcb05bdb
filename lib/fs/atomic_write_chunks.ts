/**
 * An atomic write of a large file made piece by piece.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { syncDir } from "./atomic_write.ts";
import { basename, dirname, join } from "./path.ts";

let _writes = 0;

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
  // Its own counter from far away, so it never names a file as `atomicWrite` in the same ms.
  const tmp = join(
    dir,
    `.${basename(path)}.tmp-${Deno.pid}-${Date.now()}-${1_000_000 + _writes++}`,
  );
  const encoder = new TextEncoder();
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(tmp, {
      read: options.reread === true,
      write: true,
      createNew: true,
      mode: 0o644,
    });
    for (const chunk of chunks) {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    }
    file.syncSync();
    if (options.reread === true) file.seekSync(0, Deno.SeekMode.Start);
    else {
      file.close();
      file = undefined;
    }
    Deno.renameSync(tmp, path);
  } catch (err) {
    file?.close();
    try {
      Deno.removeSync(tmp);
    } catch {
      // The temp file was never created.
    }
    // A directory where the file belongs: never removed here (as `atomicWrite`).
    if (err instanceof Deno.errors.IsADirectory) {
      throw new DochygieneError(
        "STATE_DIR_INVALID",
        `${path} is a directory, not a file; remove it and run again`,
      );
    }
    if (err instanceof Error && !err.message.includes(dir)) err.message += ` (writing ${path})`;
    throw err;
  }
  try {
    await syncDir(dir);
  } catch (err) {
    file?.close();
    throw err;
  }
  return file;
}

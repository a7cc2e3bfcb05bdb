/**
 * The step both atomic writes share: a temp file beside the target, filled,
 * fsynced and renamed over it.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { basename, dirname, join } from "./path.ts";

/**
 * Numbers this process's temp files. With the pid and the time it names a file
 * no other live writer uses, without `crypto` (whose set-up costs the hook
 * start-up time); `createNew` refuses a leftover of the same name rather than
 * share it.
 */
let _writes = 0;

/**
 * Creates `.<name>.tmp-<pid>-<ms>-<n>` beside `path` (the name `staleTempFiles`
 * reads back when a writer is killed), lets `fill` write it, fsyncs it and
 * renames it over `path`; the caller fsyncs the directory. On failure the temp
 * file is removed and the error thrown (a directory at `path` is
 * `STATE_DIR_INVALID`, left as it is). With `reread`, returns the file
 * written, open for reading from its start (the caller closes it).
 *
 * Synchronous syscalls: each async one costs the SessionStart hook a thread hop.
 */
export function writeTemp(
  path: string,
  fill: (file: Deno.FsFile) => void,
  reread: boolean,
): Deno.FsFile | undefined {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.tmp-${Deno.pid}-${Date.now()}-${_writes++}`);
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(tmp, { read: reread, write: true, createNew: true, mode: 0o644 });
    fill(file);
    file.syncSync();
    if (reread) file.seekSync(0, Deno.SeekMode.Start);
    else {
      file.close();
      file = undefined;
    }
    Deno.renameSync(tmp, path);
    return file;
  } catch (err) {
    file?.close();
    try {
      Deno.removeSync(tmp);
    } catch {
      // The temp file was never created.
    }
    // A directory where the file belongs (made by hand, or by a tool gone wrong): never removed here.
    if (err instanceof Deno.errors.IsADirectory) {
      throw new DochygieneError(
        "STATE_DIR_INVALID",
        `${path} is a directory, not a file; remove it and run again`,
      );
    }
    // The operating system's refusals do not always say where (a denied open does not).
    if (err instanceof Error && !err.message.includes(dir)) err.message += ` (writing ${path})`;
    throw err;
  }
}

/** Writes all of `bytes` to `file`. */
export function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

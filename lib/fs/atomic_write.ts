/**
 * Crash-safe file replacement (docs/design.md "Invariants" 5).
 *
 * @module
 */

import { writeAll, writeTemp } from "./_write_temp.ts";
import { dirname } from "./path.ts";

/**
 * Replaces `path` with `data` atomically: write a temp file in the same
 * directory, fsync it, rename it over `path`, fsync the directory. A crash at
 * any instant leaves either the old or the new file; the temp file is removed
 * on failure (a directory at `path` is `STATE_DIR_INVALID`, left as it is). It never writes
 * through a symlink: the temp file is created
 * exclusively and the rename replaces a link at `path` rather than its target.
 *
 * @example
 * ```ts
 * import { atomicWrite } from "./atomic_write.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await atomicWrite(`${dir}/state.json`, '{"a":1}\n');
 * assert.equal(await Deno.readTextFile(`${dir}/state.json`), '{"a":1}\n');
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
// Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
export async function atomicWrite(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  writeTemp(path, (file) => writeAll(file, bytes), false);
  await syncDir(dir);
}

/**
 * fsyncs a directory so that a rename or unlink inside it is durable.
 * Filesystems that cannot fsync a directory are tolerated.
 *
 * @example
 * ```ts
 * import { syncDir } from "./atomic_write.ts";
 *
 * await syncDir(Deno.cwd());
 * ```
 */
// deno-lint-ignore require-await
export async function syncDir(dir: string): Promise<void> {
  let handle: Deno.FsFile | undefined;
  try {
    handle = Deno.openSync(dir, { read: true });
    handle.syncSync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    handle?.close();
  }
}

/**
 * What the name of an {@linkcode atomicWrite} temp file,
 * `.<name>.tmp-<pid>-<ms>-<n>`, says: the name of the file it was to replace
 * and when it was made (epoch milliseconds); `undefined` for any other name.
 * One left in a directory belongs to a writer killed before its rename, or to
 * a write in flight.
 *
 * @example
 * ```ts
 * import { tempFileOf } from "./atomic_write.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(tempFileOf(".state.json.tmp-4242-1796046796262-0"), {
 *   target: "state.json",
 *   stampMs: 1796046796262,
 * });
 * assert.equal(tempFileOf("state.json.tmp-notes"), undefined);
 * ```
 */
export function tempFileOf(name: string): { target: string; stampMs: number } | undefined {
  const m = _TEMP_NAME.exec(name);
  return m === null ? undefined : { target: m[1], stampMs: Number(m[2]) };
}

const _TEMP_NAME = /^\.(.+)\.tmp-\d+-(\d+)-\d+$/;

/**
 * A report file read safely, for whichever command names it: only a regular
 * file, never more than the report size limit, strict UTF-8.
 *
 * @module
 */

import { readCapped } from "../fs/read_capped.ts";
import { MAX_REPORT_BYTES } from "./validate_report.ts";

/** A report file's text, or why there is none (`detail` says it in words, for a message). */
export type ReportFile =
  | { text: string }
  | { problem: "not_file" | "unreadable" | "too_large" | "not_utf8"; detail: string };

/**
 * Reads the report at `path`: a regular file (checked before it is opened:
 * opening a FIFO without a writer blocks forever, and again once open), of at
 * most {@linkcode MAX_REPORT_BYTES} (refused without reading it whole, and
 * capped if it grows meanwhile), decoded as strict UTF-8. Never throws: each
 * caller words the problem for its own option.
 *
 * @example
 * ```ts
 * import { readReportFile } from "./read_report_file.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.json`, "{}");
 * assert.deepEqual(await readReportFile(`${dir}/r.json`), { text: "{}" });
 * assert.deepEqual(await readReportFile(dir), {
 *   problem: "not_file",
 *   detail: "it is not a regular file",
 * });
 * await Deno.writeFile(`${dir}/bad.json`, new Uint8Array([0xff]));
 * assert.deepEqual(await readReportFile(`${dir}/bad.json`), {
 *   problem: "not_utf8",
 *   detail: "it is not UTF-8 text",
 * });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readReportFile(path: string): Promise<ReportFile> {
  const notFile = { problem: "not_file", detail: "it is not a regular file" } as const;
  let handle: Deno.FsFile;
  try {
    if (!(await Deno.stat(path)).isFile) return notFile;
    handle = await Deno.open(path, { read: true });
  } catch (err) {
    return { problem: "unreadable", detail: _reason(err) };
  }
  const info = await handle.stat();
  if (!info.isFile) {
    handle.close();
    return notFile;
  }
  const tooLarge = (size: string) =>
    ({
      problem: "too_large",
      detail: `${size} bytes; a report is at most ${MAX_REPORT_BYTES}`,
    }) as const;
  if (info.size > MAX_REPORT_BYTES) {
    handle.close();
    return tooLarge(String(info.size));
  }
  const bytes = await readCapped(handle.readable, MAX_REPORT_BYTES);
  if (bytes === undefined) return tooLarge(`more than ${MAX_REPORT_BYTES}`);
  return _decoded(bytes);
}

/** A report's bytes as strict UTF-8 text, or the problem. */
function _decoded(bytes: Uint8Array): ReportFile {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { problem: "not_utf8", detail: "it is not UTF-8 text" };
  }
}

/** An error's first line. */
function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

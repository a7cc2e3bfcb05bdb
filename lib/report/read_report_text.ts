/**
 * The report `state.ts report` stores, as text: from `--file F` or stdin,
 * capped at the report size limit and decoded as strict UTF-8.
 *
 * @module
 */

import { resolve } from "node:path";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { readCapped } from "../fs/read_capped.ts";
import { MAX_REPORT_BYTES } from "./validate_report.ts";
import { readReportFile } from "./read_report_file.ts";

/** Where {@linkcode readReportText} reads a report given on stdin (`Deno.stdin`). */
export interface ReportInput {
  /** Whether it is a terminal (nothing piped in). */
  isTerminal(): boolean;
  /** Its bytes. */
  readonly readable: ReadableStream<Uint8Array>;
}

/**
 * The report's text from `file` (relative to the current directory), or from
 * `stdin` when no file is named. A file must be a regular file (checked
 * before it is opened: opening a FIFO without a writer blocks forever); more
 * than {@linkcode MAX_REPORT_BYTES} is refused without reading it all.
 *
 * @throws {DochygieneError} `INVALID_REPORT` (exit 2) when it cannot be read, is too
 * large or is not UTF-8; `USAGE` (exit 2) when stdin is a terminal.
 *
 * @example
 * ```ts
 * import { readReportText } from "./read_report_text.ts";
 * import assert from "node:assert/strict";
 *
 * const stdin = { isTerminal: () => false, readable: ReadableStream.from([new Uint8Array([0x7b, 0x7d])]) };
 * assert.equal(await readReportText(undefined, stdin), "{}");
 * const terminal = { isTerminal: () => true, readable: ReadableStream.from([]) };
 * await assert.rejects(readReportText(undefined, terminal), /pipe it in, or pass --file F/);
 * ```
 */
export async function readReportText(
  file: string | undefined,
  stdin: ReportInput = Deno.stdin,
): Promise<string> {
  if (file !== undefined) {
    const read = await readReportFile(resolve(file));
    if ("text" in read) return read.text;
    const source = resolve(file);
    switch (read.problem) {
      case "not_file":
        throw new DochygieneError("INVALID_REPORT", `--file ${file} is not a regular file`, 2);
      case "unreadable":
        throw new DochygieneError(
          "INVALID_REPORT",
          `cannot read --file ${file} (${read.detail}); name an existing report file`,
          2,
        );
      case "too_large":
        throw _tooLarge(source);
      case "not_utf8":
        throw _notUtf8(source);
    }
  }
  if (stdin.isTerminal()) {
    throw new DochygieneError(
      "USAGE",
      "report reads the report JSON on stdin: pipe it in, or pass --file F",
      2,
    );
  }
  const bytes = await readCapped(stdin.readable, MAX_REPORT_BYTES);
  if (bytes === undefined) throw _tooLarge("stdin");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw _notUtf8("stdin");
  }
}

function _tooLarge(source: string): DochygieneError {
  return new DochygieneError(
    "INVALID_REPORT",
    `the report on ${source} is larger than ${MAX_REPORT_BYTES} bytes; shorten it`,
    2,
  );
}

function _notUtf8(source: string): DochygieneError {
  return new DochygieneError("INVALID_REPORT", `the report on ${source} is not UTF-8 text`, 2);
}

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { readReportText, type ReportInput } from "../../lib/report/read_report_text.ts";
import { MAX_REPORT_BYTES } from "../../lib/report/validate_report.ts";
import { tempDir } from "../support/helpers.ts";

/** A stdin that is not a terminal, giving `chunks`. */
function piped(...chunks: Uint8Array[]): ReportInput {
  return { isTerminal: () => false, readable: ReadableStream.from(chunks) };
}

/** A stdin that fails the test when it is read. */
const untouched: ReportInput = {
  isTerminal: () => false,
  get readable(): ReadableStream<Uint8Array> {
    throw new Error("stdin read although --file was given");
  },
};

async function rejectsWith(promise: Promise<unknown>, code: string, message: string | RegExp) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.code, code);
    assert.equal(err.exitCode, 2);
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

Deno.test("readReportText reads --file (relative to the current directory) and never stdin", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "r.json");
  await Deno.writeTextFile(file, '{"ü": 1}');
  assert.equal(await readReportText(file, untouched), '{"ü": 1}');
  assert.equal(await readReportText(relative(Deno.cwd(), file), untouched), '{"ü": 1}');
});

Deno.test("readReportText reads stdin to the end when no file is named", async () => {
  const bytes = new TextEncoder().encode('{"a": "ü"}');
  assert.equal(
    await readReportText(undefined, piped(bytes.slice(0, 8), bytes.slice(8))),
    '{"a": "ü"}',
  );
});

Deno.test("readReportText refuses a terminal on stdin as a usage error", async () => {
  const terminal = { isTerminal: () => true, readable: ReadableStream.from<Uint8Array>([]) };
  await rejectsWith(
    readReportText(undefined, terminal),
    "USAGE",
    "report reads the report JSON on stdin: pipe it in, or pass --file F",
  );
});

Deno.test("readReportText: a --file that is missing or not a regular file (a FIFO is never opened) names the flag", async () => {
  await using dir = await tempDir();
  await rejectsWith(
    readReportText(join(dir.path, "gone.json"), untouched),
    "INVALID_REPORT",
    new RegExp(
      `^cannot read --file ${dir.path}/gone\\.json \\(.+\\); name an existing report file$`,
    ),
  );
  for (const path of [dir.path, "/dev/null"]) {
    await rejectsWith(
      readReportText(path, untouched),
      "INVALID_REPORT",
      `--file ${path} is not a regular file`,
    );
  }
  const fifo = join(dir.path, "fifo");
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(made.code, 0);
  // Opening a FIFO without a writer would block: the check comes first.
  await rejectsWith(
    readReportText(fifo, untouched),
    "INVALID_REPORT",
    `--file ${fifo} is not a regular file`,
  );
});

Deno.test("readReportText: more than the report size limit is refused, from a file without reading it", async () => {
  await using dir = await tempDir();
  const big = join(dir.path, "big.json");
  await Deno.writeTextFile(big, "");
  await Deno.truncate(big, MAX_REPORT_BYTES + 1); // sparse
  await rejectsWith(
    readReportText(big, untouched),
    "INVALID_REPORT",
    `the report on ${big} is larger than ${MAX_REPORT_BYTES} bytes; shorten it`,
  );
  const chunk = new Uint8Array(1024 * 1024).fill(0x20);
  const chunks = Array.from({ length: MAX_REPORT_BYTES / chunk.length + 1 }, () => chunk);
  await rejectsWith(
    readReportText(undefined, piped(...chunks)),
    "INVALID_REPORT",
    `the report on stdin is larger than ${MAX_REPORT_BYTES} bytes; shorten it`,
  );
});

Deno.test("readReportText: bytes that are not UTF-8 are refused, naming where they came from", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "latin1.json");
  await Deno.writeFile(file, new Uint8Array([0x7b, 0xe9, 0x7d]));
  await rejectsWith(
    readReportText(file, untouched),
    "INVALID_REPORT",
    `the report on ${file} is not UTF-8 text`,
  );
  await rejectsWith(
    readReportText(undefined, piped(new Uint8Array([0xff]))),
    "INVALID_REPORT",
    "the report on stdin is not UTF-8 text",
  );
});

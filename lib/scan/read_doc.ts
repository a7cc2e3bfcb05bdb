/**
 * Reading one doc for the scanner: size, line count, text (or "binary"),
 * without following symlinks. Synchronous at its core: a scan reads tens of
 * thousands of small files, and one async op per file costs more than the
 * read itself.
 *
 * @module
 */

import { contentFingerprint } from "../core/content_fingerprint.ts";
import { isGitBlob } from "../git/is_git_blob.ts";
import { hasUndecodableBytes } from "../core/decode_path.ts";
import { cacheKey } from "./scan_cache.ts";
import type { FileRead } from "./scan_docs.ts";

/** Options of {@linkcode readDocSync}. */
export interface ReadDocOptions {
  /**
   * The caller's directory listing says `path` is a regular file (not a
   * symlink): it is read without an lstat, and the read's `mtimeMs` is `NaN`
   * (the caller fetches it when it needs it).
   */
  regularFile?: boolean;
  /**
   * The scan cache's key of the bytes it has the facts of (see `cacheKey`):
   * when the doc's bytes have it, they are neither decoded nor counted — the
   * read is marked `cached`, its text is "" and its `lines` 0 (the cache's to
   * give).
   */
  expect?: string;
  /**
   * The blob id git's index holds for the doc, which git vouches the file
   * has (see `ListedFile.oid`): the read's `oid` when the bytes read hash to
   * it (SHA-1 ids; a file changed since git looked does not).
   */
  oid?: string;
}

/** Bytes of a doc that are analysed; beyond this only size and line count are read. */
export const MAX_PARSE_BYTES = 4 * 1024 * 1024;

/** Bytes at the start of a file searched for a NUL to call it binary (as git does). */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * Reads one doc for the scanner, synchronously (the scanner's reading loop):
 * size and line count of the whole file; the text (invalid UTF-8 replaced by
 * U+FFFD) of its first {@linkcode MAX_PARSE_BYTES} (cut at a line end) unless
 * it is binary (a NUL in the first {@linkcode BINARY_SNIFF_BYTES}). Returns a
 * reason string when it must be left out ("" when silently: gone, a symlink,
 * not a regular file).
 *
 * @example
 * ```ts
 * import { readDocSync } from "./read_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "one\r\ntwo");
 * const read = readDocSync(root, "a.md");
 * assert.ok(typeof read !== "string" && read.kind === "text");
 * assert.equal(read.lines, 2);
 * assert.equal(read.bytes, 8);
 * await Deno.writeFile(`${root}/b.md`, new Uint8Array([0x23, 0, 0x0a]));
 * const bin = readDocSync(root, "b.md");
 * assert.ok(typeof bin !== "string" && bin.kind === "binary");
 * assert.equal(readDocSync(root, "gone.md"), "");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function readDocSync(
  root: string,
  path: string,
  options: ReadDocOptions = {},
): FileRead | string {
  if (hasUndecodableBytes(path)) {
    return "the name is not valid UTF-8, which Deno cannot open; rename the file to scan it";
  }
  // `path` is root-relative and normalised (a listing's): no join needed (node's costs ~2 µs).
  const full = `${root}/${path}`;
  if (options.regularFile) {
    // No lstat: under --allow-read each one costs as much as a small read.
    try {
      const bytes = Deno.readFileSync(full);
      if (bytes.length <= MAX_PARSE_BYTES) {
        return _toRead(bytes, bytes.length, undefined, NaN, options);
      }
    } catch (err) {
      return err instanceof Deno.errors.NotFound ? "" : `cannot be read (${_reason(err)})`;
    }
    // Over the parse limit: checked and streamed below.
  }
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(full);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "" : `cannot be read (${_reason(err)})`;
  }
  // Symlinks are never followed (they may point outside the root); only regular files are docs.
  if (!info.isFile) return "";
  const mtimeMs = info.mtime?.getTime() ?? 0;
  try {
    if (info.size <= MAX_PARSE_BYTES) {
      // The common case: one read. (A file swapped for a symlink in the instant
      // between lstat and this read is not detected; large files are checked.)
      const bytes = Deno.readFileSync(full);
      if (bytes.length <= MAX_PARSE_BYTES) {
        return _toRead(bytes, bytes.length, undefined, mtimeMs, options);
      }
    }
    return _readLarge(full, info);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "" : `cannot be read (${_reason(err)})`;
  }
}

/** A file over the parse limit: streamed once, counting lines, keeping only the analysed prefix. */
function _readLarge(full: string, info: Deno.FileInfo): FileRead | string {
  using file = Deno.openSync(full, { read: true });
  const opened = file.statSync();
  if (opened.ino !== info.ino || opened.dev !== info.dev || !opened.isFile) {
    return "changed while it was being read; scan again";
  }
  const head = new Uint8Array(MAX_PARSE_BYTES);
  const chunk = new Uint8Array(1024 * 1024);
  let filled = 0;
  let bytes = 0;
  let breaks = 0;
  let prevCr = false;
  let last = -1;
  while (true) {
    const into = filled < head.length ? head.subarray(filled) : chunk;
    const n = file.readSync(into);
    if (n === null) break;
    if (into !== chunk) filled += n;
    const got = into.subarray(0, n);
    breaks += _countBreaks(got, prevCr);
    prevCr = got[n - 1] === 0x0d;
    last = got[n - 1];
    bytes += n;
  }
  const lines = breaks + (prevCr || (bytes > 0 && last !== 0x0a) ? 1 : 0);
  let prefix = head.subarray(0, filled);
  if (bytes > filled) {
    // Cut at a line end, never inside a UTF-8 sequence.
    const cut = prefix.lastIndexOf(0x0a);
    if (cut >= 0) prefix = prefix.subarray(0, cut + 1);
  }
  return _toRead(prefix, bytes, lines, opened.mtime?.getTime() ?? 0);
}

/** Lines of a whole file: line breaks, plus a last unterminated line. */
function _countLines(bytes: Uint8Array): number {
  const n = bytes.length;
  if (n === 0) return 0;
  const last = bytes[n - 1];
  return _countBreaks(bytes, false) + (last === 0x0d || last !== 0x0a ? 1 : 0);
}

/**
 * Builds the read from the analysed bytes (`head`, the whole file unless
 * truncated). `lines` undefined: `head` is the whole file, count them here.
 */
function _toRead(
  head: Uint8Array,
  bytes: number,
  lines: number | undefined,
  mtimeMs: number,
  options: ReadDocOptions = {},
): FileRead {
  let fingerprint: string | undefined;
  // The whole file was read: its blob id, when it is the one git vouches for.
  const oid = lines === undefined && options.oid !== undefined && isGitBlob(head, options.oid)
    ? options.oid
    : undefined;
  if (options.expect !== undefined && lines === undefined) {
    fingerprint = contentFingerprint(head);
    // The bytes the cache has the facts of (a text doc's, then): nothing more to do here.
    if (cacheKey({ bytes, fingerprint }) === options.expect) {
      return _cached(bytes, fingerprint, mtimeMs, oid);
    }
  }
  if (head.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) >= 0) {
    return { kind: "binary", bytes, lines: lines ?? _countLines(head), mtimeMs };
  }
  const text = _decoder.decode(head);
  // Counting in the decoded text is ~5× faster than in the bytes, and equal: `\n` and `\r` are
  // never part of a replaced invalid sequence. A BOM-only file decodes to "" but is one line.
  if (lines === undefined) lines = text === "" ? _countLines(head) : _countTextLines(text);
  const read: FileRead = {
    kind: "text",
    text,
    bytes,
    lines,
    truncated: bytes > head.length,
    mtimeMs,
  };
  // Duplicates compare bytes (the text drops a BOM and replaces invalid UTF-8).
  if (!read.truncated) read.fingerprint = fingerprint ?? contentFingerprint(head);
  if (oid !== undefined) read.oid = oid;
  return read;
}

/**
 * What {@linkcode readDocSync} gives for a doc read without an `lstat` whose
 * bytes have the scan cache key `key` (see `cacheKey`), as it `expect`ed:
 * marked `cached`, neither decoded nor counted; with the blob id `oid` they
 * hashed to, if given. `undefined` when `key` is not a cache key.
 *
 * @example
 * ```ts
 * import { cachedRead, readDocSync } from "./read_doc.ts";
 * import { cacheKey } from "./scan_cache.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const read = readDocSync(root, "a.md", { regularFile: true });
 * assert.ok(typeof read === "object" && read.kind === "text");
 * const key = cacheKey(read)!;
 * assert.deepEqual(cachedRead(key), readDocSync(root, "a.md", { regularFile: true, expect: key }));
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function cachedRead(key: string, oid?: string): FileRead | undefined {
  const slash = key.indexOf("/");
  const bytes = slash > 0 ? Number(key.slice(0, slash)) : NaN;
  return Number.isSafeInteger(bytes) && bytes >= 0
    ? _cached(bytes, key.slice(slash + 1), NaN, oid)
    : undefined;
}

function _cached(bytes: number, fingerprint: string, mtimeMs: number, oid?: string): FileRead {
  const read: FileRead = {
    kind: "text",
    text: "",
    bytes,
    lines: 0,
    truncated: false,
    fingerprint,
    mtimeMs,
    cached: true,
  };
  if (oid !== undefined) read.oid = oid;
  return read;
}

/** Like {@linkcode _countLines}, in text decoded from the whole file. */
function _countTextLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  for (let i = text.indexOf("\r"); i >= 0; i = text.indexOf("\r", i + 1)) {
    if (i + 1 < text.length && text.charCodeAt(i + 1) !== 0x0a) count++;
  }
  const last = text.charCodeAt(text.length - 1);
  return count + (last === 0x0d || last !== 0x0a ? 1 : 0);
}

/** Line breaks in `bytes`: each `\n`, and each `\r` not followed by `\n`. */
function _countBreaks(bytes: Uint8Array, prevCr: boolean): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) count++;
  for (let i = bytes.indexOf(0x0d); i >= 0; i = bytes.indexOf(0x0d, i + 1)) {
    if (i + 1 < bytes.length && bytes[i + 1] !== 0x0a) count++;
  }
  // A `\r` ending the previous chunk was not counted yet: it is a break unless `\n` follows.
  if (prevCr && bytes[0] !== 0x0a) count++;
  return count;
}

const _decoder = new TextDecoder("utf-8");

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

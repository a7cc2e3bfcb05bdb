/**
 * The scanner's I/O edge: lists, reads and asks git, then hands the facts to
 * the pure {@linkcode scanDocs}.
 *
 * @module
 */

import { join } from "node:path";
import { analyzeDoc } from "./analyze_doc.ts";
import type { Clock } from "./clock.ts";
import { hasUndecodableBytes } from "./decode_path.ts";
import { listCandidates } from "./list_candidates.ts";
import type { Config } from "./load_config.ts";
import { loadIgnore } from "./load_ignore.ts";
import { type GitAges, readGitAges } from "./read_git_ages.ts";
import { type FileRead, type ScanArtifact, scanDocs, selectReads } from "./scan_docs.ts";

/** Bytes of a doc that are analysed; beyond this only size and line count are read. */
export const MAX_PARSE_BYTES = 4 * 1024 * 1024;

/** Bytes at the start of a file searched for a NUL to call it binary (as git does). */
export const BINARY_SNIFF_BYTES = 8000;

/** Options of {@linkcode scanRepository}. */
export interface ScanRepositoryOptions {
  /** Absolute project root. */
  root: string;
  /** The config. */
  config: Config;
  /** The clock (the scan's `generated_at` and ages). */
  clock: Clock;
  /** Files read at once (default 16). */
  concurrency?: number;
  /** Called after each file is read, with how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
}

/** The artifact and the problems that did not stop the scan. */
export interface ScanOutcome {
  /** The scan artifact. */
  artifact: ScanArtifact;
  /** One line each, e.g. an unreadable directory or file. */
  warnings: string[];
}

/**
 * Scans the project at `root`: lists candidates (one `git ls-files`, or a
 * walk without git), reads every doc that survives dir-prune and ignore once
 * (bounded concurrency; analysed as it arrives), reads git ages in one
 * `git log` pass running meanwhile, and builds the artifact. Reads never leave
 * the root: symlinks are not read, and a file swapped for another between
 * `lstat` and `open` is skipped.
 *
 * @example
 * ```ts
 * import { scanRepository } from "./scan_repository.ts";
 * import { defaultConfig } from "./load_config.ts";
 * import { fixedClock } from "./clock.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const { artifact } = await scanRepository({
 *   root,
 *   config: defaultConfig(),
 *   clock: fixedClock(new Date()),
 * });
 * assert.deepEqual(artifact.shortlist, ["a.md"]);
 * assert.equal(artifact.git, null);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function scanRepository(options: ScanRepositoryOptions): Promise<ScanOutcome> {
  const { root, config } = options;
  const inGit = await _exists(join(root, ".git"));
  // git log runs in its own process while this one lists and reads.
  const agesPromise: Promise<GitAges | undefined> = inGit
    ? readGitAges(root)
    : Promise.resolve(undefined);
  agesPromise.catch(() => {}); // awaited below; never an unhandled rejection meanwhile
  const [ignored, listing] = await Promise.all([
    loadIgnore(root),
    listCandidates(root, { git: inGit, excludedDirs: config.excluded_dirs }),
  ]);
  const warnings = [...listing.warnings];
  const paths = selectReads(listing.files, config, ignored);
  const reads = new Map<string, FileRead>();
  let done = 0;
  await _pool(paths, options.concurrency ?? 16, async (path) => {
    const result = await readDoc(root, path);
    if (typeof result === "string") {
      if (result !== "") warnings.push(`${_show(path)}: ${result}; it was left out`);
    } else {
      if (result.kind === "text") {
        try {
          result.analysis = analyzeDoc(result.text, path);
        } catch (err) {
          warnings.push(`${_show(path)}: could not be analysed (${_reason(err)}); it was left out`);
          return;
        }
      }
      reads.set(path, result);
    }
    options.onProgress?.(++done, paths.length);
  });
  const git = await agesPromise;
  if (git) warnings.push(...git.warnings);
  const artifact = scanDocs({
    root,
    config,
    now: options.clock.now(),
    git,
    files: listing.files,
    opaque: listing.opaque,
    ignored,
    reads,
    onDisk: _onDisk(root),
  });
  return { artifact, warnings };
}

/**
 * Reads one doc for the scanner: size and line count of the whole file; the
 * text (invalid UTF-8 replaced by U+FFFD) of its first
 * {@linkcode MAX_PARSE_BYTES} (cut at a line end) unless it is binary (a NUL
 * in the first {@linkcode BINARY_SNIFF_BYTES}). Returns a reason string when
 * it must be left out ("" when silently: gone, a symlink, not a regular file).
 *
 * @example
 * ```ts
 * import { readDoc } from "./scan_repository.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "one\r\ntwo");
 * const read = await readDoc(root, "a.md");
 * assert.ok(typeof read !== "string" && read.kind === "text");
 * assert.equal(read.lines, 2);
 * assert.equal(read.bytes, 8);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readDoc(root: string, path: string): Promise<FileRead | string> {
  if (hasUndecodableBytes(path)) {
    return "the name is not valid UTF-8, which Deno cannot open; rename the file to scan it";
  }
  const full = join(root, path);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(full);
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
      const bytes = await Deno.readFile(full);
      if (bytes.length <= MAX_PARSE_BYTES) {
        return _toRead(bytes, bytes.length, _countLines(bytes), mtimeMs);
      }
    }
    return await _readLarge(full, info);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "" : `cannot be read (${_reason(err)})`;
  }
}

/** A file over the parse limit: streamed once, counting lines, keeping only the analysed prefix. */
async function _readLarge(full: string, info: Deno.FileInfo): Promise<FileRead | string> {
  using file = await Deno.open(full, { read: true });
  const opened = await file.stat();
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
    const n = await file.read(into);
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

/** Builds the read from the analysed bytes (`head`, the whole file unless truncated). */
function _toRead(head: Uint8Array, bytes: number, lines: number, mtimeMs: number): FileRead {
  if (head.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) >= 0) {
    return { kind: "binary", bytes, lines, mtimeMs };
  }
  const text = _decoder.decode(head);
  const read: FileRead = {
    kind: "text",
    text,
    bytes,
    lines,
    truncated: bytes > head.length,
    mtimeMs,
  };
  const hasBom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  if (hasBom || (text.includes("\uFFFD") && !_isUtf8(head))) {
    // The text no longer carries the exact bytes: duplicates compare the bytes.
    read.contentKey = "\0bytes\0" + _latin1.decode(head).replace(/\r\n?/g, "\n");
  }
  return read;
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

function _isUtf8(bytes: Uint8Array): boolean {
  try {
    _strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const _decoder = new TextDecoder("utf-8");
const _strict = new TextDecoder("utf-8", { fatal: true });
const _latin1 = new TextDecoder("windows-1252");

async function _pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Whether a root-relative path exists on disk with exactly this name (letter
 * case included, also on case-insensitive filesystems): its parent directory
 * is listed once and remembered, so a thousand broken links cost one
 * `readDir` per directory rather than a thousand failed `lstat`s.
 */
function _onDisk(root: string): (path: string) => boolean {
  const dirs = new Map<string, Set<string>>();
  return (path) => {
    const slash = path.lastIndexOf("/");
    const dir = slash < 0 ? "" : path.slice(0, slash);
    let names = dirs.get(dir);
    if (names === undefined) {
      names = new Set();
      try {
        for (const entry of Deno.readDirSync(dir === "" ? root : join(root, dir))) {
          names.add(entry.name);
        }
      } catch {
        // Missing or unreadable: nothing in it is known to exist.
      }
      dirs.set(dir, names);
    }
    return names.has(slash < 0 ? path : path.slice(slash + 1));
  };
}

async function _exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A path for a one-line message: undecodable bytes shown as `\xNN`. */
function _show(path: string): string {
  return JSON.stringify(
    path.replace(/[\uDC80-\uDCFF]/g, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16)}`),
  );
}

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

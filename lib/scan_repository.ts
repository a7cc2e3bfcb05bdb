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
    onDisk: (path) => {
      try {
        Deno.lstatSync(join(root, path));
        return true;
      } catch {
        return false;
      }
    },
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
  let file: Deno.FsFile;
  try {
    file = await Deno.open(full, { read: true });
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "" : `cannot be read (${_reason(err)})`;
  }
  try {
    const opened = await file.stat();
    if (opened.ino !== info.ino || opened.dev !== info.dev || !opened.isFile) {
      return "changed while it was being read; scan again";
    }
    return await _readOpened(file, opened);
  } catch (err) {
    return `cannot be read (${_reason(err)})`;
  } finally {
    file.close();
  }
}

async function _readOpened(file: Deno.FsFile, info: Deno.FileInfo): Promise<FileRead> {
  const mtimeMs = info.mtime?.getTime() ?? 0;
  const keep = Math.min(info.size, MAX_PARSE_BYTES);
  let head = new Uint8Array(keep + 1);
  let filled = 0;
  let bytes = 0;
  let lines = 0;
  let prevCr = false;
  let last = -1;
  const chunk = new Uint8Array(1024 * 1024);
  while (true) {
    // Read into the kept prefix first, then through a scratch chunk (counting only).
    const into = filled < head.length ? head.subarray(filled) : chunk;
    const n = await file.read(into);
    if (n === null) break;
    if (into !== chunk) filled += n;
    const got = into.subarray(0, n);
    lines += _countBreaks(got, prevCr);
    prevCr = got[n - 1] === 0x0d;
    last = got[n - 1];
    bytes += n;
  }
  if (prevCr) lines++;
  else if (bytes > 0 && last !== 0x0a) lines++;
  head = head.subarray(0, Math.min(filled, MAX_PARSE_BYTES));
  const sniff = head.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.indexOf(0) >= 0) return { kind: "binary", bytes, lines, mtimeMs };
  const truncated = bytes > head.length;
  if (truncated) {
    const cut = head.lastIndexOf(0x0a);
    head = head.subarray(0, cut >= 0 ? cut + 1 : head.length);
  }
  const text = _decoder.decode(head);
  const read: FileRead = { kind: "text", text, bytes, lines, truncated, mtimeMs };
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

/**
 * The scanner's reading phase: every doc read once, synchronously, and
 * analysed as it is read.
 *
 * @module
 */

import { analyzeDoc } from "./analyze_doc.ts";
import { readDocSync } from "./read_doc.ts";
import type { FileRead } from "./scan_docs.ts";

/** Options of {@linkcode readDocs}. */
export interface ReadDocsOptions {
  /** Whether something else waits on the event loop (e.g. a git pipe): yield to it often. */
  busy?: () => boolean;
  /** Called now and then with how many docs are done of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Whether a directory listing shows the path as a regular file (read without lstat). */
  regularFile?: (path: string) => boolean;
}

/** What {@linkcode readDocs} gave. */
export interface ReadDocsResult {
  /** Path → what reading gave, in the order of the paths; unreadable docs are left out. */
  reads: Map<string, FileRead>;
  /** One line per doc that was left out for a reason worth telling, in path order. */
  warnings: string[];
}

/** Longest stretch of synchronous work while another task waits on the event loop (ms). */
const _YIELD_BUSY_MS = 10;

/** Longest stretch otherwise (progress on a terminal). */
const _YIELD_IDLE_MS = 100;

/**
 * Reads and analyses every doc of `paths` (root-relative) with
 * {@linkcode readAnalysed}, giving the event loop a turn now and then (a git
 * process writing to a pipe waits on it). A helper thread (Web Worker) was
 * measured: ~9% faster on 20,000 docs but ~25 MB more peak memory, at the
 * 400 MB budget's edge, so reading stays on this thread.
 *
 * @example
 * ```ts
 * import { readDocs } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n\n- [ ] x\n");
 * const { reads, warnings } = await readDocs(root, ["a.md", "gone.md"]);
 * assert.deepEqual([...reads.keys()], ["a.md"]);
 * const a = reads.get("a.md");
 * assert.ok(a?.kind === "text");
 * assert.deepEqual(a.analysis?.checkboxes, { done: 0, open: 1 });
 * assert.deepEqual(warnings, []);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readDocs(
  root: string,
  paths: readonly string[],
  options: ReadDocsOptions = {},
): Promise<ReadDocsResult> {
  const reads = new Map<string, FileRead>();
  const warnings: string[] = [];
  let lastYield = performance.now();
  for (let i = 0; i < paths.length; i++) {
    const result = readAnalysed(root, paths[i], options.regularFile?.(paths[i]));
    if (typeof result !== "string") reads.set(paths[i], result);
    else if (result !== "") warnings.push(`${_show(paths[i])}: ${result}; it was left out`);
    const now = performance.now();
    if (now - lastYield > (options.busy?.() ? _YIELD_BUSY_MS : _YIELD_IDLE_MS)) {
      options.onProgress?.(i + 1, paths.length);
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastYield = performance.now();
    }
  }
  return { reads, warnings };
}

/**
 * Reads one doc with {@linkcode readDocSync} and attaches its analysis (text
 * docs). Returns why it is left out instead ("" when silently).
 *
 * @example
 * ```ts
 * import { readAnalysed } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "---\nhygiene: frozen\n---\n");
 * const read = readAnalysed(root, "a.md");
 * assert.ok(typeof read !== "string" && read.kind === "text");
 * assert.equal(read.analysis?.hygiene, "frozen");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function readAnalysed(
  root: string,
  path: string,
  regularFile = false,
): FileRead | string {
  const read = readDocSync(root, path, { regularFile });
  if (typeof read === "string" || read.kind !== "text") return read;
  try {
    read.analysis = analyzeDoc(read.text, path);
  } catch (err) {
    return `could not be analysed (${_reason(err)})`;
  }
  return read;
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

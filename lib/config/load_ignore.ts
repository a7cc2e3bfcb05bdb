/**
 * `.dochygiene-ignore`: paths the scanner and prune never touch, in gitignore
 * syntax relative to the root (negation, directory patterns, anchoring). The
 * matcher (and its npm package) is only loaded when the file exists.
 *
 * @module
 */

import { join } from "node:path";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { LEADS_OUTSIDE, linkState } from "../fs/link_state.ts";

/** File name of the ignore file in the root. */
export const IGNORE_FILE_NAME = ".dochygiene-ignore";

/** Largest ignore file accepted, in bytes. */
export const MAX_IGNORE_BYTES = 1024 * 1024;

/**
 * Reads `<root>/.dochygiene-ignore` and compiles it with
 * `ignoreMatcher` (`ignore_matcher.ts`); no file means nothing is ignored.
 *
 * @throws {DochygieneError} `INVALID_IGNORE` (exit 2) when the file exists but is not a readable regular file of reasonable size.
 *
 * @example
 * ```ts
 * import { loadIgnore } from "./load_ignore.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * assert.ok(!(await loadIgnore(root))("a.md"));
 * await Deno.writeTextFile(`${root}/.dochygiene-ignore`, "scratch/\n");
 * assert.ok((await loadIgnore(root))("scratch/a.md"));
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function loadIgnore(root: string): Promise<(path: string) => boolean> {
  const path = join(root, IGNORE_FILE_NAME);
  let info: Deno.FileInfo;
  try {
    // A symlink is followed only where it stays inside the project (a dangling one is no file).
    const link = linkState(root, path);
    if (link === "dangling") return () => false;
    if (link === "outside") throw _invalid(LEADS_OUTSIDE);
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof DochygieneError) throw err;
    if (err instanceof Deno.errors.NotFound) return () => false;
    throw _invalid(`cannot be read (${_reason(err)}); fix the file or its permissions`);
  }
  if (!info.isFile) throw _invalid("is not a regular file; remove it or make it one");
  if (info.size > MAX_IGNORE_BYTES) {
    throw _invalid(`is ${info.size} bytes; the limit is ${MAX_IGNORE_BYTES}: shorten it`);
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await Deno.readFile(path));
  } catch (err) {
    throw _invalid(`cannot be read (${_reason(err)}); fix the file or its permissions`);
  }
  const { ignoreMatcher } = await import("./ignore_matcher.ts");
  return ignoreMatcher(text);
}

function _reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function _invalid(detail: string): DochygieneError {
  return new DochygieneError("INVALID_IGNORE", `${IGNORE_FILE_NAME}: ${detail}`, 2);
}

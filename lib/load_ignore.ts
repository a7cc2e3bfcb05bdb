/**
 * `.dochygiene-ignore`: paths the scanner and prune never touch, in gitignore
 * syntax relative to the root (negation, directory patterns, anchoring).
 *
 * @module
 */

import ignore from "npm:ignore@^7";
import { join } from "node:path";
import { DochygieneError } from "./dochygiene_error.ts";

/** File name of the ignore file in the root. */
export const IGNORE_FILE_NAME = ".dochygiene-ignore";

/** Largest ignore file accepted, in bytes. */
export const MAX_IGNORE_BYTES = 1024 * 1024;

/**
 * Compiles gitignore-syntax `text` into a predicate over root-relative,
 * `/`-separated FILE paths, with git's semantics: a pattern without a slash
 * matches at any depth, a leading or inner `/` anchors it to the root, a
 * trailing `/` matches directories only (so every file below them), `!`
 * re-includes — except below an ignored directory, as in git.
 *
 * @example
 * ```ts
 * import { ignoreMatcher } from "./load_ignore.ts";
 * import assert from "node:assert/strict";
 *
 * const ignored = ignoreMatcher("notes/\n*.draft.md\n!keep.draft.md\n/top.md\n");
 * assert.ok(ignored("notes/a.md"));
 * assert.ok(ignored("x/y.draft.md"));
 * assert.ok(!ignored("keep.draft.md"));
 * assert.ok(ignored("top.md"));
 * assert.ok(!ignored("sub/top.md"));
 * ```
 */
export function ignoreMatcher(text: string): (path: string) => boolean {
  const lines = text.split(/\r?\n/);
  if (lines.every((l) => l.trim() === "" || l.startsWith("#"))) return () => false;
  // Case-sensitive like git's default (core.ignorecase false); the package folds case by default.
  const ig = ignore({ allowRelativePaths: true, ignorecase: false }).add(lines);
  return (path: string) => {
    if (path === "" || path.startsWith("/")) return false;
    return ig.ignores(path);
  };
}

/**
 * Reads `<root>/.dochygiene-ignore` and compiles it with
 * {@linkcode ignoreMatcher}; no file means nothing is ignored.
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
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return () => false;
    throw _invalid(`cannot be read (${_reason(err)}); fix its permissions`);
  }
  if (!info.isFile) throw _invalid("is not a regular file; remove it or make it one");
  if (info.size > MAX_IGNORE_BYTES) {
    throw _invalid(`is ${info.size} bytes; the limit is ${MAX_IGNORE_BYTES}: shorten it`);
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await Deno.readFile(path));
  } catch (err) {
    throw _invalid(`cannot be read (${_reason(err)}); fix its permissions`);
  }
  return ignoreMatcher(text);
}

function _reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function _invalid(detail: string): DochygieneError {
  return new DochygieneError("INVALID_IGNORE", `${IGNORE_FILE_NAME}: ${detail}`, 2);
}

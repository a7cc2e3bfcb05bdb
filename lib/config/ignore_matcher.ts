/**
 * gitignore semantics for `.dochygiene-ignore` (see `load_ignore.ts`), on the
 * `ignore` package: loaded only when a project has the file.
 *
 * @module
 */

import ignore from "npm:ignore@^7";

/**
 * Compiles gitignore-syntax `text` into a predicate over root-relative,
 * `/`-separated FILE paths, with git's semantics: a pattern without a slash
 * matches at any depth, a leading or inner `/` anchors it to the root, a
 * trailing `/` matches directories only (so every file below them), `!`
 * re-includes — except below an ignored directory, as in git.
 *
 * @example
 * ```ts
 * import { ignoreMatcher } from "./ignore_matcher.ts";
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

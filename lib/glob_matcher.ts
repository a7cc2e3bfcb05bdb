/**
 * Root-anchored globs: `*` never crosses `/`, `docs/*.md` does not match
 * `x/docs/a.md`, dot files are matched like any other.
 *
 * @module
 */

import picomatch from "npm:picomatch@^4";

/**
 * Compiles root-relative globs into one predicate over root-relative,
 * `/`-separated paths. A trailing `/` (a directory rule) is ignored here: the
 * caller decides which paths are directories.
 *
 * @example
 * ```ts
 * import { globMatcher } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * const isDoc = globMatcher(["docs/*.md"]);
 * assert.ok(isDoc("docs/a.md"));
 * assert.ok(!isDoc("x/docs/a.md"));
 * assert.ok(!isDoc("docs/sub/a.md"));
 * ```
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const stripped = globs.map((g) => (g.length > 1 && g.endsWith("/") ? g.slice(0, -1) : g));
  const matcher = picomatch(stripped, { dot: true });
  // `**/*.md`-style globs (the default scope) are a suffix test on a normalised path: a scan asks
  // tens of thousands of times, and picomatch's regex costs ~1 µs a path.
  const suffixes = stripped.map((g) => _ANY_DEPTH_EXTENSION.exec(g)?.[1]);
  if (suffixes.some((x) => x === undefined)) return matcher;
  const endings = suffixes.map((x) => `.${x}`);
  return (path) =>
    _NOT_NORMAL.test(path) ? matcher(path) : endings.some((ending) => path.endsWith(ending));
}

/** `**\/*.<ext>`: any file with that extension, at any depth. */
const _ANY_DEPTH_EXTENSION = /^\*\*\/\*\.([A-Za-z0-9_-]+)$/;

/**
 * Left to picomatch: a path with an empty, `.` or `..` segment, a leading or
 * trailing `/`, or a line terminator (picomatch's `.` matches none).
 */
const _NOT_NORMAL = /[\n\r\u2028\u2029]|(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * Why `glob` is not a usable root-relative glob, or `undefined` when it is.
 *
 * @example
 * ```ts
 * import { globProblem } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(globProblem("docs/**"), undefined);
 * assert.equal(globProblem("../x/*.md"), "must not contain '..' segments");
 * assert.equal(globProblem("/etc/*.md"), "must be relative to the project root, not absolute");
 * ```
 */
export function globProblem(glob: string): string | undefined {
  if (glob.trim() === "") return "must not be empty";
  if (glob.startsWith("/") || /^[A-Za-z]:[\\/]/.test(glob) || glob.startsWith("~")) {
    return "must be relative to the project root, not absolute";
  }
  if (glob.includes("\\")) return "must use '/' as the separator (no '\\')";
  const segments = glob.replace(/\/$/, "").split("/");
  if (segments.includes("..")) return "must not contain '..' segments";
  if (segments.includes(".")) return "must not contain '.' segments";
  if (segments.some((s) => s === "")) return "must not contain empty segments ('//')";
  try {
    picomatch.makeRe(glob);
  } catch (err) {
    return `is not a valid glob (${err instanceof Error ? err.message : err})`;
  }
  return undefined;
}

/**
 * Root-anchored globs: `*` never crosses `/`, `docs/*.md` does not match
 * `x/docs/a.md`, dot files are matched like any other.
 *
 * The engine (picomatch, an npm package) is loaded on demand with
 * {@linkcode loadGlobEngine}: loading any npm package costs a Deno process
 * ~40 ms, more than a small scan takes, and the default scope (`**\/*.md`
 * and the like) is matched without it on the paths git lists.
 *
 * @module
 */

type _Picomatch = typeof import("npm:picomatch@^4").default;

let _picomatch: _Picomatch | undefined;

/**
 * Loads the glob engine (once) for {@linkcode globMatcher} and
 * {@linkcode globProblem}. Loading a config file does it; other callers do
 * it when {@linkcode needsGlobEngine} says so.
 *
 * @example
 * ```ts
 * import { globMatcher, loadGlobEngine } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * await loadGlobEngine();
 * assert.ok(globMatcher(["runs/*\/"])("runs/a"));
 * ```
 */
export async function loadGlobEngine(): Promise<void> {
  _picomatch ??= (await import("npm:picomatch@^4")).default;
}

/**
 * Whether matching `paths` against `globs` needs {@linkcode loadGlobEngine}
 * first: any glob but `**\/*.<ext>`, or any path the suffix test does not
 * cover (a line terminator, an empty, `.` or `..` segment).
 *
 * @example
 * ```ts
 * import { needsGlobEngine } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(!needsGlobEngine(["**\/*.md"], ["docs/a.md"]));
 * assert.ok(needsGlobEngine(["docs/*.md"], []));
 * assert.ok(needsGlobEngine(["**\/*.md"], ["a\nb.md"]));
 * ```
 */
export function needsGlobEngine(globs: readonly string[], paths: Iterable<string>): boolean {
  if (globs.some((g) => anyDepthExtension(g) === undefined)) return true;
  for (const path of paths) if (_NOT_NORMAL.test(path)) return true;
  return false;
}

function _engine(): _Picomatch {
  if (_picomatch === undefined) {
    throw new Error("the glob engine is not loaded: await loadGlobEngine() first");
  }
  return _picomatch;
}

/** `glob` as the engine takes it: no trailing `/`, and POSIX `[!…]` classes as `[^…]`. */
function _engineGlob(glob: string): string {
  const stripped = glob.length > 1 && glob.endsWith("/") ? glob.slice(0, -1) : glob;
  return stripped.includes("[!") ? _posixNegatedClasses(stripped) : stripped;
}

/**
 * `[!abc]` → `[^abc]` outside escapes: picomatch 4 reads `[!abc]` as a class of `!`, `a`, `b`
 * and `c`, where gitignore, shells and every glob users know it from negate it.
 */
function _posixNegatedClasses(glob: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      out += glob.slice(i, i + 2);
      i++;
    } else if (!inClass && c === "[") {
      // Only a class's first character negates it; inside one, `[!` is two members.
      inClass = true;
      out += glob[i + 1] === "!" ? "[^" : "[";
      if (glob[i + 1] === "!") i++;
      if (glob[i + 1] === "]") out += glob[++i]; // a leading `]` is a member, not the end
    } else {
      if (c === "]") inClass = false;
      out += c;
    }
  }
  return out;
}

/**
 * Compiles root-relative globs into one predicate over root-relative,
 * `/`-separated paths. A trailing `/` (a directory rule) is ignored here: the
 * caller decides which paths are directories. Needs the engine loaded
 * ({@linkcode loadGlobEngine}) unless {@linkcode needsGlobEngine} says
 * otherwise for these globs and the paths asked about.
 *
 * @example
 * ```ts
 * import { globMatcher, loadGlobEngine } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(globMatcher(["**\/*.md"])("docs/a.md")); // no engine needed
 * await loadGlobEngine();
 * const isDoc = globMatcher(["docs/*.md"]);
 * assert.ok(isDoc("docs/a.md"));
 * assert.ok(!isDoc("x/docs/a.md"));
 * assert.ok(!isDoc("docs/sub/a.md"));
 * assert.ok(globMatcher(["docs/[!_]*.md"])("docs/guide.md")); // POSIX negated class
 * ```
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const stripped = globs.map(_engineGlob);
  // `**/*.md`-style globs (the default scope) are a suffix test on a normalised path: a scan asks
  // tens of thousands of times, and picomatch's regex costs ~1 µs a path.
  const suffixes = globs.map(anyDepthExtension);
  if (suffixes.some((x) => x === undefined)) return _engine()(stripped, { dot: true });
  const endings = suffixes.map((x) => `.${x}`);
  let matcher: ((path: string) => boolean) | undefined;
  return (path) =>
    _NOT_NORMAL.test(path)
      ? (matcher ??= _engine()(stripped, { dot: true }))(path)
      : endings.some((ending) => path.endsWith(ending));
}

/**
 * The extension of a `**\/*.<ext>` glob (any file with it, at any depth: a
 * suffix test on a normalised path); `undefined` for any other glob.
 *
 * @example
 * ```ts
 * import { anyDepthExtension } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(anyDepthExtension("**\/*.md"), "md");
 * assert.equal(anyDepthExtension("docs/*.md"), undefined);
 * ```
 */
export function anyDepthExtension(glob: string): string | undefined {
  return _ANY_DEPTH_EXTENSION.exec(_engineGlob(glob))?.[1];
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
 * Needs the engine loaded ({@linkcode loadGlobEngine}).
 *
 * @example
 * ```ts
 * import { globProblem, loadGlobEngine } from "./glob_matcher.ts";
 * import assert from "node:assert/strict";
 *
 * await loadGlobEngine();
 * assert.equal(globProblem("docs/**"), undefined);
 * assert.equal(globProblem("../x/*.md"), "must not contain '..' segments");
 * assert.equal(globProblem("/etc/*.md"), "must be relative to the project root, not absolute");
 * assert.match(globProblem("!drafts/**") ?? "", /^must not start with '!'/);
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
  // picomatch would take `!x` for "everything but x": in scope_globs, every file of the project.
  if (glob.startsWith("!") && !glob.startsWith("!(")) {
    return "must not start with '!' (negation is not supported; leave paths out with " +
      ".dochygiene-ignore)";
  }
  try {
    _engine().makeRe(_engineGlob(glob));
  } catch (err) {
    return `is not a valid glob (${err instanceof Error ? err.message : err})`;
  }
  return undefined;
}

/**
 * POSIX path helpers with `node:path` semantics for the functions the core
 * uses on the reminder's start-up path (`find_root`, `state_dir`,
 * `state_file`, `with_lock`, `atomic_write`).
 *
 * Why not `node:path`: importing any `node:` built-in makes Deno initialise its
 * Node compatibility layer, which costs about 12 ms per process start — half
 * again the start-up of an empty script. The SessionStart hook pays that on
 * every session, so the modules it loads use these instead. Other modules keep
 * using `node:path`.
 *
 * @example
 * ```ts
 * import { dirname, join, relative } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(join("/repo", ".dochygiene", "state.json"), "/repo/.dochygiene/state.json");
 * assert.equal(dirname("/repo/docs"), "/repo");
 * assert.equal(relative("/repo", "/repo/.dochygiene"), ".dochygiene");
 * ```
 *
 * @module
 */

/**
 * Whether `path` is absolute.
 *
 * @example
 * ```ts
 * import { isAbsolute } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isAbsolute("/a"));
 * assert.ok(!isAbsolute("a/b"));
 * ```
 */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/**
 * Joins the non-empty segments with `/` and normalises the result (`.` and
 * `..` resolved, repeated slashes collapsed, a trailing slash kept).
 *
 * @example
 * ```ts
 * import { join } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(join("a/", "./b", "../c"), "a/c");
 * assert.equal(join(""), ".");
 * ```
 */
export function join(...segments: string[]): string {
  const joined = segments.filter((s) => s !== "").join("/");
  return joined === "" ? "." : _normalize(joined);
}

/**
 * Resolves `segments` right to left into an absolute, normalised path; the
 * current directory completes a relative result.
 *
 * @example
 * ```ts
 * import { resolve } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(resolve("/a/b", "../c/"), "/a/c");
 * assert.equal(resolve("x"), `${Deno.cwd()}/x`);
 * ```
 */
export function resolve(...segments: string[]): string {
  let resolved = "";
  for (let i = segments.length - 1; i >= -1 && !isAbsolute(resolved); i--) {
    const segment = i >= 0 ? segments[i] : Deno.cwd();
    if (segment === "") continue;
    resolved = resolved === "" ? segment : `${segment}/${resolved}`;
  }
  const normal = _normalize(resolved);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

/**
 * The parent directory of `path` (`/` for `/`, `.` for a bare name).
 *
 * @example
 * ```ts
 * import { dirname } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(dirname("/a/b/"), "/a");
 * assert.equal(dirname("/a"), "/");
 * assert.equal(dirname("a"), ".");
 * ```
 */
export function dirname(path: string): string {
  // The parent ends at the last separator before the final segment (node's rule).
  let end = -1;
  let inTrailingSlashes = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] !== "/") inTrailingSlashes = false;
    else if (!inTrailingSlashes) {
      end = i;
      break;
    }
  }
  if (end === -1) return isAbsolute(path) ? "/" : ".";
  if (isAbsolute(path) && end === 1) return "//";
  return path.slice(0, end);
}

/**
 * The last segment of `path`, trailing slashes ignored.
 *
 * @example
 * ```ts
 * import { basename } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(basename("/a/state.json"), "state.json");
 * assert.equal(basename("/a/b/"), "b");
 * ```
 */
export function basename(path: string): string {
  const trimmed = _trimTrailing(path);
  return trimmed === "/" ? "" : trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * The relative path from `from` to `to` (both resolved first); `""` when they
 * are the same.
 *
 * @example
 * ```ts
 * import { relative } from "./path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(relative("/a/b", "/a/c/d"), "../c/d");
 * assert.equal(relative("/a", "/a"), "");
 * ```
 */
export function relative(from: string, to: string): string {
  const a = _parts(resolve(from));
  const b = _parts(resolve(to));
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}

function _parts(absolute: string): string[] {
  return absolute.split("/").filter((s) => s !== "");
}

/** Like `node:path` `normalize`: keeps a leading and a trailing slash. */
function _normalize(path: string): string {
  const absolute = isAbsolute(path);
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(segment);
  }
  const body = out.join("/");
  const tail = path.endsWith("/") ? "/" : "";
  if (absolute) return body === "" ? "/" : `/${body}${tail}`;
  return `${body === "" ? "." : body}${tail}`;
}

function _trimTrailing(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

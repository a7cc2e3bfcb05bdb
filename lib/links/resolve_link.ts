/**
 * Resolves a link target written in a document to a root-relative path.
 *
 * @module
 */

import { decodeEntities } from "../markdown/scan_inline.ts";

/** A checkable link target. */
export interface ResolvedLink {
  /** Root-relative, `/`-separated, normalised path (`.` for the root); `undefined` for `#x` in the same file. */
  path: string | undefined;
  /** The percent-decoded fragment without `#`; `undefined` when there is none (or it is empty). */
  fragment: string | undefined;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Resolves `target` (as written in the document at root-relative `fromPath`)
 * against the document's directory. Backslash escapes and entities are
 * undone, `%xx` sequences decoded (malformed ones kept as written), a
 * `?query` dropped. Returns `undefined` for targets that are not checked: empty
 * ones, URLs with a scheme (`https:`, `mailto:`, `data:`…), `//host` and
 * root-absolute `/…` links, a bare `#` or `?query`, and paths that climb out
 * of the root with `..`.
 *
 * @example
 * ```ts
 * import { resolveLink } from "./resolve_link.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(resolveLink("docs/a.md", "../README.md#Install"), {
 *   path: "README.md",
 *   fragment: "Install",
 * });
 * assert.deepEqual(resolveLink("docs/a.md", "#caf%C3%A9"), { path: undefined, fragment: "café" });
 * assert.deepEqual(resolveLink("docs/a.md", "my%20notes.md?plain=1"), {
 *   path: "docs/my notes.md",
 *   fragment: undefined,
 * });
 * assert.equal(resolveLink("docs/a.md", "https://example.com/x.md"), undefined);
 * assert.equal(resolveLink("docs/a.md", "../../etc/passwd"), undefined);
 * ```
 */
export function resolveLink(fromPath: string, target: string): ResolvedLink | undefined {
  const t = target.trim();
  if (t === "" || t.startsWith("/") || t.startsWith("\\")) return undefined;
  if (t.includes(":") && SCHEME.test(t)) return undefined;
  const hash = t.indexOf("#");
  let path = hash < 0 ? t : t.slice(0, hash);
  const query = path.indexOf("?");
  if (query >= 0) path = path.slice(0, query);
  const fragment = hash < 0 ? undefined : _decode(t.slice(hash + 1)) || undefined;
  path = _decode(path);
  if (path === "") return fragment === undefined ? undefined : { path: undefined, fragment };
  let slash = fromPath.lastIndexOf("/");
  // Leading `../` and `./` step up from the doc's own directory without
  // splitting (the common relative link), when the rest needs no normalising.
  let rest = 0;
  while (true) {
    if (path.startsWith("../", rest)) {
      if (slash < 0) return undefined;
      slash = fromPath.lastIndexOf("/", slash - 1);
      rest += 3;
    } else if (path.startsWith("./", rest)) rest += 2;
    else break;
  }
  if (rest > 0) {
    const tail = path.slice(rest);
    if (
      tail !== "" && !tail.startsWith("/") && !tail.startsWith(".") && !tail.endsWith("/") &&
      !tail.includes("//") && !tail.includes("/.")
    ) {
      return { path: slash < 0 ? tail : fromPath.slice(0, slash + 1) + tail, fragment };
    }
    slash = fromPath.lastIndexOf("/");
  }
  const joined = slash < 0 ? path : fromPath.slice(0, slash + 1) + path;
  // Most targets need no normalising: no empty, `.` or `..` segment (checked conservatively).
  if (
    !joined.startsWith("/") && !joined.startsWith(".") && !joined.endsWith("/") &&
    !joined.includes("//") && !joined.includes("/.")
  ) {
    return { path: joined, fragment };
  }
  const segments: string[] = [];
  for (const segment of joined.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return { path: segments.length ? segments.join("/") : ".", fragment };
}

/**
 * Resolves a site-root link (`/guide/x#y`, starting with one `/`) against the
 * root-relative directory `root` (`""`: the repository root), as
 * {@linkcode resolveLink} resolves a relative one; `undefined` for any other
 * target, and for one that climbs out of the root.
 *
 * @example
 * ```ts
 * import { resolveRootLink } from "./resolve_link.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(resolveRootLink("", "/docs/a.md#usage"), { path: "docs/a.md", fragment: "usage" });
 * assert.deepEqual(resolveRootLink("site", "/guide/"), { path: "site/guide", fragment: undefined });
 * assert.equal(resolveRootLink("", "//example.com/x"), undefined);
 * assert.equal(resolveRootLink("", "docs/a.md"), undefined);
 * ```
 */
export function resolveRootLink(root: string, target: string): ResolvedLink | undefined {
  const t = target.trim();
  if (!t.startsWith("/") || t.startsWith("//")) return undefined;
  // `./x` from a file in `root` is `root/x`.
  return resolveLink(root === "" ? "_" : `${root}/_`, `.${t}`);
}

function _decode(s: string): string {
  if (s.includes("\\")) s = s.replace(ESCAPE, "$1");
  const unescaped = decodeEntities(s);
  if (!unescaped.includes("%")) return unescaped;
  return unescaped.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The code files a doc points at (`code_drift`'s targets, docs/signals.md):
 * its existing link targets and its inline-code paths, resolved against the
 * tracked code files.
 *
 * @module
 */

import { posix } from "node:path";

/**
 * A function that gives the code files a doc points at: of its drift facts'
 * `paths` (link targets and inline-code paths as written, a `:line` suffix
 * dropped), those that are tracked code files in `code`, from the root, else
 * from the doc's folder; once each, in the order named.
 *
 * @example
 * ```ts
 * import { codeTargeter } from "./code_targeter.ts";
 * import assert from "node:assert/strict";
 *
 * const targets = codeTargeter(new Set(["src/cli.ts", "docs/run.sh"]));
 * assert.deepEqual(targets("docs/a.md", ["src/cli.ts:12", "./run.sh", "other.md"]), [
 *   "src/cli.ts",
 *   "docs/run.sh",
 * ]);
 * ```
 */
export function codeTargeter(
  code: ReadonlySet<string>,
): (doc: string, paths: readonly string[]) => string[] {
  const mayBeCode = _mayBeCode(code);
  return (doc, paths) => {
    let out: Set<string> | undefined;
    let dir: string | undefined;
    for (const raw of paths) {
      if (!mayBeCode(raw)) continue;
      dir ??= posix.dirname(doc);
      const path = raw.replace(/^(\.\/)+/, "").replace(/:\d+(?::\d+)?$/, "");
      if (code.has(path)) (out ??= new Set()).add(path);
      else if (dir !== ".") {
        const joined = posix.join(dir, path);
        if (code.has(joined)) (out ??= new Set()).add(joined);
      }
    }
    return out === undefined ? [] : [...out];
  };
}

/**
 * Whether a path a doc names may resolve to a code file: whether its last segment is a code
 * file's name (or `.`, `..`, empty: normalised away). Remembered per path: most are links to
 * docs, named by doc after doc (the listing's own strings, their hashes computed once).
 */
function _mayBeCode(code: ReadonlySet<string>): (raw: string) => boolean {
  const names = new Set<string>();
  for (const file of code) names.add(file.slice(file.lastIndexOf("/") + 1));
  // The lengths of those names (and of "", ".", ".."): a path whose last segment is of none of
  // them, and holds no `:` (a `:line` suffix), is passed over without a look-up.
  const lengths = new Set([0, 1, 2]);
  for (const name of names) lengths.add(name.length);
  const known = new Map<string, boolean>();
  return (raw) => {
    const slash = raw.lastIndexOf("/");
    if (!lengths.has(raw.length - slash - 1) && raw.indexOf(":", slash) < 0) return false;
    let may = known.get(raw);
    if (may === undefined) {
      const name = raw.slice(raw.lastIndexOf("/") + 1).replace(/:\d+(?::\d+)?$/, "");
      may = names.has(name) || name === "" || name === "." || name === "..";
      known.set(raw, may);
    }
    return may;
  };
}

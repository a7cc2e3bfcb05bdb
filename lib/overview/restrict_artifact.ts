/**
 * `scan.ts --under DIR`: the artifact of one or more subtrees.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import type { ScanArtifact } from "../scan/scan_docs.ts";

/** The artifact restricted to some directories: `under` names them. */
export interface RestrictedArtifact extends ScanArtifact {
  /** The root-relative directories (`.` for the root) the lists are restricted to. */
  under: string[];
}

/**
 * Normalises a `--under` value to a root-relative directory without `./` or a
 * trailing `/` (`.` for the root): relative values are taken from the
 * project root (as the artifact's paths are), absolute ones must lie inside
 * it. A value that climbs out (`..`) is a usage error (exit 2).
 *
 * @example
 * ```ts
 * import { underDir } from "./restrict_artifact.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(underDir("./docs/plans/", "/r"), "docs/plans");
 * assert.equal(underDir("/r/docs", "/r"), "docs");
 * assert.equal(underDir(".", "/r"), ".");
 * assert.throws(() => underDir("../x", "/r"), /--under/);
 * ```
 */
export function underDir(value: string, root: string): string {
  let rel = value;
  if (rel.startsWith("/")) {
    const base = root.endsWith("/") ? root : root + "/";
    if (rel !== root && !rel.startsWith(base)) throw _outside(value);
    rel = rel.slice(base.length);
  }
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw _outside(value);
  return parts.length === 0 ? "." : parts.join("/");
}

/**
 * The artifact with `shortlist`, `signals` and `excluded` restricted to the
 * paths in (or equal to) the given directories; every signal is the whole
 * scan's (inbound links and duplicates counted over every doc), `counts` too.
 * Lists keep their order.
 *
 * @example
 * ```ts
 * import { restrictArtifact } from "./restrict_artifact.ts";
 * import assert from "node:assert/strict";
 *
 * const artifact = {
 *   schema_version: 1, generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null,
 *   scope_globs: ["**\/*.md"], excluded_dirs: [],
 *   counts: { candidates: 2, shortlisted: 2, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 *   excluded: [], shortlist: ["a.md", "docs/b.md"],
 *   signals: { "a.md": [], "docs/b.md": [{ kind: "inbound_links" as const, count: 1 }] },
 * };
 * const docs = restrictArtifact(artifact, ["docs"]);
 * assert.deepEqual(docs.shortlist, ["docs/b.md"]);
 * assert.deepEqual(Object.keys(docs.signals), ["docs/b.md"]);
 * assert.deepEqual(docs.under, ["docs"]);
 * ```
 */
export function restrictArtifact(
  artifact: ScanArtifact,
  dirs: readonly string[],
): RestrictedArtifact {
  const inside = underMatcher(dirs);
  const signals: ScanArtifact["signals"] = {};
  for (const path of Object.keys(artifact.signals)) {
    if (inside(path)) signals[path] = artifact.signals[path];
  }
  return {
    ...artifact,
    under: [...dirs],
    excluded: artifact.excluded.filter((e) => inside(e.path)),
    shortlist: artifact.shortlist.filter(inside),
    signals,
  };
}

/**
 * Whether a root-relative path is one of `dirs` or below one (`.` holds
 * every path).
 *
 * @example
 * ```ts
 * import { underMatcher } from "./restrict_artifact.ts";
 * import assert from "node:assert/strict";
 *
 * const inside = underMatcher(["docs"]);
 * assert.equal(inside("docs/a.md"), true);
 * assert.equal(inside("docs-old/a.md"), false);
 * ```
 */
export function underMatcher(dirs: readonly string[]): (path: string) => boolean {
  if (dirs.includes(".")) return () => true;
  const prefixes = dirs.map((d) => d + "/");
  return (path) => dirs.includes(path) || prefixes.some((p) => path.startsWith(p));
}

function _outside(value: string): DochygieneError {
  return new DochygieneError(
    "USAGE",
    `--under ${JSON.stringify(value)} is not inside the project: give a directory relative to ` +
      "the project root (as the artifact's paths are)",
    2,
  );
}

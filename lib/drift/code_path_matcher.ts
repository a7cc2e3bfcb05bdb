/**
 * Which files are code for the drift signals (docs/signals.md "What counts as
 * code"): every tracked file that is not a doc, a lockfile, state, or excluded.
 *
 * @module
 */

import { globMatcher } from "../config/glob_matcher.ts";
import type { Config } from "../config/load_config.ts";

/** File names of lockfiles: generated, they name every package and flag under the sun. */
export const LOCKFILE_NAMES: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "composer.lock",
  "go.sum",
  "flake.lock",
  "mix.lock",
  "pubspec.lock",
  "packages.lock.json",
  "Podfile.lock",
  "gradle.lockfile",
]); // deno-fmt-ignore

/**
 * Whether a root-relative path is code: not matched by the scope globs (a
 * doc), not a lockfile ({@linkcode LOCKFILE_NAMES}), not under `.dochygiene/`,
 * and not matched by `drift.exclude_code`.
 *
 * @example
 * ```ts
 * import { codePathMatcher } from "./code_path_matcher.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const isCode = codePathMatcher(defaultConfig());
 * assert.equal(isCode("src/main.ts"), true);
 * assert.equal(isCode("docs/guide.md"), false);
 * assert.equal(isCode("web/package-lock.json"), false);
 * ```
 */
export function codePathMatcher(config: Config): (path: string) => boolean {
  const isDoc = globMatcher(config.scope_globs);
  const excluded = config.drift.exclude_code.length > 0
    ? globMatcher(config.drift.exclude_code)
    : () => false;
  return (path) => {
    if (path.startsWith(".dochygiene/") || isDoc(path) || excluded(path)) return false;
    return !LOCKFILE_NAMES.has(path.slice(path.lastIndexOf("/") + 1));
  };
}

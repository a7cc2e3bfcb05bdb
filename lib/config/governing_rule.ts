/**
 * Which rulebook rule governs a path, and the unit it governs it as
 * (docs/design.md "Lifecycle deletion", "Units"); plus the on-disk proof of
 * `served_when_path`.
 *
 * @module
 */

import { globMatcher } from "./glob_matcher.ts";
import type { Rule } from "./load_config.ts";

/** The rule that governs a file and the unit (file, or directory with a trailing `/`) it governs. */
export interface Governance {
  /** The governing rule. */
  rule: Rule;
  /** The file path itself (file rule), or the matched ancestor directory with a trailing `/` (directory rule). */
  unit: string;
}

/**
 * The rule that governs the FILE `path` (root-relative, `/`-separated):
 *
 * - keep precedence: if any `keep` rule matches the path or one of its
 *   ancestor directories, that keep rule (the first one) governs;
 * - otherwise the first rule that matches: a file rule matches the file path
 *   (root-anchored glob); a directory rule (`match` ending in `/`) matches when
 *   an ancestor directory matches it, and its unit is the shallowest such
 *   directory, with a trailing `/`;
 * - `undefined` when no rule matches (unmanaged).
 *
 * @example
 * ```ts
 * import { governingRule } from "./governing_rule.ts";
 * import { parseConfig } from "./parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const { rules } = parseConfig(`
 * rules:
 *   - match: "autoresearch/*\/"
 *     lifetime: temporary
 *   - match: "autoresearch/keep-*\/"
 *     lifetime: keep
 * `);
 * assert.equal(governingRule("autoresearch/run-1/notes.md", rules)?.unit, "autoresearch/run-1/");
 * assert.equal(governingRule("autoresearch/keep-1/a.md", rules)?.rule.lifetime, "keep");
 * assert.equal(governingRule("x/autoresearch/run-1/a.md", rules), undefined);
 * ```
 */
export function governingRule(path: string, rules: readonly Rule[]): Governance | undefined {
  const ancestors = _ancestors(path);
  for (const rule of rules) {
    if (rule.lifetime !== "keep") continue;
    const matches = _matcher(rule.match);
    const dir = ancestors.find(matches);
    if (dir !== undefined) return { rule, unit: `${dir}/` };
    if (matches(path)) return { rule, unit: path };
  }
  for (const rule of rules) {
    if (rule.lifetime === "keep") continue;
    const matches = _matcher(rule.match);
    if (isDirectoryRule(rule)) {
      const dir = ancestors.find(matches);
      if (dir !== undefined) return { rule, unit: `${dir}/` };
    } else if (matches(path)) {
      return { rule, unit: path };
    }
  }
  return undefined;
}

/**
 * Whether `rule` is a directory rule (its `match` ends in `/`).
 *
 * @example
 * ```ts
 * import { isDirectoryRule } from "./governing_rule.ts";
 * import { parseConfig } from "./parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const { rules } = parseConfig("rules:\n  - {match: 'runs/*\/', lifetime: temporary}\n");
 * assert.ok(isDirectoryRule(rules[0]));
 * ```
 */
export function isDirectoryRule(rule: Rule): boolean {
  return rule.match.endsWith("/");
}

/** The existing paths `served_when_path` is proven against; build with {@linkcode existingPaths}. */
export interface ExistingPaths {
  /** Files and directories (directories with a trailing `/`), sorted (UTF-16 order: only contiguity of prefixes matters). */
  readonly sorted: readonly string[];
}

/**
 * Indexes the files that exist (root-relative, e.g. the tracked and untracked
 * listing) together with every ancestor directory of them (with a trailing
 * `/`), for {@linkcode servedByPath}.
 *
 * @example
 * ```ts
 * import { existingPaths } from "./governing_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(existingPaths(["a/b/c.md"]).sorted, ["a/", "a/b/", "a/b/c.md"]);
 * ```
 */
export function existingPaths(files: Iterable<string>): ExistingPaths {
  const all = new Set<string>();
  for (const file of files) {
    all.add(file);
    // Deepest first: once a directory is known, so are all of its ancestors.
    for (const dir of _ancestors(file).reverse()) {
      const key = `${dir}/`;
      if (all.has(key)) break;
      all.add(key);
    }
  }
  return { sorted: [...all].sort() };
}

/**
 * What `{date}` stands for in a `served_when_path`: `YYYY-MM-DD`, as OpenSpec
 * prefixes an archived change (`archive/2026-09-01-add-dark-mode/`).
 */
export const DATE_GLOB = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]";

/**
 * The glob a `served_when_path` pattern becomes for a unit named `name`:
 * `{name}` is the name, escaped so that it only ever matches itself; `{date}`
 * is `YYYY-MM-DD` ({@linkcode DATE_GLOB}); and a `*` written before
 * `{name}` with one separator (`-`, `_`, `.` or a space) between them never
 * matches that separator, so that it cannot swallow the head of a longer
 * name (`*-{name}` takes `v2-dark-mode` for `dark-mode`, never
 * `add-dark-mode`, nor `2026-09-01-dark-mode`: that is `{date}-{name}`).
 *
 * @example
 * ```ts
 * import { servedGlob } from "./governing_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   servedGlob("archive/{date}-{name}/", "dark-mode"),
 *   "archive/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-dark-mode/",
 * );
 * assert.equal(servedGlob("archive/*-{name}/", "x"), "archive/*([!-])-x/");
 * ```
 */
export function servedGlob(pattern: string, name: string): string {
  // Written by hand: `*` right before `<separator>{name}`, not escaped and not part of `**`.
  const guarded = pattern.replace(
    /(?<![\\*])\*(?=([-_. ])\{name\})/g,
    (_star, sep: string) => `*([!${sep}])`,
  );
  return guarded.replaceAll("{date}", DATE_GLOB).replaceAll("{name}", escapeGlob(name));
}

/**
 * Proves a `served_when_path` rule on disk for one unit: the pattern with
 * `{name}` (the unit's base name; files: without the extension) and `{date}`
 * filled in as {@linkcode servedGlob} says, and returns the first existing path the
 * pattern matches (`undefined` when none does, or when the rule has no
 * `served_when_path`). A pattern ending in `/` must match an existing
 * directory. The unit itself and paths inside it never count as proof.
 *
 * @example
 * ```ts
 * import { existingPaths, servedByPath } from "./governing_rule.ts";
 * import { parseConfig } from "./parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const { rules } = parseConfig(`
 * rules:
 *   - match: "openspec/changes/*\/"
 *     lifetime: delete-once-served
 *     served_when_path: "openspec/changes/archive/{date}-{name}/"
 * `);
 * const paths = existingPaths([
 *   "openspec/changes/add-x/proposal.md",
 *   "openspec/changes/x/proposal.md",
 *   "openspec/changes/archive/2026-01-02-add-x/proposal.md",
 * ]);
 * assert.equal(
 *   servedByPath(rules[0], "openspec/changes/add-x/", paths),
 *   "openspec/changes/archive/2026-01-02-add-x/",
 * );
 * assert.equal(servedByPath(rules[0], "openspec/changes/add-y/", paths), undefined);
 * assert.equal(servedByPath(rules[0], "openspec/changes/x/", paths), undefined);
 * ```
 */
export function servedByPath(
  rule: Rule,
  unit: string,
  existing: ExistingPaths,
): string | undefined {
  const pattern = rule.served_when_path;
  if (pattern === undefined) return undefined;
  const unitDir = unit.endsWith("/");
  const base = unit.replace(/\/$/, "").split("/").pop() ?? "";
  const name = unitDir ? base : base.replace(/(?<=.)\.[^.]*$/, "");
  const glob = servedGlob(pattern, name);
  const wantDir = glob.endsWith("/");
  const matches = globMatcher([glob]);
  const prefix = _staticPrefix(glob);
  const paths = existing.sorted;
  for (let i = _lowerBound(paths, prefix); i < paths.length; i++) {
    const path = paths[i];
    if (!path.startsWith(prefix)) break;
    const isDir = path.endsWith("/");
    if (wantDir && !isDir) continue;
    if (path === unit || path.startsWith(unitDir ? unit : `${unit}/`)) continue;
    if (matches(isDir ? path.slice(0, -1) : path)) return path;
  }
  return undefined;
}

/**
 * Escapes every glob metacharacter of `text` so that, as a glob, it matches
 * only itself (a name like `*`, `[1]` or `{a,b}` is never a pattern).
 *
 * @example
 * ```ts
 * import { escapeGlob } from "./governing_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeGlob("run[1]*"), "run\\[1\\]\\*");
 * ```
 */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@|^$.,#~'"&;<>]/g, "\\$&");
}

const _matchers = new Map<string, (path: string) => boolean>();

/** A compiled root-anchored glob (a trailing `/` ignored), cached per pattern. */
function _matcher(glob: string): (path: string) => boolean {
  const cached = _matchers.get(glob);
  if (cached) return cached;
  const compiled = globMatcher([glob]);
  _matchers.set(glob, compiled);
  return compiled;
}

/** Ancestor directories of a file path, shallowest first, without trailing `/`. */
function _ancestors(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/** The literal leading directories of a glob (up to the last `/` before the first metacharacter). */
function _staticPrefix(glob: string): string {
  const meta = glob.search(/[\\*?[\]{}()!+@]/);
  const head = meta < 0 ? glob : glob.slice(0, meta);
  return head.slice(0, head.lastIndexOf("/") + 1);
}

function _lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

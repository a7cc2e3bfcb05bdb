/**
 * `.dochygiene.yml` text: validated with messages that name the key and the
 * rule broken, defaults applied. Loaded by `loadConfig` only when the file
 * exists: it brings the YAML and glob engines (npm packages).
 *
 * @module
 */

import {
  type Config,
  defaultConfig,
  invalidConfig,
  type Lifetime,
  type Rule,
} from "./load_config.ts";
import { globMatcher, globProblem, loadGlobEngine } from "./glob_matcher.ts";
import { parseYaml, YamlError } from "../yaml/parse_yaml.ts";

// Config globs are validated, then matched, with the glob engine.
await loadGlobEngine();

const _TOP_KEYS = ["threshold_days", "scope_globs", "excluded_dirs", "rules"];
const _RULE_KEYS = [
  "match",
  "lifetime",
  "retain_recent",
  "max_age_days",
  "served_when_path",
  "served_when",
  "extract",
];
const _LIFETIMES: Lifetime[] = ["keep", "temporary", "delete-once-served"];

/**
 * Names no rule means (plain, upper case, digit first, dot file, non-ASCII,
 * with `-` or `_`, a doc): see {@linkcode _ARBITRARY_PATHS}.
 */
const _ARBITRARY_NAMES = [
  "q7zx",
  "Q7ZX",
  "7qzx",
  ".q7zx",
  "ü7zx-Ω",
  "q7-zx",
  "q7_zx",
  "q7zx.md",
  "q7zx.mdx",
  "q7zx.markdown",
];

/** How many directory levels {@linkcode _ARBITRARY_PATHS} reaches down. */
const _PROBE_DEPTH = 8;

/**
 * Paths of arbitrary names at every depth up to {@linkcode _PROBE_DEPTH},
 * shortest first: each name under plain directories, and at every level. A
 * deleting rule that matches one matches arbitrary names however it is spelled
 * (`*`, `?*`, `[a-z]*`, `{a,**}`, `!(x)`, `*.*`, `*_*`, `*\/*\/*\/`, `*\/*\/*.md`, …);
 * one with a literal segment at any depth (`runs/*\/`, `**\/scratch/*\/`) matches none.
 */
const _ARBITRARY_PATHS: readonly string[] = [...new Set(_arbitraryPaths())];

function* _arbitraryPaths(): Generator<string> {
  for (let depth = 0; depth < _PROBE_DEPTH; depth++) {
    for (const name of _ARBITRARY_NAMES) {
      yield `${"q7zx/".repeat(depth)}${name}`;
      yield Array(depth + 1).fill(name).join("/");
    }
  }
}

/**
 * Validates config text (YAML) and applies defaults.
 *
 * @throws {DochygieneError} `INVALID_CONFIG` (exit 2).
 *
 * @example
 * ```ts
 * import { parseConfig } from "./parse_config.ts";
 * import assert from "node:assert/strict";
 *
 * const cfg = parseConfig("rules:\n  - match: 'runs/*\/'\n    lifetime: temporary\n");
 * assert.equal(cfg.rules[0].retain_recent, 3);
 * assert.throws(
 *   () => parseConfig("rules:\n  - match: a.md\n    lifetime: temporary\n    max_age_days: -1\n"),
 *   /rules\[0\]\.max_age_days: must be a number >= 0/,
 * );
 * ```
 */
export function parseConfig(text: string): Config {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    if (err instanceof YamlError) {
      // The parser's own message ends its first line with `:` before a quoted excerpt; ours
      // (e.g. two documents) already says what to do.
      const first = err.message.split("\n")[0];
      const cut = first.replace(/:\s*$/, "");
      throw invalidConfig(
        `is not valid YAML: ${cut === first ? first : `${cut}; fix the syntax there`}`,
      );
    }
    throw err;
  }
  const config = defaultConfig();
  if (raw === null || raw === undefined) return config;
  if (!_isRecord(raw)) throw invalidConfig(`must be a mapping of keys (${_TOP_KEYS.join(", ")})`);
  for (const key of Object.keys(raw)) {
    if (!_TOP_KEYS.includes(key)) {
      throw invalidConfig(`${key}: unknown key; allowed keys are ${_TOP_KEYS.join(", ")}`);
    }
  }
  if (raw.threshold_days !== undefined) {
    config.threshold_days = _number(raw.threshold_days, "threshold_days", 0);
  }
  if (raw.scope_globs !== undefined) {
    config.scope_globs = _stringList(raw.scope_globs, "scope_globs");
    config.scope_globs.forEach((g, i) => _glob(g, `scope_globs[${i}]`));
  }
  if (raw.excluded_dirs !== undefined) {
    config.excluded_dirs = _stringList(raw.excluded_dirs, "excluded_dirs");
    config.excluded_dirs.forEach((d, i) => {
      if (d.includes("/") || d === "." || d === "..") {
        throw invalidConfig(
          `excluded_dirs[${i}]: must be a directory name without '/' (got "${d}")`,
        );
      }
    });
  }
  if (raw.rules !== undefined && raw.rules !== null) {
    if (!Array.isArray(raw.rules)) throw invalidConfig("rules: must be a list of rules");
    config.rules = raw.rules.map((r, i) => _rule(r, `rules[${i}]`));
  }
  return config;
}

function _rule(raw: unknown, at: string): Rule {
  if (!_isRecord(raw)) throw invalidConfig(`${at}: must be a mapping with match and lifetime`);
  if ("age_source" in raw) {
    throw invalidConfig(
      `${at}.age_source: not supported; ages always come from git history (mtime when untracked): remove the key`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (!_RULE_KEYS.includes(key)) {
      throw invalidConfig(`${at}.${key}: unknown key; allowed keys are ${_RULE_KEYS.join(", ")}`);
    }
  }
  if (typeof raw.match !== "string") throw invalidConfig(`${at}.match: required, must be a string`);
  _glob(raw.match, `${at}.match`);
  if (!_LIFETIMES.includes(raw.lifetime as Lifetime)) {
    throw invalidConfig(`${at}.lifetime: required, must be one of ${_LIFETIMES.join(", ")}`);
  }
  const lifetime = raw.lifetime as Lifetime;
  const only = (key: string, allowed: Lifetime[]) => {
    if (raw[key] !== undefined && !allowed.includes(lifetime)) {
      throw invalidConfig(`${at}.${key}: only allowed with lifetime: ${allowed.join(" or ")}`);
    }
  };
  only("retain_recent", ["temporary"]);
  only("max_age_days", ["temporary"]);
  only("served_when_path", ["delete-once-served"]);
  only("served_when", ["delete-once-served"]);
  only("extract", ["temporary", "delete-once-served"]);
  const rule: Rule = {
    match: raw.match,
    lifetime,
    retain_recent: raw.retain_recent === undefined
      ? 3
      : _integer(raw.retain_recent, `${at}.retain_recent`),
    max_age_days: raw.max_age_days === undefined
      ? 3
      : _number(raw.max_age_days, `${at}.max_age_days`, 0),
    extract: false,
  };
  if (raw.extract !== undefined) {
    if (typeof raw.extract !== "boolean") {
      throw invalidConfig(`${at}.extract: must be true or false`);
    }
    rule.extract = raw.extract;
  }
  if (lifetime === "delete-once-served") {
    const hasPath = raw.served_when_path !== undefined;
    const hasJudged = raw.served_when !== undefined;
    if (hasPath === hasJudged) {
      throw invalidConfig(
        `${at}: delete-once-served needs exactly one of served_when_path (provable on disk) or served_when (judged by the check skill)`,
      );
    }
    if (hasPath) {
      if (typeof raw.served_when_path !== "string") {
        throw invalidConfig(`${at}.served_when_path: must be a string`);
      }
      _glob(raw.served_when_path, `${at}.served_when_path`);
      rule.served_when_path = raw.served_when_path;
    } else {
      if (typeof raw.served_when !== "string" || raw.served_when.trim() === "") {
        throw invalidConfig(`${at}.served_when: must be a non-empty string`);
      }
      rule.served_when = raw.served_when;
    }
  }
  if (lifetime !== "keep") {
    const matches = globMatcher([rule.match]);
    const name = _ARBITRARY_PATHS.find((p) => matches(p));
    if (name !== undefined) {
      throw invalidConfig(
        `${at}.match: "${rule.match}" would cover the whole repository (it matches arbitrary names such as "${name}"); a ${lifetime} rule must be anchored to a directory (e.g. "autoresearch/*/")`,
      );
    }
  }
  return rule;
}

function _glob(glob: string, at: string): void {
  const problem = globProblem(glob);
  if (problem) throw invalidConfig(`${at}: ${problem} (got "${glob}")`);
}

function _number(value: unknown, at: string, min: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw invalidConfig(`${at}: must be a number >= ${min}${_quoted(value)}`);
  }
  return value;
}

function _integer(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw invalidConfig(`${at}: must be a whole number >= 0${_quoted(value)}`);
  }
  return value;
}

/** For a number written in quotes (`"7"`), YAML's string: say so, and the fix. */
function _quoted(value: unknown): string {
  return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
    ? `, not the string "${value}" (write it without quotes)`
    : "";
}

function _stringList(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) throw invalidConfig(`${at}: must be a list of strings`);
  value.forEach((v, i) => {
    if (typeof v !== "string" || v === "") {
      throw invalidConfig(`${at}[${i}]: must be a non-empty string`);
    }
  });
  return value as string[];
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  // A plain mapping: not a list, nor a tagged value (`!!binary` is bytes, `!!set` a Set).
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

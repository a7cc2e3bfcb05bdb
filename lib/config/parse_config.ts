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
  type DriftConfig,
  invalidConfig,
  type Lifetime,
  type LinksConfig,
  RENDERERS,
  type Rule,
} from "./load_config.ts";
import { globMatcher, globProblem, loadGlobEngine } from "./glob_matcher.ts";
import { CONFIG_FILE_NAME } from "./config_file_name.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { parseYaml, YamlError } from "../yaml/parse_yaml.ts";
import { nearestWord } from "../core/nearest_word.ts";

// Config globs are validated, then matched, with the glob engine.
await loadGlobEngine();

const _DRIFT_KEYS = [
  "stale_reference",
  "code_drift",
  "review",
  "review_interval_days",
  "exclude_docs",
  "exclude_code",
  "exclude_elements",
];
const _TOP_KEYS = ["threshold_days", "scope_globs", "excluded_dirs", "rules", "links", "drift"];
const _LINKS_KEYS = ["renderer", "root", "fallback_extensions"];
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
 * Validates config text (YAML) and applies defaults. Every problem is found in
 * one run: one is said as `.dochygiene.yml: <key>: <problem>`, several as one
 * line, `.dochygiene.yml: N problems: (1) <key>: <problem> (2) …`. An unknown
 * key or `lifetime` close to a known one (an edit or two away) names it:
 * `(did you mean "retain_recent"?)`. Text that is not YAML at all is one
 * problem, said alone.
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
 * assert.throws(
 *   () => parseConfig("threshold_dayz: 3\nrules:\n  - {match: 'runs/*\/', lifetime: temprary}\n"),
 *   /\.dochygiene\.yml: 2 problems: \(1\) threshold_dayz: unknown key \(did you mean "threshold_days"\?\).* \(2\) rules\[0\]\.lifetime: .*did you mean "temporary"/,
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
  if (!_isRecord(raw)) throw invalidConfig(`must be a mapping of keys (${CONFIG_KEYS.join(", ")})`);
  const problems: string[] = [];
  const check = (fn: () => void) => _collect(problems, fn);
  for (const key of Object.keys(raw)) {
    if (!CONFIG_KEYS.includes(key)) problems.push(_unknownKey(key, key, CONFIG_KEYS));
  }
  if (raw.threshold_days !== undefined) {
    check(() => config.threshold_days = _number(raw.threshold_days, "threshold_days", 0));
  }
  if (raw.scope_globs !== undefined) {
    check(() => {
      config.scope_globs = _stringList(raw.scope_globs, "scope_globs", problems);
      config.scope_globs.forEach((g, i) => check(() => _glob(g, `scope_globs[${i}]`)));
    });
  }
  if (raw.excluded_dirs !== undefined) {
    check(() => {
      config.excluded_dirs = _stringList(raw.excluded_dirs, "excluded_dirs", problems);
      config.excluded_dirs.forEach((d, i) => {
        if (d.includes("/") || d === "." || d === "..") {
          problems.push(`excluded_dirs[${i}]: must be a directory name without '/' (got "${d}")`);
        }
      });
    });
  }
  if (raw.rules !== undefined && raw.rules !== null) {
    if (!Array.isArray(raw.rules)) problems.push("rules: must be a list of rules");
    else config.rules = raw.rules.map((r, i) => _rule(r, `rules[${i}]`, problems));
  }
  if (raw.drift !== undefined && raw.drift !== null) {
    check(() => config.drift = _drift(raw.drift, problems));
  }
  if (raw.links !== undefined && raw.links !== null) config.links = _links(raw.links, problems);
  if (problems.length === 1) throw invalidConfig(problems[0]);
  if (problems.length > 1) {
    throw invalidConfig(
      `${problems.length} problems: ${problems.map((p, i) => `(${i + 1}) ${p}`).join(" ")}`,
    );
  }
  return config;
}

/** The keys `.dochygiene.yml` takes at its top level (the JSON Schema lists the same). */
export const CONFIG_KEYS: readonly string[] = _TOP_KEYS;

/** The keys a rule takes (the JSON Schema lists the same). */
export const RULE_KEYS: readonly string[] = _RULE_KEYS;

/** The keys `drift:` takes (the JSON Schema lists the same). */
export const DRIFT_KEYS: readonly string[] = _DRIFT_KEYS;

/** The lifetimes a rule may have. */
export const LIFETIMES: readonly Lifetime[] = _LIFETIMES;

/** The `links:` mapping (docs/configuration.md), its problems added to `problems`. */
function _links(raw: unknown, problems: string[]): LinksConfig {
  const links: LinksConfig = {};
  if (!_isRecord(raw)) {
    problems.push(`links: must be a mapping (${_LINKS_KEYS.join(", ")})`);
    return links;
  }
  for (const key of Object.keys(raw)) {
    if (!_LINKS_KEYS.includes(key)) problems.push(_unknownKey(`links.${key}`, key, _LINKS_KEYS));
  }
  const renderers = ["auto", ...RENDERERS];
  if (raw.renderer !== undefined) {
    if (typeof raw.renderer === "string" && renderers.includes(raw.renderer)) {
      links.renderer = raw.renderer as LinksConfig["renderer"];
    } else {
      const near = typeof raw.renderer === "string"
        ? nearestWord(raw.renderer, renderers)
        : undefined;
      problems.push(
        `links.renderer: must be one of ${renderers.join(", ")} (got ${
          JSON.stringify(raw.renderer)
        }${near ? `; did you mean "${near}"?` : ""})`,
      );
    }
  }
  if (raw.root !== undefined) {
    if (
      typeof raw.root !== "string" || raw.root.startsWith("/") || raw.root.split("/").includes("..")
    ) {
      problems.push(
        `links.root: must be a directory relative to the root, without ".." (got ${
          JSON.stringify(raw.root)
        })`,
      );
    } else links.root = raw.root;
  }
  if (raw.fallback_extensions !== undefined) {
    const list = raw.fallback_extensions;
    if (
      !Array.isArray(list) || list.length === 0 ||
      !list.every((e) => typeof e === "string" && /^\.?[A-Za-z0-9]+$/.test(e))
    ) {
      problems.push(
        "links.fallback_extensions: must be a non-empty list of extensions (e.g. [md, mdx])",
      );
    } else links.fallback_extensions = list as string[];
  }
  return links;
}

/** Runs one check, keeping its problem (an `INVALID_CONFIG` detail) and going on. */
function _collect(problems: string[], fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof DochygieneError) || err.code !== "INVALID_CONFIG") throw err;
    problems.push(err.message.slice(`${CONFIG_FILE_NAME}: `.length));
  }
}

function _unknownKey(at: string, key: string, allowed: readonly string[]): string {
  const near = nearestWord(key, allowed);
  return `${at}: unknown key${near ? ` (did you mean "${near}"?)` : ""}; allowed keys are ${
    allowed.join(", ")
  }`;
}

function _rule(raw: unknown, at: string, problems: string[]): Rule {
  const fallback: Rule = {
    match: "",
    lifetime: "keep",
    retain_recent: 3,
    max_age_days: 3,
    extract: false,
  };
  if (!_isRecord(raw)) {
    problems.push(`${at}: must be a mapping with match and lifetime`);
    return fallback;
  }
  const before = problems.length;
  const check = (fn: () => void) => _collect(problems, fn);
  for (const key of Object.keys(raw)) {
    if (key === "age_source") {
      problems.push(
        `${at}.age_source: not supported; ages always come from git history (mtime when untracked): remove the key`,
      );
    } else if (!_RULE_KEYS.includes(key)) {
      problems.push(_unknownKey(`${at}.${key}`, key, _RULE_KEYS));
    }
  }
  let matchOk = typeof raw.match === "string";
  if (!matchOk) problems.push(`${at}.match: required, must be a string`);
  else {
    const n = problems.length;
    check(() => _glob(raw.match as string, `${at}.match`));
    matchOk = problems.length === n;
  }
  const lifetimeOk = _LIFETIMES.includes(raw.lifetime as Lifetime);
  if (!lifetimeOk) {
    const near = typeof raw.lifetime === "string"
      ? nearestWord(raw.lifetime, _LIFETIMES)
      : undefined;
    problems.push(
      `${at}.lifetime: required, must be one of ${_LIFETIMES.join(", ")}${
        typeof raw.lifetime === "string" && raw.lifetime !== ""
          ? ` (got "${raw.lifetime}"${near ? `; did you mean "${near}"?` : ""})`
          : ""
      }`,
    );
  }
  const lifetime = lifetimeOk ? raw.lifetime as Lifetime : undefined;
  const only = (key: string, allowed: Lifetime[]) => {
    if (raw[key] !== undefined && lifetime !== undefined && !allowed.includes(lifetime)) {
      problems.push(`${at}.${key}: only allowed with lifetime: ${allowed.join(" or ")}`);
      return false;
    }
    return true;
  };
  const rule: Rule = { ...fallback, match: matchOk ? raw.match as string : "" };
  if (lifetime !== undefined) rule.lifetime = lifetime;
  if (only("retain_recent", ["temporary"]) && raw.retain_recent !== undefined) {
    check(() => rule.retain_recent = _integer(raw.retain_recent, `${at}.retain_recent`));
  }
  if (only("max_age_days", ["temporary"]) && raw.max_age_days !== undefined) {
    check(() => rule.max_age_days = _number(raw.max_age_days, `${at}.max_age_days`, 0));
  }
  const pathOk = only("served_when_path", ["delete-once-served"]);
  const judgedOk = only("served_when", ["delete-once-served"]);
  if (only("extract", ["temporary", "delete-once-served"]) && raw.extract !== undefined) {
    if (typeof raw.extract !== "boolean") problems.push(`${at}.extract: must be true or false`);
    else rule.extract = raw.extract;
  }
  if (lifetime === "delete-once-served" && pathOk && judgedOk) {
    const hasPath = raw.served_when_path !== undefined;
    const hasJudged = raw.served_when !== undefined;
    if (hasPath === hasJudged) {
      problems.push(
        `${at}: delete-once-served needs exactly one of served_when_path (provable on disk) or served_when (judged by the check skill)`,
      );
    } else if (hasPath) {
      if (typeof raw.served_when_path !== "string") {
        problems.push(`${at}.served_when_path: must be a string`);
      } else {
        check(() => _glob(raw.served_when_path as string, `${at}.served_when_path`));
        rule.served_when_path = raw.served_when_path;
      }
    } else if (typeof raw.served_when !== "string" || raw.served_when.trim() === "") {
      problems.push(`${at}.served_when: must be a non-empty string`);
    } else {
      rule.served_when = raw.served_when;
    }
  }
  if (lifetime !== undefined && lifetime !== "keep" && matchOk) {
    const matches = globMatcher([rule.match]);
    const name = _ARBITRARY_PATHS.find((p) => matches(p));
    if (name !== undefined) {
      problems.push(
        `${at}.match: "${rule.match}" would cover the whole repository (it matches arbitrary names such as "${name}"); a ${lifetime} rule must be anchored to a directory (e.g. "autoresearch/*/")`,
      );
    }
  }
  return problems.length === before ? rule : fallback;
}

/** The `drift:` mapping, defaults filled in; each problem is kept in `problems`. */
function _drift(raw: unknown, problems: string[]): DriftConfig {
  const drift = defaultConfig().drift;
  if (!_isRecord(raw)) throw invalidConfig(`drift: must be a mapping (${_DRIFT_KEYS.join(", ")})`);
  const check = (fn: () => void) => _collect(problems, fn);
  for (const key of Object.keys(raw)) {
    if (!_DRIFT_KEYS.includes(key)) problems.push(_unknownKey(`drift.${key}`, key, _DRIFT_KEYS));
  }
  for (const key of ["stale_reference", "code_drift", "review"] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value === "boolean") drift[key] = value;
    else problems.push(`drift.${key}: must be true or false${_quotedBool(value)}`);
  }
  const interval = raw.review_interval_days;
  if (interval !== undefined && interval !== null) {
    check(() => {
      const days = _integer(interval, "drift.review_interval_days");
      if (days < 1) throw invalidConfig("drift.review_interval_days: must be a whole number >= 1");
      drift.review_interval_days = days;
    });
  }
  for (const key of ["exclude_docs", "exclude_code"] as const) {
    if (raw[key] === undefined) continue;
    check(() => {
      drift[key] = _stringList(raw[key], `drift.${key}`, problems);
      drift[key].forEach((g, i) => check(() => _glob(g, `drift.${key}[${i}]`)));
    });
  }
  if (raw.exclude_elements !== undefined) {
    check(() =>
      drift.exclude_elements = _stringList(raw.exclude_elements, "drift.exclude_elements", problems)
    );
  }
  return drift;
}

/** For a boolean written in quotes, YAML's string: say so. */
function _quotedBool(value: unknown): string {
  return value === "true" || value === "false"
    ? `, not the string "${value}" (write it without quotes)`
    : "";
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

/** The list's strings; each item that is not a non-empty string is a problem (and left out). */
function _stringList(value: unknown, at: string, problems: string[]): string[] {
  if (!Array.isArray(value)) throw invalidConfig(`${at}: must be a list of strings`);
  const out: string[] = [];
  value.forEach((v, i) => {
    if (typeof v !== "string" || v === "") problems.push(`${at}[${i}]: must be a non-empty string`);
    else out.push(v);
  });
  return out;
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  // A plain mapping: not a list, nor a tagged value (`!!binary` is bytes, `!!set` a Set).
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

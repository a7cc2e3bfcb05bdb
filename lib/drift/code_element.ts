/**
 * Which inline code names a code element (docs/signals.md "stale_reference"),
 * and the words that stand for it in the code.
 *
 * @module
 */

/** One identifier: a letter, `_` or `$`, then letters, digits, `_` or `$`. */
const _IDENTIFIER = "[A-Za-z_$][A-Za-z0-9_$]*";
/** One identifier or a dotted path of them, with an optional trailing `()`. */
const _DOTTED = new RegExp(`^${_IDENTIFIER}(?:\\.${_IDENTIFIER})*(?:\\(\\))?$`);
/** A long CLI flag: `--` then letters, digits and inner `-`. */
const _FLAG = /^--[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
/** A lower-case or digit followed by a capital: `parseConfig`, `HotBroadcaster`. */
const _INNER_CAPITAL = /[a-z0-9][A-Z]/;

/**
 * Last segments that make a dotted token a file or host name (`package.json`,
 * `vite.config.ts`, `example.com`), not a code element: paths are
 * `missing_path`'s.
 */
export const FILE_LIKE_SUFFIXES: ReadonlySet<string> = new Set([
  "c",
  "cc",
  "cfg",
  "cjs",
  "com",
  "conf",
  "cpp",
  "css",
  "csv",
  "cts",
  "dev",
  "env",
  "gif",
  "go",
  "h",
  "hpp",
  "htm",
  "html",
  "ini",
  "io",
  "java",
  "jpeg",
  "jpg",
  "js",
  "json",
  "json5",
  "jsonc",
  "jsx",
  "kt",
  "less",
  "lock",
  "log",
  "md",
  "mdx",
  "mjs",
  "mts",
  "net",
  "org",
  "php",
  "png",
  "py",
  "rb",
  "rs",
  "sass",
  "scss",
  "sh",
  "sql",
  "svelte",
  "svg",
  "swift",
  "toml",
  "ts",
  "tsx",
  "txt",
  "vue",
  "wasm",
  "xml",
  "yaml",
  "yml",
  "zip",
]); // deno-fmt-ignore

/**
 * The code element an inline-code span names, or `undefined`: the span's
 * whole content (trimmed) is one identifier-like token or dotted path,
 * optionally ending in `()`, that is code-shaped — it has a `_`, `$` or `.`,
 * a capital after a lower-case letter or digit, or the trailing `()` — or a
 * long CLI flag (`--dry-run`). A dotted token whose last segment is a file
 * extension or host suffix ({@linkcode FILE_LIKE_SUFFIXES}) is a file name,
 * not an element; so is anything with a `/`. At most 100 characters.
 *
 * @example
 * ```ts
 * import { codeElement } from "./code_element.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(codeElement("parseConfig()"), "parseConfig()");
 * assert.equal(codeElement("server.hmr.port"), "server.hmr.port");
 * assert.equal(codeElement("MAX_SIZE"), "MAX_SIZE");
 * assert.equal(codeElement("--dry-run"), "--dry-run");
 * assert.equal(codeElement("config"), undefined); // a word
 * assert.equal(codeElement("package.json"), undefined); // a file name
 * assert.equal(codeElement("npm run build"), undefined);
 * ```
 */
export function codeElement(code: string): string | undefined {
  const text = code.trim();
  if (text.length < 3 || text.length > 100) return undefined;
  if (text.startsWith("--")) return _FLAG.test(text) ? text : undefined;
  if (!_DOTTED.test(text)) return undefined;
  const call = text.endsWith("()");
  const body = call ? text.slice(0, -2) : text;
  const dot = body.lastIndexOf(".");
  if (dot >= 0 && FILE_LIKE_SUFFIXES.has(body.slice(dot + 1).toLowerCase())) return undefined;
  const shaped = call || dot >= 0 || body.includes("_") || body.includes("$") ||
    _INNER_CAPITAL.test(body);
  if (!shaped) return undefined;
  return /[A-Za-z]/.test(elementTerms(text)[0] ?? "") ? text : undefined;
}

/**
 * The words that stand for an element in the code, any one of which makes it
 * present: a dotted path's last segment without `()` (`server.hmr.port` →
 * `port`); a flag's name without the dashes, and its camelCase and snake_case
 * spellings (`--dry-run` → `dry-run`, `dryRun`, `dry_run`), and for `--no-x`
 * those of `x` too (parsers define the negation from the option).
 *
 * @example
 * ```ts
 * import { elementTerms } from "./code_element.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(elementTerms("fs.cachedChecks"), ["cachedChecks"]);
 * assert.deepEqual(elementTerms("parseConfig()"), ["parseConfig"]);
 * assert.deepEqual(elementTerms("--no-hmr"), ["no-hmr", "noHmr", "no_hmr", "hmr"]);
 * ```
 */
export function elementTerms(element: string): string[] {
  if (element.startsWith("--")) {
    const name = element.slice(2);
    const terms = _spellings(name);
    if (name.startsWith("no-") && name.length > 3) terms.push(..._spellings(name.slice(3)));
    return [...new Set(terms)];
  }
  const body = element.endsWith("()") ? element.slice(0, -2) : element;
  return [body.slice(body.lastIndexOf(".") + 1)];
}

/**
 * Whether an element is excluded by `excluded` (the config's `drift.exclude_elements`): named
 * as written, or without its trailing `()`.
 *
 * @example
 * ```ts
 * import { elementExcluder } from "./code_element.ts";
 * import assert from "node:assert/strict";
 *
 * const excluded = elementExcluder(["useState"]);
 * assert.equal(excluded("useState()"), true);
 * assert.equal(excluded("useEffect"), false);
 * ```
 */
export function elementExcluder(excluded: readonly string[]): (element: string) => boolean {
  const set = new Set(excluded);
  return (element) => set.has(element) || set.has(element.replace(/\(\)$/, ""));
}

function _spellings(name: string): string[] {
  if (!name.includes("-")) return [name];
  return [
    name,
    name.replace(/-([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase()),
    name.replaceAll("-", "_"),
  ];
}

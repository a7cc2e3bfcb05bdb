/**
 * Which docs renderer publishes a repository's docs, and where its sources
 * are: read once per scan from the listing and the renderer's config file.
 *
 * @module
 */

import type { LinksConfig, Renderer } from "../config/load_config.ts";

export type { LinksConfig };

/** A docs site: its renderer and the root-relative directory its pages are read from. */
export interface Site {
  /** The renderer. */
  renderer: Renderer;
  /** Root-relative source directory, without a trailing `/` (`""`: the repository root). */
  root: string;
  /** Extensions (without the dot) a page's source may have, in the order they are tried. */
  extensions: string[];
  /**
   * Whether its site-root links (`/guide/x`) are resolved against `root`:
   * VitePress's are, unless its config has `rewrites` (routes then differ from
   * file paths); the other renderers' are URLs that are not modelled (not checked).
   */
  rootLinks: boolean;
  /** The config file it was detected from (root-relative), if any. */
  config?: string;
}

/** Reads a root-relative file's text, `undefined` when it cannot be read. */
export type ReadText = (path: string) => string | undefined;

const _VITEPRESS = /^(?:(.*)\/)?\.vitepress\/config\.(?:js|ts|mjs|mts|cjs|cts)$/;
const _DOCUSAURUS = /^(?:(.*)\/)?docusaurus\.config\.(?:js|ts|mjs|mts|cjs|cts)$/;
const _MKDOCS = /^(?:(.*)\/)?mkdocs\.ya?ml$/;
const _MDBOOK = /^(?:(.*)\/)?book\.toml$/;

/**
 * The site of a repository from its listed `paths` (the shallowest config
 * file wins): VitePress (`.vitepress/config.*`, its `srcDir`), Docusaurus
 * (`docusaurus.config.*`, the docs plugin's `path`, default `docs`), MkDocs
 * (`mkdocs.yml`, `docs_dir`, default `docs`), mdBook (`book.toml`, `src`,
 * default `src`); `undefined` for a plain repository (GitHub). `links`
 * overrides the renderer, the root and the extensions. Config files are
 * not run: their values are read as literal strings.
 *
 * @example
 * ```ts
 * import { detectSite } from "./detect_site.ts";
 * import assert from "node:assert/strict";
 *
 * const site = detectSite(["docs/.vitepress/config.ts", "docs/guide/index.md"], () =>
 *   "export default { title: 'x' }");
 * assert.deepEqual(site, {
 *   renderer: "vitepress",
 *   root: "docs",
 *   extensions: ["md"],
 *   rootLinks: true,
 *   config: "docs/.vitepress/config.ts",
 * });
 * assert.equal(detectSite(["README.md"], () => undefined), undefined);
 * ```
 */
export function detectSite(
  paths: Iterable<string>,
  readText: ReadText,
  links: LinksConfig = {},
): Site | undefined {
  const forced = links.renderer !== undefined && links.renderer !== "auto"
    ? links.renderer
    : undefined;
  let found: Site | undefined;
  if (forced !== "github") {
    let depth = Infinity;
    for (const path of paths) {
      const site = _fromConfig(path, readText, forced);
      if (site === undefined) continue;
      const d = path.split("/").length;
      if (d < depth) [found, depth] = [site, d];
    }
  }
  if (forced === "github") return undefined;
  if (found === undefined && forced !== undefined) {
    found = {
      renderer: forced,
      root: "",
      extensions: _defaultExtensions(forced),
      rootLinks: forced === "vitepress",
    };
  }
  if (found === undefined) return undefined;
  if (links.root !== undefined) found.root = _clean(links.root);
  if (links.fallback_extensions !== undefined) {
    found.extensions = links.fallback_extensions.map((e) => e.replace(/^\./, ""));
  }
  return found;
}

/** The name of a file {@linkcode _TRIES} may match. */
const _CONFIG_NAME = /^(?:config|docusaurus\.config)\.[cm]?[jt]s$|^mkdocs\.ya?ml$|^book\.toml$/;

/** Each renderer's config file and where it says the pages are. */
const _TRIES: readonly [RegExp, Renderer, (dir: string, text: string) => string][] = [
  [_VITEPRESS, "vitepress", (dir, text) => _join(dir, _jsValue(text, "srcDir") ?? ".")],
  [_DOCUSAURUS, "docusaurus", (dir, text) => _join(dir, _docusaurusPath(text) ?? "docs")],
  [_MKDOCS, "mkdocs", (dir, text) => _join(dir, _yamlValue(text, "docs_dir") ?? "docs")],
  [_MDBOOK, "mdbook", (dir, text) => _join(dir, _tomlValue(text, "src") ?? "src")],
];

/** The site a config file at `path` describes, if it is one (of `only`, when given). */
function _fromConfig(
  path: string,
  readText: ReadText,
  only: Renderer | undefined,
): Site | undefined {
  // Called for every listed path: most names are none of the four. Each config name ends in `s`
  // (.js, .ts…) or `l` (.yml, .yaml, .toml): a doc's path is passed over on its last letter.
  const last = path.charCodeAt(path.length - 1);
  if (last !== 0x73 && last !== 0x6c) return undefined;
  if (!_CONFIG_NAME.test(path.slice(path.lastIndexOf("/") + 1))) return undefined;
  for (const [pattern, renderer, root] of _TRIES) {
    if (only !== undefined && only !== renderer) continue;
    const m = pattern.exec(path);
    if (m === null) continue;
    const text = readText(path) ?? "";
    return {
      renderer,
      root: root(m[1] ?? "", text),
      extensions: _defaultExtensions(renderer),
      rootLinks: renderer === "vitepress" && !/\brewrites\s*:/.test(text),
      config: path,
    };
  }
  return undefined;
}

function _defaultExtensions(renderer: Renderer): string[] {
  return renderer === "docusaurus" ? ["md", "mdx"] : ["md"];
}

/** `key: 'value'` or `key: "value"` in a JS/TS config (a literal only). */
function _jsValue(text: string, key: string): string | undefined {
  return new RegExp(`\\b${key}\\s*:\\s*(['"\`])([^'"\`]*)\\1`).exec(text)?.[2];
}

/** The docs plugin's `path` in a Docusaurus config: the first `path:` inside `docs: {`. */
function _docusaurusPath(text: string): string | undefined {
  const at = text.search(/\bdocs\s*:\s*\{/);
  if (at < 0) return undefined;
  const value = /\bpath\s*:\s*(['"`])([^'"`]*)\1/.exec(text.slice(at, at + 2000));
  return value?.[2];
}

/** A top-level `key: value` in YAML (quotes removed). */
function _yamlValue(text: string, key: string): string | undefined {
  const m = new RegExp(`^${key}\\s*:\\s*(.+?)\\s*(?:#.*)?$`, "m").exec(text);
  return m?.[1].replace(/^(['"])(.*)\1$/, "$2");
}

/** `key = "value"` in TOML (any table: mdBook's `src` is only under `[book]`). */
function _tomlValue(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*(['"])([^'"]*)\\1`, "m").exec(text)?.[2];
}

/** `dir` joined with a relative `sub`, normalised, without a trailing `/`. */
function _join(dir: string, sub: string): string {
  return _clean(dir === "" ? sub : `${dir}/${sub}`);
}

function _clean(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}

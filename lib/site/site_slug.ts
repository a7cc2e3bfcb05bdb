/**
 * Heading slugs as each docs renderer makes them (docs/signals.md "Renderers").
 *
 * @module
 */

import { githubSlug } from "../markdown/github_slug.ts";

import type { Renderer } from "../config/load_config.ts";

export type { Renderer };

// VitePress's slugify (its shared utils; used by markdown-it-anchor in its markdown config).
// deno-lint-ignore no-control-regex
const _VP_CONTROL = /[\u0000-\u001f]/g;
const _VP_SPECIAL = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const _COMBINING = /[\u0300-\u036F]/g;

/**
 * The slug `renderer` gives a heading whose text is `text` (before
 * de-duplication):
 *
 * - `github`, `docusaurus`: github-slugger (Docusaurus uses it too).
 * - `vitepress`: NFKD, combining marks and controls removed, runs of
 *   whitespace and ASCII punctuation to one `-`, no leading or trailing `-`,
 *   a leading digit prefixed with `_`, lower case.
 * - `mkdocs`: Python-Markdown's toc `slugify`: NFKD to ASCII, characters other
 *   than word characters, whitespace and `-` removed, trimmed, lower case,
 *   runs of whitespace and `-` to one `-`.
 * - `mdbook`: `normalize_id`: alphanumerics, `_` and `-` kept (lower case),
 *   whitespace to `-`, everything else removed.
 *
 * @example
 * ```ts
 * import { siteSlug } from "./site_slug.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(siteSlug("vitepress", "build.target"), "build-target");
 * assert.equal(siteSlug("github", "build.target"), "buildtarget");
 * ```
 */
export function siteSlug(renderer: Renderer, text: string): string {
  switch (renderer) {
    case "vitepress":
      return text.normalize("NFKD").replace(_COMBINING, "").replace(_VP_CONTROL, "")
        .replace(_VP_SPECIAL, "-").replace(/-{2,}/g, "-").replace(/^-+|-+$/g, "")
        .replace(/^(\d)/, "_$1").toLowerCase();
    case "mkdocs": {
      // deno-lint-ignore no-control-regex
      const ascii = text.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
      return ascii.replace(/[^\w\s-]/g, "").trim().toLowerCase().replace(/[-\s]+/g, "-");
    }
    case "mdbook": {
      let out = "";
      for (const ch of text) {
        if (/[\p{L}\p{N}_-]/u.test(ch)) out += ch.toLowerCase();
        else if (/\s/u.test(ch)) out += "-";
      }
      return out;
    }
    default:
      return githubSlug(text);
  }
}

/**
 * Links and anchors as a docs site's renderer resolves them (docs/signals.md
 * "Renderers"): applied to what the GitHub check found broken, and to the
 * fragments into the site's pages.
 *
 * @module
 */

import type { ReadText, Site } from "../site/detect_site.ts";
import { siteAnchors } from "../site/site_anchors.ts";
import type { PathIndex } from "./path_index.ts";
import { resolveLink, resolveRootLink } from "./resolve_link.ts";

/** The renderer's view of the links of the docs under a site's source root. */
export interface SiteLinkCheck {
  /** The site. */
  site: Site;
  /** Whether `path` is one of the site's pages (under its root, with one of its extensions). */
  covers(path: string): boolean;
  /**
   * The page a link of the page `from` leads to under the renderer, when the
   * GitHub rules found none: extensionless and `.html` links to the page's
   * source, a directory to its index page, a site-root link against the
   * site's root (see `Site.rootLinks`; VitePress: also its `public`
   * directory); `undefined` when it leads nowhere.
   */
  resolve(from: string, target: string): { path: string; fragment: string | undefined } | undefined;
  /** The anchors of the page `path` as the renderer makes them; `undefined` when it cannot be read. */
  anchors(path: string): ReadonlySet<string> | undefined;
}

/**
 * A {@linkcode SiteLinkCheck} of `site` over `index`, reading a page's text
 * (for its anchors) with `readText`, once per page.
 *
 * @example
 * ```ts
 * import { siteLinkCheck } from "./site_link_check.ts";
 * import { PathIndex } from "./path_index.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new PathIndex({
 *   paths: ["docs/guide/index.md", "docs/config/server-options.md"],
 *   nonFiles: [],
 *   opaque: [],
 * });
 * const site = { renderer: "vitepress" as const, root: "docs", extensions: ["md"], rootLinks: true };
 * const check = siteLinkCheck(site, index, () => "## server.host\n");
 * assert.deepEqual(check.resolve("docs/guide/index.md", "../config/server-options#server-host"), {
 *   path: "docs/config/server-options.md",
 *   fragment: "server-host",
 * });
 * assert.ok(check.anchors("docs/config/server-options.md")?.has("server-host"));
 * ```
 */
export function siteLinkCheck(site: Site, index: PathIndex, readText: ReadText): SiteLinkCheck {
  const prefix = site.root === "" ? "" : site.root + "/";
  const ext = new RegExp(`\\.(?:${site.extensions.map(_escape).join("|")})$`, "i");
  const anchors = new Map<string, ReadonlySet<string> | undefined>();
  const has = (path: string) => index.listed(path) || index.exists(path);
  return {
    site,
    covers: (path) => path.startsWith(prefix) && ext.test(path),
    resolve(from, target) {
      const t = target.trim();
      // Site-root links (`/guide/x`) are against the site's source root, where its renderer
      // resolves them so; VitePress serves its `public` directory's files at the root too.
      const rooted = t.startsWith("/") && !t.startsWith("//");
      if (rooted && !site.rootLinks) return undefined;
      const resolved = rooted ? resolveRootLink(site.root, t) : resolveLink(from, t);
      if (resolved?.path === undefined) return undefined;
      const base = resolved.path === "." ? "" : resolved.path;
      const dirLink = t.split(/[?#]/)[0].endsWith("/") || base === "";
      const candidates = _candidates(base, dirLink, site);
      if (rooted && base.startsWith(prefix)) {
        candidates.push(`${prefix}public/${base.slice(prefix.length)}`);
      }
      for (const candidate of candidates) {
        if (has(candidate)) return { path: candidate, fragment: resolved.fragment };
      }
      return undefined;
    },
    anchors(path) {
      if (!anchors.has(path)) {
        const text = readText(path);
        anchors.set(path, text === undefined ? undefined : siteAnchors(site.renderer, text));
      }
      return anchors.get(path);
    },
  };
}

/** The source pages a resolved link path may stand for, in the order the renderer tries them. */
function _candidates(base: string, dirLink: boolean, site: Site): string[] {
  const join = (name: string) => base === "" ? name : `${base}/${name}`;
  const index = site.extensions.map((e) => join(`index.${e}`));
  // mdBook and GitHub-style sites also take a directory's README as its index.
  const readme = site.renderer === "mdbook" || site.renderer === "mkdocs"
    ? [join("README.md")]
    : [];
  if (dirLink) return [...index, ...readme];
  const out: string[] = [];
  const html = /\.html?$/i.exec(base);
  const stem = html ? base.slice(0, html.index) : base;
  const last = stem.slice(stem.lastIndexOf("/") + 1);
  if (html || !last.includes(".")) {
    for (const e of site.extensions) out.push(`${stem}.${e}`);
    if (!html) out.push(...index, ...readme);
  }
  return out;
}

function _escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

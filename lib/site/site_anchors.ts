/**
 * The anchors of a doc as its docs renderer makes them: heading slugs,
 * explicit heading ids (`## Title {#id}`) and HTML `id`/`name` anchors.
 *
 * @module
 */

import { headingAnchors } from "../markdown/github_slug.ts";
import { type Renderer, siteSlug } from "./site_slug.ts";

/**
 * Every anchor of `text` under `renderer`: each heading's explicit
 * `{#id}` when it has one (the text before it is not slugged), else its
 * slug, de-duplicated as markdown-it-anchor and github-slugger do (`x`,
 * `x-1`, `x-2`; mdBook: `x`, `x-1`…), plus HTML `id` and `name` attributes.
 * The walk is GitHub's ({@linkcode headingAnchors}) with the renderer's
 * slugs; the frontmatter is skipped without being parsed.
 *
 * @example
 * ```ts
 * import { siteAnchors } from "./site_anchors.ts";
 * import assert from "node:assert/strict";
 *
 * const anchors = siteAnchors("vitepress", "# Options\n\n## build.target\n\n## Custom {#my-id}\n");
 * assert.deepEqual([...anchors], ["options", "build-target", "my-id"]);
 * ```
 */
export function siteAnchors(renderer: Renderer, text: string): Set<string> {
  return headingAnchors(text, {
    slug: (heading) => siteSlug(renderer, heading),
    explicitIds: true,
  });
}

/**
 * The anchors of a doc as its docs renderer makes them: heading slugs,
 * explicit heading ids (`## Title {#id}`) and HTML `id`/`name` anchors.
 *
 * @module
 */

import { parseMarkdown, scanBlock } from "../markdown/parse_markdown.ts";
import { type Renderer, siteSlug } from "./site_slug.ts";

/** A trailing explicit heading id: `{#id}`, after the heading's text. */
const _EXPLICIT_ID = /\s*\{#([^\s}]+)\}\s*$/;

/**
 * Every anchor of `text` under `renderer`: each heading's explicit
 * `{#id}` when it has one (the text before it is not slugged), else its
 * slug, de-duplicated as markdown-it-anchor and github-slugger do (`x`,
 * `x-1`, `x-2`; mdBook: `x`, `x-1`…), plus HTML `id` and `name` attributes.
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
  // Anchors need no frontmatter values: skipping its YAML keeps this free of the full YAML
  // parser, which a scan from the cache never loads (docs/scan.md "The scan cache").
  const parsed = parseMarkdown(text, { yaml: false });
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const block of parsed.blocks) {
    const scan = scanBlock(block, parsed);
    if (block.kind === "heading") {
      const heading = scan.text ?? "";
      const explicit = _EXPLICIT_ID.exec(heading);
      if (explicit !== null) anchors.add(explicit[1]);
      else anchors.add(_unique(seen, siteSlug(renderer, heading)));
    }
    for (const tag of scan.tags) {
      const id = tag.attributes.get("id");
      if (id) anchors.add(id);
      const name = tag.name === "a" ? tag.attributes.get("name") : undefined;
      if (name) anchors.add(name);
    }
  }
  return anchors;
}

function _unique(seen: Map<string, number>, slug: string): string {
  let result = slug;
  let n = seen.get(slug) ?? 0;
  while (seen.has(result)) result = `${slug}-${++n}`;
  seen.set(slug, n);
  seen.set(result, 0);
  return result;
}

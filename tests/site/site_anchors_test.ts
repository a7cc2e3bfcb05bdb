import assert from "node:assert/strict";
import { siteAnchors } from "../../lib/site/site_anchors.ts";

// VitePress, vitepress.dev/guide/markdown "Header Anchors › Custom anchors":
// `# Using custom anchors {#my-anchor}` is linked as `#my-anchor`.
Deno.test("an explicit {#id} is the heading's anchor (VitePress custom anchors)", () => {
  const anchors = siteAnchors("vitepress", "## Using custom anchors {#my-anchor}\n");
  assert.deepEqual([...anchors], ["my-anchor"]);
});

// Docusaurus, docusaurus.io/docs/markdown-features/toc "Heading IDs": an explicit id,
// `### Hello World {#my-explicit-id}`.
Deno.test("an explicit {#id} is the heading's anchor (Docusaurus explicit ids)", () => {
  assert.deepEqual([...siteAnchors("docusaurus", "### Hello World {#my-explicit-id}\n")], [
    "my-explicit-id",
  ]);
});

Deno.test("repeated headings get -1, -2 suffixes", () => {
  assert.deepEqual([...siteAnchors("vitepress", "## a.b\n\n## a.b\n\n## a.b\n")], [
    "a-b",
    "a-b-1",
    "a-b-2",
  ]);
});

// Nothing in this file loads the full YAML parser (`loadYaml`), as nothing does in a scan from
// the cache: parsing this frontmatter would throw YamlNotLoadedError.
Deno.test("a page's anchors need no YAML parser: its frontmatter is skipped, not parsed", () => {
  const page = "---\ntitle: [unclosed\nhead:\n  - - meta\n---\n# Title\n\n## a.b\n";
  assert.deepEqual([...siteAnchors("vitepress", page)], ["title", "a-b"]);
});

import assert from "node:assert/strict";
import { detectSite } from "../../lib/site/detect_site.ts";

const read = (files: Record<string, string>) => (path: string) => files[path];

// VitePress, vitepress.dev/guide/routing "Root and Source Directory": the project root holds
// `.vitepress`; `srcDir` is resolved relative to it.
Deno.test("VitePress: the project root is .vitepress's parent, srcDir under it", () => {
  const files = {
    "docs/.vitepress/config.mts": "export default defineConfig({ srcDir: './src' })",
  };
  assert.deepEqual(detectSite(Object.keys(files), read(files)), {
    renderer: "vitepress",
    root: "docs/src",
    extensions: ["md"],
    rootLinks: true,
    config: "docs/.vitepress/config.mts",
  });
});

// Docusaurus, docusaurus.io/docs/api/plugins/@docusaurus/plugin-content-docs "Configuration":
// `path` (default `docs`), relative to the site directory; .md and .mdx pages.
Deno.test("Docusaurus: the docs plugin's path, default docs; md and mdx", () => {
  const files = { "website/docusaurus.config.js": "module.exports = { presets: [] }" };
  assert.deepEqual(detectSite(Object.keys(files), read(files))?.root, "website/docs");
  assert.deepEqual(detectSite(Object.keys(files), read(files))?.extensions, ["md", "mdx"]);
  const custom = { "docusaurus.config.ts": "docs: { path: 'guides', sidebarPath: 'x' }" };
  assert.equal(detectSite(Object.keys(custom), read(custom))?.root, "guides");
});

// MkDocs, mkdocs.org/user-guide/configuration "docs_dir" (default `docs`); mdBook,
// rust-lang.github.io/mdBook/format/configuration/general.html "[book]" `src` (default `src`).
Deno.test("MkDocs docs_dir and mdBook src, with their defaults", () => {
  assert.equal(detectSite(["mkdocs.yml"], () => "site_name: x\n")?.root, "docs");
  assert.equal(detectSite(["mkdocs.yml"], () => "docs_dir: 'content'\n")?.root, "content");
  assert.equal(detectSite(["book/book.toml"], () => "[book]\ntitle = 'x'\n")?.root, "book/src");
  assert.equal(detectSite(["book.toml"], () => '[book]\nsrc = "pages"\n')?.root, "pages");
});

Deno.test("links: overrides the renderer, root and extensions; github turns detection off", () => {
  const files = { "docs/.vitepress/config.ts": "" };
  assert.equal(detectSite(Object.keys(files), read(files), { renderer: "github" }), undefined);
  assert.deepEqual(
    detectSite([], () => undefined, {
      renderer: "mkdocs",
      root: "site/",
      fallback_extensions: [".md", "markdown"],
    }),
    { renderer: "mkdocs", root: "site", extensions: ["md", "markdown"], rootLinks: false },
  );
  assert.equal(detectSite(["README.md"], () => undefined), undefined);
});

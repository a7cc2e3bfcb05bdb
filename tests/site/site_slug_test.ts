import assert from "node:assert/strict";
import { siteSlug } from "../../lib/site/site_slug.ts";

// VitePress, vitepress.dev/guide/markdown "Header Anchors": headers get anchors
// (`markdown.anchor` configures them), `# Using custom anchors` is `#using-custom-anchors`. The
// page does not spell out the rest: punctuation to `-` (`build.target` → `build-target`), a
// leading digit prefixed `_`, accents dropped, is VitePress's default `slugify` (@mdit-vue/shared).
Deno.test("vitepress slugs punctuation to dashes, like VitePress's slugify", () => {
  assert.equal(siteSlug("vitepress", "Using custom anchors"), "using-custom-anchors");
  assert.equal(siteSlug("vitepress", "build.target"), "build-target");
  assert.equal(siteSlug("vitepress", "server.host"), "server-host");
  assert.equal(siteSlug("vitepress", "What's New?"), "what-s-new");
  assert.equal(siteSlug("vitepress", "1. Install"), "_1-install");
  assert.equal(siteSlug("vitepress", "Café"), "cafe");
});

// Docusaurus, docusaurus.io/docs/markdown-features/toc "Heading IDs": ids are generated from the
// heading text, `### Hello World` is `hello-world`. The page does not name the slugger: it is
// github-slugger (Docusaurus's `createSlugger`), so `build.target` is `buildtarget`.
Deno.test("docusaurus slugs as GitHub does", () => {
  assert.equal(siteSlug("docusaurus", "build.target"), "buildtarget");
  assert.equal(siteSlug("docusaurus", "Hello World!"), "hello-world");
});

// MkDocs makes heading ids with Python-Markdown's toc extension (mkdocs.org "Configuration ›
// markdown_extensions"); its default `slugify` is documented by Python-Markdown ("Extensions ›
// Table of Contents › slugify", markdown.extensions.toc.slugify): NFKD to ASCII, characters
// other than word characters, spaces and `-` removed, lower case, runs of spaces and `-` to `-`.
Deno.test("mkdocs slugs as Python-Markdown's toc extension does", () => {
  assert.equal(siteSlug("mkdocs", "build.target"), "buildtarget");
  assert.equal(siteSlug("mkdocs", "Café  au lait"), "cafe-au-lait");
});

// mdBook, rust-lang.github.io/mdBook/format/markdown.html documents explicit ids ("Heading
// attributes", `{#id}`) but not the generated ones: those are its `normalize_id` (source, not
// documented): alphanumerics, `_`, `-` kept, each whitespace to `-`, the rest dropped.
Deno.test("mdbook slugs as its normalize_id does", () => {
  assert.equal(siteSlug("mdbook", "build.target"), "buildtarget");
  assert.equal(siteSlug("mdbook", "Hello  World"), "hello--world");
});

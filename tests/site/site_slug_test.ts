import assert from "node:assert/strict";
import { siteSlug } from "../../lib/site/site_slug.ts";

// VitePress: "Markdown Extensions › Header Anchors" — headers get anchor links, slugified by
// its `slugify` (markdown.anchor options); dots and other punctuation become `-`.
Deno.test("vitepress slugs punctuation to dashes, like VitePress's slugify", () => {
  assert.equal(siteSlug("vitepress", "build.target"), "build-target");
  assert.equal(siteSlug("vitepress", "server.host"), "server-host");
  assert.equal(siteSlug("vitepress", "What's New?"), "what-s-new");
  assert.equal(siteSlug("vitepress", "1. Install"), "_1-install");
  assert.equal(siteSlug("vitepress", "Café"), "cafe");
});

// Docusaurus: "Markdown Features › Headings" — heading ids are generated with github-slugger.
Deno.test("docusaurus slugs as GitHub does", () => {
  assert.equal(siteSlug("docusaurus", "build.target"), "buildtarget");
  assert.equal(siteSlug("docusaurus", "Hello World!"), "hello-world");
});

// MkDocs: "Configuration › markdown_extensions › toc" — Python-Markdown's toc extension
// `slugify`: ASCII only, punctuation removed, spaces to `-`.
Deno.test("mkdocs slugs as Python-Markdown's toc extension does", () => {
  assert.equal(siteSlug("mkdocs", "build.target"), "buildtarget");
  assert.equal(siteSlug("mkdocs", "Café  au lait"), "cafe-au-lait");
});

// mdBook: "Markdown › Heading attributes" and its `normalize_id`: alphanumerics, `_`, `-` kept,
// whitespace to `-`, the rest dropped.
Deno.test("mdbook slugs as its normalize_id does", () => {
  assert.equal(siteSlug("mdbook", "build.target"), "buildtarget");
  assert.equal(siteSlug("mdbook", "Hello  World"), "hello--world");
});

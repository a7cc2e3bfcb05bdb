// Links of a docs site's pages, checked as its renderer resolves them (docs/signals.md "Renderers").

import assert from "node:assert/strict";
import { commitFiles, runSeam, tempRepo } from "../support/helpers.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";

const NOW = "2026-11-30T03:36:18.000Z";

async function findings(root: string): Promise<string[]> {
  const r = await runSeam("scan", ["--format", "json", "--no-write"], {
    cwd: root,
    env: { DOCHYGIENE_NOW: NOW },
  });
  assert.equal(r.code, 0, r.stderr);
  const artifact = JSON.parse(r.stdout) as ScanArtifact;
  return Object.entries(artifact.signals).flatMap(([path, signals]) =>
    signals.flatMap((s) =>
      s.kind === "broken_link" || s.kind === "broken_anchor"
        ? [`${path} ${s.kind} ${s.target}`]
        : []
    )
  );
}

const PAGE = "# Server Options\n\n## server.host\n\n## Custom {#my-anchor}\n";

// VitePress: "Routing › Linking Between Pages" — links may omit the extension (`./getting-started`)
// or use `.html`; a directory link (`/guide/`) is its index.md; "Markdown Extensions › Header
// Anchors / Custom Anchors" — `## server.host` is `#server-host`, `{#my-anchor}` sets the id.
Deno.test("VitePress pages: extensionless, .html and directory links, its slugs and custom anchors", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docs/.vitepress/config.ts": "export default { title: 'x' }\n",
    "docs/config/server-options.md": PAGE,
    "docs/guide/index.md": "# Guide\n\n" +
      "[a](../config/server-options#server-host) [b](../config/server-options.html#my-anchor)\n" +
      "[c](./) [d](../config/server-optionz) [e](../config/server-options#serverhost)\n",
    "README.md": "[plain](docs/config/server-options)\n",
  }, "2026-10-01T00:00:00Z");
  assert.deepEqual(await findings(repo.path), [
    // Outside the site's source root, GitHub's rules still apply.
    "README.md broken_link docs/config/server-options",
    "docs/guide/index.md broken_link ../config/server-optionz",
    // GitHub's slug of `server.host`; VitePress makes `server-host`.
    "docs/guide/index.md broken_anchor ../config/server-options#serverhost",
  ]);
});

Deno.test("links: {renderer: github} turns the renderer's rules off", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".dochygiene.yml": "links: {renderer: github}\n",
    "docs/.vitepress/config.ts": "export default {}\n",
    "docs/a.md": "# A\n\n## x.y\n",
    "docs/b.md": "[a](./a#x-y)\n",
  }, "2026-10-01T00:00:00Z");
  assert.deepEqual(await findings(repo.path), ["docs/b.md broken_link ./a#x-y"]);
});

// VitePress: "Routing › Linking Between Pages" — absolute links (`/guide/x`) are against the
// source directory, extensionless or directory links as relative ones; "Asset Handling › The
// Public Directory" — `public/icon.png` in the source directory is linked as `/icon.png`.
Deno.test("VitePress pages: site-root links resolve against the source root and its public directory", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docs/.vitepress/config.ts": "export default { srcDir: '.' }\n",
    "docs/config/server-options.md": PAGE,
    "docs/guide/index.md": "# Guide\n",
    "docs/public/logo.svg": "<svg/>\n",
    "docs/intro.md": "# Intro\n\n" +
      "[a](/config/server-options#server-host) [b](/guide/) [c](/logo.svg)\n" +
      "[d](/config/server-optionz) [e](/config/server-options#nope) [f](/team/alice)\n",
  }, "2026-10-01T00:00:00Z");
  assert.deepEqual(await findings(repo.path), [
    "docs/intro.md broken_link /config/server-optionz",
    "docs/intro.md broken_anchor /config/server-options#nope",
  ]);
});

// Docusaurus, "Markdown links": a URL path (`/docs/intro`, a route under `routeBasePath`) is left
// as written, and an absolute file path (`/gone.md`) is tried against the content root, then the
// site directory. Neither is modelled: such links are not checked.
Deno.test("Docusaurus pages: site-root links are URLs, not checked", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docusaurus.config.js": "module.exports = {}\n",
    "docs/intro.md": "# Intro\n",
    "docs/a.md": "[a](/docs/intro) [b](/blog/gone) [c](/gone.md)\n",
  }, "2026-10-01T00:00:00Z");
  assert.deepEqual(await findings(repo.path), []);
});

Deno.test("plain repository: site-root links resolve against the repository root", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docs/a.md": "# A\n\n## Usage\n",
    "docs/b.md": "[a](/docs/a.md#usage) [b](/docs/gone.md) [c](/docs/a.md#nope)\n" +
      "[d](/powershell/module/x) [e](/CONTRIBUTING.md)\n",
  }, "2026-10-01T00:00:00Z");
  assert.deepEqual(await findings(repo.path), [
    "docs/b.md broken_link /docs/gone.md",
    "docs/b.md broken_link /CONTRIBUTING.md",
    "docs/b.md broken_anchor /docs/a.md#nope",
  ]);
});

// A repeat scan takes every doc's facts from the scan cache and analyses none, so nothing has
// loaded the full YAML parser; the renderer's anchors of a page must still be read, whatever
// its frontmatter (docs/scan.md "The scan cache").
Deno.test("VitePress pages: a repeat scan from the cache reads the anchors of pages with nested frontmatter", async () => {
  await using repo = await tempRepo();
  const frontmatter = "---\ntitle: Server Options\nhead:\n  - - meta\n    - name: a\n---\n";
  await commitFiles(repo.path, {
    ".dochygiene.yml": "drift: {stale_reference: false, code_drift: false, review: false}\n",
    "docs/.vitepress/config.ts": "export default { title: 'x' }\n",
    "docs/config/server-options.md": frontmatter + PAGE,
    "docs/guide/index.md": frontmatter + "# Guide\n\n" +
      "[a](../config/server-options#server-host) [b](../config/server-options#nope)\n",
  }, "2026-10-01T00:00:00Z");
  const scan = async () => {
    const r = await runSeam("scan", ["--format", "json"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW },
    });
    assert.equal(r.code, 0, r.stderr);
    const artifact = JSON.parse(r.stdout) as ScanArtifact;
    return artifact.signals["docs/guide/index.md"].filter((s) => s.kind === "broken_anchor");
  };
  const expected = [{ kind: "broken_anchor", line: 9, target: "../config/server-options#nope" }];
  assert.deepEqual(await scan(), expected);
  await Deno.stat(`${repo.path}/.dochygiene/scan-cache.json`);
  assert.deepEqual(await scan(), expected);
});

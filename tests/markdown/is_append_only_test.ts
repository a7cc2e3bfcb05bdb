import assert from "node:assert/strict";
import { join } from "node:path";
import { isAppendOnly } from "../../lib/markdown/is_append_only.ts";
import { PACKAGE_DIR } from "../support/helpers.ts";

const FIXTURES = join(PACKAGE_DIR, "fixtures/append_only");

async function fixture(kind: "positive" | "negative", path: string): Promise<string> {
  return await Deno.readTextFile(join(FIXTURES, kind, path));
}

for (const path of ["CHANGELOG.md", "notes/log.md", "HISTORY.md", "RELEASES.md"]) {
  Deno.test(`isAppendOnly: positive fixture ${path} is a dated log`, async () => {
    assert.equal(isAppendOnly(path, await fixture("positive", path)), true);
  });
}

for (
  const path of [
    "docs/history.md",
    "CHANGELOG.md",
    "plans/rollout.md",
    "docs/spec.md",
    "docs/upgrade.md",
    "docs/events.md",
  ]
) {
  Deno.test(`isAppendOnly: negative fixture ${path} is not append-only`, async () => {
    assert.equal(isAppendOnly(path, await fixture("negative", path)), false);
  });
}

Deno.test("isAppendOnly: the file name alone never decides", async () => {
  const log = await fixture("positive", "notes/log.md");
  // The same dated log under a neutral name is still a log…
  assert.equal(isAppendOnly("docs/working.md", log), true);
  // …and a log-like name on a document without dated headings is not.
  assert.equal(isAppendOnly("CHANGELOG.md", "# Changelog\n\n## Usage\n\n## Options\n"), false);
  assert.equal(isAppendOnly("log.md", "# Log\n"), false);
});

Deno.test("isAppendOnly: the log-like name lowers the bar from three dated headings to two", () => {
  const two = "# Notes\n\n## 2026-08-01\n\nA.\n\n## 2026-08-02\n\nB.\n";
  assert.equal(isAppendOnly("journal.md", two), true);
  assert.equal(isAppendOnly("docs/notes.md", two), false);
  const three = two + "\n## 2026-08-03\n\nC.\n";
  assert.equal(isAppendOnly("docs/notes.md", three), true);
});

Deno.test("isAppendOnly: at least 60% of the level's headings must be dated", () => {
  const mostly = "## 2026-08-01\n## 2026-08-02\n## 2026-08-03\n## Summary\n";
  assert.equal(isAppendOnly("a.md", mostly), true);
  const few = mostly + "## Goals\n## Risks\n";
  assert.equal(isAppendOnly("a.md", few), false);
});

Deno.test("isAppendOnly: entries must run in one direction (ties allowed, 80% of pairs)", () => {
  const descending = "## v3.0\n## v2.1\n## v2.1\n## v2.0\n## v1.0\n";
  assert.equal(isAppendOnly("a.md", descending), true);
  const oneBackport = "## v3.0\n## v2.1\n## v2.2\n## v2.0\n## v1.9\n## v1.8\n";
  assert.equal(isAppendOnly("a.md", oneBackport), true);
  const shuffled = "## v1.0\n## v3.0\n## v2.0\n## v4.0\n";
  assert.equal(isAppendOnly("a.md", shuffled), false);
});

Deno.test("isAppendOnly: numbered sections and impossible dates are not entries", () => {
  assert.equal(isAppendOnly("a.md", "## 1.1 Scope\n## 1.2 Terms\n## 1.3 Rules\n"), false);
  assert.equal(isAppendOnly("a.md", "## 1.1.0 Scope\n## 1.2.0 Terms\n## 1.3.0 Rules\n"), false);
  assert.equal(isAppendOnly("a.md", "## 2026-02-30\n## 2026-02-31\n## 2026-13-01\n"), false);
  assert.equal(isAppendOnly("a.md", "## 1.2.0 (2026-01-02)\n## 1.1.0\n## 1.0.0 - old\n"), true);
});

Deno.test("isAppendOnly: headings inside code blocks do not count", () => {
  const text = "# Doc\n\n```md\n## 2026-08-01\n## 2026-08-02\n## 2026-08-03\n```\n";
  assert.equal(isAppendOnly("a.md", text), false);
});

Deno.test("isAppendOnly: a Keep a Changelog preamble with an Unreleased heading is enough", () => {
  const text = "# Changelog\n\nBased on [Keep a Changelog](https://keepachangelog.com).\n\n" +
    "## [Unreleased]\n";
  assert.equal(isAppendOnly("docs/changes.md", text), true);
  assert.equal(isAppendOnly("docs/changes.md", "# Changelog\n\n## [Unreleased]\n"), false);
});

Deno.test("isAppendOnly: hygiene append-only in frontmatter decides by itself", () => {
  assert.equal(isAppendOnly("docs/guide.md", "# Guide\n", "append-only"), true);
  assert.equal(isAppendOnly("docs/guide.md", "# Guide\n", "frozen"), false);
});

Deno.test("isAppendOnly: entry headings by their first character, in every form", () => {
  // Headings that cannot be entries are passed over before any pattern is tried; each form
  // of entry is still recognised.
  const log = (headings: string[]) => "# Log\n\n" + headings.map((h) => `## ${h}\n`).join("\n");
  assert.ok(isAppendOnly("notes.md", log(["[1.2.0]", "v1.1", "1.0.0"])));
  assert.ok(isAppendOnly("notes.md", log(["Version 1.2", "Release 1.1", "release v1.0"])));
  assert.ok(
    isAppendOnly("notes.md", log(["Unreleased", "2026-08-03", "[2026-08-02]", "2026-08-01"])),
  );
  assert.ok(!isAppendOnly("notes.md", log(["Setup", "Usage", "Options"])));
  assert.ok(!isAppendOnly("notes.md", log(["x 1.2.0", "é 1.1.0", "_1.0.0"])));
  assert.ok(isAppendOnly("notes.md", "Keep a Changelog\n\n## [unreleased]\n"));
  assert.ok(!isAppendOnly("notes.md", "Keep a Changelog\n\n## Notes\n"));
});

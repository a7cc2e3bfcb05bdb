import assert from "node:assert/strict";
import { join } from "node:path";
import { dirEntries } from "../../lib/fs/dir_entries.ts";
import { tempDir, writeFiles } from "../support/helpers.ts";

Deno.test("dirEntries: never reads a directory through a symlink, inside or outside the root", async () => {
  await using outside = await tempDir();
  await using root = await tempDir();
  await writeFiles(outside.path, { "secret.md": "x" });
  await writeFiles(root.path, { "docs/a.md": "a" });
  await Deno.symlink(outside.path, join(root.path, "out"));
  await Deno.symlink("docs", join(root.path, "alias"));
  await Deno.writeTextFile(join(root.path, "file"), "x");
  const entry = dirEntries(root.path);
  assert.equal(entry("docs/a.md"), "file");
  assert.equal(entry("out"), "other");
  assert.equal(entry("out/secret.md"), "linked");
  assert.equal(entry("alias/a.md"), "linked");
  assert.equal(entry("alias/deeper/x.md"), "linked");
  assert.equal(entry("file/a.md"), "missing");
});

Deno.test("dirEntries: a path longer than the system opens, or deep under a missing directory, is missing", async () => {
  await using root = await tempDir();
  await writeFiles(root.path, { "a/a/b.md": "b" });
  const entry = dirEntries(root.path);
  assert.equal(entry("a/".repeat(200_000) + "b.md"), "missing");
  assert.equal(entry("a/".repeat(2_000) + "b.md"), "missing");
  assert.equal(entry("a/a/b.md"), "file");
});

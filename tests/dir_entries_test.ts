import assert from "node:assert/strict";
import { join } from "node:path";
import { dirEntries } from "../lib/dir_entries.ts";
import { tempDir, writeFiles } from "./_helpers.ts";

Deno.test("dirEntries: never reads a directory through a symlink, inside or outside the root", async () => {
  await using outside = await tempDir();
  await using root = await tempDir();
  await writeFiles(outside.path, { "secret.md": "x" });
  await writeFiles(root.path, { "docs/a.md": "a" });
  await Deno.symlink(outside.path, join(root.path, "out"));
  await Deno.symlink("docs", join(root.path, "alias"));
  await Deno.writeTextFile(join(root.path, "file"), "x");
  const entry = dirEntries(root.path);
  assert.equal(entry("docs/a.md"), true);
  assert.equal(entry("out"), false);
  assert.equal(entry("out/secret.md"), null);
  assert.equal(entry("alias/a.md"), null);
  assert.equal(entry("file/a.md"), null);
});

Deno.test("dirEntries: a path of 200,000 segments is not there, without recursion or a long wait", async () => {
  await using root = await tempDir();
  await writeFiles(root.path, { "a/a/b.md": "b" });
  const entry = dirEntries(root.path);
  assert.equal(entry("a/".repeat(200_000) + "b.md"), null);
  assert.equal(entry("a/".repeat(2_000) + "b.md"), null);
  assert.equal(entry("a/a/b.md"), true);
});

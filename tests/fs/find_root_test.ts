import assert from "node:assert/strict";
import { findRoot } from "../../lib/fs/find_root.ts";
import { git, tempDir, tempRepo, writeFiles } from "../support/helpers.ts";

Deno.test("findRoot returns the nearest ancestor holding a .git directory", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/docs/deep`, { recursive: true });
  assert.equal(await findRoot(`${repo.path}/docs/deep`), repo.path);
  assert.equal(await findRoot(repo.path), repo.path);
});

Deno.test("findRoot accepts a .git file, as in worktrees and submodules", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "a.md": "a" });
  await git(repo.path, ["add", "a.md"]);
  await git(repo.path, ["commit", "-q", "-m", "a"]);
  await using outer = await tempDir();
  const worktree = `${outer.path}/wt`;
  await git(repo.path, ["worktree", "add", "-q", worktree]);
  assert.ok((await Deno.lstat(`${worktree}/.git`)).isFile);
  await Deno.mkdir(`${worktree}/docs`);
  assert.equal(await findRoot(`${worktree}/docs`), worktree);
});

Deno.test("findRoot stops at the nearest .git, so a nested repository is its own root", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/vendor/lib/.git`, { recursive: true });
  await Deno.mkdir(`${repo.path}/vendor/lib/src`);
  assert.equal(await findRoot(`${repo.path}/vendor/lib/src`), `${repo.path}/vendor/lib`);
});

Deno.test("findRoot without any .git returns the start directory itself, made absolute", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/a/b`, { recursive: true });
  // Precondition: no .git above the temp directory.
  assert.equal(await findRoot(dir.path), dir.path);
  assert.equal(await findRoot(`${dir.path}/a/b`), `${dir.path}/a/b`);
  const cwd = Deno.cwd();
  Deno.chdir(`${dir.path}/a`);
  try {
    assert.equal(await findRoot("b"), `${dir.path}/a/b`);
  } finally {
    Deno.chdir(cwd);
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitFiles,
  DENO,
  git,
  giveToUnprivileged,
  HOSTILE_NAMES,
  PACKAGE_DIR,
  runCommand,
  tempDir,
  tempRepo,
  writeFiles,
  writeNonUtf8Name,
} from "../support/helpers.ts";
import {
  type CandidateListing,
  listCandidates,
  parseLsFiles,
} from "../../lib/git/list_candidates.ts";

const paths = (l: { files: { path: string }[] }) => l.files.map((f) => f.path);

Deno.test("git mode: tracked plus untracked-not-ignored files, .gitignore respected, sorted", async () => {
  await using repo = await tempRepo();
  await commitFiles(
    repo.path,
    { "b.md": "b", ".gitignore": "ignored.md\nout/\n" },
    "2024-01-01T00:00:00Z",
  );
  await writeFiles(repo.path, { "a.md": "new", "ignored.md": "x", "out/x.md": "x" });
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(paths(listing), [".gitignore", "a.md", "b.md"]);
  assert.equal(listing.files.find((f) => f.path === "a.md")?.tracked, false);
  assert.equal(listing.files.find((f) => f.path === "b.md")?.tracked, true);
});

Deno.test("git mode: a blob id only where git vouches the file on disk has its bytes", async () => {
  await using repo = await tempRepo();
  const files = Object.fromEntries(
    ["clean", "edited", "touched", "gone", "hidden", "sparse", "staged", "exec"]
      .map((name) => [`${name}.md`, `# ${name}\n`]),
  );
  await commitFiles(repo.path, files, "2024-01-01T00:00:00Z");
  await Deno.symlink("clean.md", join(repo.path, "link.md"));
  await writeFiles(repo.path, { "edited.md": "# edited, not staged\n", "new.md": "# new\n" });
  // Same bytes, new mtime: git looks at the content and vouches all the same.
  const touched = join(repo.path, "touched.md");
  await Deno.utime(touched, new Date(), new Date(Date.now() + 60_000));
  await Deno.remove(join(repo.path, "gone.md"));
  await git(repo.path, ["update-index", "--assume-unchanged", "hidden.md"]);
  await git(repo.path, ["update-index", "--skip-worktree", "sparse.md"]);
  await writeFiles(repo.path, { "staged.md": "# staged\n" });
  await git(repo.path, ["add", "staged.md", "link.md"]);
  await Deno.chmod(join(repo.path, "exec.md"), 0o755);
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  const oids = Object.fromEntries(listing.files.map((f) => [f.path, f.oid]));
  const blob = async (path: string) => (await git(repo.path, ["rev-parse", `:${path}`])).trim();
  assert.deepEqual(oids, {
    "clean.md": await blob("clean.md"),
    "edited.md": undefined,
    "touched.md": await blob("touched.md"),
    "gone.md": undefined,
    "hidden.md": undefined,
    "sparse.md": undefined,
    "staged.md": await blob("staged.md"),
    "exec.md": undefined, // its mode changed: git counts it modified
    "link.md": undefined,
    "new.md": undefined,
  });
});

Deno.test("git mode: hostile names come back byte for byte, non-UTF-8 bytes as lone surrogates", async () => {
  await using repo = await tempRepo();
  const names = [...HOSTILE_NAMES, "ünï.md", "tab\t.md"];
  await writeFiles(repo.path, Object.fromEntries(names.map((n) => [n, n])));
  await writeNonUtf8Name(repo.path, "x");
  await git(repo.path, ["--literal-pathspecs", "add", "--", ...names.slice(0, 4)]);
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(new Set(paths(listing)), new Set([...names, "caf\udce9.md"]));
  assert.equal(JSON.stringify("caf\udce9.md"), '"caf\\udce9.md"');
});

Deno.test("git mode: an unmerged path (mid-merge conflict) is listed once", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "c.md": "base\n" }, "2024-01-01T00:00:00Z");
  await git(repo.path, ["checkout", "-q", "-b", "other"]);
  await commitFiles(repo.path, { "c.md": "other\n" }, "2024-01-02T00:00:00Z");
  await git(repo.path, ["checkout", "-q", "main"]);
  await commitFiles(repo.path, { "c.md": "main\n" }, "2024-01-03T00:00:00Z");
  const merge = await new Deno.Command("git", {
    args: ["merge", "other"],
    cwd: repo.path,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.notEqual(merge.code, 0);
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(paths(listing), ["c.md"]);
  // Mid-conflict, no one blob is the file's: git vouches for none.
  assert.equal(listing.files[0].oid, undefined);
  assert.equal(listing.files[0].tracked, true);
});

Deno.test("git mode: a submodule is a gitlink and an embedded untracked repository is opaque", async () => {
  await using repo = await tempRepo();
  await using sub = await tempRepo();
  await commitFiles(sub.path, { "x.md": "x" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "a.md": "a" }, "2024-01-01T00:00:00Z");
  await git(repo.path, [
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "add",
    "-q",
    sub.path,
    "mod.md",
  ]);
  await git(repo.path, ["init", "-q", "nested"]);
  await writeFiles(repo.path, { "nested/y.md": "y" });
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(listing.files.find((f) => f.path === "mod.md"), {
    path: "mod.md",
    tracked: true,
    type: "gitlink",
  });
  assert.deepEqual(listing.opaque, ["mod.md", "nested"]);
  assert.ok(!paths(listing).some((p) => p.startsWith("nested/")));
});

Deno.test("git mode: symlinks are listed as symlinks, never followed", async () => {
  await using repo = await tempRepo();
  await Deno.symlink("/etc", `${repo.path}/outside`);
  await Deno.symlink("/etc/hostname", `${repo.path}/host.md`);
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(paths(listing), ["host.md", "outside"]);
  await git(repo.path, ["add", "host.md"]);
  const again = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.equal(again.files.find((f) => f.path === "host.md")?.type, "symlink");
});

Deno.test("git mode: a deleted tracked file and a sparse checkout's missing file are marked absent", async () => {
  await using repo = await tempRepo();
  await commitFiles(
    repo.path,
    { "kept.md": "k", "gone.md": "g", "away/x.md": "x", "local.md": "l" },
    "2024-01-01T00:00:00Z",
  );
  await Deno.remove(join(repo.path, "gone.md")); // deleted, not staged
  // skip-worktree: one file not checked out (as in a sparse checkout), one kept on disk.
  await git(repo.path, ["update-index", "--skip-worktree", "away/x.md", "local.md"]);
  await Deno.remove(join(repo.path, "away"), { recursive: true });
  const listing = await listCandidates(repo.path, { git: true, excludedDirs: [] });
  assert.deepEqual(
    listing.files.map((f) => [f.path, f.absent ?? false, f.hidden ?? false]),
    [
      ["away/x.md", true, true],
      ["gone.md", true, false],
      ["kept.md", false, false],
      ["local.md", false, true],
    ],
  );
});

Deno.test("walk mode: excluded, .git and .dochygiene directories are never descended; symlinks never followed; loops harmless", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, {
    "a.md": "a",
    "docs/b.md": "b",
    "docs/vendor/c.md": "c",
    ".git/HEAD": "x",
    ".dochygiene/scan.json": "{}",
  });
  await Deno.symlink(".", `${dir.path}/docs/loop`);
  await Deno.symlink("/", `${dir.path}/rootlink`);
  const listing = await listCandidates(dir.path, { git: false, excludedDirs: ["vendor"] });
  assert.deepEqual(paths(listing), ["a.md", "docs/b.md", "docs/loop", "rootlink"]);
  assert.deepEqual(listing.opaque, [".dochygiene", ".git", "docs/loop", "docs/vendor", "rootlink"]);
  assert.equal(listing.files.find((f) => f.path === "docs/loop")?.type, "symlink");
  assert.deepEqual(listing.warnings, []);
});

Deno.test("walk mode: names that are not UTF-8 are left out with a warning, never merged with a real U+FFFD name", async () => {
  await using dir = await tempDir();
  await writeNonUtf8Name(dir.path, "latin-1");
  await new Deno.Command("sh", {
    args: ["-c", "printf x > \"$(printf 'caf\\350.md')\""],
    cwd: dir.path,
  })
    .output();
  await writeFiles(dir.path, { "caf\uFFFD.md": "real", "ok.md": "ok" });
  const listing = await listCandidates(dir.path, { git: false, excludedDirs: [] });
  assert.deepEqual(paths(listing), ["caf\uFFFD.md", "ok.md"]);
  assert.deepEqual(listing.warnings, [
    "2 names in ./ are not valid UTF-8, which Deno cannot open outside git; rename them to scan them",
  ]);
  // A directory whose name is not UTF-8 is not taken for a real U+FFFD file of that name.
  await Deno.mkdir(join(dir.path, "sub"));
  await new Deno.Command("sh", {
    args: ["-c", "mkdir \"$(printf 'n\\377.md')\""],
    cwd: join(dir.path, "sub"),
  })
    .output();
  await Deno.writeTextFile(join(dir.path, "sub", "n\uFFFD.md"), "real");
  const sub = await listCandidates(join(dir.path, "sub"), { git: false, excludedDirs: [] });
  assert.deepEqual(paths(sub), ["n\uFFFD.md"]);
  assert.equal(sub.warnings.length, 1);
  await Deno.remove(join(dir.path, "sub"), { recursive: true });
  await Deno.remove(join(dir.path, "caf\uFFFD.md"));
  const without = await listCandidates(dir.path, { git: false, excludedDirs: [] });
  assert.deepEqual(paths(without), ["ok.md"]);
  assert.equal(without.warnings.length, 1);
});

Deno.test("walk mode: an unreadable directory is a warning, not a failure", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, { "a.md": "a", "locked/b.md": "b" });
  await giveToUnprivileged(dir.path);
  await Deno.chmod(`${dir.path}/locked`, 0o000);
  try {
    // In a subprocess, which runs as nobody when the suite runs as root (root reads any directory).
    const run = await runCommand(DENO, [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      "--allow-read",
      join(PACKAGE_DIR, "tests", "support", "walk_lister.ts"),
      dir.path,
    ], { cwd: dir.path, unprivileged: true });
    assert.equal(run.code, 0, run.stderr);
    const listing: CandidateListing = JSON.parse(run.stdout);
    assert.deepEqual(paths(listing), ["a.md"]);
    assert.equal(listing.warnings.length, 1);
    assert.match(listing.warnings[0], /cannot read directory locked\/ \(permission denied\)/);
  } finally {
    await Deno.chmod(`${dir.path}/locked`, 0o755);
  }
});

Deno.test("parseLsFiles: a tracked record wins over an untracked one and records are deduplicated", () => {
  const out = new TextEncoder().encode(
    "M 100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 1\tc.md\0" +
      "M 100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 2\tc.md\0" +
      "H 120000 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tl.md\0",
  );
  assert.deepEqual(parseLsFiles(out).files, [
    { path: "c.md", tracked: true, type: "file" },
    { path: "l.md", tracked: true, type: "symlink" },
  ]);
});

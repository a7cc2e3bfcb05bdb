import assert from "node:assert/strict";
import { diagnose, GITIGNORE_LINE } from "../lib/diagnose.ts";
import { git, tempDir, tempRepo, writeFiles } from "./_helpers.ts";

Deno.test("a repository that ignores .dochygiene/ with a valid config is healthy", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": "threshold_days: 3\n",
    ".dochygiene/state.json": '{"schema_version": 1, "last_check": null}\n',
  });
  const d = await diagnose(repo.path);
  assert.deepEqual(d.problems, []);
  assert.equal(d.healthy, true);
  assert.equal(d.git_repository, true);
  assert.deepEqual(d.state_dir, { path: `${repo.path}/.dochygiene`, status: "ok", writable: true });
  assert.equal(d.state_file, "ok");
  assert.deepEqual(d.gitignore, { ignored: true, tracked: false, line: ".dochygiene/" });
  assert.deepEqual(d.config, { path: `${repo.path}/.dochygiene.yml`, present: true, valid: true });
});

Deno.test("a missing .gitignore entry is a problem naming the exact line; nothing is edited", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": "node_modules/\n" });
  const d = await diagnose(repo.path);
  assert.equal(d.healthy, false);
  assert.equal(d.gitignore.ignored, false);
  assert.equal(GITIGNORE_LINE, ".dochygiene/");
  assert.deepEqual(d.problems, [
    `.dochygiene/ is not ignored by git: add the line ".dochygiene/" to ${repo.path}/.gitignore`,
  ]);
  assert.equal(await Deno.readTextFile(`${repo.path}/.gitignore`), "node_modules/\n");
  await assert.rejects(Deno.lstat(`${repo.path}/.dochygiene`), "doctor creates nothing");
});

Deno.test("other ways of ignoring count: .dochygiene without slash, a global-style pattern, info/exclude", async () => {
  for (
    const [file, text] of [
      [".gitignore", ".dochygiene\n"],
      [".gitignore", "/.dochygiene/*\n"],
      [".git/info/exclude", ".dochygiene/\n"],
    ]
  ) {
    await using repo = await tempRepo();
    await writeFiles(repo.path, { [file]: text });
    assert.equal((await diagnose(repo.path)).gitignore.ignored, true, `${file}: ${text}`);
  }
});

Deno.test("ignoring only some of its files (*.json) does not count", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": "*.json\n" });
  assert.equal((await diagnose(repo.path)).gitignore.ignored, false);
});

Deno.test("a negation that re-includes a file under .dochygiene/* is not ignored, as git status shows", async () => {
  for (const exists of [false, true]) {
    await using repo = await tempRepo();
    await writeFiles(repo.path, { ".gitignore": ".dochygiene/*\n!.dochygiene/state.json\n" });
    if (exists) await writeFiles(repo.path, { ".dochygiene/state.json": "{}" });
    const d = await diagnose(repo.path);
    assert.equal(d.gitignore.ignored, false, `state dir exists: ${exists}`);
    assert.equal(d.healthy, false);
  }
});

Deno.test("a negation under an ignored .dochygiene/ cannot re-include: still ignored", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n!.dochygiene/state.json\n" });
  assert.equal((await diagnose(repo.path)).gitignore.ignored, true);
});

Deno.test("tracked files under .dochygiene/ are reported with the fix", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene/state.json": "{}" });
  await git(repo.path, ["add", ".dochygiene/state.json"]);
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n" });
  const d = await diagnose(repo.path);
  assert.equal(d.gitignore.tracked, true);
  assert.ok(d.problems.some((p) => p.includes("git rm -r --cached .dochygiene")));
});

Deno.test("an invalid config, a corrupt state and a symlinked state dir are problems", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": "threshold_days: -2\n",
    ".dochygiene/state.json": "{oops",
  });
  let d = await diagnose(repo.path);
  assert.equal(d.config.valid, false);
  assert.equal(d.state_file, "corrupt");
  assert.equal(d.problems.length, 2);
  assert.match(d.problems.join("\n"), /threshold_days: must be a number >= 0/);
  assert.match(d.problems.join("\n"), /state\.json is corrupt/);
  await using outside = await tempDir();
  await Deno.remove(`${repo.path}/.dochygiene`, { recursive: true });
  await Deno.symlink(outside.path, `${repo.path}/.dochygiene`);
  d = await diagnose(repo.path);
  assert.equal(d.state_dir.status, "invalid");
  assert.equal(d.state_file, "unknown");
  assert.match(d.problems.join("\n"), /is a symlink/);
});

Deno.test("outside a git repository the gitignore facts are null and not a problem", async () => {
  await using dir = await tempDir();
  const d = await diagnose(dir.path);
  assert.equal(d.git_repository, false);
  assert.deepEqual(d.gitignore, { ignored: null, tracked: null, line: ".dochygiene/" });
  assert.equal(d.healthy, true);
});

Deno.test("no write permission is reported as a problem, not thrown", {
  permissions: { read: true, run: ["git"], env: true, write: false },
}, async () => {
  const d = await diagnose(Deno.cwd());
  assert.equal(d.state_dir.writable, false);
  assert.ok(d.problems.some((p) => p.startsWith("no write permission for ")));
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { commitFiles, PACKAGE_DIR, tempDir, tempRepo } from "../support/helpers.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { readGitAges } from "../../lib/git/read_git_ages.ts";
import { readGitAgesThreaded } from "../../lib/git/read_git_ages_threaded.ts";

Deno.test("the threaded history pass gives what the in-thread one gives", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# A\n", "docs/b.md": "# B\n" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "docs/b.md": "# B2\n" }, "2025-06-01T00:00:00Z");
  assert.deepEqual(await readGitAgesThreaded(repo.path), await readGitAges(repo.path));
});

Deno.test("a git failure on the thread keeps its DochygieneError code and exit code", async () => {
  await using dir = await tempDir();
  const here = await readGitAges(dir.path).catch((err) => err);
  const threaded = await readGitAgesThreaded(dir.path).catch((err) => err);
  assert.ok(here instanceof DochygieneError, String(here));
  assert.ok(threaded instanceof DochygieneError, String(threaded));
  assert.equal(threaded.code, here.code);
  assert.equal(threaded.exitCode, here.exitCode);
  assert.equal(threaded.message, here.message);
});

Deno.test("a permission failure on the thread keeps its Deno error class", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# A\n" }, "2024-01-01T00:00:00Z");
  const script = join(repo.path, "probe.ts");
  const module = join(PACKAGE_DIR, "lib/git/read_git_ages_threaded.ts");
  await Deno.writeTextFile(
    script,
    `import { readGitAgesThreaded } from ${JSON.stringify(module)};
     try { await readGitAgesThreaded(Deno.cwd()); console.log("no error"); }
     catch (err) { console.log(err.constructor.name); }`,
  );
  // No --allow-run: git cannot start, on the thread as it would not here.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", `--config=${join(PACKAGE_DIR, "deno.json")}`, "--allow-read", script],
    cwd: repo.path,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "NotCapable");
});

import assert from "node:assert/strict";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { runGit } from "../../lib/git/run_git.ts";
import { join } from "node:path";
import {
  commitFiles,
  DENO,
  git,
  IS_ROOT,
  PACKAGE_DIR,
  runCommand,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("runGit uses literal pathspecs: a file named '*' matches only itself", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "*": "star", "a.md": "a", ":(exclude)x": "magic" });
  await git(repo.path, ["add", "-A"]);
  await git(repo.path, ["commit", "-q", "-m", "odd names"]);
  const star = await runGit(repo.path, ["ls-files", "-z", "--", "*"]);
  assert.equal(text(star.stdout), "*\0");
  const magic = await runGit(repo.path, ["ls-files", "-z", "--", ":(exclude)x"]);
  assert.equal(text(magic.stdout), ":(exclude)x\0");
});

Deno.test("runGit does not quote non-ASCII names", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "docs/café.md": "x" }, "2026-01-01T00:00:00Z");
  const out = await runGit(repo.path, ["ls-files"]);
  assert.equal(text(out.stdout), "docs/café.md\n");
});

Deno.test("runGit feeds stdin (NUL-separated pathspecs, taken literally)", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "a b.md": "a", "*.md": "star", "c.md": "c" });
  await runGit(repo.path, ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    stdin: "a b.md\0*.md\0",
  });
  const staged = await runGit(repo.path, ["diff", "--cached", "--name-only", "-z"]);
  assert.equal(text(staged.stdout), "*.md\0a b.md\0");
});

Deno.test("a failing git command is GIT_FAILED with one line of git's stderr", async () => {
  await using repo = await tempRepo();
  await assert.rejects(runGit(repo.path, ["rev-parse", "HEAD"]), (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.code, "GIT_FAILED");
    assert.equal(err.exitCode, 1);
    assert.match(err.message, /^git rev-parse failed: /);
    assert.ok(!err.message.includes("\n"));
    return true;
  });
});

Deno.test("a failing git command quotes git's first fatal:/error: line, not a later hint", async () => {
  await using repo = await tempRepo();
  await git(repo.path, ["config", "commit.gpgsign", "true"]);
  await git(repo.path, ["config", "gpg.program", "false"]);
  await writeFiles(repo.path, { "a.md": "a" });
  await git(repo.path, ["add", "a.md"]);
  await assert.rejects(runGit(repo.path, ["commit", "-q", "-m", "x"]), (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.message, "git commit failed: error: gpg failed to sign the data");
    return true;
  });
});

Deno.test("okCodes makes other exit codes non-failures", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "a.md": "a" });
  const r = await runGit(repo.path, ["diff", "--no-index", "--quiet", "a.md", "/dev/null"], {
    okCodes: [0, 1],
  });
  assert.equal(r.code, 1);
});

Deno.test("literalPathspecs: false lets check-ignore run (it rejects pathspec magic)", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n" });
  await assert.rejects(runGit(repo.path, ["check-ignore", "-q", "--no-index", ".dochygiene/"]));
  const r = await runGit(repo.path, ["check-ignore", "-q", "--no-index", ".dochygiene/"], {
    literalPathspecs: false,
  });
  assert.equal(r.code, 0);
});

Deno.test({
  name: "a repository another user owns: git's refusal comes with git's own fix",
  // git refuses a repository its user does not own; only root can give one away to test it.
  ignore: !IS_ROOT,
  fn: async () => {
    await using repo = await tempRepo();
    await new Deno.Command("chown", { args: ["-R", "nobody", repo.path] }).output();
    const err = await runGit(repo.path, ["ls-files"], {
      env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    }).catch((e) => e);
    assert.ok(err instanceof DochygieneError, String(err));
    assert.equal(err.code, "GIT_FAILED");
    assert.match(
      err.message,
      /dubious ownership in repository at '.*'; if you trust it: git config --global --add safe\.directory /,
    );
  },
});

Deno.test("runGit from a library caller without --allow-env asks for nothing, even on a terminal", async () => {
  await using repo = await tempRepo();
  const script = join(repo.path, "caller.ts");
  await Deno.writeTextFile(
    script,
    `import { runGit } from ${JSON.stringify(join(PACKAGE_DIR, "lib/git/run_git.ts"))};\n` +
      `console.log((await runGit(Deno.cwd(), ["rev-parse", "--is-inside-work-tree"])).code === 0 ? "ran" : "failed");\n`,
  );
  // script(1) gives it a terminal, where Deno would prompt for a permission that is asked for.
  const command = `${DENO} run --quiet --no-config --allow-read --allow-run=git ${script}`;
  const run = await runCommand("script", ["-qec", command, "/dev/null"], {
    cwd: repo.path,
    stdin: "n\n",
  });
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /ran/);
  assert.doesNotMatch(run.stdout, /Deno requests/);
});

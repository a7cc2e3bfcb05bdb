// prune.ts under real-world setups (issue 21): a state directory planted by a clone, a
// worktree elsewhere, a stale fsmonitor, hooks that expect the user's environment, a detached
// HEAD. Each scenario a subprocess with exactly the documented flags, in a real repository.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertSeamError,
  commitFiles,
  git,
  realGit,
  runSeam,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const OLD = "2026-11-01T10:00:00Z";
const ENV = { DOCHYGIENE_NOW: NOW };

function prune(root: string, args: string[], env: Record<string, string> = {}) {
  return runSeam("prune", ["--format", "json", ...args], { cwd: root, env: { ...ENV, ...env } });
}

/** A repository whose `runs/*` directories older than a day are `temporary` with no retention. */
async function runsRepo(root: string, runs: Record<string, string> = { "runs/r1/a.md": "r1\n" }) {
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml":
      'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: 0, max_age_days: 1}\n',
    ...runs,
  }, OLD);
}

/**
 * A prune of the untracked unit `runs/r0/` killed right after its files went: the journal and
 * the backup stay in `.dochygiene/`, and the next `--yes` writes the files back through the
 * exact restore's scratch directory.
 */
async function killedWithUntrackedGone(root: string): Promise<void> {
  await runsRepo(root);
  await writeFiles(root, { "runs/r0/notes.md": "mine\n" });
  const past = new Date(OLD);
  for (const p of ["runs/r0/notes.md", "runs/r0"]) await Deno.utime(join(root, p), past, past);
  await using bin = await tempDir();
  await writeFiles(bin.path, {
    git: `#!/bin/sh
"${await realGit()}" "$@"; code=$?
case "$GIT_INDEX_FILE" in *.untracked.index) kill -9 $PPID;; esac
exit $code
`,
  });
  await Deno.chmod(join(bin.path, "git"), 0o755);
  const killed = await prune(root, ["--yes", "--confirm", "runs/r0/"], {
    PATH: `${bin.path}:${Deno.env.get("PATH") ?? ""}`,
  });
  assert.equal(killed.code, 137, killed.stderr);
  await assert.rejects(Deno.lstat(join(root, "runs/r0/notes.md")));
}

Deno.test("prune --yes: a symlink planted at the recovery's scratch name in .dochygiene/ is never written through", async () => {
  await using repo = await tempRepo();
  await using outside = await tempDir();
  const root = repo.path;
  await killedWithUntrackedGone(root);
  await Deno.symlink(outside.path, join(root, ".dochygiene/prune-recover.scratch"));

  const run = await prune(root, ["--yes"]);

  assert.deepEqual([...Deno.readDirSync(outside.path)], []);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(join(root, "runs/r0/notes.md")), "mine\n");
});

Deno.test("prune --yes: a journal and backup that git tracks (a clone of a repository that commits .dochygiene/) are refused, nothing restored", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await killedWithUntrackedGone(root);
  // The planted state as a clone would get it: the journal and the backup, committed.
  await git(root, ["add", "-f", ".dochygiene"]);
  await git(root, ["commit", "-q", "-m", "state"]);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();

  const run = await prune(root, ["--yes"]);

  assertSeamError("prune", run, 1, "PRUNE_JOURNAL", /tracked by git.*not one this tool left/);
  await assert.rejects(Deno.lstat(join(root, "runs/r0/notes.md")));
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
});

Deno.test("prune --yes: a journal naming a backup outside .dochygiene/, or one that is a symlink, is refused", async () => {
  await using repo = await tempRepo();
  await using outside = await tempDir();
  const root = repo.path;
  await killedWithUntrackedGone(root);
  const path = join(root, ".dochygiene/prune-journal.json");
  const journal = JSON.parse(await Deno.readTextFile(path));
  const backup = join(root, ".dochygiene", journal.backup);
  await Deno.rename(backup, join(outside.path, "backup.index"));
  await Deno.writeTextFile(path, JSON.stringify({ ...journal, backup: "../../x.index" }));

  assertSeamError(
    "prune",
    await prune(root, ["--yes"]),
    1,
    "PRUNE_JOURNAL",
    /not one this tool left/,
  );

  await Deno.writeTextFile(path, JSON.stringify(journal));
  await Deno.symlink(join(outside.path, "backup.index"), backup);
  assertSeamError(
    "prune",
    await prune(root, ["--yes"]),
    1,
    "PRUNE_JOURNAL",
    /not one this tool left/,
  );
  await assert.rejects(Deno.lstat(join(root, "runs/r0/notes.md")));
});

Deno.test("prune: a journal that is a FIFO (or a backup index that is one) is refused at once, never read", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root);
  await Deno.mkdir(join(root, ".dochygiene"));
  const fifo = join(root, ".dochygiene/prune-journal.json");
  await new Deno.Command("mkfifo", { args: [fifo] }).output();

  assertSeamError("prune", await prune(root, ["--yes"]), 1, "PRUNE_JOURNAL", /not a regular file/);
  assert.ok((await git(root, ["ls-files", "runs/r1/a.md"])).includes("runs/r1/a.md"));
});

Deno.test("prune: a backup index that is a FIFO is refused at once, never read", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await killedWithUntrackedGone(root);
  const journal = JSON.parse(
    await Deno.readTextFile(join(root, ".dochygiene/prune-journal.json")),
  );
  const backup = join(root, ".dochygiene", journal.backup);
  await Deno.remove(backup);
  await new Deno.Command("mkfifo", { args: [backup] }).output();

  assertSeamError(
    "prune",
    await prune(root, ["--yes"]),
    1,
    "PRUNE_JOURNAL",
    /not one this tool left/,
  );
});

Deno.test("prune: a repository whose core.worktree is another directory is refused (dry run and --yes), nothing deleted there", async () => {
  await using repo = await tempRepo();
  await using elsewhere = await tempDir();
  const root = repo.path;
  await git(root, ["config", "core.worktree", elsewhere.path]);
  await writeFiles(elsewhere.path, {
    ".dochygiene.yml":
      'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: 0, max_age_days: 1}\n',
    "runs/r1/a.md": "r1\n",
  });
  await git(root, ["add", "-A"]);
  await git(root, ["commit", "-q", "-m", "runs"], {
    GIT_AUTHOR_DATE: OLD,
    GIT_COMMITTER_DATE: OLD,
  });
  // The root holds the same rulebook, as a checkout of it would.
  await writeFiles(root, {
    ".dochygiene.yml":
      'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: 0, max_age_days: 1}\n',
  });

  for (const args of [[], ["--yes"]]) {
    assertSeamError(
      "prune",
      await prune(root, args),
      1,
      "WORKTREE_ELSEWHERE",
      /git's worktree .* is not the project root .*core\.worktree/,
    );
  }
  assert.equal(await Deno.readTextFile(join(elsewhere.path, "runs/r1/a.md")), "r1\n");
});

Deno.test("prune --yes: an edit a stale fsmonitor hides from git is never deleted as clean; the unit is skipped and says why", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root, { "runs/r1/a.md": "r1\n", "runs/r2/a.md": "r2\n" });
  // An fsmonitor that never reports a change: git takes every file for unchanged.
  await writeFiles(root, { ".git/stale-fsmonitor": '#!/bin/sh\nprintf "token\\0"\n' });
  await Deno.chmod(join(root, ".git/stale-fsmonitor"), 0o755);
  await git(root, ["config", "core.fsmonitor", ".git/stale-fsmonitor"]);
  await git(root, ["config", "core.fsmonitorHookVersion", "2"]);
  await git(root, ["status", "--porcelain"]);
  await Deno.writeTextFile(join(root, "runs/r1/a.md"), "r1, edited\n");
  assert.equal(await git(root, ["status", "--porcelain"]), "", "git is fooled");

  const run = await prune(root, ["--yes"]);

  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.applied, [{ path: "runs/r2/", how: "git rm" }]);
  const skipped = result.skipped.find((s: { path: string }) => s.path === "runs/r1/");
  assert.match(skipped?.reason ?? "", /runs\/r1\/a\.md differs from HEAD.*fsmonitor/);
  assert.equal(await Deno.readTextFile(join(root, "runs/r1/a.md")), "r1, edited\n");
});

Deno.test("prune --yes: a pre-commit hook that commits on its own is named with the commit that deletes the units, never 'nothing was deleted'", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root, { "runs/r1/a.md": "r1\n", "keep.md": "k\n" });
  // The hook commits the index it is given: prune's staged deletion, with its own file.
  await writeFiles(root, {
    ".git/hooks/pre-commit": "#!/bin/sh\ngit add VERSION && git commit --no-verify -q -m hook\n",
    VERSION: "1\n",
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);

  const run = await prune(root, ["--yes"]);

  const out = assertSeamError("prune", run, 1, "PRUNE_FAILED", /no file was removed/);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();
  assert.match(out.error.message, new RegExp(`deletes runs/r1/a\\.md .*git revert ${head}`));
  assert.doesNotMatch(out.error.message, /nothing was deleted/);
  assert.equal(await Deno.readTextFile(join(root, "runs/r1/a.md")), "r1\n");
});

Deno.test("prune --yes: a clean file committed with CRLF under text=auto is deleted as clean (hash-object's conversion is not an edit)", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root, { "runs/r1/a.md": "r1\r\nline\r\n", "runs/r2/a.md": "r2\n" });
  // Added after the CRLF blob: git add leaves a file whose blob holds CRLF as it is, while
  // hash-object, reading no index, would convert it.
  await commitFiles(root, { ".gitattributes": "* text=auto\n" }, "2026-11-02T00:00:00Z");
  assert.equal(await git(root, ["status", "--porcelain"]), "", "nothing is edited");

  const run = await prune(root, ["--yes"]);

  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.applied.map((a: { path: string }) => a.path), ["runs/r1/", "runs/r2/"]);
  assert.deepEqual(result.skipped, []);
});

Deno.test("prune: after the hygiene commit's own undo (git revert), the units it gave back keep their ages: the next plan offers the same units, not the kept ones", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml":
      'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: 3, max_age_days: 3}\n',
  }, "2026-10-01T00:00:00Z");
  for (const day of ["01", "02", "03", "04", "05"]) {
    await commitFiles(
      root,
      { [`runs/r${day}/notes.md`]: `# ${day}\n` },
      `2026-11-${day}T10:00:00Z`,
    );
  }
  const first = await prune(root, ["--yes"]);
  assert.equal(first.code, 0, first.stderr);
  const went = JSON.parse(first.stdout).applied.map((a: { path: string }) => a.path);
  assert.deepEqual(went, ["runs/r01/", "runs/r02/"]);
  await git(root, ["revert", "--no-edit", "HEAD"], {
    GIT_AUTHOR_DATE: "2026-11-29T10:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-29T10:00:00Z",
  });

  const again = JSON.parse((await prune(root, [])).stdout);

  assert.deepEqual(again.candidates.map((c: { path: string }) => c.path), went);
  const kept = again.kept.filter((k: { path: string }) => k.path.startsWith("runs/"));
  assert.deepEqual(kept.map((k: { path: string }) => k.path).sort(), [
    "runs/r03/",
    "runs/r04/",
    "runs/r05/",
  ]);
});

Deno.test("prune --yes: the user's hooks run with the user's environment: a pre-commit guard on deleted runs/* blocks prune's commit as it blocks a plain one", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root);
  await writeFiles(root, {
    ".git/hooks/pre-commit": `#!/bin/sh
env > .git/hook-env
if [ -n "$(git diff --cached --diff-filter=D --name-only -- 'runs/*')" ]; then
  echo "refusing to delete runs" >&2; exit 1
fi
`,
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();

  const run = await prune(root, ["--yes"], { LC_ALL: "" });

  assertSeamError("prune", run, 1, "PRUNE_FAILED", /refusing to delete runs/);
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
  assert.equal(await Deno.readTextFile(join(root, "runs/r1/a.md")), "r1\n");
  const env = await Deno.readTextFile(join(root, ".git/hook-env"));
  for (const name of ["GIT_LITERAL_PATHSPECS", "GIT_OPTIONAL_LOCKS", "GIT_CEILING_DIRECTORIES"]) {
    assert.ok(!env.includes(`${name}=`), `${name} leaked into the hook`);
  }
  assert.ok(!/^LC_ALL=C$/m.test(env), "LC_ALL=C leaked into the hook");
  assert.ok(!/core\.quotepath|core\.abbrev/.test(env), "dochygiene's -c leaked into the hook");
});

Deno.test("prune: on a detached HEAD the dry run and the result warn that the hygiene commit is on no branch", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await runsRepo(root);
  await git(root, ["checkout", "-q", "--detach"]);

  const dry = JSON.parse((await prune(root, [])).stdout);
  const run = await prune(root, ["--yes"]);

  assert.ok(dry.warnings.some((w: string) => /HEAD is detached.*no branch/.test(w)), dry.warnings);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(
    result.warnings.some((w: string) =>
      w.includes(`HEAD is detached: the hygiene commit ${result.commit} is on no branch`)
    ),
    result.warnings,
  );
});

Deno.test("prune --yes: a checkout while it applies is said as such, not as a commit that landed", async () => {
  await using repo = await tempRepo();
  await using bin = await tempDir();
  const root = repo.path;
  await runsRepo(root);
  await commitFiles(root, { "other.md": "x\n" }, OLD);
  const real = await realGit();
  // Just before the hygiene commit, someone checks out the commit before.
  await writeFiles(bin.path, {
    git: `#!/bin/sh
case " $* " in *" --cleanup=whitespace "*)
  env -u GIT_INDEX_FILE "${real}" checkout -q --detach HEAD~1;;
esac
exec "${real}" "$@"
`,
  });
  await Deno.chmod(join(bin.path, "git"), 0o755);

  const run = await prune(root, ["--yes"], { PATH: `${bin.path}:${Deno.env.get("PATH")}` });

  const out = assertSeamError("prune", run, 1, "PRUNE_FAILED", /HEAD moved/);
  assert.match(out.error.message, /a checkout or reset/);
  assert.doesNotMatch(out.error.message, /a commit landed/);
  assert.equal(await Deno.readTextFile(join(root, "runs/r1/a.md")), "r1\n");
});

// The common "test only what is staged" hooks: stash the rest, run the tests, pop it back.
const STASH_HOOKS = {
  // The pop leaves the index as HEAD had it: the commit is not the tree prune staged.
  "git stash":
    /a hook changed the index while git commit ran .*: the commit is not the tree prune staged \(the commit did not delete runs\/r1\/a\.md\)/,
  // --keep-index checks out the staged deletion over the worktree: the unit's file goes.
  "git stash --keep-index":
    /runs\/r1\/a\.md changed while pruning \(by a hook while git commit ran/,
};
for (const [stash, message] of Object.entries(STASH_HOOKS)) {
  Deno.test(`prune --yes: a pre-commit hook that runs ${stash} … git stash pop is named as the cause, HEAD is left as it was`, async () => {
    await using repo = await tempRepo();
    const root = repo.path;
    await runsRepo(root, { "runs/r1/a.md": "r1\n", "keep.md": "k\n" });
    await writeFiles(root, {
      ".git/hooks/pre-commit": `#!/bin/sh
${stash.replace("git stash", "git stash push -q")} && git stash pop -q
`,
      // An unrelated edit for the hook to stash.
      "keep.md": "edited\n",
    });
    await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
    const head = (await git(root, ["rev-parse", "HEAD"])).trim();

    const run = await prune(root, ["--yes"]);

    const out = assertSeamError("prune", run, 1, "PRUNE_FAILED", message);
    // The restore claims no more than is true: a file the hook took is named, not "as before".
    const taken = await Deno.lstat(join(root, "runs/r1/a.md")).then(() => false, () => true);
    assert.equal(taken, stash.includes("--keep-index"), "only --keep-index takes the file");
    if (taken) {
      assert.match(out.error.message, /runs\/r1\/a\.md went missing from the working tree/);
      assert.doesNotMatch(out.error.message, /files are as before/);
    }
    assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
    assert.equal(await Deno.readTextFile(join(root, "keep.md")), "edited\n");
    assert.equal(await git(root, ["show", "HEAD:runs/r1/a.md"]), "r1\n");
  });
}

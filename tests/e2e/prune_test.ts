// prune.ts as users run it: a subprocess with exactly the documented flags,
// in real temporary repositories with backdated commits; time via DOCHYGIENE_NOW.

import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import {
  assertSeamError,
  commitFiles,
  conflictedMerge,
  DENO,
  git,
  gitLandingACommit,
  PACKAGE_DIR,
  realGit,
  runCommand,
  runSeam,
  servedReport,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const OLD = "2026-11-01T10:00:00Z";
const RECENT = "2026-11-29T10:00:00Z";
const ENV = { DOCHYGIENE_NOW: NOW };

const RULEBOOK = `
rules:
  - match: "autoresearch/*/"
    lifetime: temporary
    retain_recent: 3
    max_age_days: 3
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
  - match: "docs/superpowers/plans/*.md"
    lifetime: delete-once-served
    served_when: "the feature this plan describes has shipped"
    extract: true
  - match: "docs/adr/**"
    lifetime: keep
`;

async function agentRepo() {
  const repo = await tempRepo();
  const root = repo.path;
  const files: Record<string, string> = {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": RULEBOOK,
    "README.md":
      "# Project\n\nSee [run 1](autoresearch/run-1/notes.md) and [ADR](docs/adr/0001-x.md).\n",
    "docs/adr/0001-x.md": "# ADR 1\n",
    "openspec/changes/add-login/proposal.md": "# add login\n",
    "openspec/changes/add-search/proposal.md": "# add search\n",
    "openspec/changes/archive/2026-11-02-add-login/proposal.md": "# add login (archived)\n",
    "docs/superpowers/plans/2026-10-01-auth.md": "# auth plan\n",
    "tests/fixtures/x/docs/superpowers/plans/a.md": "# fixture\n",
    "tests/fixtures/x/autoresearch/run-9/a.md": "# fixture\n",
  };
  // Five runs: three newest are old too; only ranks 4 and 5 may go.
  await commitFiles(root, files, "2026-10-01T00:00:00Z");
  const days = ["2026-11-05", "2026-11-04", "2026-11-03", "2026-11-02", "2026-11-01"];
  for (let i = 0; i < 5; i++) {
    await commitFiles(
      root,
      { [`autoresearch/run-${i + 1}/notes.md`]: `# run ${i + 1}\n` },
      `${days[i]}T10:00:00Z`,
    );
  }
  return repo;
}

function prune(root: string, args: string[], env: Record<string, string> = {}) {
  return runSeam("prune", ["--format", "json", ...args], { cwd: root, env: { ...ENV, ...env } });
}

/** Commits, at `OLD`, a rulebook that makes every directory under `runs/` older than a day a candidate. */
function commitRunsRule(root: string) {
  return commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml":
      'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: 0, max_age_days: 1}\n',
  }, OLD);
}

async function snapshot(root: string) {
  return {
    head: (await git(root, ["rev-parse", "HEAD"])).trim(),
    status: await git(root, ["status", "--porcelain=v1", "--untracked-files=all"]),
    files: (await git(root, ["ls-files", "-co", "--exclude-standard"])).split("\n").sort(),
  };
}

Deno.test("prune: dry run by default prints the plan and changes nothing", async () => {
  await using repo = await agentRepo();
  const before = await snapshot(repo.path);
  const run = await prune(repo.path, []);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const plan = JSON.parse(run.stdout);
  assert.equal(plan.mode, "dry-run");
  assert.deepEqual(plan.candidates.map((c: { path: string; tier: string }) => [c.path, c.tier]), [
    ["autoresearch/run-4/", "auto"],
    ["autoresearch/run-5/", "auto"],
    ["openspec/changes/add-login/", "auto"],
  ]);
  assert.equal(plan.candidates[0].reason, "rank 4 of 5, 28 days old > 3");
  assert.deepEqual(await snapshot(repo.path), before);
  // A dry run writes nothing, not even the state directory.
  await assert.rejects(Deno.lstat(join(repo.path, ".dochygiene")));
});

Deno.test("prune: globs are anchored at the root (fixtures that look like agent layouts are untouched)", async () => {
  await using repo = await agentRepo();
  const plan = JSON.parse((await prune(repo.path, [])).stdout);
  const all = [...plan.candidates, ...plan.kept].map((u: { path: string }) => u.path);
  assert.ok(!all.some((p: string) => p.startsWith("tests/")), all.join(", "));
});

Deno.test("prune: keep never deleted; served_when_path proof; served_when without a report stays", async () => {
  await using repo = await agentRepo();
  const plan = JSON.parse((await prune(repo.path, [])).stdout);
  const kept = Object.fromEntries(
    plan.kept.map((k: { path: string; reason: string }) => [k.path, k.reason]),
  );
  assert.equal(kept["docs/adr/"], "lifetime: keep");
  assert.match(kept["openspec/changes/add-search/"], /not served/);
  assert.match(kept["openspec/changes/archive/"], /excluded dir archive/);
  assert.equal(
    kept["docs/superpowers/plans/2026-10-01-auth.md"],
    "served_when not judged: there is no report yet; run /dochygiene:check",
  );
  const login = plan.candidates.find((c: { path: string }) =>
    c.path === "openspec/changes/add-login/"
  );
  assert.match(login.reason, /served: openspec\/changes\/archive\/2026-11-02-add-login\/ exists/);
});

Deno.test("prune: dangling lists links in surviving docs into what would be deleted", async () => {
  await using repo = await agentRepo();
  await commitFiles(repo.path, {
    "docs/index.md":
      "# Index\n\n- [run 5](../autoresearch/run-5/notes.md)\n- [login](../openspec/changes/add-login/)\n",
  }, "2026-10-01T00:00:00Z");
  const plan = JSON.parse((await prune(repo.path, [])).stdout);
  assert.deepEqual(plan.dangling, [
    { from: "docs/index.md", line: 3, to: "autoresearch/run-5/" },
    { from: "docs/index.md", line: 4, to: "openspec/changes/add-login/" },
  ]);
});

Deno.test("prune --yes: one hygiene commit with only the auto tier; state records last_prune and the watermark", async () => {
  await using repo = await agentRepo();
  const head = (await git(repo.path, ["rev-parse", "HEAD"])).trim();
  const run = await prune(repo.path, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.mode, "apply");
  assert.deepEqual(result.applied.map((a: { path: string }) => a.path), [
    "autoresearch/run-4/",
    "autoresearch/run-5/",
    "openspec/changes/add-login/",
  ]);
  assert.equal(result.commit, (await git(repo.path, ["rev-parse", "HEAD"])).trim());
  assert.equal((await git(repo.path, ["rev-parse", "HEAD^"])).trim(), head);
  const deleted = (await git(repo.path, ["show", "--name-status", "--format=", "HEAD"])).trim();
  assert.deepEqual(deleted.split("\n").sort(), [
    "D\tautoresearch/run-4/notes.md",
    "D\tautoresearch/run-5/notes.md",
    "D\topenspec/changes/add-login/proposal.md",
  ]);
  const state = JSON.parse(await Deno.readTextFile(join(repo.path, ".dochygiene/state.json")));
  assert.equal(state.last_prune, NOW);
  assert.equal(state.clock_watermark, NOW);
  await git(repo.path, ["fsck", "--no-progress", "--strict"]);
});

Deno.test("prune --yes: served_when needs the report's judgment, --confirm, and for extract: true --extracted", async () => {
  await using repo = await agentRepo();
  const plan = "docs/superpowers/plans/2026-10-01-auth.md";
  await using dir = await tempDir();
  const report = join(dir.path, "report.json");
  await Deno.writeTextFile(
    report,
    JSON.stringify({
      schema_version: 1,
      generated_at: NOW,
      scan_generated_at: NOW,
      entries: [{
        path: plan,
        category: "served",
        op_type: "extract-then-delete",
        op: "Move the decisions to an ADR, then delete the plan.",
        safety_tier: "confirm",
        rationale: "auth shipped in v2",
        signals: [],
        extract_to: "docs/adr/0002-auth.md",
      }],
    }),
  );
  const dry = JSON.parse((await prune(repo.path, ["--from-report", report])).stdout);
  const entry = dry.candidates.find((c: { path: string }) => c.path === plan);
  assert.equal(entry.tier, "confirm");
  assert.equal(entry.needs, `--confirm ${plan} and --extracted ${plan}`);
  assert.equal(entry.extract_to[0], "docs/adr/0002-auth.md");
  assert.ok(entry.extract_to.some((d: string) => d.includes("/os-vault:write")));

  const noExtract = JSON.parse(
    (await prune(repo.path, ["--yes", "--from-report", report, "--confirm", plan])).stdout,
  );
  assert.ok(!noExtract.applied.some((a: { path: string }) => a.path === plan));
  assert.deepEqual(noExtract.skipped, [{ path: plan, reason: `needs --extracted ${plan}` }]);
  assert.ok(await Deno.lstat(join(repo.path, plan)));

  const done = JSON.parse(
    (await prune(repo.path, [
      "--yes",
      "--from-report",
      report,
      "--confirm",
      plan,
      "--extracted",
      plan,
    ]))
      .stdout,
  );
  assert.deepEqual(done.applied, [{ path: plan, how: "git rm" }]);
  await assert.rejects(Deno.lstat(join(repo.path, plan)));
});

Deno.test("prune: the current report pair is the default source of judgments", async () => {
  await using repo = await agentRepo();
  const plan = "docs/superpowers/plans/2026-10-01-auth.md";
  const report = servedReport([plan], NOW);
  await writeFiles(repo.path, {
    ".dochygiene/report-20261130T110000Z.json": JSON.stringify(report),
    ".dochygiene/report-20261130T110000Z.md": "# report\n",
  });
  const dry = JSON.parse((await prune(repo.path, [])).stdout);
  assert.ok(dry.candidates.some((c: { path: string }) => c.path === plan));
});

Deno.test("prune: an invalid report is an input error (exit 2)", async () => {
  await using repo = await agentRepo();
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "r.json"), "{}");
  const run = await prune(repo.path, ["--from-report", join(dir.path, "r.json")]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^dochygiene prune: /);
  assert.equal(JSON.parse(run.stdout).ok, false);
});

Deno.test("prune: frozen, append-only, .dochygiene-ignore and excluded dirs protect their units", async () => {
  await using repo = await agentRepo();
  await commitFiles(repo.path, {
    "autoresearch/run-4/LOG.md": "---\nhygiene: frozen\n---\n# log\n",
    "autoresearch/run-5/journal.md": "---\nhygiene: append-only\n---\n# journal\n",
    ".dochygiene-ignore": "openspec/changes/add-login/\n",
  }, "2026-11-01T00:00:00Z");
  const before = await snapshot(repo.path);
  const run = await prune(repo.path, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.applied, []);
  const kept = Object.fromEntries(
    result.kept.map((k: { path: string; reason: string }) => [k.path, k.reason]),
  );
  assert.match(kept["autoresearch/run-4/"], /frozen/);
  assert.match(kept["autoresearch/run-5/"], /append-only/);
  assert.match(kept["openspec/changes/add-login/"], /\.dochygiene-ignore/);
  assert.deepEqual((await snapshot(repo.path)).files, before.files);
});

Deno.test("prune: a clock earlier than the watermark defers every age-based deletion", async () => {
  await using repo = await agentRepo();
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: null,
      last_reminded: null,
      last_prune: null,
      clock_watermark: "2026-12-01T00:00:00.000Z",
    }),
  });
  const run = await prune(repo.path, ["--yes"]);
  const result = JSON.parse(run.stdout);
  assert.equal(result.clock.backward, true);
  assert.deepEqual(result.deferred.map((d: { path: string }) => d.path), [
    "autoresearch/run-4/",
    "autoresearch/run-5/",
  ]);
  assert.ok(!result.applied.some((a: { path: string }) => a.path.startsWith("autoresearch/")));
  const state = JSON.parse(await Deno.readTextFile(join(repo.path, ".dochygiene/state.json")));
  assert.equal(state.clock_watermark, "2026-12-01T00:00:00.000Z");
});

Deno.test("prune: a unit dated in the future is kept with a warning", async () => {
  await using repo = await agentRepo();
  await commitFiles(
    repo.path,
    { "autoresearch/run-6/notes.md": "future\n" },
    "2027-01-01T00:00:00Z",
  );
  const plan = JSON.parse((await prune(repo.path, [])).stdout);
  assert.match(
    plan.kept.find((k: { path: string }) => k.path === "autoresearch/run-6/").reason,
    /future/,
  );
  assert.ok(
    plan.warnings.some((w: string) => w.includes("autoresearch/run-6/ is dated in the future")),
  );
});

Deno.test("prune: an empty rulebook manages nothing (exit 0)", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# a\n" }, OLD);
  for (const config of [undefined, "rules: []\n", "threshold_days: 3\n"]) {
    if (config !== undefined) await Deno.writeTextFile(join(repo.path, ".dochygiene.yml"), config);
    const text = await runSeam("prune", ["--format", "text", "--yes"], {
      cwd: repo.path,
      env: ENV,
    });
    assert.equal(text.code, 0);
    assert.match(text.stdout, /nothing is managed/);
    const json = JSON.parse((await prune(repo.path, [])).stdout);
    assert.deepEqual(json.candidates, []);
    assert.deepEqual(json.warnings, ["nothing is managed: .dochygiene.yml has no rules"]);
  }
});

Deno.test("prune: a deleting rule whose match covers the whole repository is refused (exit 2)", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# a\n" }, OLD);
  for (const match of ["**", "**/*", "*", "*/", "**/"]) {
    await Deno.writeTextFile(
      join(repo.path, ".dochygiene.yml"),
      `rules:\n  - match: "${match}"\n    lifetime: temporary\n`,
    );
    const run = await prune(repo.path, ["--yes"]);
    assert.equal(run.code, 2, match);
    assert.match(run.stderr, /rules\[0\]\.match: .* would cover the whole repository/);
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
  assert.ok(await Deno.lstat(join(repo.path, "a.md")));
});

Deno.test("prune --yes: refused mid-merge (exit 1), nothing deleted", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await conflictedMerge(root, "README.md", RECENT);
  // The dry run says --yes will refuse, and how to get on.
  const dry = JSON.parse((await prune(root, [])).stdout);
  assert.ok(dry.candidates.length > 0);
  assert.ok(
    dry.warnings.some((w: string) =>
      /^git is in the middle of a merge \(MERGE_HEAD exists: .*\): --yes refuses until you finish or abort it$/
        .test(w)
    ),
    dry.warnings.join("\n"),
  );
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 1);
  const { error } = JSON.parse(run.stdout);
  assert.equal(error.code, "GIT_BUSY");
  assert.match(
    error.message,
    /^git is in the middle of a merge \(MERGE_HEAD exists: .*\); finish or abort it, then run prune again$/,
  );
  assert.ok(await Deno.lstat(join(root, "autoresearch/run-5/notes.md")));
});

Deno.test("prune --yes from a subdirectory: one line naming the root and the flag (exit 1)", async () => {
  await using repo = await agentRepo();
  const run = await runSeam("prune", ["--format", "json", "--yes"], {
    cwd: join(repo.path, "docs"),
    env: ENV,
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /no write permission for .*\.dochygiene: run from the project root/);
  assert.ok(await Deno.lstat(join(repo.path, "autoresearch/run-5/notes.md")));
});

Deno.test("prune: outside a git repository it refuses (exit 1)", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, { ".dochygiene.yml": RULEBOOK, "autoresearch/r/a.md": "x\n" });
  const run = await prune(dir.path, []);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /not a git repository/);
});

Deno.test("prune: an unknown flag is a usage error (exit 2)", async () => {
  await using repo = await agentRepo();
  const run = await prune(repo.path, ["--force"]);
  assert.equal(run.code, 2);
  assert.equal(JSON.parse(run.stdout).error.code, "USAGE");
});

Deno.test("prune --format text: what goes, why, what stays, what needs confirmation, the commit", async () => {
  await using repo = await agentRepo();
  await writeFiles(repo.path, { "autoresearch/run-4/notes.md": "# run 4 edited\n" });
  const dry = await runSeam("prune", ["--format", "text"], { cwd: repo.path, env: ENV });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /dry run, nothing changed/);
  assert.match(
    dry.stdout,
    /Goes with --yes \(2\):\n {2}autoresearch\/run-5\/ +\[auto\] autoresearch\/\*\/: rank 5 of 5/,
  );
  assert.match(dry.stdout, /Needs a confirmation \(1\):\n {2}autoresearch\/run-4\//);
  assert.match(dry.stdout, /→ --confirm autoresearch\/run-4\//);
  assert.match(dry.stdout, /Stays \(\d+\):/);
  const applied = await runSeam("prune", ["--format", "text", "--yes"], {
    cwd: repo.path,
    env: ENV,
  });
  assert.match(applied.stdout, /Deleted \(2\):/);
  assert.match(applied.stdout, /Commit: [0-9a-f]{40} — undo with: git revert/);
  assert.match(applied.stdout, /Not deleted \(1\):\n {2}autoresearch\/run-4\/ +needs --confirm/);
});

Deno.test("prune --format text: the first column fits the paths up to 60 characters; a longer path has its text on the next line", async () => {
  await using repo = await agentRepo();
  const long = `autoresearch/${"r".repeat(70)}/`;
  await commitFiles(repo.path, { [`${long}notes.md`]: "# long\n" }, "2026-10-15T10:00:00Z");
  const dry = await runSeam("prune", ["--format", "text"], { cwd: repo.path, env: ENV });
  assert.equal(dry.code, 0, dry.stderr);
  const lines = dry.stdout.split("\n");
  const at = lines.indexOf(`  ${long}`);
  assert.ok(at > 0, dry.stdout);
  assert.match(
    lines[at + 1],
    new RegExp(`^ {${2 + 60 + 1}}\\[auto\\] autoresearch/\\*/: rank 6 of 6`),
  );
  assert.ok(
    lines.includes(
      `  ${"autoresearch/run-5/".padEnd(60)} [auto] autoresearch/*/: rank 5 of 6, 29 days old > 3`,
    ),
    dry.stdout,
  );
});

Deno.test("prune: a hygiene commit is undone by git revert", async () => {
  await using repo = await agentRepo();
  const result = JSON.parse((await prune(repo.path, ["--yes"])).stdout);
  await git(repo.path, ["revert", "--no-edit", result.commit]);
  assert.equal(
    await Deno.readTextFile(join(repo.path, "autoresearch/run-5/notes.md")),
    "# run 5\n",
  );
});

Deno.test("prune: dochygiene's own config is never deleted, even by a rule that matches it", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".dochygiene.yml":
      'rules:\n  - {match: "*.yml", lifetime: temporary, retain_recent: 0, max_age_days: 0}\n',
    "old.yml": "a: 1\n",
  }, OLD);
  const result = JSON.parse((await prune(repo.path, ["--yes"])).stdout);
  assert.deepEqual(result.applied, [{ path: "old.yml", how: "git rm" }]);
  assert.match(result.kept[0].reason, /dochygiene's own config/);
  assert.ok(await Deno.lstat(join(repo.path, ".dochygiene.yml")));
});

Deno.test("prune: a report that is not a regular file (or too large) is an input error (exit 2), never read whole", async () => {
  await using repo = await agentRepo();
  const run = await prune(repo.path, ["--from-report", "/dev/zero"]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim().split("\n").length, 1);
  assert.match(
    run.stderr,
    /^dochygiene prune: cannot read the report \/dev\/zero \(it is not a regular file\)/,
  );
  assert.equal(JSON.parse(run.stdout).error.code, "INVALID_REPORT");
});

Deno.test("prune: a report that judged a doc before its last change is stale for it (kept, check again)", async () => {
  await using repo = await agentRepo();
  const plan = "docs/superpowers/plans/2026-10-01-auth.md";
  await commitFiles(repo.path, { [plan]: "# auth plan, revived\n" }, "2026-11-20T00:00:00Z");
  await using dir = await tempDir();
  const report = join(dir.path, "report.json");
  await Deno.writeTextFile(
    report,
    JSON.stringify(servedReport([plan], "2026-11-10T00:00:00.000Z")),
  );
  const dry = JSON.parse((await prune(repo.path, ["--from-report", report])).stdout);
  assert.ok(!dry.candidates.some((c: { path: string }) => c.path === plan));
  const kept = dry.kept.find((k: { path: string }) => k.path === plan);
  assert.match(kept.reason, /changed after the report judged it/);
});

/**
 * A hook that SIGKILLs prune (git's parent) at that instant, when the shell
 * condition `when` holds: a crash at a real point of apply.
 */
async function killPruneInHook(root: string, hook: string, when = "true") {
  await writeFiles(root, {
    [`.git/hooks/${hook}`]: `#!/bin/sh\n${when} || exit 0\n` +
      "kill -9 $(awk '{print $4}' /proc/$PPID/stat)\nsleep 5\n",
  });
  await Deno.chmod(join(root, `.git/hooks/${hook}`), 0o755);
}

Deno.test("prune --yes killed while committing leaves the worktree and index untouched; the next run cleans up and applies", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await writeFiles(root, { "autoresearch/run-5/notes.md": "# run 5, edited\n", "mine.txt": "x\n" });
  await killPruneInHook(root, "pre-commit");
  const before = await snapshot(root);

  const killed = await prune(root, ["--yes", "--confirm", "autoresearch/run-5/"]);

  assert.equal(killed.code, 137);
  assert.deepEqual(await snapshot(root), before);
  assert.equal(
    await Deno.readTextFile(join(root, "autoresearch/run-5/notes.md")),
    "# run 5, edited\n",
  );
  const dry = JSON.parse((await prune(root, [])).stdout);
  assert.ok(dry.warnings.some((w: string) => /interrupted/.test(w)), dry.warnings.join("\n"));

  await Deno.remove(join(root, ".git/hooks/pre-commit"));
  const run = await prune(root, ["--yes", "--confirm", "autoresearch/run-5/"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(result.warnings.some((w: string) => /interrupted prune .* rolled back/.test(w)));
  assert.deepEqual(
    result.applied.map((a: { path: string }) => a.path).filter((p: string) => p.startsWith("auto")),
    [
      "autoresearch/run-4/",
      "autoresearch/run-5/",
    ],
  );
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), before.head);
  assert.deepEqual(
    [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name).filter((n) =>
      n.startsWith("prune-")
    ),
    [],
  );
  await git(root, ["fsck", "--no-progress"]);
});

Deno.test("prune --yes killed right after its commit is rolled back by the next run, then applied once", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await killPruneInHook(root, "post-commit");
  const before = await snapshot(root);

  const killed = await prune(root, ["--yes"]);

  assert.equal(killed.code, 137);
  // The commit exists but nothing in the worktree was removed yet.
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), before.head);
  assert.ok(await Deno.lstat(join(root, "autoresearch/run-5/notes.md")));

  await Deno.remove(join(root, ".git/hooks/post-commit"));
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(result.warnings.some((w: string) => /interrupted prune .* rolled back/.test(w)));
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), before.head);
  assert.equal((await git(root, ["rev-list", "--count", `${before.head}..HEAD`])).trim(), "1");
  assert.equal(await git(root, ["status", "--porcelain=v1", "--untracked-files=all"]), "");
  await assert.rejects(Deno.lstat(join(root, "autoresearch/run-5")));
  await git(root, ["fsck", "--no-progress"]);
});

Deno.test("prune --yes killed after its commit landed on another agent's commit: the next run moves HEAD back to that commit, which stays", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await using bin = await tempDir();
  // Just before the hygiene commit, "another agent" commits (once).
  const path = await gitLandingACommit(bin.path);
  await killPruneInHook(root, "post-commit");
  const killed = await prune(root, ["--yes"], { PATH: path });
  assert.equal(killed.code, 137);
  // The unfinished hygiene commit sits on the agent's commit, its tree undoing that one.
  assert.match(await git(root, ["log", "-1", "--format=%s"]), /^dochygiene: prune/);
  assert.equal((await git(root, ["log", "-1", "--format=%s", "HEAD^"])).trim(), "user work");
  const agent = (await git(root, ["rev-parse", "HEAD^"])).trim();

  await Deno.remove(join(root, ".git/hooks/post-commit"));
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(
    result.warnings.some((w: string) => w.includes(`to ${agent}`)),
    result.warnings.join("\n"),
  );
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), agent);
  assert.equal(await git(root, ["ls-tree", "--name-only", "HEAD", "--", "user.md"]), "user.md\n");
  assert.equal(await Deno.readTextFile(join(root, "user.md")), "mine\n");
  await git(root, ["fsck", "--no-progress"]);
});

/**
 * A repository whose untracked unit `runs/r0/` holds files git would convert: CRLF under
 * `core.autocrlf input`, and a secret under a redacting clean filter. Returns the exact bytes.
 */
async function convertingRepo(root: string): Promise<Record<string, string>> {
  await commitRunsRule(root);
  await git(root, ["config", "core.autocrlf", "input"]);
  await git(root, ["config", "filter.redact.clean", "sed s/token=.*/token=REDACTED/"]);
  await git(root, ["config", "filter.redact.smudge", "cat"]);
  await commitFiles(root, { ".gitattributes": "secret.md filter=redact\n" }, OLD);
  // The highest-ranking attributes, and a unit's own .gitattributes, convert too.
  await Deno.writeTextFile(join(root, ".git/info/attributes"), "ident.md text eol=crlf ident\n");
  const files = {
    "runs/r0/win.md": "a\r\nb\r\n",
    "runs/r0/secret.md": "token=hunter2\n",
    "runs/r0/ident.md": "$Id$\nline\n",
    "runs/r0/.gitattributes": "own.md text eol=crlf\n",
    "runs/r0/own.md": "lf\n",
    // Names git reads back otherwise from a plain line: a CR at the end, quotes.
    "runs/r0/cr\r": "with CR\n",
    "runs/r0/cr": "without\n",
    'runs/r0/say "hi".md': "quoted\n",
  };
  await writeFiles(root, files);
  const past = new Date(OLD);
  for (const p of [...Object.keys(files), "runs/r0"]) await Deno.utime(join(root, p), past, past);
  return files;
}

/**
 * A git that runs the real one, then, for the removal of untracked files, does `then`; `before`
 * and `after` are shell run around every call (e.g. to fail or kill at the exact restore, whose
 * `$GIT_DIR` ends in `.scratch/git`). Returns a `PATH` with it first.
 */
async function gitShim(
  dir: string,
  then: string,
  around: { before?: string; after?: string } = {},
): Promise<string> {
  await writeFiles(dir, {
    git: `#!/bin/sh
${around.before ?? ""}
"${await realGit()}" "$@"; code=$?
case "$GIT_INDEX_FILE" in *.untracked.index) ${then};; esac
${around.after ?? ""}
exit $code
`,
  });
  await Deno.chmod(join(dir, "git"), 0o755);
  return `${dir}:${Deno.env.get("PATH") ?? ""}`;
}

/** Shell that does `action` when git checks the exact backup out. */
const atExactCheckout = (action: string) =>
  `case "$GIT_DIR" in *.scratch/git) case " $* " in *" checkout-index "*) ${action};; esac;; esac`;

/** Every file of `files` holds exactly its content. */
async function assertFiles(root: string, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) {
    assert.equal(await Deno.readTextFile(join(root, path)), content, path);
  }
}

/** `prune --yes --confirm runs/r0/` with the untracked removal failing gives every file back. */
async function assertFailedApplyRestores(
  root: string,
  files: Record<string, string>,
  env: Record<string, string> = {},
) {
  await using bin = await tempDir();
  const run = await prune(root, ["--yes", "--confirm", "runs/r0/"], {
    PATH: await gitShim(bin.path, "exit 1"),
    ...env,
  });
  assert.equal(run.code, 1, run.stdout);
  assert.match(JSON.parse(run.stdout).error.message, /everything it had removed was restored/);
  await assertFiles(root, files);
}

/** `prune --yes --confirm runs/r0/` killed right after its untracked files went. */
async function killedAfterUntrackedRemoval(root: string) {
  await using bin = await tempDir();
  const killed = await prune(root, ["--yes", "--confirm", "runs/r0/"], {
    PATH: await gitShim(bin.path, "kill -9 $PPID"),
  });
  assert.equal(killed.code, 137);
}

Deno.test("prune --yes failing after untracked files went gives them back byte for byte (no eol conversion, no clean filter)", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await assertFailedApplyRestores(root, await convertingRepo(root));
});

Deno.test("prune --yes killed after untracked files went: the next run gives them back byte for byte", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const files = await convertingRepo(root);
  await killedAfterUntrackedRemoval(root);
  await assert.rejects(Deno.lstat(join(root, "runs/r0/win.md")));
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(JSON.parse(run.stdout).warnings.some((w: string) => /8 files restored/.test(w)));
  await assertFiles(root, files);
});

Deno.test("prune --yes after a rollback that gave untracked files back deletes nothing: their ages moved since the plan", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await convertingRepo(root);
  await commitFiles(root, { "runs/t1/notes.md": "# t1\n" }, OLD);
  await killedAfterUntrackedRemoval(root);
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.applied, []);
  assert.equal(result.commit, null);
  assert.ok(
    result.skipped.some((s: { path: string; reason: string }) =>
      s.path === "runs/t1/" && /^not this run: untracked files were just given back/.test(s.reason)
    ),
    run.stdout,
  );
  assert.ok(await Deno.lstat(join(root, "runs/t1/notes.md")));
  // The next run, on a plan that can be seen, goes ahead.
  const next = await prune(root, ["--yes"]);
  assert.deepEqual(JSON.parse(next.stdout).applied.map((a: { path: string }) => a.path), [
    "runs/t1/",
  ]);
});

Deno.test("prune --yes killed while it wrote files back: the next run writes them again, not only the missing ones", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const files = await convertingRepo(root);
  await using bin = await tempDir();
  // The untracked removal fails (a restore begins); the restore writes, then one file is cut
  // short and prune is killed, as a kill in the middle of writing it would leave it.
  const path = await gitShim(bin.path, "exit 1", {
    after: atExactCheckout(": > runs/r0/win.md; kill -9 $PPID"),
  });
  const killed = await prune(root, ["--yes", "--confirm", "runs/r0/"], { PATH: path });
  assert.equal(killed.code, 137, killed.stderr);
  assert.equal(await Deno.readTextFile(join(root, "runs/r0/win.md")), "");
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  await assertFiles(root, files);
});

Deno.test("prune --yes whose restore failed: the next run writes back what is missing and keeps what the user made since", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const files = await convertingRepo(root);
  await using bin = await tempDir();
  // The untracked removal fails, and so does writing the files back.
  const path = await gitShim(bin.path, "exit 1", { before: atExactCheckout("exit 1") });
  const failed = await prune(root, ["--yes", "--confirm", "runs/r0/"], { PATH: path });
  assert.equal(failed.code, 1);
  assert.match(
    JSON.parse(failed.stdout).error.message,
    /could NOT restore everything.*the next prune --yes writes back what is missing/,
  );
  // A recovery that cannot write them back either says what it was doing, and keeps the backup.
  const again = await prune(root, ["--yes"], { PATH: path });
  assert.equal(again.code, 1);
  const { error } = JSON.parse(again.stdout);
  assert.equal(error.code, "PRUNE_JOURNAL");
  assert.match(
    error.message,
    /^rolling back an interrupted prune failed \(.*\); its journal and backup/,
  );
  // The user writes one of those files anew before the next run.
  await writeFiles(root, { "runs/r0/win.md": "mine\n" });
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  for (const [path, content] of Object.entries(files)) {
    const expected = path === "runs/r0/win.md" ? "mine\n" : content;
    assert.equal(await Deno.readTextFile(join(root, path)), expected, path);
  }
});

Deno.test("prune --yes whose restore wrote everything back, then failed (at its end, at the index refresh): a file the user shortens later stays", async () => {
  const failures = [
    { after: atExactCheckout("exit 1") },
    {
      before:
        `case " $* " in *" update-index -q --refresh"*) [ -z "$GIT_INDEX_FILE" ] && exit 128;; esac`,
    },
  ];
  for (const around of failures) {
    await using repo = await tempRepo();
    const root = repo.path;
    const files = await convertingRepo(root);
    await using bin = await tempDir();
    const path = await gitShim(bin.path, "exit 1", around);
    const failed = await prune(root, ["--yes", "--confirm", "runs/r0/"], { PATH: path });
    assert.equal(failed.code, 1);
    await assertFiles(root, files);
    // A shorter version of a file is the user's edit, not a restore cut short.
    await Deno.writeTextFile(join(root, "runs/r0/win.md"), "a\r\n");
    const run = await prune(root, ["--yes"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(join(root, "runs/r0/win.md")), "a\r\n");
  }
});

Deno.test("prune --yes never deletes a directory standing where a file it removed was", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await convertingRepo(root);
  await using bin = await tempDir();
  const path = await gitShim(
    bin.path,
    "mkdir -p runs/r0/win.md && echo mine > runs/r0/win.md/notes.md; exit 1",
  );
  const failed = await prune(root, ["--yes", "--confirm", "runs/r0/"], { PATH: path });
  assert.equal(failed.code, 1);
  assert.match(
    JSON.parse(failed.stdout).error.message,
    /runs\/r0\/win\.md not written back: something stands in its way/,
  );
  assert.equal(await Deno.readTextFile(join(root, "runs/r0/win.md/notes.md")), "mine\n");
});

Deno.test("prune --yes recovery never deletes a file standing where a removed directory was", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const files = await convertingRepo(root);
  await killedAfterUntrackedRemoval(root);
  await writeFiles(root, { "runs/r0": "my notes\n" });
  const blocked = await prune(root, ["--yes"]);
  assert.equal(blocked.code, 1);
  const { error } = JSON.parse(blocked.stdout);
  assert.equal(error.code, "PRUNE_JOURNAL");
  assert.match(
    error.message,
    /cannot be written back: something stands in its way/,
  );
  assert.equal(await Deno.readTextFile(join(root, "runs/r0")), "my notes\n");
  // Moved away, the next run gives everything back.
  await Deno.rename(join(root, "runs/r0"), join(root, "my-notes.txt"));
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  await assertFiles(root, files);
});

Deno.test("prune --yes with GIT_TEST_SPLIT_INDEX=1 in the environment: a failed apply restores everything", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await assertFailedApplyRestores(root, await convertingRepo(root), { GIT_TEST_SPLIT_INDEX: "1" });
});

Deno.test("prune --yes in a repository with core.splitIndex: a failed apply restores everything", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const files = await convertingRepo(root);
  await git(root, ["config", "core.splitIndex", "true"]);
  await git(root, ["update-index", "--split-index"]);
  await assertFailedApplyRestores(root, files);
});

Deno.test("prune --yes with git's index.lock present (a killed git) is refused clearly (exit 1), nothing changed", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await Deno.writeTextFile(join(root, ".git/index.lock"), "");
  const before = await snapshot(root);
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /^dochygiene prune: .*index\.lock exists: .*if no git command runs, remove that lock/,
  );
  assert.equal(JSON.parse(run.stdout).error.code, "GIT_BUSY");
  await Deno.remove(join(root, ".git/index.lock"));
  assert.deepEqual(await snapshot(root), before);
});

/** Removes every `prune-*` entry of the state directory but the journal: its backup is gone. */
async function dropBackup(root: string) {
  for await (const e of Deno.readDir(join(root, ".dochygiene"))) {
    if (e.name.startsWith("prune-") && e.name !== "prune-journal.json") {
      await Deno.remove(join(root, ".dochygiene", e.name), { recursive: true });
    }
  }
}

Deno.test("prune --yes: a file staged into a unit while it applies (a hook, another agent) stops the apply; that file, the unit and HEAD stay", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  // The hook stages into the user's own index, as a concurrent agent would.
  await writeFiles(root, {
    ".git/hooks/pre-commit": "#!/bin/sh\necho IMPORTANT > autoresearch/run-5/result.md\n" +
      "env -u GIT_INDEX_FILE git add autoresearch/run-5/result.md\n",
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();

  const run = await prune(root, ["--yes"]);

  assertSeamError(
    "prune",
    run,
    1,
    "PRUNE_FAILED",
    /everything it had removed was restored.*autoresearch\/run-5\/result\.md was added to the index in autoresearch\/run-5\//,
  );
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
  assert.equal(
    await Deno.readTextFile(join(root, "autoresearch/run-5/result.md")),
    "IMPORTANT\n",
  );
  assert.equal(
    await git(root, ["status", "--porcelain=v1", "--untracked-files=all"]),
    "A  autoresearch/run-5/result.md\n",
  );
  assert.equal(await Deno.readTextFile(join(root, "autoresearch/run-5/notes.md")), "# run 5\n");
});

Deno.test("prune --yes: a journal whose backup is gone changes nothing (PRUNE_JOURNAL), never undoing a finished prune's commit", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await killPruneInHook(root, "post-commit");
  assert.equal((await prune(root, ["--yes"])).code, 137);
  // The prune's last steps done by hand: only the journal is left, without its backup.
  await Deno.remove(join(root, ".git/hooks/post-commit"));
  await git(root, [
    "rm",
    "-r",
    "-q",
    "-f",
    "--",
    "autoresearch/run-4",
    "autoresearch/run-5",
    "openspec/changes/add-login",
  ]);
  await dropBackup(root);
  const finished = await snapshot(root);
  assert.equal(finished.status, "");

  for (let i = 0; i < 2; i++) {
    const run = await prune(root, ["--yes"]);
    assertSeamError(
      "prune",
      run,
      1,
      "PRUNE_JOURNAL",
      /prune-journal\.json records a prune .* that cannot be rolled back: its backup .* is gone; nothing was changed/,
    );
    assert.deepEqual(await snapshot(root), finished);
  }
});

Deno.test("prune --yes killed while removing files, in a repository moved since, is rolled back from its backup by the next run", async () => {
  await using repo = await agentRepo();
  // git rm removes the files, then writes the index: killed there.
  await killPruneInHook(repo.path, "post-index-change", "[ ! -e autoresearch/run-5/notes.md ]");
  const before = await snapshot(repo.path);
  assert.equal((await prune(repo.path, ["--yes"])).code, 137);
  await assert.rejects(Deno.lstat(join(repo.path, "autoresearch/run-5/notes.md")));
  await Deno.remove(join(repo.path, ".git/hooks/post-index-change"));
  await using dir = await tempDir();
  const root = join(dir.path, "moved");
  await Deno.rename(repo.path, root);

  const run = await prune(root, ["--yes"]);

  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(
    result.warnings.some((w: string) =>
      /interrupted prune .* rolled back: .*files restored/.test(w)
    ),
    result.warnings.join("\n"),
  );
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), before.head);
  assert.equal(await git(root, ["status", "--porcelain=v1", "--untracked-files=all"]), "");
  await git(root, ["fsck", "--no-progress"]);
});

Deno.test("prune --yes killed after removing the files, then a user commit on top: the next run restores none of the committed deletions", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await killPruneInHook(root, "post-index-change", "[ ! -e autoresearch/run-5/notes.md ]");
  assert.equal((await prune(root, ["--yes"])).code, 137);
  await Deno.remove(join(root, ".git/hooks/post-index-change"));
  const hygiene = (await git(root, ["rev-parse", "HEAD"])).trim();
  await writeFiles(root, { "mine.md": "mine\n" });
  await git(root, ["add", "mine.md"]);
  await git(root, ["commit", "-q", "-m", "user work"]);
  const committed = await snapshot(root);
  assert.equal(committed.status, "");

  const run = await prune(root, ["--yes"]);

  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(
    result.warnings.some((w: string) =>
      w.endsWith(
        `rolled back: its commit ${hygiene} is under HEAD (now ${committed.head}) and stays`,
      )
    ),
    result.warnings.join("\n"),
  );
  assert.deepEqual(result.applied, []);
  assert.deepEqual(await snapshot(root), committed);
  await assert.rejects(Deno.lstat(join(root, "autoresearch/run-5")));
});

Deno.test("prune --yes: a commit a hook makes on top of the hygiene commit is never dropped; the failure names the commit to revert", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await writeFiles(root, { "README.md": "# Project, staged\n" });
  await git(root, ["add", "README.md"]);
  // A concurrent agent commits the user's staged work right after prune's commit.
  await writeFiles(root, {
    ".git/hooks/post-commit": "#!/bin/sh\n" +
      'env -u GIT_INDEX_FILE git commit -q --no-verify -m "user work"\n',
  });
  await Deno.chmod(join(root, ".git/hooks/post-commit"), 0o755);
  const before = await snapshot(root);

  const run = await prune(root, ["--yes"]);

  const [head, hygiene, old] = (await git(root, ["rev-list", "-n", "3", "HEAD"])).trim().split(
    "\n",
  );
  assert.equal(old, before.head);
  assert.equal((await git(root, ["log", "-1", "--format=%s", head])).trim(), "user work");
  assertSeamError(
    "prune",
    run,
    1,
    "PRUNE_FAILED",
    new RegExp(
      `HEAD was left alone: it is no longer the hygiene commit ${hygiene} \\(now ${head}\\); ` +
        `if that commit is still in your history, undo it with git revert ${hygiene}: ` +
        `HEAD moved while pruning \\(it is now ${head}, not the hygiene commit ${hygiene}\\)`,
    ),
  );
  assert.equal(await Deno.readTextFile(join(root, "autoresearch/run-5/notes.md")), "# run 5\n");
  assert.deepEqual(
    [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name).filter((n) =>
      n.startsWith("prune-")
    ),
    [],
  );
});

Deno.test("prune --yes: an untracked unit's backup never enters .git, and a killed apply gives it back from .dochygiene", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitRunsRule(root);
  const content = "precious, never committed\n";
  await writeFiles(root, { "runs/u/a.md": content });
  const past = new Date(OLD);
  for (const p of ["runs/u/a.md", "runs/u"]) await Deno.utime(join(root, p), past, past);
  const blob = (await runCommand("git", ["hash-object", "--stdin"], { cwd: root, stdin: content }))
    .stdout.trim();
  const inGit = async () =>
    (await runCommand("git", ["cat-file", "-e", blob], { cwd: root })).code === 0;
  await killPruneInHook(root, "post-index-change", "[ ! -e runs/u/a.md ]");

  assert.equal((await prune(root, ["--yes", "--confirm", "runs/u/"])).code, 137);
  await assert.rejects(Deno.lstat(join(root, "runs/u/a.md")));
  assert.ok(!(await inGit()));

  await Deno.remove(join(root, ".git/hooks/post-index-change"));
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.ok(result.warnings.some((w: string) => /rolled back: 1 file restored/.test(w)));
  assert.deepEqual(result.applied, []);
  assert.equal(await Deno.readTextFile(join(root, "runs/u/a.md")), content);
  assert.ok(!(await inGit()));
  assert.deepEqual(
    [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name).sort(),
    [".gitignore", "state.json"],
  );

  // Given back as new files, so aged again for the last run.
  for (const p of ["runs/u/a.md", "runs/u"]) await Deno.utime(join(root, p), past, past);
  const removed = await prune(root, ["--yes", "--confirm", "runs/u/"]);
  assert.equal(removed.code, 0, removed.stderr);
  await assert.rejects(Deno.lstat(join(root, "runs")));
  assert.ok(!(await inGit()));
  assert.deepEqual(
    [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name).sort(),
    [".gitignore", "state.json"],
  );
});

Deno.test("prune: a state.json that cannot be read is refused before anything changes (dry run and --yes, exit 1)", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await Deno.mkdir(join(root, ".dochygiene/state.json"), { recursive: true });
  const before = await snapshot(root);
  for (const args of [[], ["--yes"]]) {
    assertSeamError("prune", await prune(root, args), 1, "STATE_FILE_UNREADABLE", /is a directory/);
  }
  assert.deepEqual(await snapshot(root), before);
});

Deno.test("prune: a corrupt state.json is a warning (its clock watermark is unknown); --yes keeps it aside", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await writeFiles(root, { ".dochygiene/state.json": "{oops" });
  const dry = JSON.parse((await prune(root, [])).stdout);
  assert.ok(
    dry.warnings.some((w: string) =>
      /state\.json is corrupt, so its clock watermark is unknown/.test(w)
    ),
    dry.warnings.join("\n"),
  );
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  // One warning says where it went, none what --yes would do.
  assert.deepEqual(
    result.warnings.filter((w: string) => /kept aside|keeps it aside/.test(w)).length,
    1,
    result.warnings.join("\n"),
  );
  assert.ok(result.warnings.some((w: string) => /kept aside as .*state\.json\.corrupt-/.test(w)));
  const names = [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name);
  assert.ok(names.some((n) => n.startsWith("state.json.corrupt-")), names.join(", "));
  const state = JSON.parse(await Deno.readTextFile(join(root, ".dochygiene/state.json")));
  assert.equal(state.clock_watermark, NOW);
});

Deno.test("prune --yes: a state update that fails after the commit is a warning in a successful result (exit 0)", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await writeFiles(root, { ".git/hooks/post-commit": "#!/bin/sh\nmkdir .dochygiene/state.json\n" });
  await Deno.chmod(join(root, ".git/hooks/post-commit"), 0o755);

  const run = await prune(root, ["--yes"]);

  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const result = JSON.parse(run.stdout);
  assert.equal(result.commit, (await git(root, ["rev-parse", "HEAD"])).trim());
  assert.equal(result.applied.length, 3);
  assert.ok(
    result.warnings.some((w: string) =>
      /^the prune is done \(commit [0-9a-f]{40}\) but could not be recorded in state\.json .*is a directory.*no second run/
        .test(w)
    ),
    result.warnings.join("\n"),
  );
});

Deno.test("prune --yes: a commit git cannot sign says why (git's error line, not its last line)", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await git(root, ["config", "commit.gpgsign", "true"]);
  await git(root, ["config", "gpg.program", "false"]);
  const before = await snapshot(root);
  assertSeamError(
    "prune",
    await prune(root, ["--yes"]),
    1,
    "PRUNE_FAILED",
    /the commit failed .*\(git commit failed: error: gpg failed to sign the data\)/,
  );
  assert.deepEqual(await snapshot(root), before);
});

Deno.test("prune: a broken default report is named; a rulebook without served_when never reads it", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  const report = join(root, ".dochygiene/report-20261130T110000Z.json");
  await writeFiles(root, {
    ".dochygiene/report-20261130T110000Z.json": "{oops",
    ".dochygiene/report-20261130T110000Z.md": "# report\n",
  });
  const broken = await prune(root, []);
  assertSeamError("prune", broken, 2, "INVALID_REPORT", /not valid JSON/);
  assert.ok(broken.stderr.includes(`${report}: the report is not valid JSON`), broken.stderr);

  await Deno.writeTextFile(
    join(root, ".dochygiene.yml"),
    'rules:\n  - {match: "autoresearch/*/", lifetime: temporary}\n',
  );
  const run = await prune(root, []);
  assert.equal(run.code, 0, run.stderr);
});

Deno.test("prune: the dry run lists a unit holding an assume-unchanged file as skipped by --yes, never as going", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await git(root, ["update-index", "--assume-unchanged", "autoresearch/run-5/notes.md"]);

  const plan = JSON.parse((await prune(root, [])).stdout);
  assert.deepEqual(plan.skipped.map((s: { path: string }) => s.path), ["autoresearch/run-5/"]);
  assert.match(plan.skipped[0].reason, /assume-unchanged/);
  const text = await runSeam("prune", ["--format", "text"], { cwd: root, env: ENV });
  assert.match(text.stdout, /Goes with --yes \(2\):\n {2}autoresearch\/run-4\/ .*\n {2}openspec/);
  assert.match(text.stdout, /Skipped by --yes \(1\):\n {2}autoresearch\/run-5\/ +git is told/);

  const applied = JSON.parse((await prune(root, ["--yes"])).stdout);
  assert.deepEqual(applied.skipped, plan.skipped);
});

/** `s` as one shell word. */
function shellWord(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

Deno.test("prune --format text: each --confirm hint pasted into bash confirms its unit (newline, C1 and bidi controls, quote, space, leading - or =)", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitRunsRule(root);
  const units = [
    "runs/new\nline/",
    "runs/it's here/",
    "runs/-lead/",
    "runs/tab\there$x/",
    "runs/c1\u0085x/",
    "runs/bidi\u202ex/",
    "runs/=eq/",
  ];
  const past = new Date(OLD);
  for (const unit of units) {
    await writeFiles(root, { [`${unit}a.md`]: "a\n" });
    for (const p of [`${unit}a.md`, unit]) await Deno.utime(join(root, p), past, past);
  }
  const dry = await runSeam("prune", ["--format", "text"], { cwd: root, env: ENV });
  assert.equal(dry.code, 0, dry.stderr);
  const hints = dry.stdout.split("\n").filter((l) => l.includes("→ --confirm")).map((l) =>
    l.slice(l.indexOf("→ ") + 2)
  );
  assert.equal(hints.length, units.length, dry.stdout);
  const command = [DENO, "run", "--quiet", `--config=${join(PACKAGE_DIR, "deno.json")}`]
    .concat(PERMISSION_FLAGS.prune, join(PACKAGE_DIR, "prune.ts"), "--yes", "--format", "json")
    .map(shellWord).join(" ");
  // In the C locale too: the escapes are bytes, which need no UTF-8 locale to be read back.
  const run = await runCommand("bash", ["-c", `${command} ${hints.join(" ")}`], {
    cwd: root,
    env: { ...ENV, CI: "", LC_ALL: "C" },
  });
  assert.equal(run.code, 0, run.stderr);
  const applied = JSON.parse(run.stdout).applied.map((a: { path: string }) => a.path).sort();
  assert.deepEqual(applied, [...units].sort());
});

Deno.test("prune: names with terminal escapes or bidi controls are quoted and escaped in the y/N prompt and the text", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitRunsRule(root);
  const evil = "runs/evil\x1b[2K\rdelete runs-scratch/";
  const bidi = "runs/bidi\u202egnp.md/";
  await writeFiles(root, { [`${evil}a.md`]: "a\n", [`${bidi}a.md`]: "b\n" });
  const past = new Date(OLD);
  for (const p of [`${evil}a.md`, evil, `${bidi}a.md`, bidi]) {
    await Deno.utime(join(root, p), past, past);
  }
  const quoted = {
    evil: String.raw`"runs/evil\u001b[2K\rdelete runs-scratch/"`,
    bidi: String.raw`"runs/bidi\u202egnp.md/"`,
  };

  const dry = await runSeam("prune", ["--format", "text"], { cwd: root, env: ENV });
  assert.ok(dry.stdout.includes(quoted.evil) && dry.stdout.includes(quoted.bidi), dry.stdout);
  assert.ok(!["\x1b", "\r", "\u202e"].some((c) => dry.stdout.includes(c)), dry.stdout);

  // On a terminal (script(1) gives prune one), --yes asks about each; "n" keeps both.
  const command = [DENO, "run", "--quiet", `--config=${join(PACKAGE_DIR, "deno.json")}`]
    .concat(PERMISSION_FLAGS.prune, join(PACKAGE_DIR, "prune.ts"), "--yes", "--format", "text")
    .map(shellWord).join(" ");
  const run = await runCommand("script", ["-qec", command, "/dev/null"], {
    cwd: root,
    env: { ...ENV, NO_COLOR: "1", CI: "" },
    stdin: "n\nn\n",
  });
  assert.equal(run.code, 0, run.stdout);
  assert.ok(run.stdout.includes(`delete ${quoted.bidi} (rank `), run.stdout);
  assert.ok(run.stdout.includes(`delete ${quoted.evil} (rank `), run.stdout);
  assert.equal(run.stdout.split("declined at the prompt (needs --confirm ").length, 3, run.stdout);
  // (The terminal itself ends lines with \r\n.)
  assert.ok(!["\x1b", "\u202e"].some((c) => run.stdout.includes(c)), run.stdout);
  assert.ok(await Deno.lstat(join(root, evil, "a.md")));
});

Deno.test("prune --yes with GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE exported for another repository deletes and commits in this one only", async () => {
  await using repo = await agentRepo();
  await using other = await tempRepo();
  await commitFiles(other.path, { "x.md": "# X\n" }, OLD);
  const before = await snapshot(other.path);
  const run = await prune(repo.path, ["--yes"], {
    GIT_DIR: join(other.path, ".git"),
    GIT_WORK_TREE: other.path,
    GIT_INDEX_FILE: join(other.path, ".git", "index"),
  });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.applied.length, 3);
  assert.equal(result.commit, (await git(repo.path, ["rev-parse", "HEAD"])).trim());
  assert.deepEqual(await snapshot(other.path), before);
});

Deno.test("prune: a dry run leaves .git/index untouched (git takes no optional lock to refresh it)", async () => {
  await using repo = await agentRepo();
  const index = join(repo.path, ".git", "index");
  // A file whose stat no longer matches the index: a plain `git status` would rewrite it.
  await Deno.utime(join(repo.path, "README.md"), new Date(), new Date("2026-01-01T00:00:00Z"));
  const before = await Deno.readFile(index);
  const run = await prune(repo.path, []);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(await Deno.readFile(index), before);
});

// prune.ts as users run it: a subprocess with exactly the documented flags,
// in real temporary repositories with backdated commits; time via DOCHYGIENE_NOW.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitFiles,
  conflictedMerge,
  git,
  runSeam,
  tempDir,
  tempRepo,
  writeFiles,
} from "./_helpers.ts";

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
    served_when_path: "openspec/changes/archive/*-{name}/"
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

/** A schema-v1 report judging `path` served (op_type delete), written at `at`. */
function servedReport(path: string, at: string) {
  return {
    schema_version: 1,
    generated_at: at,
    scan_generated_at: at,
    entries: [{
      path,
      category: "served",
      op_type: "delete",
      op: "Delete it.",
      safety_tier: "confirm",
      rationale: "shipped",
      signals: [],
    }],
  };
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
  assert.match(kept["docs/superpowers/plans/2026-10-01-auth.md"], /served_when not judged/);
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
  const report = servedReport(plan, NOW);
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
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /middle of a merge/);
  assert.equal(JSON.parse(run.stdout).error.code, "GIT_BUSY");
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
    JSON.stringify(servedReport(plan, "2026-11-10T00:00:00.000Z")),
  );
  const dry = JSON.parse((await prune(repo.path, ["--from-report", report])).stdout);
  assert.ok(!dry.candidates.some((c: { path: string }) => c.path === plan));
  const kept = dry.kept.find((k: { path: string }) => k.path === plan);
  assert.match(kept.reason, /changed after the report judged it/);
});

/** A hook that SIGKILLs prune (git's parent) at that instant: a crash at a real point of apply. */
async function killPruneInHook(root: string, hook: string) {
  await writeFiles(root, {
    [`.git/hooks/${hook}`]: "#!/bin/sh\nkill -9 $(awk '{print $4}' /proc/$PPID/stat)\nsleep 5\n",
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

Deno.test("prune --yes with git's index.lock present (a killed git) is refused clearly (exit 1), nothing changed", async () => {
  await using repo = await agentRepo();
  const root = repo.path;
  await Deno.writeTextFile(join(root, ".git/index.lock"), "");
  const before = await snapshot(root);
  const run = await prune(root, ["--yes"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^dochygiene prune: .*index\.lock exists: .*remove it/);
  assert.equal(JSON.parse(run.stdout).error.code, "GIT_BUSY");
  await Deno.remove(join(root, ".git/index.lock"));
  assert.deepEqual(await snapshot(root), before);
});

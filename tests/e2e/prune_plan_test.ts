// What prune's plan may never offer, as users run it (a subprocess with exactly the documented
// flags, in real temporary repositories with backdated commits; time via DOCHYGIENE_NOW):
// protected docs outside scope_globs, ages a shallow clone cannot know, judgments older than
// uncommitted edits, and rules that match arbitrary names.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitFiles,
  git,
  giveToUnprivileged,
  runSeam,
  servedReport,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const OLD = "2026-11-01T10:00:00Z";
const HOUR = 3_600_000;

/** A temporary rule over `runs/*\/`: but for the `retainRecent` newest, a run older than a day goes. */
function runsRule(retainRecent: number): string {
  return `  - match: "runs/*/"\n    lifetime: temporary\n    retain_recent: ${retainRecent}\n    max_age_days: 1\n`;
}

async function prune(root: string, args: string[]) {
  const run = await runSeam("prune", ["--format", "json", ...args], {
    cwd: root,
    env: { DOCHYGIENE_NOW: NOW },
  });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

function reasons(plan: { kept: { path: string; reason: string }[] }): Record<string, string> {
  return Object.fromEntries(plan.kept.map((k) => [k.path, k.reason]));
}

const paths = (entries: { path: string }[]) => entries.map((e) => e.path);

Deno.test("prune: a frozen or append-only doc outside scope_globs still protects its unit", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `scope_globs: ["docs/**/*.md"]\nrules:\n${runsRule(0)}` +
      `  - match: "notes/*.md"\n    lifetime: temporary\n    retain_recent: 0\n    max_age_days: 1\n`,
    "runs/r1/release.md": "---\nhygiene: frozen\n---\n# Release checklist\n",
    "runs/r2/CHANGELOG.md": "# Changelog\n\n## 1.2.0\n\n## 1.1.0\n\n## 1.0.0\n",
    "runs/r3/NOTES.MD": "---\nhygiene: frozen\n---\n# notes\n",
    "runs/r4/out.md": "# output\n",
    // The name-based protections hold whatever the scope too.
    ".dochygiene-ignore": "runs/r5/data.json\n",
    "runs/r5/data.json": "{}\n",
    "runs/r6/build/out.txt": "x\n",
    "notes/decision.md": "---\nhygiene: frozen\n---\n# A decision\n",
    "notes/journal.md": "# Journal\n\n## 2026-10-03\n\n## 2026-10-02\n\n## 2026-10-01\n",
    "notes/scratch.md": "# scratch\n",
  }, OLD);
  const result = await prune(repo.path, ["--yes"]);
  assert.deepEqual(paths(result.applied), ["notes/scratch.md", "runs/r4/"]);
  assert.deepEqual(reasons(result), {
    "notes/decision.md": "protected (frozen)",
    "notes/journal.md": "protected (append-only)",
    "runs/r1/": "protected: contains runs/r1/release.md (frozen)",
    "runs/r2/": "protected: contains runs/r2/CHANGELOG.md (append-only)",
    "runs/r3/": "protected: contains runs/r3/NOTES.MD (frozen)",
    "runs/r5/": "protected: contains runs/r5/data.json (.dochygiene-ignore)",
    "runs/r6/": "protected: contains runs/r6/build/out.txt (excluded dir build)",
  });
  for (const kept of Object.keys(reasons(result))) {
    assert.ok(await Deno.lstat(join(repo.path, kept)), kept);
  }
});

Deno.test("prune: a served_when_path deleted from disk (not yet staged) proves nothing; a deleted file goes with its unit", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(0)}` +
      '  - match: "notes/*.md"\n    lifetime: delete-once-served\n' +
      '    served_when_path: "done/{name}.md"\n',
    "notes/a.md": "# a\n",
    "notes/b.md": "# b\n",
    "done/a.md": "x\n",
    "done/b.md": "x\n",
    "runs/r1/out.md": "# out\n",
    "runs/r1/log.md": "# log\n",
  }, OLD);
  await Deno.remove(join(repo.path, "done/a.md"));
  await Deno.remove(join(repo.path, "runs/r1/log.md"));
  // The run has an uncommitted change (the deletion): it needs confirming, as any dirty unit.
  const result = await prune(repo.path, ["--yes", "--confirm", "runs/r1/"]);
  assert.deepEqual(paths(result.applied), ["notes/b.md", "runs/r1/"]);
  assert.match(reasons(result)["notes/a.md"], /^not served: nothing matches served_when_path/);
  const changes = await git(repo.path, ["show", "--name-status", "--format=", "HEAD"]);
  assert.deepEqual(changes.trim().split("\n").sort(), [
    "D\tnotes/b.md",
    "D\truns/r1/log.md",
    "D\truns/r1/out.md",
  ]);
});

Deno.test("prune keeps a unit whose commit is dated after the year 9999 as dated in the future", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(0)}`,
    "runs/r1/a.md": "a\n",
  }, OLD);
  await commitFiles(repo.path, { "runs/r1/b.md": "b\n" }, "@8640000000001 +0000");
  const result = await prune(repo.path, ["--yes"]);
  assert.deepEqual(paths(result.applied), []);
  assert.match(reasons(result)["runs/r1/"], /dated in the future \(after 9999-12-31/);
});

Deno.test("prune: a deleted (not staged) file still protects its unit by name (ignored, excluded dir)", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(0)}` +
      '  - match: "notes/*.md"\n    lifetime: temporary\n    retain_recent: 0\n    max_age_days: 1\n',
    ".dochygiene-ignore": "notes/keep.md\n",
    "notes/keep.md": "k\n",
    "runs/r1/vendor/v.md": "v\n",
    "runs/r1/out.md": "o\n",
  }, OLD);
  await Deno.remove(join(repo.path, "notes/keep.md"));
  await Deno.remove(join(repo.path, "runs/r1/vendor/v.md"));
  const result = await prune(repo.path, [
    "--yes",
    "--confirm",
    "notes/keep.md",
    "--confirm",
    "runs/r1/",
  ]);
  assert.deepEqual(paths(result.applied), []);
  assert.deepEqual(reasons(result), {
    "notes/keep.md": "protected (.dochygiene-ignore)",
    "runs/r1/": "protected: contains runs/r1/vendor/v.md (excluded dir vendor)",
  });
});

Deno.test("prune: a served_when_path deleted inside a directory this user may pass but not list proves nothing", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": 'rules:\n  - match: "changes/*/"\n    lifetime: delete-once-served\n' +
      '    served_when_path: "archive/*-{name}/"\n',
    "changes/foo/plan.md": "x\n",
    "archive/2020-foo/x.md": "y\n",
  }, OLD);
  await Deno.remove(join(repo.path, "archive/2020-foo"), { recursive: true });
  await giveToUnprivileged(repo.path);
  await new Deno.Command("chown", { args: ["root:root", join(repo.path, "archive")] }).output();
  await Deno.chmod(join(repo.path, "archive"), 0o311);
  const run = await runSeam("prune", ["--format", "json"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: NOW },
    unprivileged: true,
  });
  await Deno.chmod(join(repo.path, "archive"), 0o755);
  assert.equal(run.code, 0, run.stderr);
  const plan = JSON.parse(run.stdout);
  assert.deepEqual(paths(plan.candidates), []);
  assert.match(reasons(plan)["changes/foo/"], /^not served/);
});

/** Four runs, one commit each, 45, 35, 25 and 15 days before NOW, cloned `depth` commits deep. */
async function shallowRuns(depth: number) {
  await using source = await tempRepo();
  await commitFiles(source.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(1)}`,
  }, "2026-10-01T00:00:00Z");
  const days = ["2026-10-16", "2026-10-26", "2026-11-05", "2026-11-15"];
  for (const [i, day] of days.entries()) {
    await commitFiles(source.path, { [`runs/r${i + 1}/x.md`]: `${i + 1}\n` }, `${day}T12:00:00Z`);
  }
  const clone = await tempDir("dochygiene-shallow-");
  await git("/", ["clone", "-q", "--depth", String(depth), `file://${source.path}`, clone.path]);
  return clone;
}

Deno.test("prune in a shallow clone deletes nothing whose age is only where the history is cut, and says to unshallow", async () => {
  await using clone = await shallowRuns(1);
  const result = await prune(clone.path, ["--yes"]);
  assert.deepEqual(result.applied, []);
  assert.deepEqual(result.candidates, []);
  for (const run of ["runs/r1/", "runs/r2/", "runs/r3/", "runs/r4/"]) {
    assert.match(reasons(result)[run], /age unknown: .*shallow clone.*git fetch --unshallow/, run);
    assert.ok(await Deno.lstat(join(clone.path, run)));
  }
  assert.deepEqual(result.warnings, [
    "shallow clone: 4 unit(s) unchanged since the clone's history starts have an unknown age and are kept; run git fetch --unshallow to date them",
  ]);
});

Deno.test("prune in a shallow clone ranks units changed after the cut as the newest, and may delete them by age", async () => {
  await using clone = await shallowRuns(3);
  const plan = await prune(clone.path, []);
  // r3 and r4 were committed after the cut (real ages); r1 and r2 only in the commit it starts at.
  assert.deepEqual(paths(plan.candidates), ["runs/r3/"]);
  assert.equal(plan.candidates[0].reason, "rank 2 of 4, 25 days old > 1");
  const kept = reasons(plan);
  assert.equal(kept["runs/r4/"], "retain_recent: rank 1 of 4");
  assert.match(kept["runs/r1/"], /age unknown/);
  assert.match(kept["runs/r2/"], /age unknown/);
});

Deno.test("prune: a judged unit with uncommitted changes made after the report stays (run the check again)", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const judged = (match: string) =>
    `  - match: "${match}"\n    lifetime: delete-once-served\n    served_when: "shipped"\n`;
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${judged("plans/*.md")}${judged("specs/*/")}`,
    "plans/edited.md": "v1\n",
    "plans/before.md": "v1\n",
    "specs/s1/a.md": "v1\n",
  }, OLD);
  const judgedAt = Date.parse(NOW) - 2 * HOUR;
  await using dir = await tempDir();
  const report = join(dir.path, "report.json");
  const units = ["plans/edited.md", "plans/before.md", "specs/s1/"];
  await Deno.writeTextFile(
    report,
    JSON.stringify(servedReport(units, new Date(judgedAt).toISOString())),
  );
  // Edited after the judgment: a file changed, a file added to a directory unit; and one edit
  // the report did see (made before it).
  await writeFiles(root, {
    "plans/edited.md": "v1\nnew decision\n",
    "specs/s1/b.md": "new\n",
    "plans/before.md": "v1\nseen\n",
  });
  const after = new Date(judgedAt + HOUR);
  const before = new Date(judgedAt - HOUR);
  await Deno.utime(join(root, "plans/edited.md"), after, after);
  await Deno.utime(join(root, "specs/s1/b.md"), after, after);
  await Deno.utime(join(root, "plans/before.md"), before, before);

  const confirm = units.flatMap((u) => ["--confirm", u]);
  const result = await prune(root, ["--yes", "--from-report", report, ...confirm]);
  assert.deepEqual(paths(result.applied), ["plans/before.md"]);
  const kept = reasons(result);
  for (const unit of ["plans/edited.md", "specs/s1/"]) {
    assert.match(
      kept[unit],
      /changed after the report judged it .*uncommitted.*run the check again/,
    );
    assert.ok(await Deno.lstat(join(root, unit)), unit);
  }
  assert.equal(await Deno.readTextFile(join(root, "plans/edited.md")), "v1\nnew decision\n");
});

Deno.test("prune: a deleting rule that matches arbitrary names is refused however it is spelled (exit 2)", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "README.md": "# r\n", "runs/r1/x.md": "x\n" }, OLD);
  for (const match of ["?*/", "[a-z]*/", "{a,**}/", "!(zzz)/", "{**,x}", "*.*"]) {
    await Deno.writeTextFile(
      join(repo.path, ".dochygiene.yml"),
      `rules:\n  - match: "${match}"\n    lifetime: temporary\n    retain_recent: 0\n`,
    );
    const run = await runSeam("prune", ["--format", "json", "--yes"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW },
    });
    assert.equal(run.code, 2, match);
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(
      lines[0],
      /rules\[0\]\.match: .* would cover the whole repository \(it matches arbitrary names such as ".+"\); a temporary rule must be anchored to a directory \(e\.g\. "autoresearch\/\*\/"\)$/,
    );
  }
  assert.ok(await Deno.lstat(join(repo.path, "README.md")));
  assert.ok(await Deno.lstat(join(repo.path, "runs/r1/x.md")));
});

Deno.test("prune --yes: five dated runs added in one commit keep the three newest by their names' dates", async () => {
  await using repo = await tempRepo();
  const days = ["2026-11-01", "2026-11-09", "2026-11-16", "2026-11-22", "2026-11-28"];
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(3)}`,
    ...Object.fromEntries(days.map((d) => [`runs/${d}-sweep/out.md`, `# ${d}\n`])),
  }, OLD);
  const result = await prune(repo.path, ["--yes"]);
  assert.deepEqual(paths(result.applied), ["runs/2026-11-01-sweep/", "runs/2026-11-09-sweep/"]);
  assert.deepEqual(paths(result.kept), [
    "runs/2026-11-16-sweep/",
    "runs/2026-11-22-sweep/",
    "runs/2026-11-28-sweep/",
  ]);
});

Deno.test("prune --yes: undated runs of equal age past retention wait for a confirmation", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(1)}`,
    "runs/alpha/out.md": "# a\n",
    "runs/beta/out.md": "# b\n",
  }, OLD);
  const result = await prune(repo.path, ["--yes"]);
  assert.deepEqual(result.applied, []);
  assert.deepEqual(result.candidates.map((c: { path: string; tier: string }) => [c.path, c.tier]), [
    ["runs/alpha/", "confirm"],
  ]);
  assert.ok(await Deno.lstat(join(repo.path, "runs/alpha/out.md")));
});

Deno.test("prune --yes: an active OpenSpec change is not served by the archive of a longer name ending in its name", async () => {
  for (const pattern of ["{date}-{name}", "*-{name}"]) {
    await using repo = await tempRepo();
    await commitFiles(repo.path, {
      ".gitignore": ".dochygiene/\n",
      ".dochygiene.yml":
        `rules:\n  - match: "openspec/changes/*/"\n    lifetime: delete-once-served\n` +
        `    served_when_path: "openspec/changes/archive/${pattern}/"\n`,
      "openspec/changes/archive/2026-09-01-add-dark-mode/proposal.md": "# add dark mode\n",
      "openspec/changes/archive/2026-09-02-search/proposal.md": "# search\n",
      "openspec/changes/search/proposal.md": "# search\n",
      "openspec/changes/dark-mode/proposal.md": "# dark mode\n",
    }, OLD);
    const result = await prune(repo.path, ["--yes"]);
    assert.deepEqual(
      paths(result.applied),
      pattern === "{date}-{name}" ? ["openspec/changes/search/"] : [],
      pattern,
    );
    assert.ok(await Deno.lstat(join(repo.path, "openspec/changes/dark-mode/proposal.md")), pattern);
    assert.match(reasons(result)["openspec/changes/dark-mode/"], /^not served/, pattern);
  }
});

Deno.test("prune --yes: a frozen doc whose frontmatter is not strict YAML fails closed; the scan says it is malformed", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": `rules:\n${runsRule(0)}` +
      `  - match: "notes/*.md"\n    lifetime: temporary\n    retain_recent: 0\n    max_age_days: 1\n`,
    "runs/r1/plan.md": "---\nhygiene: frozen\ntitle: Plan: search rewrite\n---\n# Plan\n",
    "runs/r2/out.md": "# output\n",
    "notes/decision.md": "---\nhygiene: frozen\ntitle: a\ntitle: b\n---\n# Decision\n",
    "notes/scratch.md": "---\ntitle: Notes: scratch\n---\n# scratch\n",
  }, OLD);
  const result = await prune(repo.path, ["--yes"]);
  assert.deepEqual(paths(result.applied), ["notes/scratch.md", "runs/r2/"]);
  assert.deepEqual(reasons(result), {
    "notes/decision.md": "protected (malformed frontmatter with a hygiene: line; fix its YAML)",
    "runs/r1/":
      "protected: contains runs/r1/plan.md (malformed frontmatter with a hygiene: line; fix its YAML)",
  });
  assert.ok(await Deno.lstat(join(repo.path, "runs/r1/plan.md")));
  // The scan reports it, from a cold scan and from its cache alike.
  for (const _ of ["cold", "cached"]) {
    const scan = await runSeam("scan", ["--format", "json"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW },
    });
    assert.equal(scan.code, 0, scan.stderr);
    const signals = JSON.parse(scan.stdout).signals;
    assert.deepEqual(
      signals["runs/r1/plan.md"].filter((s: { kind: string }) =>
        s.kind === "malformed_frontmatter"
      ),
      [{
        kind: "malformed_frontmatter",
        line: 3,
        reason: "Nested mappings are not allowed in compact mappings",
        hygiene: true,
      }],
    );
    const text = await runSeam("scan", ["--format", "text", "--no-write"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW },
    });
    assert.match(text.stdout, /^findings: 2 in 2 docs$/m);
    assert.match(
      text.stdout,
      /^runs\/r1\/plan\.md:3:1 +malformed_frontmatter +malformed frontmatter: Nested mappings .* \(has a hygiene: line/m,
    );
  }
});

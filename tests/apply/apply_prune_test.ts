import assert from "node:assert/strict";
import { join } from "node:path";
import { applyPrune } from "../../lib/apply/apply_prune.ts";
import { collectUnits } from "../../lib/prune/collect_units.ts";
import { existingPaths as existingPathsOf } from "../../lib/config/governing_rule.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { parseConfig } from "../../lib/config/parse_config.ts";
import { type Plan, planPrune } from "../../lib/prune/plan_prune.ts";
import { pathExists } from "../../lib/fs/path_exists.ts";
import {
  commitFiles,
  conflictedMerge,
  dryRunInput,
  git,
  gitLandingACommit,
  prng,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const OLD = "2026-11-01T10:00:00Z";
const RECENT = "2026-11-29T10:00:00Z";

const RULES = `
rules:
  - match: "runs/*/"
    lifetime: temporary
    retain_recent: 1
    max_age_days: 3
  - match: "notes/*.md"
    lifetime: temporary
    retain_recent: 0
    max_age_days: 3
`;

function apply(
  root: string,
  options: { rules?: string; confirm?: string[]; protect?: (p: string) => string | undefined } = {},
): Promise<Plan> {
  const { rules } = parseConfig(options.rules ?? RULES);
  return applyPrune({
    root,
    stateDir: join(root, ".dochygiene"),
    replan: async () => {
      const collection = await collectUnits(root, {
        rules,
        protect: options.protect ??
          ((p) => (p.startsWith(".dochygiene/") ? "excluded dir .dochygiene" : undefined)),
      });
      const plan = planPrune({
        units: collection.units,
        existing: collection.existing,
        judgments: new Map(),
        confirm: new Set(options.confirm ?? []),
        extracted: new Set(),
        now: NOW,
        watermark: null,
        mode: "apply",
      });
      return { plan, collection };
    },
  });
}

/** A repo with old and recent runs plus the user's unrelated staged, unstaged and untracked work. */
async function fixture() {
  const repo = await tempRepo();
  const root = repo.path;
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    "src/app.ts": "export const a = 1;\n",
    "src/staged.ts": "export const s = 1;\n",
    "runs/old-1/report.md": "# old 1\n",
    "runs/old-1/data/metrics.csv": "a,b\n1,2\n",
    "runs/old-2/report.md": "# old 2\n",
    "notes/old.md": "old note\n",
  }, OLD);
  await commitFiles(root, { "runs/new/report.md": "# new\n" }, RECENT);
  await Deno.mkdir(join(root, ".dochygiene"));
  // The user's unrelated work in progress.
  await writeFiles(root, {
    "src/app.ts": "export const a = 2; // unstaged\n",
    "src/staged.ts": "export const s = 2; // staged\n",
    "src/new-untracked.ts": "untracked\n",
  });
  await git(root, ["add", "src/staged.ts"]);
  return repo;
}

async function userWork(root: string) {
  return {
    status: await git(root, ["status", "--porcelain=v1", "--", "src"]),
    diff: await git(root, ["diff"]),
    cached: await git(root, ["diff", "--cached"]),
    untracked: await Deno.readTextFile(join(root, "src/new-untracked.ts")),
  };
}

async function commitCount(root: string): Promise<number> {
  return Number((await git(root, ["rev-list", "--count", "HEAD"])).trim());
}

Deno.test("apply: exactly one commit holding only the deletions; the user's staged, unstaged and untracked work untouched", async () => {
  await using repo = await fixture();
  const root = repo.path;
  const before = await userWork(root);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();

  const result = await apply(root);

  assert.deepEqual(result.applied, [
    { path: "notes/old.md", how: "git rm" },
    { path: "runs/old-1/", how: "git rm" },
    { path: "runs/old-2/", how: "git rm" },
  ]);
  assert.ok(result.commit);
  assert.equal(await commitCount(root), 3);
  assert.equal((await git(root, ["rev-parse", "HEAD^"])).trim(), head);
  const changes = await git(root, ["show", "--name-status", "--format=", "HEAD"]);
  assert.deepEqual(changes.trim().split("\n").sort(), [
    "D\tnotes/old.md",
    "D\truns/old-1/data/metrics.csv",
    "D\truns/old-1/report.md",
    "D\truns/old-2/report.md",
  ]);
  const message = await git(root, ["log", "-1", "--format=%B"]);
  assert.match(message, /^dochygiene: prune 3 doc units/);
  assert.match(message, /- runs\/old-1\/ — runs\/\*\/ \(temporary\): rank 3 of 3, 29 days old > 3/);
  assert.match(message, /- notes\/old\.md — notes\/\*\.md \(temporary\)/);
  assert.match(message, /git revert/);
  assert.deepEqual(await userWork(root), before);
  assert.ok(!(await pathExists(join(root, "runs/old-1"))));
  assert.ok(await pathExists(join(root, "runs/new/report.md")));
  await git(root, ["fsck", "--no-progress", "--strict"]);
  // No temporary index or lock is left behind.
  assert.deepEqual([...Deno.readDirSync(join(root, ".dochygiene"))], []);
});

Deno.test("apply: a failing pre-commit hook restores every removed file, HEAD unchanged, user's work intact, exit 1", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    ".git/hooks/pre-commit": "#!/bin/sh\necho 'lint failed' >&2\nexit 1\n",
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  const before = await userWork(root);
  const fullStatus = await git(root, ["status", "--porcelain=v1"]);
  const index = await git(root, ["ls-files", "-s"]);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();

  const err = await apply(root).catch((e) => e);

  assert.ok(err instanceof DochygieneError);
  assert.equal(err.code, "PRUNE_FAILED");
  assert.equal(err.exitCode, 1);
  assert.match(err.message, /everything it had removed was restored/);
  assert.match(err.message, /pre-commit/);
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
  assert.equal(await Deno.readTextFile(join(root, "runs/old-1/data/metrics.csv")), "a,b\n1,2\n");
  assert.equal(await Deno.readTextFile(join(root, "notes/old.md")), "old note\n");
  assert.deepEqual(await userWork(root), before);
  assert.equal(await git(root, ["status", "--porcelain=v1"]), fullStatus);
  assert.equal(await git(root, ["ls-files", "-s"]), index);
  await git(root, ["fsck", "--no-progress"]);
});

Deno.test("apply: a commit that lands just before the hygiene commit (another agent) stays; HEAD goes back to it, never past it", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await using bin = await tempDir();
  // Just before the hygiene commit, "another agent" commits (once).
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", await gitLandingACommit(bin.path));
  let err: unknown;
  try {
    err = await apply(root).catch((e) => e);
  } finally {
    Deno.env.set("PATH", path);
  }
  assert.ok(err instanceof DochygieneError);
  assert.equal(err.code, "PRUNE_FAILED");
  assert.match(err.message, /HEAD moved while pruning/);
  // The user's commit is HEAD, with its file; nothing of the units was deleted.
  assert.equal((await git(root, ["log", "-1", "--format=%s"])).trim(), "user work");
  assert.equal(await Deno.readTextFile(join(root, "user.md")), "mine\n");
  assert.equal(await git(root, ["ls-tree", "--name-only", "HEAD", "--", "user.md"]), "user.md\n");
  assert.ok(await pathExists(join(root, "runs/old-1/report.md")));
  assert.match(await git(root, ["ls-files", "--", "runs/old-1"]), /report\.md/);
  await git(root, ["fsck", "--no-progress"]);
});

Deno.test("apply: a commit that lands during git commit fails it; the run says HEAD moved, not that restoring failed", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    ".git/hooks/pre-commit": "#!/bin/sh\necho mine > user.md\n" +
      "env -u GIT_INDEX_FILE git add user.md\n" +
      "env -u GIT_INDEX_FILE git -c user.email=u@x -c user.name=U commit -q --no-verify -m 'user work'\n",
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  const err = await apply(root).catch((e) => e);
  assert.ok(err instanceof DochygieneError);
  assert.equal(err.code, "PRUNE_FAILED");
  assert.match(
    err.message,
    /the index and files are as before; HEAD moved meanwhile \(a commit landed: [0-9a-f]{40}\) and was left alone/,
  );
  assert.equal((await git(root, ["log", "-1", "--format=%s"])).trim(), "user work");
  assert.ok(await pathExists(join(root, "runs/old-1/report.md")));
  // Nothing kept for a next run to roll back.
  assert.deepEqual(
    [...Deno.readDirSync(join(root, ".dochygiene"))].filter((e) => e.name.startsWith("prune")),
    [],
  );
});

Deno.test("apply: a hook that sneaks another change into the commit is caught and everything rolled back", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    ".git/hooks/pre-commit": "#!/bin/sh\necho sneaky > sneaky.md\ngit add sneaky.md\n",
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();
  const before = await userWork(root);

  const err = await apply(root).catch((e) => e);

  assert.equal(err?.code, "PRUNE_FAILED");
  assert.match(err.message, /the commit changed sneaky\.md \(A\)/);
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
  assert.ok(await pathExists(join(root, "runs/old-1/report.md")));
  assert.deepEqual(await userWork(root), before);
});

Deno.test("apply: a unit file made executable or swapped for a symlink while pruning stops it; everything stays", async () => {
  for (
    const change of [
      "chmod +x runs/old-1/report.md",
      "rm runs/old-1/report.md && ln -s /etc/hostname runs/old-1/report.md",
    ]
  ) {
    await using repo = await fixture();
    const root = repo.path;
    await writeFiles(root, { ".git/hooks/pre-commit": `#!/bin/sh\n${change}\n` });
    await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
    const head = (await git(root, ["rev-parse", "HEAD"])).trim();
    const err = await apply(root).catch((e) => e);
    assert.equal(err?.code, "PRUNE_FAILED", change);
    assert.match(err.message, /runs\/old-1\/report\.md changed while pruning/, change);
    assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
    assert.ok(await pathExists(join(root, "notes/old.md")));
  }
});

Deno.test("apply: a passing pre-commit hook runs and sees only the deletions staged", async () => {
  await using repo = await fixture();
  const root = repo.path;
  const log = join(root, ".dochygiene", "hook.log");
  await writeFiles(root, {
    ".git/hooks/pre-commit": `#!/bin/sh\ngit diff --cached --name-status HEAD > '${log}'\n`,
  });
  await Deno.chmod(join(root, ".git/hooks/pre-commit"), 0o755);
  await apply(root);
  const seen = (await Deno.readTextFile(log)).trim().split("\n").sort();
  assert.deepEqual(seen, [
    "D\tnotes/old.md",
    "D\truns/old-1/data/metrics.csv",
    "D\truns/old-1/report.md",
    "D\truns/old-2/report.md",
  ]);
});

Deno.test("apply: refused mid-merge, and during rebase, cherry-pick, revert and bisect", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await git(root, ["stash", "-q", "--include-untracked"]);
  await conflictedMerge(root, "src/app.ts", RECENT);
  assert.ok(await pathExists(join(root, ".git/MERGE_HEAD")));
  const err = await apply(root).catch((e) => e);
  assert.equal(err?.code, "GIT_BUSY");
  assert.match(err.message, /middle of a merge/);
  assert.ok(await pathExists(join(root, "runs/old-1/report.md")));
  await git(root, ["merge", "--abort"]);

  for (
    const marker of [
      "rebase-merge/",
      "rebase-apply/",
      "CHERRY_PICK_HEAD",
      "REVERT_HEAD",
      "BISECT_LOG",
    ]
  ) {
    const path = join(root, ".git", marker);
    if (marker.endsWith("/")) await Deno.mkdir(path);
    else await Deno.writeTextFile(path, "x\n");
    const busy = await apply(root).catch((e) => e);
    assert.equal(busy?.code, "GIT_BUSY", marker);
    await Deno.remove(path, { recursive: true });
  }
  assert.ok(await pathExists(join(root, "runs/old-1/report.md")));
});

Deno.test("apply: a directory unit with one modified file needs --confirm, saying its edits are lost; confirmed, it goes in the one commit, and the result says the edits are gone for good", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, { "runs/old-1/report.md": "# old 1, edited\n" });

  const first = await apply(root);
  assert.ok(!first.applied.some((a) => a.path === "runs/old-1/"));
  assert.deepEqual(first.skipped, [{ path: "runs/old-1/", reason: "needs --confirm runs/old-1/" }]);
  assert.equal(await Deno.readTextFile(join(root, "runs/old-1/report.md")), "# old 1, edited\n");

  const second = await apply(root, { confirm: ["runs/old-1/"] });
  const candidate = second.candidates.find((c) => c.path === "runs/old-1/");
  assert.match(candidate?.reason ?? "", /uncommitted changes, lost for good if deleted/);
  assert.deepEqual(second.applied, [{
    path: "runs/old-1/",
    how: "git rm (uncommitted changes discarded: no revert gives them back)",
  }]);
  assert.ok(!(await pathExists(join(root, "runs/old-1"))));
  const changes = await git(root, ["show", "--name-status", "--format=", "HEAD"]);
  assert.deepEqual(changes.trim().split("\n").sort(), [
    "D\truns/old-1/data/metrics.csv",
    "D\truns/old-1/report.md",
  ]);
});

Deno.test("apply: a confirmed unit holding a file staged but never committed says so: no revert gives it back", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, { "runs/old-1/analysis.md": "# only staged\n" });
  await git(root, ["add", "runs/old-1/analysis.md"]);
  const result = await apply(root, { confirm: ["runs/old-1/"] });
  assert.deepEqual(result.applied.find((a) => a.path === "runs/old-1/"), {
    path: "runs/old-1/",
    how: "git rm (1 staged file never committed: no revert gives it back)",
  });
});

Deno.test("apply: untracked units are removed only when confirmed, and after the commit", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    "runs/scratch-a/out.md": "a\n",
    "runs/scratch-b/out.md": "b\n",
    "runs/old-2/extra-untracked.md": "extra\n",
  });
  const past = new Date("2026-11-02T00:00:00Z");
  for (
    const p of [
      "runs/scratch-a/out.md",
      "runs/scratch-a",
      "runs/scratch-b/out.md",
      "runs/scratch-b",
    ]
  ) {
    await Deno.utime(join(root, p), past, past);
  }
  const result = await apply(root, { confirm: ["runs/scratch-a/", "runs/old-2/"] });
  const applied = Object.fromEntries(result.applied.map((a) => [a.path, a.how]));
  assert.equal(applied["runs/scratch-a/"], "removed (untracked)");
  // Its untracked file was in no commit: gone for good, and the result says so.
  assert.equal(
    applied["runs/old-2/"],
    "git rm (uncommitted changes discarded: no revert gives them back)",
  );
  assert.ok(!(await pathExists(join(root, "runs/scratch-a"))));
  assert.ok(!(await pathExists(join(root, "runs/old-2"))));
  assert.ok(await pathExists(join(root, "runs/scratch-b/out.md")));
  assert.deepEqual(
    result.skipped.find((s) => s.path === "runs/scratch-b/"),
    { path: "runs/scratch-b/", reason: "needs --confirm runs/scratch-b/" },
  );
});

Deno.test("apply: hostile names — each deletion touches only its own path", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const names = [
    "*",
    "[1]",
    ":(exclude)x",
    "-rf",
    "a b",
    "a",
    "ab",
    "line\nbreak",
    "ünï €",
    "--",
    ".",
  ];
  const files: Record<string, string> = { ".gitignore": ".dochygiene/\n" };
  for (const name of names.filter((n) => n !== ".")) files[`runs/${name}/f.md`] = `${name}\n`;
  files["runs/zz-newest/f.md"] = "new\n";
  await commitFiles(root, files, OLD);
  await commitFiles(root, { "runs/zz-newest/f.md": "newer\n" }, RECENT);
  // Only these units may go: the others (`a b`, `ab`, `--`) are protected here.
  const doomed = new Set(
    ["*", "[1]", "-rf", "a", ":(exclude)x", "line\nbreak", "ünï €"].map((n) => `runs/${n}/`),
  );
  await Deno.mkdir(join(root, ".dochygiene"));
  const result = await apply(root, {
    protect: (p) => {
      if (p.startsWith(".dochygiene/")) return "excluded";
      const unit = p.split("/").slice(0, 2).join("/") + "/";
      return p.startsWith("runs/") && !doomed.has(unit) && unit !== "runs/zz-newest/"
        ? "ignored (test)"
        : undefined;
    },
  });
  assert.deepEqual(result.applied.map((a) => a.path).sort(), [...doomed].sort());
  for (const name of names.filter((n) => n !== ".")) {
    const gone = doomed.has(`runs/${name}/`);
    assert.equal(await pathExists(join(root, "runs", name, "f.md")), !gone, name);
  }
  const deleted = (await git(root, ["show", "--name-only", "-z", "--format=", "HEAD"]))
    .split("\0").filter(Boolean).sort();
  assert.deepEqual(deleted, [...doomed].map((u) => `${u}f.md`).sort());
  await git(root, ["fsck", "--no-progress", "--strict"]);
});

Deno.test("apply: a symlink inside a deleted directory that points outside the root — nothing outside is touched", async () => {
  await using outside = await tempDir();
  await writeFiles(outside.path, { "precious.txt": "keep me\n", "dir/inner.txt": "me too\n" });
  await using repo = await fixture();
  const root = repo.path;
  await Deno.symlink(join(outside.path, "precious.txt"), join(root, "runs/old-2/link-file"));
  await Deno.symlink(join(outside.path, "dir"), join(root, "runs/old-2/link-dir"));
  await git(root, ["add", "runs/old-2"]);
  await git(root, ["commit", "-q", "-m", "links"], {
    GIT_COMMITTER_DATE: OLD,
    GIT_AUTHOR_DATE: OLD,
  });
  // An untracked link too, in an untracked unit.
  await Deno.mkdir(join(root, "runs/untracked"));
  await Deno.symlink(join(outside.path, "dir"), join(root, "runs/untracked/link"));
  const past = new Date("2026-11-02T00:00:00Z");
  await Deno.utime(join(root, "runs/untracked"), past, past);

  const result = await apply(root, { confirm: ["runs/untracked/"] });

  assert.ok(result.applied.some((a) => a.path === "runs/old-2/"));
  assert.ok(result.applied.some((a) => a.path === "runs/untracked/"));
  assert.ok(!(await pathExists(join(root, "runs/old-2"))));
  assert.ok(!(await pathExists(join(root, "runs/untracked"))));
  assert.equal(await Deno.readTextFile(join(outside.path, "precious.txt")), "keep me\n");
  assert.equal(await Deno.readTextFile(join(outside.path, "dir/inner.txt")), "me too\n");
});

Deno.test("apply: nothing approved changes nothing and makes no commit", async () => {
  await using repo = await fixture();
  const root = repo.path;
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();
  const result = await apply(root, {
    rules: "rules:\n  - {match: 'docs/*.md', lifetime: temporary}\n",
  });
  assert.equal(result.commit, null);
  assert.deepEqual(result.applied, []);
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
});

Deno.test("apply: a unit holding a file governed by a keep rule is never deleted", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await commitFiles(root, { "runs/old-2/KEEP.md": "precious\n" }, OLD);
  const result = await apply(root, {
    rules: RULES + `  - match: "**/KEEP.md"\n    lifetime: keep\n`,
  });
  assert.ok(!result.applied.some((a) => a.path === "runs/old-2/"));
  assert.match(
    result.kept.find((k) => k.path === "runs/old-2/")!.reason,
    /contains runs\/old-2\/KEEP\.md, which is governed as runs\/old-2\/KEEP\.md/,
  );
  assert.ok(await pathExists(join(root, "runs/old-2/report.md")));
});

Deno.test("apply: git processes do not grow with the number of units", async () => {
  // Counted through a PATH shim that logs each git call.
  await using shim = await tempDir();
  const log = join(shim.path, "calls.log");
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout,
  ).trim();
  await Deno.writeTextFile(
    join(shim.path, "git"),
    `#!/bin/sh\necho x >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(join(shim.path, "git"), 0o755);
  const counts: number[] = [];
  for (const n of [3, 30]) {
    await using repo = await tempRepo();
    const files: Record<string, string> = { ".gitignore": ".dochygiene/\n" };
    // Dated names: one commit gives them equal ages, and their dates rank them (else: confirm).
    for (let i = 0; i < n; i++) {
      const day = new Date(Date.UTC(2026, 8, 1) + i * 86_400_000).toISOString().slice(0, 10);
      files[`runs/${day}-r/a.md`] = `${i}\n`;
    }
    await commitFiles(repo.path, files, OLD);
    await Deno.mkdir(join(repo.path, ".dochygiene"));
    await Deno.writeTextFile(log, "");
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", `${shim.path}:${path}`);
    try {
      const result = await apply(repo.path);
      assert.equal(result.applied.length, n - 1);
    } finally {
      Deno.env.set("PATH", path!);
    }
    counts.push((await Deno.readTextFile(log)).split("\n").filter(Boolean).length);
  }
  assert.equal(counts[0], counts[1], `git calls: ${counts.join(" vs ")}`);
});

Deno.test("property: for random rulebooks and trees, nothing outside the applied candidates disappears and git fsck stays clean", async () => {
  const NAMES = ["a", "b b", "[1]", "*", "-x", ":(exclude)y", "ü", "n\nl", "c.md", "d.txt"];
  const POOL = [
    `{match: "runs/*/", lifetime: temporary, retain_recent: RR, max_age_days: MA}`,
    `{match: "notes/*.md", lifetime: temporary, retain_recent: RR, max_age_days: MA}`,
    `{match: "notes/**/", lifetime: temporary, retain_recent: RR, max_age_days: MA}`,
    `{match: "runs/*/keep*", lifetime: keep}`,
    `{match: "docs/**", lifetime: keep}`,
    `{match: "changes/*/", lifetime: delete-once-served, served_when_path: "changes/archive/{name}/"}`,
    `{match: "runs/**/*.md", lifetime: temporary, retain_recent: RR, max_age_days: MA}`,
  ];
  for (let seed = 1; seed <= 30; seed++) {
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const rules = POOL.filter(() => rand() < 0.5).map((r) =>
      r.replace("RR", String(Math.floor(rand() * 3))).replace("MA", String(Math.floor(rand() * 10)))
    );
    await using repo = await tempRepo();
    const root = repo.path;
    await Deno.mkdir(join(root, ".dochygiene"));
    const tree: Record<string, string> = { ".gitignore": ".dochygiene/\n" };
    const tops = ["runs", "notes", "docs", "changes", "changes/archive"];
    for (let i = 0; i < 25; i++) {
      const depth = 1 + Math.floor(rand() * 2);
      const parts = [pick(tops)];
      for (let d = 0; d < depth; d++) parts.push(pick(NAMES));
      tree[`${parts.join("/")}/${pick(NAMES)}.md`] = `${seed}-${i}\n`;
    }
    // Commit in a few backdated batches, then leave some changes uncommitted.
    const paths = Object.keys(tree);
    for (let batch = 0; batch < 2; batch++) {
      const part = Object.fromEntries(
        paths.filter((_, i) => i % 2 === batch).map((p) => [p, tree[p]]),
      );
      if (Object.keys(part).length === 0) continue;
      const day = String(1 + Math.floor(rand() * 28)).padStart(2, "0");
      await commitFiles(root, part, `2026-11-${day}T10:00:00Z`);
    }
    const extra: Record<string, string> = {};
    for (const p of paths) {
      const r = rand();
      if (r < 0.1) extra[p] = "modified\n";
      else if (r < 0.15) extra[`${p}.new.md`] = "untracked\n";
    }
    await writeFiles(root, extra);
    const listed = async () =>
      (await git(root, ["ls-files", "-z", "-co", "--exclude-standard"])).split("\0").filter(
        Boolean,
      );
    const before = new Map<string, string>();
    for (const p of await listed()) before.set(p, await Deno.readTextFile(join(root, p)));
    const config = `rules:\n${rules.map((r) => `  - ${r}`).join("\n")}\n`;
    // Confirm a random half of whatever the rules offer.
    const { rules: parsed } = parseConfig(config);
    const units = (await collectUnits(root, { rules: parsed, protect: () => undefined })).units;
    const offered = planPrune(
      dryRunInput(units, NOW, { existing: existingPathsOf(await listed()) }),
    );
    const confirm = offered.candidates.filter(() => rand() < 0.5).map((c) => c.path);
    const result = await apply(root, { rules: config, confirm });
    const applied = result.applied.map((a) => a.path);
    const offeredPaths = new Set(offered.candidates.map((c) => c.path));
    for (const a of applied) {
      assert.ok(offeredPaths.has(a), `seed ${seed}: ${a} was not a candidate`);
    }
    const inApplied = (p: string) =>
      applied.some((u) => (u.endsWith("/") ? p.startsWith(u) : p === u));
    for (const [p, content] of before) {
      if (inApplied(p)) {
        assert.ok(!(await pathExists(join(root, p))), `seed ${seed}: ${p} should be gone`);
      } else {
        assert.equal(await Deno.readTextFile(join(root, p)), content, `seed ${seed}: ${p} changed`);
      }
    }
    if (result.commit !== null) {
      const status = await git(root, ["show", "--name-status", "-z", "--format=", "HEAD"]);
      const fields = status.split("\0").filter(Boolean);
      for (let i = 0; i < fields.length; i += 2) {
        assert.equal(fields[i], "D", `seed ${seed}`);
        assert.ok(inApplied(fields[i + 1]), `seed ${seed}: committed ${fields[i + 1]}`);
      }
    }
    await git(root, ["fsck", "--no-progress", "--strict"]);
  }
});

Deno.test("apply: a unit holding a file git is told to ignore changes to (assume-unchanged) is skipped, its local edit kept", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, { "runs/old-2/report.md": "precious local edit\n" });
  await git(root, ["update-index", "--assume-unchanged", "runs/old-2/report.md"]);

  const result = await apply(root);

  assert.deepEqual(result.applied.map((a) => a.path), ["notes/old.md", "runs/old-1/"]);
  assert.equal(result.skipped.length, 1);
  assert.equal(result.skipped[0].path, "runs/old-2/");
  assert.match(result.skipped[0].reason, /runs\/old-2\/report\.md.*assume-unchanged/);
  assert.equal(
    await Deno.readTextFile(join(root, "runs/old-2/report.md")),
    "precious local edit\n",
  );
  assert.equal((await git(root, ["ls-files", "runs/old-2"])).trim(), "runs/old-2/report.md");
});

Deno.test("apply: a unit outside the sparse checkout (skip-worktree) is skipped, never reported as deleted", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await git(root, ["sparse-checkout", "set", "--no-cone", "/*", "!/runs/old-1/"]);

  const result = await apply(root);

  assert.deepEqual(result.applied.map((a) => a.path), ["notes/old.md", "runs/old-2/"]);
  assert.deepEqual(result.skipped.map((s) => s.path), ["runs/old-1/"]);
  assert.match(result.skipped[0].reason, /skip-worktree/);
  const changes = await git(root, ["show", "--name-status", "--format=", "HEAD"]);
  assert.deepEqual(changes.trim().split("\n").sort(), [
    "D\tnotes/old.md",
    "D\truns/old-2/report.md",
  ]);
  assert.deepEqual((await git(root, ["ls-files", "runs/old-1"])).trim().split("\n"), [
    "runs/old-1/data/metrics.csv",
    "runs/old-1/report.md",
  ]);
});

Deno.test("apply: files git ignores inside a deleted directory stay, and the result says so", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    ".git/info/exclude": "*.log\n",
    "runs/old-1/train.log": "not in git: cannot be given back\n",
  });

  const result = await apply(root);

  assert.ok(result.applied.some((a) => a.path === "runs/old-1/"));
  assert.equal(
    await Deno.readTextFile(join(root, "runs/old-1/train.log")),
    "not in git: cannot be given back\n",
  );
  assert.ok(
    result.warnings.some((w) => w.startsWith("runs/old-1/ still holds files prune did not delete")),
    result.warnings.join("\n"),
  );
  assert.ok(!result.warnings.some((w) => w.startsWith("runs/old-2/")));
});

Deno.test("apply: temp files left by a prune killed before its journal are cleaned up by the next apply", async () => {
  await using repo = await fixture();
  const root = repo.path;
  await writeFiles(root, {
    ".dochygiene/prune-999-deadbeef.backup.index": "leftover",
    ".dochygiene/prune-999-deadbeef.commit.index.lock": "leftover",
  });

  await apply(root);

  assert.deepEqual([...Deno.readDirSync(join(root, ".dochygiene"))], []);
});

// The whole cycle of docs/walkthrough.md in a real repository (the demo's
// sample), each seam a subprocess with exactly its permission flags, run from
// the root at a pinned clock: reminder banner, scan, report, silent reminder,
// prune dry run, prune --yes (one commit), git revert.

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildSampleRepo, sampleReport } from "../../tools/demo.ts";
import { DENO, git, PACKAGE_DIR, runCommand, runSeam, tempDir } from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";
const env = { DOCHYGIENE_NOW: NOW };

const AUTO = ["autoresearch/run-01/", "autoresearch/run-02/", "openspec/changes/add-search/"];
const CONFIRM = [
  "docs/superpowers/plans/2026-08-03-search-rewrite.md",
  "docs/superpowers/specs/2026-08-03-search-rewrite-design.md",
];

interface Candidate {
  path: string;
  tier: string;
}

async function tracked(root: string, rev: string): Promise<string[]> {
  return (await git(root, ["ls-tree", "-r", "--name-only", rev])).trim().split("\n");
}

Deno.test("the walkthrough: banner, scan, report, silence, dry run, one hygiene commit, revert", async () => {
  await using tmp = await tempDir("dochygiene-e2e-");
  const { root } = await buildSampleRepo(join(tmp.path, "sample"), new Date(NOW));
  const payload = JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: root });

  // 1. A session starts: the reminder shows its banner (never checked).
  const banner = await runSeam("remind", [], { cwd: root, env, stdin: payload });
  assert.equal(banner.code, 0);
  assert.equal(banner.stderr, "");
  const hook = JSON.parse(banner.stdout);
  assert.match(hook.systemMessage, /never/);
  assert.match(hook.systemMessage, /\/dochygiene:check/);
  assert.equal(hook.hookSpecificOutput.hookEventName, "SessionStart");

  // 2. The scan shortlists the docs, never the CHANGELOG or the frozen page.
  const scanRun = await runSeam("scan", ["--format", "json"], { cwd: root, env });
  assert.equal(scanRun.code, 0, scanRun.stderr);
  const scan = JSON.parse(scanRun.stdout);
  for (
    const doc of ["README.md", "docs/architecture.md", "docs/guide.md", ...CONFIRM]
  ) assert.ok(scan.shortlist.includes(doc), `${doc} shortlisted`);
  assert.equal(scan.shortlist.length, 14);
  for (const doc of ["CHANGELOG.md", "docs/release-process.md"]) {
    assert.ok(!scan.shortlist.includes(doc), `${doc} not shortlisted`);
  }
  const reasons = Object.fromEntries(
    scan.excluded.map((e: { path: string; reason: string }) => [e.path, e.reason]),
  );
  assert.equal(reasons["CHANGELOG.md"], "append_only");
  assert.equal(reasons["docs/release-process.md"], "frozen");
  const kinds = (path: string) => scan.signals[path].map((s: { kind: string }) => s.kind);
  assert.ok(kinds("docs/architecture.md").includes("missing_path"));
  assert.ok(kinds("README.md").includes("broken_link"));
  const age = scan.signals["docs/architecture.md"].find((s: { kind: string }) => s.kind === "age");
  assert.equal(age.days, 120);
  assert.equal(age.source, "git");

  // 3. The check skill's report goes through state.ts: one pair, last_check set.
  const report = await sampleReport(scan, new Date(NOW));
  const stored = await runSeam("state", ["report", "--format", "json"], {
    cwd: root,
    env,
    stdin: JSON.stringify(report),
  });
  assert.equal(stored.code, 0, stored.stderr);
  const names = [...Deno.readDirSync(join(root, ".dochygiene"))].map((e) => e.name).sort();
  const pair = names.filter((n) => n.startsWith("report-"));
  assert.deepEqual(pair, ["report-20261130T120000Z.json", "report-20261130T120000Z.md"]);
  const show = JSON.parse((await runSeam("state", ["show"], { cwd: root, env })).stdout);
  assert.equal(show.state.last_check, NOW);
  assert.equal(show.stale, false);

  // 4. The next session: silence.
  const silent = await runSeam("remind", [], { cwd: root, env, stdin: payload });
  assert.equal(silent.code, 0);
  assert.equal(silent.stdout, "");
  assert.equal(silent.stderr, "");

  // 5. The dry run: expected candidates and tiers, nothing changed.
  const head = (await git(root, ["rev-parse", "HEAD"])).trim();
  const dryRun = await runSeam("prune", ["--format", "json"], { cwd: root, env });
  assert.equal(dryRun.code, 0, dryRun.stderr);
  const plan = JSON.parse(dryRun.stdout);
  assert.equal(plan.mode, "dry-run");
  const tiers = Object.fromEntries(plan.candidates.map((c: Candidate) => [c.path, c.tier]));
  assert.deepEqual(
    tiers,
    Object.fromEntries([...AUTO.map((p) => [p, "auto"]), ...CONFIRM.map((p) => [p, "confirm"])]),
  );
  const kept = plan.kept.map((k: { path: string }) => k.path);
  for (const run of ["autoresearch/run-03/", "autoresearch/run-04/", "autoresearch/run-05/"]) {
    assert.ok(kept.includes(run), `${run} kept by retain_recent`);
  }
  assert.ok(
    plan.dangling.some((d: { from: string; to: string }) =>
      d.from === "README.md" && d.to.startsWith("autoresearch/run-01/")
    ),
    "README's link into run-01 is dangling",
  );
  assert.ok(
    plan.dangling.some((d: { from: string; to: string }) =>
      d.from === "docs/architecture.md" && d.to === CONFIRM[0]
    ),
    "the architecture page's link to the plan is dangling",
  );
  assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), head);
  assert.equal(await git(root, ["status", "--porcelain"]), "");

  // 6. --yes: exactly one commit, deleting exactly the auto-tier units.
  const before = await tracked(root, "HEAD");
  const applied = await runSeam("prune", ["--yes", "--format", "json"], { cwd: root, env });
  assert.equal(applied.code, 0, applied.stderr);
  const result = JSON.parse(applied.stdout);
  assert.equal(result.mode, "apply");
  assert.equal(result.commit, (await git(root, ["rev-parse", "HEAD"])).trim());
  assert.equal((await git(root, ["rev-parse", "HEAD~1"])).trim(), head);
  const deleted = before.filter((p) => AUTO.some((unit) => p.startsWith(unit)));
  const changes = (await git(root, ["show", "--name-status", "--format=", "HEAD"])).trim()
    .split("\n").sort();
  assert.deepEqual(changes, deleted.map((p) => `D\t${p}`).sort());
  for (const doc of CONFIRM) assert.ok((await Deno.stat(join(root, doc))).isFile);
  assert.equal(await git(root, ["status", "--porcelain"]), "");
  const message = await git(root, ["log", "-1", "--format=%B"]);
  for (const unit of AUTO) assert.ok(message.includes(unit), `commit message names ${unit}`);

  // 7. git revert of the hygiene commit restores every deleted file.
  await git(root, ["revert", "--no-edit", "HEAD"]);
  assert.deepEqual(await tracked(root, "HEAD"), before);
  assert.equal(await git(root, ["diff", "--stat", head, "HEAD"]), "");
});

Deno.test("deno task demo narrates every step and leaves the sample repository", async () => {
  await using tmp = await tempDir("dochygiene-demo-");
  const dir = join(tmp.path, "sample");
  const out = await new Deno.Command(DENO, {
    args: ["task", "--quiet", "demo", "--dir", dir],
    cwd: PACKAGE_DIR,
    env: { DOCHYGIENE_NOW: NOW, NO_COLOR: "1", CI: "true" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr + stdout);
  for (let step = 1; step <= 9; step++) assert.match(stdout, new RegExp(`^${step}\\. `, "m"));
  assert.ok(stdout.includes(`The sample repository stays at ${dir}`));
  assert.match(stdout, /\/dochygiene:check/);
  const log = await git(dir, ["log", "--format=%s"]);
  assert.equal(log.trim().split("\n").length, 11, "ten sample commits and the hygiene commit");
});

/** Runs `deno task demo --dir <dir>/sample` with `npm_command` as npx sets it (or unset). */
async function _demo(dir: string, npmCommand: string): Promise<string> {
  const run = await runCommand(DENO, ["task", "--quiet", "demo", "--dir", join(dir, "sample")], {
    cwd: PACKAGE_DIR,
    env: { DOCHYGIENE_NOW: NOW, NO_COLOR: "1", CI: "true", npm_command: npmCommand },
  });
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const lines = run.stdout.split("\n");
  return lines[lines.findIndex((l) => l.trim().startsWith("Scan it again")) + 1].trim();
}

Deno.test("the demo's closing scan command runs as printed; started through npx, it says npx", async () => {
  await using tmp = await tempDir("dochygiene-demo-");
  // Deno on PATH (a reader with Deno installed): the printed line runs as is.
  const line = await _demo(tmp.path, "");
  assert.match(line, /^deno run --config /);
  const bin = join(tmp.path, "bin");
  await Deno.mkdir(bin);
  await Deno.symlink(DENO, join(bin, "deno"));
  const scan = await runCommand("sh", ["-c", line], {
    cwd: join(tmp.path, "sample"),
    env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`, NO_COLOR: "1" },
  });
  assert.equal(scan.code, 0, scan.stderr);
  assert.match(scan.stdout, /dochygiene scan — /);
  // `npx -y deno@… task demo` (the Quick start): no deno on the reader's PATH.
  await using tmp2 = await tempDir("dochygiene-demo-");
  const npx = await _demo(tmp2.path, "exec");
  assert.ok(npx.startsWith(`npx -y deno@${Deno.version.deno} run --config `), npx);
  assert.equal(npx.slice(npx.indexOf(" run ")), line.slice(line.indexOf(" run ")));
});

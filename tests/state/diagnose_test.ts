import assert from "node:assert/strict";
import { fixedClock } from "../../lib/core/clock.ts";
import { diagnose, GITIGNORE_LINE } from "../../lib/state/diagnose.ts";
import { ensureStateDir } from "../../lib/state/state_dir.ts";
import { git, tempDir, tempRepo, writeFiles } from "../support/helpers.ts";

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
  assert.deepEqual(d.gitignore, {
    ignored: true,
    tracked: false,
    line: ".dochygiene/",
    error: null,
  });
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
  assert.deepEqual(d.gitignore, {
    ignored: null,
    tracked: null,
    line: ".dochygiene/",
    error: null,
  });
  assert.equal(d.healthy, true);
});

Deno.test("no write permission is reported as a problem, not thrown", {
  permissions: { read: true, run: ["git"], env: true, write: false },
}, async () => {
  const d = await diagnose(Deno.cwd());
  assert.equal(d.state_dir.writable, false);
  assert.ok(d.problems.some((p) => p.startsWith("no write permission for ")));
});

Deno.test("times later than now plus five minutes are a problem naming mark-checked; five minutes is slack", async () => {
  await using repo = await tempRepo();
  const now = new Date("2026-11-30T03:36:18.000Z");
  const soon = new Date(now.getTime() + 5 * 60_000).toISOString();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: soon,
      clock_watermark: "2099-01-01T00:00:00.000Z",
    }),
  });
  const d = await diagnose(repo.path, { clock: fixedClock(now) });
  assert.deepEqual(d.future_times, ["clock_watermark"]);
  assert.deepEqual(d.problems, [
    `${repo.path}/.dochygiene/state.json holds times later than now (2026-11-30T03:36:18.000Z): clock_watermark 2099-01-01T00:00:00.000Z (clock_watermark defers prune); if the clock is right, run state.ts mark-checked (it resets them to now)`,
  ]);
  assert.equal(d.healthy, false);
  // Each says what it does: a future last_reminded does nothing but mislead.
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: "2099-01-01T00:00:00.000Z",
      last_reminded: "2099-01-01T00:00:00.000Z",
    }),
  });
  const again = await diagnose(repo.path, { clock: fixedClock(now) });
  assert.match(
    again.problems[0],
    /last_reminded 2099-01-01T00:00:00\.000Z \(last_check silences the reminder\); /,
  );
});

Deno.test("temp files of interrupted writes are listed as a problem, not a write in flight; nothing is removed", async () => {
  await using repo = await tempRepo();
  const hourAgo = Date.now() - 3_600_000;
  const temps = [`.scan.json.tmp-4242-${hourAgo}-3`, `.state.json.tmp-4241-${hourAgo}-0`];
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene/state.json": '{"schema_version": 1}',
    ".dochygiene/state.json.tmp-notes": "not an atomic-write temp file",
    // Another command's write, an instant old: not left behind.
    [`.dochygiene/.state.json.tmp-4243-${Date.now()}-0`]: "{",
    ...Object.fromEntries(temps.map((t) => [`.dochygiene/${t}`, "{"])),
  });
  const d = await diagnose(repo.path);
  assert.deepEqual(d.leftover_temps, temps);
  assert.deepEqual(d.problems, [
    `${repo.path}/.dochygiene holds 2 temp file(s) of interrupted writes (${
      temps.join(", ")
    }): delete them while no dochygiene command runs (the next state write removes those of state.json)`,
  ]);
  const names = (await Array.fromAsync(Deno.readDir(`${repo.path}/.dochygiene`))).map((e) =>
    e.name
  );
  assert.equal(names.length, 5);
});

Deno.test("doctor's write probe leaves nothing behind, and removes one a killed doctor left", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene/state.json": '{"schema_version": 1}',
    ".dochygiene/.doctor-probe": "",
  });
  const d = await diagnose(repo.path);
  assert.equal(d.state_dir.writable, true);
  assert.deepEqual(d.problems, []);
  const names = (await Array.fromAsync(Deno.readDir(`${repo.path}/.dochygiene`))).map((e) =>
    e.name
  );
  assert.deepEqual(names, ["state.json"]);
});

Deno.test("a git that fails in a repository is reported with its reason, apart from no repository", async () => {
  await using repo = await tempRepo();
  await Deno.remove(`${repo.path}/.git`, { recursive: true });
  await writeFiles(repo.path, { ".git": "gitdir: /nonexistent/worktree\n" });
  const d = await diagnose(repo.path);
  assert.equal(d.git_repository, true);
  assert.equal(d.gitignore.ignored, null);
  // The reason is git's own (runGit words it); here it only has to be there.
  assert.match(d.gitignore.error ?? "", /git/);
  assert.ok(d.problems.includes(d.gitignore.error ?? ""));
});

Deno.test("a report dated later than now is a problem: prune does not use its judgments", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene/report-20261205T000002Z.json": JSON.stringify({
      schema_version: 1,
      generated_at: "2026-12-05T00:00:00Z",
      scan_generated_at: "2026-12-05T00:00:00Z",
      entries: [],
    }),
    ".dochygiene/report-20261205T000002Z.md": "# report\n",
  });
  const d = await diagnose(repo.path, { clock: fixedClock(new Date("2026-11-30T03:36:18.000Z")) });
  assert.equal(d.healthy, false);
  assert.ok(
    d.problems.some((p) =>
      /report-20261205T000002Z\.json is dated 2026-12-05T00:00:00Z, later than now .*run \/dochygiene:check again$/
        .test(p)
    ),
    d.problems.join("\n"),
  );
  const later = await diagnose(repo.path, {
    clock: fixedClock(new Date("2026-12-06T00:00:00.000Z")),
  });
  assert.equal(later.healthy, true, later.problems.join("\n"));
});

Deno.test("a state directory with its own .gitignore is ignored by git, the project's .gitignore untouched; a re-included file is not", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": "node_modules/\n" });
  await ensureStateDir(repo.path);
  const d = await diagnose(repo.path);
  assert.deepEqual(d.problems, []);
  assert.equal(d.gitignore.ignored, true);
  assert.equal(await Deno.readTextFile(`${repo.path}/.gitignore`), "node_modules/\n");
  // doctor reports what git sees: a rule that re-includes a state file is a problem again.
  await Deno.writeTextFile(`${repo.path}/.dochygiene/.gitignore`, "*\n!state.json\n");
  assert.equal((await diagnose(repo.path)).gitignore.ignored, false);
});

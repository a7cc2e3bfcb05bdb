// `state.ts` driven as a user and as the check skill would: real temporary
// git repositories, the script run with exactly its documented flags.

import assert from "node:assert/strict";
import { VERSION } from "../../lib/core/version.ts";
import {
  assertSeamError,
  entryNames,
  PACKAGE_DIR,
  runSeam,
  type SeamRun,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T03:36:18.000Z";
const VALID = await Deno.readTextFile(`${PACKAGE_DIR}/fixtures/reports/valid/full.json`);

function state(args: string[], cwd: string, options: { now?: string; stdin?: string } = {}) {
  return runSeam("state", args, {
    cwd,
    env: { DOCHYGIENE_NOW: options.now ?? NOW },
    stdin: options.stdin,
  });
}

function ok(run: SeamRun) {
  assert.equal(run.stderr, "", run.stderr);
  assert.equal(run.code, 0);
  const out = JSON.parse(run.stdout);
  assert.equal(out.ok, true);
  return out;
}

function fails(run: SeamRun, exit: number, code: string, message: RegExp) {
  return assertSeamError("state", run, exit, code, message);
}

Deno.test("show on a fresh repository: never checked, stale, nothing written", async () => {
  await using repo = await tempRepo();
  const out = ok(await state(["show"], repo.path));
  assert.deepEqual(out, {
    ok: true,
    root: repo.path,
    state_dir: `${repo.path}/.dochygiene`,
    state_status: "missing",
    state: {
      schema_version: 1,
      last_check: null,
      last_reminded: null,
      last_prune: null,
      clock_watermark: null,
    },
    days_since_check: null,
    stale: true,
    threshold_days: 7,
    future_times: [],
  });
  assert.deepEqual(await entryNames(repo.path), [".git"]);
});

Deno.test("mark-checked sets last_check = now; show derives days and staleness from the threshold", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: 10\n" });
  const marked = ok(await state(["mark-checked"], repo.path, { now: "2026-11-18T03:00:00.000Z" }));
  assert.equal(marked.state.last_check, "2026-11-18T03:00:00.000Z");
  assert.equal(marked.kept_corrupt, null);
  let shown = ok(await state(["show"], repo.path, { now: "2026-11-28T02:59:59.999Z" }));
  assert.equal(shown.days_since_check, 9);
  assert.equal(shown.stale, false);
  shown = ok(await state(["show"], repo.path, { now: "2026-11-28T03:00:00.001Z" }));
  assert.equal(shown.days_since_check, 10);
  assert.equal(shown.stale, true);
  assert.equal(shown.threshold_days, 10);
});

Deno.test("mark-checked preserves keys it does not know", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: null,
      last_reminded: "2026-11-01T00:00:00.000Z",
      from_the_future: { x: [1, 2] },
    }),
  });
  ok(await state(["mark-checked"], repo.path));
  const saved = JSON.parse(await Deno.readTextFile(`${repo.path}/.dochygiene/state.json`));
  assert.deepEqual(saved.from_the_future, { x: [1, 2] });
  assert.equal(saved.last_reminded, "2026-11-01T00:00:00.000Z");
  assert.equal(saved.last_check, NOW);
});

Deno.test("report (stdin) writes the pair, sets last_check and prints the paths", async () => {
  await using repo = await tempRepo();
  const out = ok(await state(["report"], repo.path, { stdin: VALID }));
  const dir = `${repo.path}/.dochygiene`;
  assert.deepEqual(out, {
    ok: true,
    root: repo.path,
    state_dir: dir,
    report: {
      stamp: "20261130T033618Z",
      json: `${dir}/report-20261130T033618Z.json`,
      md: `${dir}/report-20261130T033618Z.md`,
    },
    entries: 7,
    removed: [],
    last_check: NOW,
    kept_corrupt: null,
  });
  assert.equal(
    await Deno.readTextFile(out.report.md),
    await Deno.readTextFile(`${PACKAGE_DIR}/fixtures/reports/valid/full.md`),
  );
  assert.deepEqual(JSON.parse(await Deno.readTextFile(out.report.json)).entries.length, 7);
  assert.equal(ok(await state(["show"], repo.path)).state.last_check, NOW);
});

Deno.test("report refuses a report dated after now (exit 2): prune would take a later change for a judged one", async () => {
  await using repo = await tempRepo();
  const fixes = {
    generated_at: "give the time the report was made",
    scan_generated_at: "copy the generated_at of the scan the report judged",
  };
  for (const [key, fix] of Object.entries(fixes)) {
    const future = JSON.stringify({ ...JSON.parse(VALID), [key]: "2030-01-01T00:00:00Z" });
    fails(
      await state(["report"], repo.path, { stdin: future }),
      2,
      "INVALID_REPORT",
      new RegExp(
        `: invalid report: ${key}: 2030-01-01T00:00:00Z is later than now \\(${
          NOW.replaceAll(".", "\\.")
        }\\); ${fix}`,
      ),
    );
  }
  assert.deepEqual(await entryNames(repo.path), [".git"]);
});

Deno.test("report refuses a report with a duplicate key (exit 2), naming its JSON path: JSON.parse would keep only the last", async () => {
  await using repo = await tempRepo();
  // The second safety_tier would silently win over the first.
  const dup = VALID.replace(
    /"safety_tier": "(\w+)",/,
    '"safety_tier": "never", "safety_tier": "$1",',
  );
  assert.notEqual(dup, VALID);
  fails(
    await state(["report"], repo.path, { stdin: dup }),
    2,
    "INVALID_REPORT",
    /: invalid report: entries\[0\]\.safety_tier: duplicate key; JSON keeps only the last, so write each key once per object$/,
  );
  assert.deepEqual(await entryNames(repo.path), [".git"]);
});

Deno.test("report --file, three times: rollover leaves exactly one pair, the newest", async () => {
  await using repo = await tempRepo();
  // Made before the first of the three runs: a report may not be dated after now.
  const made = { generated_at: "2026-10-31T00:00:00Z", scan_generated_at: "2026-10-31T00:00:00Z" };
  await writeFiles(repo.path, { "r.json": JSON.stringify({ ...JSON.parse(VALID), ...made }) });
  for (const now of ["2026-11-01T00:00:00Z", "2026-11-15T00:00:00Z", "2026-11-30T03:36:18Z"]) {
    ok(await state(["report", "--file", "r.json"], repo.path, { now }));
  }
  assert.deepEqual(await entryNames(`${repo.path}/.dochygiene`), [
    ".gitignore",
    "report-20261130T033618Z.json",
    "report-20261130T033618Z.md",
    "state.json",
  ]);
});

Deno.test("report three times in one second: each stamp is later than the last, and the newest pair is the one left", async () => {
  await using repo = await tempRepo();
  const stamps = [];
  for (
    const now of [
      "2026-11-30T03:36:18.100Z",
      "2026-11-30T03:36:18.200Z",
      "2026-11-30T03:36:18.300Z",
    ]
  ) {
    stamps.push(ok(await state(["report"], repo.path, { now, stdin: VALID })).report.stamp);
  }
  assert.deepEqual(stamps, ["20261130T033618Z", "20261130T033619Z", "20261130T033620Z"]);
  assert.deepEqual(await entryNames(`${repo.path}/.dochygiene`), [
    ".gitignore",
    "report-20261130T033620Z.json",
    "report-20261130T033620Z.md",
    "state.json",
  ]);
});

Deno.test("the same report renders byte-identical Markdown on every run", async () => {
  await using a = await tempRepo();
  await using b = await tempRepo();
  const ra = ok(await state(["report"], a.path, { stdin: VALID }));
  const rb = ok(await state(["report"], b.path, { stdin: VALID }));
  assert.deepEqual(await Deno.readFile(ra.report.md), await Deno.readFile(rb.report.md));
  assert.deepEqual(await Deno.readFile(ra.report.json), await Deno.readFile(rb.report.json));
});

Deno.test("text output names the files and facts", async () => {
  await using repo = await tempRepo();
  const r = await state(["report", "--format", "text"], repo.path, { stdin: VALID });
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /^wrote .*report-20261130T033618Z\.json\nwrote .*\.md\nlast_check set to 2026-11-30T03:36:18\.000Z\n$/,
  );
  const shown = await state(["show", "--format=text"], repo.path, { now: "2026-12-12T04:00:00Z" });
  assert.match(shown.stdout, /last check: +2026-11-30T03:36:18\.000Z \(12 days ago\)/);
  assert.match(shown.stdout, /stale: +yes \(threshold 7 days\)/);
});

Deno.test("--help lists the commands and options; --version prints the version", async () => {
  await using repo = await tempRepo();
  const help = await state(["--help"], repo.path);
  assert.equal(help.code, 0);
  for (
    const word of [
      "show",
      "mark-checked",
      "report",
      "doctor",
      "--file",
      "--root",
      "--format",
      "--version",
      "--allow-write=.dochygiene",
    ]
  ) {
    assert.ok(help.stdout.includes(word), word);
  }
  const version = await state(["--version"], repo.path);
  assert.deepEqual(version, { code: 0, stdout: `dochygiene state ${VERSION}\n`, stderr: "" });
});

Deno.test("usage errors exit 2 with one line: missing, unknown, extra command; bad flags", async () => {
  await using repo = await tempRepo();
  fails(
    await state([], repo.path),
    2,
    "USAGE",
    /missing command: use one of show, mark-checked, report, doctor/,
  );
  fails(await state(["prune"], repo.path), 2, "USAGE", /unknown command "prune"/);
  fails(await state(["show", "extra"], repo.path), 2, "USAGE", /unexpected argument "extra"/);
  fails(
    await state(["show", "--file", "x"], repo.path),
    2,
    "USAGE",
    /--file only applies to the report command/,
  );
  fails(await state(["show", "--bogus"], repo.path), 2, "USAGE", /--bogus/);
  fails(
    await state(["show", "--format", "xml"], repo.path),
    2,
    "USAGE",
    /--format must be json or text/,
  );
  fails(
    await state(["report", "--file", "missing.json"], repo.path),
    2,
    "INVALID_REPORT",
    /cannot read --file missing\.json/,
  );
  fails(
    await state(["show", "--root", "nope"], repo.path),
    2,
    "BAD_ROOT",
    /--root nope is not a directory/,
  );
  assert.deepEqual(await entryNames(repo.path), [".git"]);
});

Deno.test("--root resolves the root upward from a subdirectory for read-only commands", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/docs/deep`, { recursive: true });
  const out = ok(await state(["show", "--root", "docs/deep"], repo.path));
  assert.equal(out.root, repo.path);
  const fromSub = ok(await state(["show"], `${repo.path}/docs/deep`));
  assert.equal(fromSub.root, repo.path);
});

Deno.test("writes started from a subdirectory refuse with one line naming the root and the flag", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/docs`);
  for (const args of [["mark-checked"], ["report"]]) {
    const r = await state(args, `${repo.path}/docs`, { stdin: VALID });
    fails(
      r,
      1,
      "NO_WRITE_PERMISSION",
      new RegExp(`cd ${repo.path}\\).*--allow-write=\\.dochygiene`),
    );
  }
  assert.deepEqual(await entryNames(repo.path), [".git", "docs"]);
  assert.deepEqual(await entryNames(`${repo.path}/docs`), []);
});

Deno.test("doctor: healthy exits 0; without the .gitignore line exits 1 and prints it, editing nothing", async () => {
  await using repo = await tempRepo();
  let r = await state(["doctor"], repo.path);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `dochygiene state: doctor found 1 problem(s): .dochygiene/ is not ignored by git: add the line ".dochygiene/" to ${repo.path}/.gitignore\n`,
  );
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.healthy, false);
  assert.equal(out.error.code, "UNHEALTHY");
  assert.equal(out.gitignore.line, ".dochygiene/");
  assert.deepEqual(await entryNames(repo.path), [".git"], "doctor never edits .gitignore");
  const text = await state(["doctor", "--format", "text"], repo.path);
  assert.equal(text.code, 1);
  assert.ok(
    text.stdout.trimEnd().endsWith(`Add this line to ${repo.path}/.gitignore:\n\n.dochygiene/`),
  );
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n" });
  r = await state(["doctor"], repo.path);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.equal(JSON.parse(r.stdout).healthy, true);
});

Deno.test("doctor from a subdirectory reports the permission problem instead of crashing", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n", "docs/a.md": "a" });
  const r = await state(["doctor"], `${repo.path}/docs`);
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.equal(out.root, repo.path);
  assert.equal(out.state_dir.writable, false);
  assert.match(out.problems[0], /^no write permission for .*cd /);
});

Deno.test("doctor reports an invalid config as a problem (exit 1), naming the key", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    ".dochygiene.yml": "scope_globs: 3\n",
  });
  const r = await state(["doctor"], repo.path);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /scope_globs: must be a list of strings/);
  assert.equal(JSON.parse(r.stdout).config.valid, false);
});

const FUTURE = "2099-01-01T00:00:00.000Z";

Deno.test("show with times in the future says so: no negative day count", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: FUTURE,
      last_reminded: FUTURE,
      last_prune: null,
      clock_watermark: FUTURE,
    }),
  });
  const out = ok(await state(["show"], repo.path));
  assert.equal(out.days_since_check, 0);
  assert.equal(out.stale, false);
  assert.deepEqual(out.future_times, ["last_check", "last_reminded", "clock_watermark"]);
  const text = await state(["show", "--format", "text"], repo.path);
  assert.match(text.stdout, /^last check: +2099-01-01T00:00:00\.000Z \(in the future\)$/m);
  assert.match(text.stdout, /^last reminded: +2099-01-01T00:00:00\.000Z \(in the future\)$/m);
  assert.match(
    text.stdout,
    /^in the future: +last_check, last_reminded, clock_watermark \(now is 2026-11-30T03:36:18\.000Z\); if the clock is right, run mark-checked to reset them$/m,
  );
  assert.doesNotMatch(text.stdout, /-\d+ days ago/);
});

Deno.test("mark-checked resets times later than now plus five minutes to now, and keeps the others", async () => {
  await using repo = await tempRepo();
  const soon = new Date(Date.parse(NOW) + 5 * 60_000).toISOString();
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: FUTURE,
      last_reminded: soon,
      last_prune: "2026-11-01T00:00:00.000Z",
      clock_watermark: FUTURE,
    }),
  });
  const out = ok(await state(["mark-checked"], repo.path));
  assert.deepEqual(out.reset_future, ["last_check", "clock_watermark"]);
  assert.deepEqual(out.state, {
    schema_version: 1,
    last_check: NOW,
    last_reminded: soon,
    last_prune: "2026-11-01T00:00:00.000Z",
    clock_watermark: NOW,
  });
  const doctor = await state(["doctor"], repo.path);
  assert.doesNotMatch(doctor.stdout, /later than now/);
});

Deno.test("report sets last_check but leaves a future clock_watermark to mark-checked", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({ schema_version: 1, clock_watermark: FUTURE }),
  });
  ok(await state(["report"], repo.path, { stdin: VALID }));
  const shown = ok(await state(["show"], repo.path));
  assert.equal(shown.state.clock_watermark, FUTURE);
  assert.deepEqual(shown.future_times, ["clock_watermark"]);
});

Deno.test("doctor text tells a failing git apart from no git repository", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n" });
  await Deno.remove(`${repo.path}/.git`, { recursive: true });
  await writeFiles(repo.path, { ".git": "gitdir: /nonexistent/worktree\n" });
  const broken = await state(["doctor", "--format", "text"], repo.path);
  assert.equal(broken.code, 1);
  assert.match(broken.stdout, /^git ignores \.dochygiene\/: unknown: git failed \(.+\)$/m);
  assert.doesNotMatch(broken.stdout, /n\/a/);
  const json = JSON.parse((await state(["doctor"], repo.path)).stdout);
  assert.equal(json.git_repository, true);
  assert.equal(json.gitignore.ignored, null);
  assert.match(json.gitignore.error, /git/);
  await Deno.remove(`${repo.path}/.git`);
  const none = await state(["doctor", "--format", "text"], repo.path);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /^git ignores \.dochygiene\/: n\/a \(not a git repository\)$/m);
});

Deno.test("text output escapes control characters in the root (show, doctor)", async () => {
  await using repo = await tempRepo();
  const root = `${repo.path}/r\x1b[2J\u202ex`;
  await Deno.mkdir(`${root}/.git`, { recursive: true });
  for (const command of ["show", "doctor"]) {
    const run = await state([command, "--format", "text"], root);
    assert.match(run.stdout, /r\\x1b\[2J\\u202ex/, command);
    // deno-lint-ignore no-control-regex
    assert.equal(run.stdout.replace(/\n/g, "").match(/[\x00-\x1f\x7f-\x9f\u202e]/), null, command);
  }
});

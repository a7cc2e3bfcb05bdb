// Hostile input for `state.ts`: one clear line with the documented exit code,
// never a stack trace, never a half-written file, nothing lost.

import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import {
  assertSeamError,
  DENO,
  giveToUnprivileged,
  PACKAGE_DIR,
  runSeam,
  type SeamRun,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T03:36:18.000Z";
const VALID = await Deno.readTextFile(`${PACKAGE_DIR}/fixtures/reports/valid/full.json`);

function state(args: string[], cwd: string, stdin?: string, flags?: readonly string[]) {
  return runSeam("state", args, { cwd, env: { DOCHYGIENE_NOW: NOW }, stdin, flags });
}

function oneLine(run: SeamRun, exit: number, code: string, message: RegExp) {
  assertSeamError("state", run, exit, code, message);
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    out[e.name] = e.isFile ? await Deno.readTextFile(join(dir, e.name)) : "<dir>";
  }
  return out;
}

Deno.test("a symlinked .dochygiene pointing outside is refused; nothing is written outside", async () => {
  await using repo = await tempRepo();
  await using outside = await tempDir();
  await Deno.symlink(outside.path, `${repo.path}/.dochygiene`);
  for (
    const [args, stdin] of [[["mark-checked"]], [["report"], VALID], [["show"]]] as [
      string[],
      string?,
    ][]
  ) {
    oneLine(
      await state(args, repo.path, stdin),
      1,
      "STATE_DIR_SYMLINK",
      /\.dochygiene is a symlink/,
    );
  }
  const doctor = await state(["doctor"], repo.path);
  assert.equal(doctor.code, 1);
  assert.match(doctor.stderr, /is a symlink/);
  assert.deepEqual(await snapshot(outside.path), {});
});

Deno.test("a .dochygiene that is a regular file is refused and left as it was", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene": "my notes" });
  oneLine(
    await state(["mark-checked"], repo.path),
    1,
    "STATE_DIR_INVALID",
    /is not a directory; move it away/,
  );
  oneLine(await state(["show"], repo.path), 1, "STATE_DIR_INVALID", /is not a directory/);
  assert.equal(await Deno.readTextFile(`${repo.path}/.dochygiene`), "my notes");
});

Deno.test("a state.json that is a directory is refused with the fix, for reads and writes", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/.dochygiene/state.json`, { recursive: true });
  oneLine(
    await state(["show"], repo.path),
    1,
    "STATE_FILE_UNREADABLE",
    /state\.json is a directory: move it away/,
  );
  oneLine(await state(["mark-checked"], repo.path), 1, "STATE_FILE_UNREADABLE", /is a directory/);
  assert.ok((await Deno.lstat(`${repo.path}/.dochygiene/state.json`)).isDirectory);
});

Deno.test("report with a state.json that cannot be written fails before touching the previous pair", async () => {
  await using repo = await tempRepo();
  assert.equal((await state(["report"], repo.path, VALID)).code, 0);
  const before = await snapshot(`${repo.path}/.dochygiene`);
  await Deno.remove(`${repo.path}/.dochygiene/state.json`);
  await Deno.mkdir(`${repo.path}/.dochygiene/state.json`);
  const run = await runSeam("state", ["report"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: "2026-12-01T00:00:00.000Z" },
    stdin: VALID,
  });
  oneLine(run, 1, "STATE_FILE_UNREADABLE", /state\.json is a directory: move it away/);
  assert.deepEqual(await snapshot(`${repo.path}/.dochygiene`), {
    ...before,
    "state.json": "<dir>",
  });
});

Deno.test("a state.json that is a FIFO is refused at once as not a regular file (never opened, no hang)", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/.dochygiene`);
  const fifo = `${repo.path}/.dochygiene/state.json`;
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  for (const args of [["show"], ["mark-checked"]]) {
    // If the seam opens the FIFO, this writer's open completes and closing it ends the
    // seam's read, so a regression fails instead of hanging.
    let openedBySeam = false;
    const writer = Deno.open(fifo, { write: true }).then((f) => {
      openedBySeam = true;
      f.close();
    });
    const run = await state(args, repo.path);
    const seamOpenedIt = openedBySeam;
    if (!openedBySeam) (await Deno.open(fifo, { read: true })).close();
    await writer;
    assert.equal(seamOpenedIt, false, `${args[0]} opened the FIFO (it blocks without a writer)`);
    oneLine(run, 1, "STATE_FILE_UNREADABLE", /state\.json is not a regular file: move it away/);
  }
});

Deno.test("a corrupt state.json is kept aside byte for byte before a fresh one is written", async () => {
  await using repo = await tempRepo();
  const corrupt = '{"schema_version": 1, "last_check": "not a date", "notes": "keep me"}';
  await writeFiles(repo.path, { ".dochygiene/state.json": corrupt });
  const shown = await state(["show"], repo.path);
  assert.equal(JSON.parse(shown.stdout).state_status, "corrupt");
  assert.equal(
    await Deno.readTextFile(`${repo.path}/.dochygiene/state.json`),
    corrupt,
    "show never writes",
  );
  const r = await state(["mark-checked"], repo.path);
  assert.equal(r.code, 0, r.stderr);
  const aside = `${repo.path}/.dochygiene/state.json.corrupt-20261130T033618Z`;
  assert.equal(JSON.parse(r.stdout).kept_corrupt, aside);
  assert.equal(await Deno.readTextFile(aside), corrupt);
  const fresh = JSON.parse(await Deno.readTextFile(`${repo.path}/.dochygiene/state.json`));
  assert.equal(fresh.last_check, NOW);
});

Deno.test("an invalid report exits 2 naming the JSON path; the previous pair is untouched byte for byte", async () => {
  await using repo = await tempRepo();
  const first = await runSeam("state", ["report"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: "2026-11-30T04:00:00.000Z" },
    stdin: VALID,
  });
  assert.equal(first.code, 0, first.stderr);
  const before = await snapshot(`${repo.path}/.dochygiene`);
  const bad = JSON.parse(VALID);
  bad.entries[3].safety_tier = "sometimes";
  oneLine(
    await state(["report"], repo.path, JSON.stringify(bad)),
    2,
    "INVALID_REPORT",
    /entries\[3\]\.safety_tier: must be one of auto, confirm, never/,
  );
  for (const text of ["", "not json", "[]", '{"schema_version": 1}']) {
    oneLine(await state(["report"], repo.path, text), 2, "INVALID_REPORT", /report/);
  }
  assert.deepEqual(await snapshot(`${repo.path}/.dochygiene`), before);
});

Deno.test("an invalid report in a fresh repository creates nothing", async () => {
  await using repo = await tempRepo();
  const r = await state(["report"], repo.path, '{"schema_version": 1, "entries": "x"}');
  assert.equal(r.code, 2);
  assert.deepEqual(Object.keys(await snapshot(repo.path)), [".git"]);
});

Deno.test("a huge stdin fails fast with exit 2 once it passes the cap", async () => {
  await using repo = await tempRepo();
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--config=${PACKAGE_DIR}/deno.json`,
      ...PERMISSION_FLAGS.state,
      `${PACKAGE_DIR}/state.ts`,
      "report",
    ],
    cwd: repo.path,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
  // Up to 64 MiB; the child must stop reading after 16 MiB and exit, breaking the pipe.
  for (let i = 0; i < 64; i++) {
    if (!(await writer.write(chunk).then(() => true, () => false))) break;
  }
  await writer.close().catch(() => {});
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, stderr);
  assert.match(
    stderr,
    /^dochygiene state: the report on stdin is larger than 16777216 bytes; shorten it\n$/,
  );
});

Deno.test("a --file over the cap is refused without reading it all", async () => {
  await using repo = await tempRepo();
  const f = await Deno.open(`${repo.path}/big.json`, { write: true, create: true });
  await f.truncate(50 * 1024 * 1024);
  f.close();
  oneLine(
    await state(["report", "--file", "big.json"], repo.path),
    2,
    "INVALID_REPORT",
    /larger than 16777216 bytes/,
  );
});

Deno.test("a --file naming a FIFO with no writer is refused without opening it (no hang)", async () => {
  await using repo = await tempRepo();
  const fifo = `${repo.path}/report.fifo`;
  const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(mk.code, 0);
  // Opening a FIFO for writing completes only once a reader opens it: if the seam
  // opens the FIFO, this resolves (and the seam no longer hangs, so the test ends).
  let openedBySeam = false;
  const writer = Deno.open(fifo, { write: true }).then((f) => {
    openedBySeam = true;
    return f;
  });
  const run = await state(["report", "--file", "report.fifo"], repo.path);
  const seamOpenedIt = openedBySeam;
  // Pair the pending writer with a reader of our own so nothing is left blocked.
  const reader = await Deno.open(fifo, { read: true });
  (await writer).close();
  reader.close();
  assert.equal(seamOpenedIt, false, "the seam opened the FIFO (it blocks without a writer)");
  oneLine(run, 2, "INVALID_REPORT", /--file report\.fifo is not a regular file/);
});

Deno.test("a malformed .dochygiene.yml is exit 2 naming the key", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene.yml":
      "rules:\n  - match: docs/*.md\n    lifetime: temporary\n    max_age_days: -1\n",
  });
  oneLine(
    await state(["show"], repo.path),
    2,
    "INVALID_CONFIG",
    /\.dochygiene\.yml: rules\[0\]\.max_age_days: must be a number >= 0/,
  );
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: [\n" });
  oneLine(
    await state(["show"], repo.path),
    2,
    "INVALID_CONFIG",
    /\.dochygiene\.yml: is not valid YAML/,
  );
});

Deno.test("a config key with a newline and an escape sequence is still one terminal-safe stderr line", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene.yml": '"a\\nb\\u001b[31m": 1\n' });
  const r = await state(["show"], repo.path);
  assert.equal(r.code, 2);
  // One line, the key's newline and escape shown as \xNN (the list of keys grows with the config).
  assert.match(
    r.stderr,
    /^dochygiene state: \.dochygiene\.yml: a\\x0ab\\x1b\[31m: unknown key; allowed keys are threshold_days, [a-z_, ]+\n$/,
  );
});

Deno.test("a bad DOCHYGIENE_NOW is exit 2", async () => {
  await using repo = await tempRepo();
  const r = await runSeam("state", ["show"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: "tomorrow" },
  });
  oneLine(r, 2, "BAD_CLOCK", /DOCHYGIENE_NOW="tomorrow" is not an ISO-8601 instant/);
});

Deno.test("an unreadable state directory is one clear line, not a crash", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene/state.json": '{"schema_version": 1}' });
  // Technique 1, any user: Deno's sandbox denies the read.
  const denied = await state(["show"], repo.path, undefined, [
    ...PERMISSION_FLAGS.state,
    "--deny-read=.dochygiene",
  ]);
  oneLine(denied, 1, "NO_PERMISSION", /read access to ".*\.dochygiene(\/state\.json)?"/);
  // Technique 2, file modes: root reads through chmod 000, so only assert when the mode blocks us.
  await Deno.chmod(`${repo.path}/.dochygiene`, 0o000);
  try {
    const blocked = await Deno.readTextFile(`${repo.path}/.dochygiene/state.json`).then(
      () => false,
      () => true,
    );
    const r = await state(["show"], repo.path);
    if (blocked) oneLine(r, 1, "STATE_FILE_UNREADABLE", /state\.json cannot be read/);
    else {assert.equal(
        r.code,
        0,
        "running as root: the mode does not block reads, show must still work",
      );}
  } finally {
    await Deno.chmod(`${repo.path}/.dochygiene`, 0o755);
  }
});

Deno.test("a valid state.json over 1 MiB is corrupt: show says so, mark-checked moves it aside whole", async () => {
  await using repo = await tempRepo();
  const path = `${repo.path}/.dochygiene/state.json`;
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({
      schema_version: 1,
      last_check: NOW,
      pad: "x".repeat(4 * 1024 * 1024),
    }),
  });
  const { ino, size } = await Deno.stat(path);
  const shown = await state(["show"], repo.path);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).state_status, "corrupt");
  const marked = await state(["mark-checked"], repo.path);
  assert.equal(marked.code, 0, marked.stderr);
  const aside = `${repo.path}/.dochygiene/state.json.corrupt-20261130T033618Z`;
  assert.equal(JSON.parse(marked.stdout).kept_corrupt, aside);
  // Renamed, not copied: the same inode, every byte.
  const kept = await Deno.stat(aside);
  assert.deepEqual([kept.ino, kept.size], [ino, size]);
  assert.equal(JSON.parse(await Deno.readTextFile(path)).last_check, NOW);
});

Deno.test("a state.json time that is not ISO-8601 UTC with milliseconds is corrupt, whatever TZ", async () => {
  for (const time of ["1", "2026-11-30 10:00"]) {
    await using repo = await tempRepo();
    await writeFiles(repo.path, {
      ".dochygiene/state.json": JSON.stringify({ schema_version: 1, last_check: time }),
    });
    for (const TZ of ["UTC", "Pacific/Kiritimati"]) {
      const run = await runSeam("state", ["show"], {
        cwd: repo.path,
        env: { DOCHYGIENE_NOW: NOW, TZ },
      });
      const out = JSON.parse(run.stdout);
      assert.equal(out.state_status, "corrupt", `${time} in ${TZ}`);
      assert.equal(out.days_since_check, null);
    }
  }
});

Deno.test("a state.json nested 100,000 levels deep is corrupt: show and mark-checked still work", async () => {
  await using repo = await tempRepo();
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await writeFiles(repo.path, {
    ".dochygiene/state.json": `{"schema_version": 1, "last_check": null, "extra": ${deep}}`,
  });
  const shown = await state(["show"], repo.path);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).state_status, "corrupt");
  const marked = await state(["mark-checked"], repo.path);
  assert.equal(marked.code, 0, marked.stderr);
  assert.match(JSON.parse(marked.stdout).kept_corrupt, /state\.json\.corrupt-/);
  assert.equal((await state(["show"], repo.path)).code, 0);
});

Deno.test("a report whose signal nests 100,000 levels deep is exit 2, the previous pair untouched", async () => {
  await using repo = await tempRepo();
  assert.equal((await state(["report"], repo.path, VALID)).code, 0);
  const before = await snapshot(`${repo.path}/.dochygiene`);
  const report = JSON.parse(VALID);
  report.entries[0].signals = ["DEEP"];
  const deep = `{"kind": "age", "a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  await Deno.writeTextFile(
    `${repo.path}/deep.json`,
    JSON.stringify(report).replace('"DEEP"', deep),
  );
  oneLine(
    await state(["report", "--file", "deep.json"], repo.path),
    2,
    "INVALID_REPORT",
    /entries\[0\]\.signals\[0\]: must not nest objects or lists more than 64 levels deep/,
  );
  assert.deepEqual(await snapshot(`${repo.path}/.dochygiene`), before);
});

Deno.test("a .dochygiene.yml with two YAML documents says so plainly, naming the line", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene.yml": "threshold_days: 3\n\n\n---\nthreshold_days: 4\n",
  });
  const run = await state(["show"], repo.path);
  assert.equal(
    run.stderr,
    "dochygiene state: .dochygiene.yml: is not valid YAML: holds more than one YAML document (a second one starts at line 4); keep one\n",
  );
  assert.equal(run.code, 2);
});

Deno.test("doctor as a user who may not write .dochygiene: not writable, owner or mode is the fix", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".gitignore": ".dochygiene/\n", ".dochygiene/state.json": "{}" });
  await giveToUnprivileged(repo.path);
  await Deno.chmod(`${repo.path}/.dochygiene`, 0o555);
  const run = await runSeam("state", ["doctor"], { cwd: repo.path, unprivileged: true });
  await Deno.chmod(`${repo.path}/.dochygiene`, 0o755);
  assert.equal(run.code, 1, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.state_dir.writable, false);
  assert.ok(
    out.problems.includes(
      `${repo.path}/.dochygiene is not writable by this user (Permission denied (os error 13)): fix its owner or mode`,
    ),
    out.problems.join("\n"),
  );
  assert.deepEqual(await Array.fromAsync(Deno.readDir(`${repo.path}/.dochygiene`), (e) => e.name), [
    "state.json",
  ]);
});

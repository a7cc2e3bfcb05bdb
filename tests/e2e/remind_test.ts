import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import { VERSION } from "../../lib/core/version.ts";
import { emptyState } from "../../lib/state/state_file.ts";
import { withLock } from "../../lib/fs/with_lock.ts";
import {
  DENO,
  entryNames,
  git,
  giveToUnprivileged,
  IS_ROOT,
  PACKAGE_DIR,
  runCommand,
  runSeam,
  type SeamRun,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T09:00:00.000Z";
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

function state(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...emptyState(), ...fields };
}

async function writeState(root: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(root, ".dochygiene"), { recursive: true });
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2) + "\n";
  await Deno.writeTextFile(join(root, ".dochygiene", "state.json"), text);
}

async function readStateJson(root: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(root, ".dochygiene", "state.json")));
}

/** Every entry under `dir` with its content (or `<dir>`), to prove nothing was written. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(path: string, rel: string) {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === ".git") continue;
      const info = await Deno.lstat(full);
      if (info.isSymlink) out[key] = `-> ${await Deno.readLink(full)}`;
      else if (info.isDirectory) {
        out[key] = "<dir>";
        await walk(full, key);
      } else out[key] = await Deno.readTextFile(full).catch((e) => `<${e.name}>`);
    }
  }
  await walk(dir, "");
  return out;
}

/** `deno run <documented flags> remind.ts` with the clock pinned. */
function remind(
  cwd: string,
  options: {
    env?: Record<string, string>;
    stdin?: string;
    args?: string[];
    flags?: string[];
    unprivileged?: boolean;
  } = {},
): Promise<SeamRun> {
  return runSeam("remind", options.args ?? [], {
    cwd,
    env: { DOCHYGIENE_NOW: NOW, ...options.env },
    stdin: options.stdin,
    flags: options.flags,
    unprivileged: options.unprivileged,
  });
}

/** Asserts the one JSON line of docs/design.md "The reminder" and returns its banner. */
function assertBanner(run: SeamRun): string {
  assert.equal(run.stderr, "");
  assert.equal(run.code, 0);
  assert.ok(run.stdout.endsWith("\n") && run.stdout.indexOf("\n") === run.stdout.length - 1);
  const hook = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(hook), ["systemMessage", "hookSpecificOutput"]);
  assert.deepEqual(Object.keys(hook.hookSpecificOutput), ["hookEventName", "additionalContext"]);
  assert.equal(hook.hookSpecificOutput.hookEventName, "SessionStart");
  assert.match(hook.systemMessage, /\/dochygiene:check/);
  assert.match(hook.hookSpecificOutput.additionalContext, /\/dochygiene:check/);
  return hook.systemMessage;
}

function assertSilent(run: SeamRun): void {
  assert.deepEqual(run, { code: 0, stdout: "", stderr: "" });
}

Deno.test("missing state: banner 'never checked', writes only last_reminded", async () => {
  await using repo = await tempRepo();
  const banner = assertBanner(await remind(repo.path));
  assert.equal(banner, "dochygiene: docs never checked — run /dochygiene:check");
  assert.deepEqual(await readStateJson(repo.path), state({ last_reminded: NOW }));
  // No lock or temp file is left behind; the directory carries its own .gitignore.
  assert.deepEqual(Object.keys(await snapshot(join(repo.path, ".dochygiene"))).sort(), [
    ".gitignore",
    "state.json",
  ]);
});

Deno.test("the first banner in a fresh repository leaves git status clean: .dochygiene/ ignores itself", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "README.md": "# r\n" });
  await git(repo.path, ["add", "README.md"]);
  await git(repo.path, ["commit", "-qm", "init"]);
  assertBanner(await remind(repo.path));
  assert.equal(await git(repo.path, ["status", "--porcelain", "--untracked-files=all"]), "");
  assert.equal(await Deno.readTextFile(join(repo.path, "README.md")), "# r\n");
});

Deno.test("an existing state directory without its .gitignore gets one with the next banner", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(12.5) }));
  assertBanner(await remind(repo.path));
  assert.equal(await git(repo.path, ["status", "--porcelain", "--untracked-files=all"]), "");
});

Deno.test("stale: banner names the whole days; every other key is preserved", async () => {
  await using repo = await tempRepo();
  const before = state({
    last_check: ago(12.5),
    last_reminded: ago(3),
    last_prune: ago(20),
    clock_watermark: ago(20),
    future_key: { kept: [1, 2, 3] },
  });
  await writeState(repo.path, before);
  const banner = assertBanner(await remind(repo.path));
  assert.equal(banner, "dochygiene: docs last checked 12 days ago — run /dochygiene:check");
  assert.deepEqual(await readStateJson(repo.path), { ...before, last_reminded: NOW });
});

Deno.test("the banner's JSON line, exactly", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(1.5 + 7) }));
  const run = await remind(repo.path);
  assert.equal(
    run.stdout,
    JSON.stringify({
      systemMessage: "dochygiene: docs last checked 8 days ago — run /dochygiene:check",
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext:
          "This project's docs were last checked by dochygiene 8 days ago (the reminder threshold is 7 days), so some may be stale: verify a doc against the code before relying on it. The user was shown a one-line reminder to run /dochygiene:check; do not run it unless the user asks.",
      },
    }) + "\n",
  );
});

Deno.test("once per calendar day: a second session the same day is silent and writes nothing", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(30) }));
  assertBanner(await remind(repo.path));
  const after = await snapshot(repo.path);
  const later = new Date(Date.parse(NOW) + 60 * 60 * 1000).toISOString();
  assertSilent(await remind(repo.path, { env: { DOCHYGIENE_NOW: later } }));
  assert.deepEqual(await snapshot(repo.path), after);
});

Deno.test("fresh docs: silent, nothing written (no state dir created)", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(2) }));
  const before = await snapshot(repo.path);
  assertSilent(await remind(repo.path));
  assert.deepEqual(await snapshot(repo.path), before);
});

Deno.test("threshold_days from .dochygiene.yml decides staleness", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(12) }));
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: 30\n" });
  assertSilent(await remind(repo.path));
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: 3 # tight\n" });
  assertBanner(await remind(repo.path));
});

Deno.test("calendar day in the process's TZ: 23:59 then 00:01 in New York, same day in Tokyo", async () => {
  await using repo = await tempRepo();
  const reminded = "2026-11-30T04:59:00.000Z"; // 23:59 EST on 29 Nov, 13:59 JST on 30 Nov
  const now = "2026-11-30T05:01:00.000Z"; // 00:01 EST on 30 Nov, 14:01 JST on 30 Nov
  await writeState(repo.path, state({ last_check: ago(30), last_reminded: reminded }));
  assertSilent(await remind(repo.path, { env: { TZ: "Asia/Tokyo", DOCHYGIENE_NOW: now } }));
  assertBanner(await remind(repo.path, { env: { TZ: "America/New_York", DOCHYGIENE_NOW: now } }));
  assert.equal((await readStateJson(repo.path)).last_reminded, now);
});

Deno.test("corrupt state: banner, the corrupt file is kept aside, a valid state is written", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, "{ not json");
  assert.equal(
    assertBanner(await remind(repo.path)),
    "dochygiene: docs never checked — run /dochygiene:check",
  );
  assert.deepEqual(await readStateJson(repo.path), state({ last_reminded: NOW }));
  const files = await snapshot(join(repo.path, ".dochygiene"));
  assert.deepEqual(Object.keys(files).sort(), [
    ".gitignore",
    "state.json",
    "state.json.corrupt-20261130T090000Z",
  ]);
  assert.equal(files["state.json.corrupt-20261130T090000Z"], "{ not json");
});

Deno.test("a valid state.json over 1 MiB is corrupt: banner, exit 0, moved aside whole", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, { ...state({ last_check: ago(1) }), pad: "x".repeat(4 << 20) });
  const path = join(repo.path, ".dochygiene", "state.json");
  const { ino, size } = await Deno.stat(path);
  assert.equal(
    assertBanner(await remind(repo.path)),
    "dochygiene: docs never checked — run /dochygiene:check",
  );
  const kept = await Deno.stat(`${path}.corrupt-20261130T090000Z`);
  assert.deepEqual([kept.ino, kept.size], [ino, size]);
  assert.deepEqual(await readStateJson(repo.path), state({ last_reminded: NOW }));
});

Deno.test("a last_check that is not ISO-8601 UTC with milliseconds counts as never checked", async () => {
  for (const time of ["1", "2026-11-30 08:00"]) {
    await using repo = await tempRepo();
    for (const TZ of ["UTC", "Asia/Tokyo"]) {
      await writeState(repo.path, state({ last_check: time }));
      const banner = assertBanner(await remind(repo.path, { env: { TZ } }));
      assert.equal(
        banner,
        "dochygiene: docs never checked — run /dochygiene:check",
        `${time} ${TZ}`,
      );
    }
  }
});

Deno.test("unreadable state (state.json is a directory): silent, exit 0, nothing written", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(join(repo.path, ".dochygiene", "state.json"), { recursive: true });
  const before = await snapshot(repo.path);
  assertSilent(await remind(repo.path));
  assert.deepEqual(await snapshot(repo.path), before);
});

Deno.test("unreadable state (mode 000): silent, exit 0, nothing written", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(30) }));
  // Root reads a mode-000 file anyway: then the repository is nobody's, and so is the reminder.
  await giveToUnprivileged(repo.path);
  await Deno.chmod(join(repo.path, ".dochygiene", "state.json"), 0o000);
  assertSilent(await remind(repo.path, { unprivileged: true }));
});

Deno.test("read-only .dochygiene: silent (no banner it cannot record), exit 0", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(30) }));
  const dir = join(repo.path, ".dochygiene");
  const before = await snapshot(repo.path);
  // Root ignores mode bits; the immutable attribute stops root too.
  const lock = IS_ROOT ? ["chattr", "+i", dir] : ["chmod", "555", dir];
  const unlock = IS_ROOT ? ["chattr", "-i", dir] : ["chmod", "755", dir];
  assert.equal((await new Deno.Command(lock[0], { args: lock.slice(1) }).output()).code, 0);
  try {
    assertSilent(await remind(repo.path));
  } finally {
    await new Deno.Command(unlock[0], { args: unlock.slice(1) }).output();
  }
  assert.deepEqual(await snapshot(repo.path), before);
});

Deno.test("symlinked .dochygiene: silent, nothing written through the link", async () => {
  await using repo = await tempRepo();
  await using elsewhere = await tempDir();
  await Deno.writeTextFile(
    join(elsewhere.path, "state.json"),
    JSON.stringify(state({ last_check: ago(30) })),
  );
  await Deno.symlink(elsewhere.path, join(repo.path, ".dochygiene"));
  const before = [await snapshot(repo.path), await snapshot(elsewhere.path)];
  assertSilent(await remind(repo.path));
  assert.deepEqual([await snapshot(repo.path), await snapshot(elsewhere.path)], before);
});

Deno.test(".dochygiene that is a file: silent, exit 0", async () => {
  await using repo = await tempRepo();
  await Deno.writeTextFile(join(repo.path, ".dochygiene"), "not a directory");
  assertSilent(await remind(repo.path));
  assert.equal(await Deno.readTextFile(join(repo.path, ".dochygiene")), "not a directory");
});

Deno.test("bare remind.ts started in a subdirectory (relative write flag): silent, nothing written", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "docs/deep/a.md": "# a\n" });
  await writeState(repo.path, state({ last_check: ago(30) }));
  const before = await snapshot(repo.path);
  assertSilent(await remind(join(repo.path, "docs", "deep")));
  assert.deepEqual(await snapshot(repo.path), before);
});

Deno.test("the payload's cwd (a subdirectory) resolves to the root the process started in", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "docs/a.md": "# a\n" });
  const payload = JSON.stringify({ cwd: join(repo.path, "docs"), source: "startup" });
  assertBanner(await remind(repo.path, { stdin: payload }));
  assert.equal((await readStateJson(repo.path)).last_reminded, NOW);
});

Deno.test("a payload cwd with non-ASCII names (UTF-8 on stdin) resolves to the root", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "docs/café ☕/a.md": "# a\n" });
  const payload = JSON.stringify({ cwd: join(repo.path, "docs", "café ☕"), source: "startup" });
  assertBanner(await remind(repo.path, { stdin: payload }));
  assert.equal((await readStateJson(repo.path)).last_reminded, NOW);
});

Deno.test("a payload cwd in another repository than the process: silent, nothing written", async () => {
  await using repo = await tempRepo();
  await using other = await tempRepo();
  const payload = JSON.stringify({ cwd: other.path, source: "startup" });
  assertSilent(await remind(repo.path, { stdin: payload }));
  assert.deepEqual(await snapshot(repo.path), {});
  assert.deepEqual(await snapshot(other.path), {});
});

Deno.test("no git and nothing of dochygiene's (a session in $HOME): silent, nothing written", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "notes.md"), "# notes\n");
  assertSilent(await remind(dir.path));
  assert.deepEqual(await entryNames(dir.path), ["notes.md"]);
});

Deno.test("no git, but .dochygiene.yml or .dochygiene/ there: the start directory is the root", async () => {
  for (const mark of [".dochygiene.yml", ".dochygiene"]) {
    await using dir = await tempDir();
    if (mark === ".dochygiene") await Deno.mkdir(join(dir.path, mark));
    else await Deno.writeTextFile(join(dir.path, mark), "threshold_days: 7\n");
    assertBanner(await remind(dir.path));
    assert.equal((await readStateJson(dir.path)).last_reminded, NOW, mark);
  }
});

Deno.test("CI set (not '', 0 or false) or DOCHYGIENE_DISABLE=1: silent, nothing written", async () => {
  await using repo = await tempRepo();
  for (
    const env of [
      { CI: "true" },
      { CI: "1" },
      { CI: "yes" },
      { DOCHYGIENE_DISABLE: "1" },
    ] as Record<string, string>[]
  ) {
    assertSilent(await remind(repo.path, { env }));
    assert.deepEqual(await snapshot(repo.path), {}, JSON.stringify(env));
  }
  for (const ci of ["", "0", "false"]) {
    await Deno.remove(join(repo.path, ".dochygiene"), { recursive: true }).catch(() => {});
    assertBanner(await remind(repo.path, { env: { CI: ci } }));
  }
});

Deno.test("garbage, non-object or oversized stdin is ignored: the process directory decides", async () => {
  for (
    const stdin of [
      "\u0000\u00ffnot json {",
      "[1, 2]",
      "null",
      '{"cwd": 42}',
      '{"cwd": ""}',
      "",
      JSON.stringify({ cwd: "/elsewhere", pad: "x".repeat(1024 * 1024) }),
    ]
  ) {
    await using repo = await tempRepo();
    assertBanner(await remind(repo.path, { stdin }));
    assert.equal((await readStateJson(repo.path)).last_reminded, NOW);
  }
});

Deno.test("a payload cwd that does not exist, or a bad DOCHYGIENE_NOW: silent, exit 0", async () => {
  await using repo = await tempRepo();
  assertSilent(await remind(repo.path, { stdin: JSON.stringify({ cwd: "/nonexistent/x" }) }));
  assertSilent(await remind(repo.path, { env: { DOCHYGIENE_NOW: "yesterday" } }));
  assert.deepEqual(await snapshot(repo.path), {});
});

Deno.test("state lock held elsewhere: silent after a bounded wait, state untouched", async () => {
  await using repo = await tempRepo();
  await writeState(repo.path, state({ last_check: ago(30) }));
  const before = await readStateJson(repo.path);
  const run = await withLock(join(repo.path, ".dochygiene"), () => remind(repo.path));
  assertSilent(run);
  assert.deepEqual(await readStateJson(repo.path), before);
});

Deno.test("--version, --help, --format text; an unknown option is silent", async () => {
  await using repo = await tempRepo();
  const version = await remind(repo.path, { args: ["--version"] });
  assert.deepEqual(version, { code: 0, stdout: `dochygiene remind ${VERSION}\n`, stderr: "" });
  const help = await remind(repo.path, { args: ["--help"] });
  assert.match(help.stdout, /--allow-write=\.dochygiene/);
  assertSilent(await remind(repo.path, { args: ["--frobnicate"] }));
  assert.deepEqual(await snapshot(repo.path), {});
  const text = await remind(repo.path, { args: ["--format", "text"] });
  assert.deepEqual(text, {
    code: 0,
    stdout: "dochygiene: docs never checked — run /dochygiene:check\n",
    stderr: "",
  });
});

Deno.test("the exact documented hook command (no --quiet, no --config): banner, empty stderr", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene.yml": '"threshold_days": 3\n' });
  await writeState(repo.path, state({ last_check: ago(5) }));
  const run = await runCommand(
    DENO,
    ["run", ...PERMISSION_FLAGS.remind, join(PACKAGE_DIR, "remind.ts")],
    { cwd: repo.path, env: { DOCHYGIENE_NOW: NOW, CI: "" } },
  );
  assertBanner(run);
  // The quoted key went through the YAML fallback: threshold 3, not the default.
  assert.match(run.stdout, /threshold is 3 days/);
});

Deno.test("the common path runs without npm: banner under --no-npm with a simple .dochygiene.yml", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: 3\nrules: []\n" });
  await writeState(repo.path, state({ last_check: ago(5) }));
  assertBanner(await remind(repo.path, { flags: ["--no-npm", ...PERMISSION_FLAGS.remind] }));
});

Deno.test("remind.ts's static module graph has no npm: and no node: module", async () => {
  const out = await new Deno.Command(DENO, {
    args: ["info", "--json", `--config=${join(PACKAGE_DIR, "deno.json")}`, "remind.ts"],
    cwd: PACKAGE_DIR,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  type Dep = { specifier: string; code?: { specifier: string }; isDynamic?: boolean };
  const modules = new Map<string, Dep[]>(
    info.modules.map((m: { specifier: string; dependencies?: Dep[] }) => [
      m.specifier,
      m.dependencies ?? [],
    ]),
  );
  const root: string = info.roots[0];
  const staticGraph = new Set<string>([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const dep of modules.get(queue.pop()!) ?? []) {
      const target = dep.code?.specifier;
      if (!target || dep.isDynamic || staticGraph.has(target)) continue;
      staticGraph.add(target);
      queue.push(target);
    }
  }
  const foreign = [...staticGraph].filter((s) => !s.startsWith("file://"));
  assert.deepEqual(foreign, [], "static imports must be local files only");
  const names = [...staticGraph].map((s) => s.slice(s.lastIndexOf("/") + 1));
  for (const heavy of ["load_config.ts", "run_seam.ts", "parse_yaml.ts", "glob_matcher.ts"]) {
    assert.ok(!names.includes(heavy), `${heavy} must not be imported statically`);
  }
  // The walk is meaningful: the YAML loader is reachable, only dynamically.
  assert.ok([...modules.keys()].some((s) => s.endsWith("/lib/config/load_config.ts")));
});

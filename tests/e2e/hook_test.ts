// The plugin wiring, driven the way Claude Code drives it: the exact command
// string of hooks/hooks.json through `sh -c`, the SessionStart payload on
// stdin, CLAUDE_PLUGIN_ROOT and CLAUDE_PROJECT_DIR set, cwd = the session's
// directory, `deno` found on PATH.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { VERSION } from "../../lib/core/version.ts";
import {
  git,
  PACKAGE_DIR,
  runCommand,
  type SeamRun,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";

const NOW = "2026-11-30T09:00:00.000Z";
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();
/** PATH with the running Deno binary first, as the hook finds `deno` on PATH. */
const PATH = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;

interface HookConfig {
  hooks: Record<
    string,
    { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]
  >;
}

const HOOKS: HookConfig = JSON.parse(
  await Deno.readTextFile(join(PACKAGE_DIR, "hooks", "hooks.json")),
);
const COMMAND = HOOKS.hooks.SessionStart[0].hooks[0].command;

/** Runs the hook command with `sh -c` as Claude Code does. */
function runHook(
  sessionDir: string,
  options: {
    projectDir?: string;
    env?: Record<string, string>;
    payload?: string;
    pluginRoot?: string;
    command?: string;
  } = {},
): Promise<SeamRun> {
  const payload = options.payload ?? JSON.stringify({
    session_id: "00000000-0000-4000-8000-000000000000",
    transcript_path: "/tmp/transcript.jsonl",
    cwd: sessionDir,
    hook_event_name: "SessionStart",
    source: "startup",
  });
  return runCommand("/bin/sh", ["-c", options.command ?? COMMAND], {
    cwd: sessionDir,
    env: {
      PATH,
      HOME: Deno.env.get("HOME") ?? "/root",
      ..._passedThrough(),
      CLAUDE_PLUGIN_ROOT: options.pluginRoot ?? PACKAGE_DIR,
      CLAUDE_PROJECT_DIR: options.projectDir ?? sessionDir,
      DOCHYGIENE_NOW: NOW,
      ...options.env,
    },
    clearEnv: true,
    stdin: payload,
  });
}

/**
 * What Claude Code's own environment gives every hook and the reminder's rare full-config path
 * needs: the Deno cache in use (npm:yaml is loaded from it) and the TLS settings to fetch it.
 */
function _passedThrough(): Record<string, string> {
  const names = ["DENO_DIR", "DENO_CERT", "DENO_TLS_CA_STORE", "SSL_CERT_FILE", "SSL_CERT_DIR"];
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

function bannerOf(run: SeamRun): string {
  assert.equal(run.stderr, "");
  assert.equal(run.code, 0);
  const hook = JSON.parse(run.stdout);
  assert.equal(hook.hookSpecificOutput.hookEventName, "SessionStart");
  return hook.systemMessage;
}

async function lastReminded(root: string): Promise<unknown> {
  const text = await Deno.readTextFile(join(root, ".dochygiene", "state.json"));
  return JSON.parse(text).last_reminded;
}

Deno.test("hooks.json: one SessionStart command hook, matcher startup|resume, timeout <= 5 s, run by sh", () => {
  assert.deepEqual(Object.keys(HOOKS.hooks), ["SessionStart"]);
  assert.equal(HOOKS.hooks.SessionStart.length, 1);
  const entry = HOOKS.hooks.SessionStart[0];
  assert.equal(entry.matcher, "startup|resume");
  assert.equal(entry.hooks.length, 1);
  assert.equal(entry.hooks[0].type, "command");
  assert.ok(entry.hooks[0].timeout !== undefined && entry.hooks[0].timeout <= 5);
  // Sourced into Claude Code's own `sh -c`: no executable bit (marketplace installs strip
  // them) and no second shell process on every session start.
  assert.equal(COMMAND, '. "${CLAUDE_PLUGIN_ROOT}/hooks/remind.sh"');
});

Deno.test("plugin.json: name, version = lib/core/version.ts, description, author, MIT", async () => {
  const plugin = JSON.parse(
    await Deno.readTextFile(join(PACKAGE_DIR, ".claude-plugin", "plugin.json")),
  );
  assert.equal(plugin.name, "dochygiene");
  assert.equal(plugin.version, VERSION);
  assert.ok(typeof plugin.description === "string" && plugin.description.length > 0);
  assert.ok(typeof plugin.author?.name === "string");
  assert.equal(plugin.license, "MIT");
});

Deno.test("hook from a subdirectory of a real repository: banner, state at the root", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "docs/deep/a.md": "# a\n" });
  const session = join(repo.path, "docs", "deep");
  const run = await runHook(session, { projectDir: repo.path });
  assert.equal(bannerOf(run), "dochygiene: docs never checked — run /dochygiene:check");
  assert.equal(await lastReminded(repo.path), NOW);
  await assert.rejects(Deno.lstat(join(session, ".dochygiene")));
  // The same day, a resumed session is silent.
  const again = await runHook(session, {
    payload: JSON.stringify({ cwd: session, source: "resume", hook_event_name: "SessionStart" }),
  });
  assert.deepEqual(again, { code: 0, stdout: "", stderr: "" });
});

Deno.test("hook in a git worktree (a .git file): banner, state in the worktree's root", async () => {
  await using repo = await tempRepo();
  await git(repo.path, ["commit", "-q", "--allow-empty", "-m", "init"]);
  await using parent = await tempDir();
  const worktree = join(parent.path, "wt");
  await git(repo.path, ["worktree", "add", "-q", "-b", "feature", worktree]);
  assert.ok((await Deno.lstat(join(worktree, ".git"))).isFile);
  await Deno.mkdir(join(worktree, "src"));
  const run = await runHook(join(worktree, "src"), { projectDir: worktree });
  assert.match(bannerOf(run), /never checked/);
  assert.equal(await lastReminded(worktree), NOW);
  await assert.rejects(Deno.lstat(join(repo.path, ".dochygiene")));
  await git(repo.path, ["worktree", "remove", "--force", worktree]);
});

Deno.test("the project's own deno.json and package.json do not affect the hook", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    "deno.json": "{ this is not json",
    "package.json": "{ nor this",
    "docs/a.md": "# a\n",
    ".dochygiene.yml": "threshold_days: 3\n",
  });
  await writeFiles(repo.path, {
    ".dochygiene/state.json": JSON.stringify({ schema_version: 1, last_check: ago(4) }),
  });
  const run = await runHook(join(repo.path, "docs"));
  assert.equal(bannerOf(run), "dochygiene: docs last checked 4 days ago — run /dochygiene:check");
});

Deno.test("a stale project with a yaml config the scanner cannot read still uses its threshold", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, {
    ".dochygiene.yml": "{threshold_days: 30}\n",
    ".dochygiene/state.json": JSON.stringify({ schema_version: 1, last_check: ago(12) }),
  });
  assert.deepEqual(await runHook(repo.path), { code: 0, stdout: "", stderr: "" });
});

Deno.test("CI or DOCHYGIENE_DISABLE=1 through the hook: silent, nothing written", async () => {
  await using repo = await tempRepo();
  for (const env of [{ CI: "true" }, { DOCHYGIENE_DISABLE: "1" }] as Record<string, string>[]) {
    assert.deepEqual(await runHook(repo.path, { env }), { code: 0, stdout: "", stderr: "" });
    await assert.rejects(Deno.lstat(join(repo.path, ".dochygiene")));
  }
});

Deno.test("no git anywhere above the session directory: silent unless it holds .dochygiene.yml, then it is the root", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await runHook(dir.path), { code: 0, stdout: "", stderr: "" });
  await assert.rejects(Deno.lstat(join(dir.path, ".dochygiene")));
  await Deno.writeTextFile(join(dir.path, ".dochygiene.yml"), "threshold_days: 7\n");
  assert.match(bannerOf(await runHook(dir.path)), /never checked/);
  assert.equal(await lastReminded(dir.path), NOW);
});

/** A PATH holding `sh` and `date` but no `deno`. */
async function pathWithoutDeno(bin: string): Promise<string> {
  await Deno.symlink("/bin/sh", join(bin, "sh"));
  const date = (await runCommand("/bin/sh", ["-c", "command -v date"], { cwd: bin })).stdout;
  await Deno.symlink(date.trim(), join(bin, "date"));
  return bin;
}

Deno.test("deno missing from PATH: once a calendar day one line says dochygiene needs Deno and how to install it, kept in the plugin's data directory; exit 0", async () => {
  await using repo = await tempRepo();
  await using bin = await tempDir();
  await using data = await tempDir("dochygiene-plugin-data-");
  const env = { PATH: await pathWithoutDeno(bin.path), CLAUDE_PLUGIN_DATA: data.path };

  const first = await runHook(repo.path, { env });
  const again = await runHook(repo.path, { env });

  assert.match(bannerOf(first), /^dochygiene needs Deno 2, not found on PATH: install it \(/);
  assert.ok(bannerOf(first).includes("npm install -g deno"), bannerOf(first));
  assert.deepEqual(again, { code: 0, stdout: "", stderr: "" });
  await assert.rejects(Deno.lstat(join(repo.path, ".dochygiene")));
  // Another day: said again.
  await Deno.writeTextFile(join(data.path, "deno-missing-notice"), "2000-01-01\n");
  assert.match(bannerOf(await runHook(repo.path, { env })), /^dochygiene needs Deno/);
});

Deno.test("deno missing from PATH and no plugin data directory (or one that takes no file): exit 0, no output", async () => {
  await using repo = await tempRepo();
  await using bin = await tempDir();
  const path = await pathWithoutDeno(bin.path);
  const run = await runHook(repo.path, { env: { PATH: path } });
  assert.deepEqual(run, { code: 0, stdout: "", stderr: "" });
  const blocked = await runHook(repo.path, {
    env: { PATH: path, CLAUDE_PLUGIN_DATA: join(repo.path, ".git/HEAD/not-a-dir") },
  });
  assert.deepEqual(blocked, { code: 0, stdout: "", stderr: "" });
  await assert.rejects(Deno.lstat(join(repo.path, ".dochygiene")));
});

Deno.test("no executable bit needed: a copy of the plugin with every file 0644 works", async () => {
  await using plugin = await tempDir("dochygiene-plugin-");
  // What the hook reads: its three files, and lib/ for the rare full-config path (no deno.json).
  const files = ["hooks/hooks.json", "hooks/remind.sh", "hooks/remind.js"];
  const dirs = ["lib"];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    for await (const entry of Deno.readDir(join(PACKAGE_DIR, dir))) {
      (entry.isDirectory ? dirs : files).push(`${dir}/${entry.name}`);
    }
  }
  for (const file of files) {
    await Deno.mkdir(dirname(join(plugin.path, file)), { recursive: true });
    await Deno.copyFile(join(PACKAGE_DIR, file), join(plugin.path, file));
    await Deno.chmod(join(plugin.path, file), 0o644);
  }
  await using repo = await tempRepo();
  const run = await runHook(repo.path, { pluginRoot: plugin.path });
  assert.match(bannerOf(run), /never checked/);
  await writeFiles(repo.path, {
    ".dochygiene.yml": "{threshold_days: 30}\n",
    ".dochygiene/state.json": JSON.stringify({ schema_version: 1, last_check: ago(12) }),
  });
  const silent = await runHook(repo.path, { pluginRoot: plugin.path });
  assert.deepEqual(silent, { code: 0, stdout: "", stderr: "" });
});

Deno.test("30 sessions started at the same instant on a stale project: exactly one banner", async () => {
  await using repo = await tempRepo();
  const before = {
    schema_version: 1,
    last_check: ago(20),
    last_reminded: ago(2),
    last_prune: ago(30),
    clock_watermark: ago(30),
    extra: "kept",
  };
  await writeFiles(repo.path, { ".dochygiene/state.json": JSON.stringify(before) });
  const payload = new TextEncoder().encode(
    JSON.stringify({ cwd: repo.path, source: "startup", hook_event_name: "SessionStart" }),
  );
  // Each process blocks reading stdin until it is closed: closing all 30
  // together releases them at the same instant.
  const children = Array.from({ length: 30 }, () =>
    new Deno.Command("/bin/sh", {
      args: ["-c", COMMAND],
      cwd: repo.path,
      env: {
        PATH,
        HOME: Deno.env.get("HOME") ?? "/root",
        CLAUDE_PLUGIN_ROOT: PACKAGE_DIR,
        CLAUDE_PROJECT_DIR: repo.path,
        DOCHYGIENE_NOW: NOW,
      },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn());
  const writers = children.map((c) => c.stdin.getWriter());
  await Promise.all(writers.map((w) => w.write(payload)));
  await Promise.all(writers.map((w) => w.close()));
  const runs = await Promise.all(children.map((c) => c.output()));
  const decoder = new TextDecoder();
  assert.deepEqual(runs.map((r) => r.code), Array(30).fill(0));
  assert.deepEqual(runs.map((r) => decoder.decode(r.stderr)), Array(30).fill(""));
  const banners = runs.map((r) => decoder.decode(r.stdout)).filter((s) => s !== "");
  assert.equal(banners.length, 1);
  assert.match(JSON.parse(banners[0]).systemMessage, /last checked 20 days ago/);
  const after = JSON.parse(await Deno.readTextFile(join(repo.path, ".dochygiene", "state.json")));
  assert.deepEqual(after, { ...before, last_reminded: NOW });
  const left = [];
  for await (const entry of Deno.readDir(join(repo.path, ".dochygiene"))) left.push(entry.name);
  assert.deepEqual(left.sort(), [".gitignore", "state.json"]);
});

Deno.test({
  name:
    "the hook's deno never lists the root, only stats .git, opens only .dochygiene and .dochygiene.yml, and spawns nothing",
  ignore: (await new Deno.Command("sh", { args: ["-c", "command -v strace"] }).output()).code !==
    0,
  async fn() {
    await using repo = await tempRepo();
    await writeFiles(repo.path, { "docs/a.md": "# a\n", "README.md": "# r\n" });
    await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: 3\n" });
    await using trace = await tempDir();
    const log = join(trace.path, "strace.log");
    const command = `exec strace -f -qq -e trace=%file,execve -o '${log}' sh -c '${COMMAND}'`;
    const run = await runHook(repo.path, { command });
    assert.match(bannerOf(run), /never checked/);
    const lines = (await Deno.readTextFile(log)).split("\n");
    // The shell Claude Code starts, then deno in its place (`exec`): nothing else runs.
    const execs = lines.filter((l) => /execve\(/.test(l) && !/= -1 /.test(l));
    assert.deepEqual(execs.map((l) => l.match(/execve\("([^"]*)"/)?.[1].split("/").pop()), [
      "sh",
      "deno",
    ]);
    const touched = new Set<string>();
    const afterExec = lines.slice(lines.indexOf(execs[1]) + 1);
    for (const line of afterExec) {
      for (const [, path] of line.matchAll(/"([^"]*)"/g)) {
        if (path === repo.path || path.startsWith(`${repo.path}/`)) {
          const top = path.slice(repo.path.length + 1).split("/")[0];
          // .git is looked up by name (lstat) to find the root, never opened or listed.
          if (top === ".git") assert.match(line, /\b(statx|newfstatat|lstat)\(/, line);
          touched.add(top);
        }
      }
    }
    // The root's entries are looked up by name: its listing (every name in a large root) is never read.
    const listings = afterExec.filter((l) => l.includes(`"${repo.path}"`) && /O_DIRECTORY/.test(l));
    assert.deepEqual(listings, []);
    // "": the root itself (its real path).
    touched.delete("");
    assert.deepEqual([...touched].sort(), [".dochygiene", ".dochygiene.yml", ".git"]);
  },
});

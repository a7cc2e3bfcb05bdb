// Shared test helpers: real temporary git repositories and the seams run as
// subprocesses with exactly their documented permission flags.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { existingPaths } from "../../lib/config/governing_rule.ts";
import { PERMISSION_FLAGS, type SeamName } from "../../lib/cli/permission_flags.ts";
import type { PlanInput, UnitFacts } from "../../lib/prune/plan_prune.ts";
import { concatBytes } from "../../lib/core/concat_bytes.ts";

/** Absolute path of the package (the directory holding deno.json). */
export const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The Deno binary running the tests: subprocesses use the same one. */
export const DENO = Deno.execPath();

/**
 * Whether the tests run as root, for whom file modes do not apply
 * (`deno task test` grants no --allow-sys, so no `Deno.uid()`).
 */
export const IS_ROOT: boolean = new TextDecoder().decode(
  (await new Deno.Command("id", { args: ["-u"], stdout: "piped" }).output()).stdout,
).trim() === "0";

/** uid and gid that mode tests run as when the suite runs as root (`nobody`). */
const _UNPRIVILEGED = "65534";

/** A throwaway directory; `Symbol.asyncDispose` removes it. */
export interface TempDir extends AsyncDisposable {
  path: string;
}

/** Makes a temporary directory (realpath'd, so comparisons with seam output hold). */
export async function tempDir(prefix = "dochygiene-test-"): Promise<TempDir> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.chmod(path, 0o755).catch(() => {});
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Runs git in `cwd`, failing the test on a non-zero exit; returns stdout. */
export async function git(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: { GIT_CONFIG_NOSYSTEM: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** A temporary git repository on branch `main` with a test identity. */
export async function tempRepo(): Promise<TempDir> {
  const dir = await tempDir("dochygiene-repo-");
  await git(dir.path, ["init", "-q", "-b", "main"]);
  await git(dir.path, ["config", "user.email", "test@example.com"]);
  await git(dir.path, ["config", "user.name", "Test"]);
  await git(dir.path, ["config", "commit.gpgsign", "false"]);
  return dir;
}

/** Writes files (creating parent directories), relative to `root`. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), content);
  }
}

/** Byte pieces (a scan cache's, as `ScanCache.format` makes them) as one byte array. */
export function joinPieces(pieces: Iterable<Uint8Array>): Uint8Array {
  const list = [...pieces];
  return concatBytes(list, list.reduce((size, piece) => size + piece.length, 0));
}

/** Deletes the loose object `rev` names in the repository at `root` (a repository missing an object). */
export async function loseObject(root: string, rev: string): Promise<void> {
  const id = (await git(root, ["rev-parse", rev])).trim();
  await Deno.remove(`${root}/.git/objects/${id.slice(0, 2)}/${id.slice(2)}`);
}

/**
 * Writes `files`, stages them, and commits with author and committer date
 * `date` (ISO), so ages are real git facts.
 */
export async function commitFiles(
  root: string,
  files: Record<string, string>,
  date: string,
  message = "test commit",
): Promise<string> {
  await writeFiles(root, files);
  await git(root, ["add", "--", ...Object.keys(files)]);
  const env = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  await git(root, ["commit", "-q", "-m", message], env);
  return (await git(root, ["rev-parse", "HEAD"])).trim();
}

/** What a seam subprocess did. */
export interface SeamRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runSeam}. */
export interface RunOptions {
  /** Working directory (default: none given, so the caller must set it). */
  cwd: string;
  /** Extra environment (`DOCHYGIENE_NOW`, `TZ`, …); `CI` is cleared unless given. */
  env?: Record<string, string>;
  /** Bytes for stdin. */
  stdin?: string;
  /** Flags instead of the documented ones (only for tests that prove the sandbox). */
  flags?: readonly string[];
  /** Run as an unprivileged user when the suite runs as root (see {@linkcode runCommand}). */
  unprivileged?: boolean;
}

/** Options of {@linkcode runCommand}. */
export interface CommandOptions {
  /** Working directory. */
  cwd: string;
  /** Environment added to (or, with `clearEnv`, instead of) the test's own. */
  env?: Record<string, string>;
  /** Start from an empty environment. */
  clearEnv?: boolean;
  /** Bytes for stdin (default: none, stdin is closed). */
  stdin?: string;
  /**
   * When the suite runs as root, run the command as `nobody` (setpriv, with a
   * readable copy of the Deno cache as DENO_DIR), so file modes apply to it;
   * the files it must reach have to be readable by or given to that user
   * ({@linkcode giveToUnprivileged}). No effect otherwise.
   */
  unprivileged?: boolean;
}

/** Runs `command args` to the end and returns its exit code and decoded output. */
export async function runCommand(
  command: string,
  args: string[],
  options: CommandOptions,
): Promise<SeamRun> {
  if (options.unprivileged && IS_ROOT) {
    const kit = await _unprivilegedKit();
    const setpriv = [`--reuid=${_UNPRIVILEGED}`, `--regid=${_UNPRIVILEGED}`, "--clear-groups"];
    // The package itself may sit where only root can enter (a clone under /root): the child runs
    // the kit's copy of every file of it that the command names.
    const reachable = args.map((arg) => arg.replaceAll(PACKAGE_DIR, kit.packageDir));
    return await runCommand("setpriv", [...setpriv, command, ...reachable], {
      ...options,
      env: { DENO_DIR: kit.denoDir, HOME: kit.denoDir, ...options.env },
      unprivileged: false,
    });
  }
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    // A child may exit without reading its stdin (e.g. a hook that finds no deno).
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin)).catch(() => {});
    await writer.close().catch(() => {});
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/**
 * Runs `<seam>.ts` as `deno run <documented flags> <seam>.ts <args>`, the way
 * users, tasks and the hook do.
 */
export function runSeam(seam: SeamName, args: string[], options: RunOptions): Promise<SeamRun> {
  const flags = options.flags ?? PERMISSION_FLAGS[seam];
  return runCommand(DENO, [
    "run",
    "--quiet",
    `--config=${join(PACKAGE_DIR, "deno.json")}`,
    ...flags,
    join(PACKAGE_DIR, `${seam}.ts`),
    ...args,
  ], {
    cwd: options.cwd,
    env: { CI: "", NO_COLOR: "1", ...options.env },
    stdin: options.stdin,
    unprivileged: options.unprivileged,
  });
}

/** When the suite runs as root, makes `path` (recursively) the unprivileged user's. */
export async function giveToUnprivileged(path: string): Promise<void> {
  if (!IS_ROOT) return;
  const owner = `${_UNPRIVILEGED}:${_UNPRIVILEGED}`;
  const out = await new Deno.Command("chown", { args: ["-R", owner, path] }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** What a command run as the unprivileged user reaches instead of root's own files. */
interface _UnprivilegedKit {
  /** A copy of the package (its scripts, `lib/`, test children, `deno.json`, lockfile). */
  packageDir: string;
  /** A Deno cache it may read and write, holding a copy of root's npm packages. */
  denoDir: string;
}

let _kit: Promise<_UnprivilegedKit> | undefined;

/**
 * Makes, once per test process, the files the unprivileged user needs in a place it can reach:
 * the package may be cloned under a directory only root may enter (`/root` is mode 0700 in
 * containers and CI runners), and so is root's Deno cache. Only the npm packages are copied into
 * the cache: Deno's SQLite caches beside them are open in running processes (not safe to copy),
 * and the children build their own. Removed when the test process ends.
 */
function _unprivilegedKit(): Promise<_UnprivilegedKit> {
  return _kit ??= (async () => {
    const base = await tempDir("dochygiene-unprivileged-");
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(base.path, { recursive: true });
      } catch { /* already gone */ }
    });
    const packageDir = join(base.path, "package");
    const denoDir = join(base.path, "deno-dir");
    await Deno.mkdir(packageDir);
    await Deno.mkdir(denoDir);
    // The package as it is on disk (uncommitted edits included), less what no child runs.
    const copy = await new Deno.Command("sh", {
      args: [
        "-c",
        'tar -C "$1" --exclude=./.git --exclude=./fixtures --exclude=./bench --exclude=./dist ' +
        '--exclude=./.dochygiene -cf - . | tar -C "$2" -xf -',
        "sh",
        PACKAGE_DIR,
        packageDir,
      ],
      stderr: "piped",
    }).output();
    assert.equal(copy.code, 0, new TextDecoder().decode(copy.stderr));
    const info = await new Deno.Command(DENO, { args: ["info", "--json"], stdout: "piped" })
      .output();
    const npmCache = JSON.parse(new TextDecoder().decode(info.stdout)).npmCache;
    if (npmCache && await _exists(npmCache)) {
      await new Deno.Command("cp", { args: ["-R", npmCache, join(denoDir, "npm")] }).output();
    }
    await new Deno.Command("chmod", { args: ["-R", "a+rwX", base.path] }).output();
    return { packageDir, denoDir };
  })();
}

async function _exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Asserts a seam's failure contract under `--format json`: exit code `exit`,
 * one stderr line `dochygiene <seam>: …` matching `message` (no stack trace),
 * and `{"ok": false, "error": {"code": code, …}}` on stdout, which it returns.
 */
export function assertSeamError(
  seam: SeamName,
  run: SeamRun,
  exit: number,
  code: string,
  message: RegExp,
  // deno-lint-ignore no-explicit-any
): any {
  assert.equal(run.code, exit, run.stderr);
  const lines = run.stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], new RegExp(`^dochygiene ${seam}: `));
  assert.match(lines[0], message);
  assert.ok(!/\n\s+at /.test(run.stderr), "no stack trace");
  const out = JSON.parse(run.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.error.code, code);
  return out;
}

/** The sorted entry names of `dir`. */
export async function entryNames(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/**
 * File names git and the scanner must pass through as themselves: spaces,
 * newline, glob and pathspec-magic characters, a leading dash.
 */
export const HOSTILE_NAMES: readonly string[] = [
  "sp ace.md",
  "new\nline.md",
  "*.md",
  "[x].md",
  ":(exclude)a.md",
  "-lead.md",
];

/** Writes `caf\xe9.md` (Latin-1, not UTF-8) holding `content`, through a shell since Deno cannot. */
export async function writeNonUtf8Name(root: string, content: string): Promise<void> {
  await new Deno.Command("sh", {
    args: ["-c", 'printf %s "$1" > "$(printf \'caf\\351.md\')"', "sh", content],
    cwd: root,
  }).output();
}

/**
 * Leaves `root` in the middle of a conflicted merge: `path` changed on a
 * `side` branch and on `main`, then `git merge side` (which fails).
 */
export async function conflictedMerge(root: string, path: string, date: string): Promise<void> {
  await git(root, ["checkout", "-q", "-b", "side"]);
  await commitFiles(root, { [path]: "side\n" }, date);
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(root, { [path]: "main\n" }, date);
  await new Deno.Command("git", {
    args: ["merge", "-q", "side"],
    cwd: root,
    stdout: "null",
    stderr: "null",
  })
    .output();
}

/** A "billion laughs" YAML document: ten levels of nine aliases each (9^10 nodes if expanded). */
export function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  return lines.join("\n");
}

/**
 * A dry-run {@linkcode PlanInput} at `now`: nothing on disk beyond the units,
 * no judgments, confirmations or extractions, no clock watermark.
 */
export function dryRunInput(
  units: UnitFacts[],
  now: Date,
  extra: Partial<PlanInput> = {},
): PlanInput {
  return {
    units,
    existing: existingPaths([]),
    judgments: new Map(),
    confirm: new Set(),
    extracted: new Set(),
    now,
    watermark: null,
    mode: "dry-run",
    ...extra,
  };
}

/** Mulberry32: a tiny seeded PRNG, so a randomised test reproduces from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A schema-v1 report judging each of `paths` served (op_type `delete`), generated at `at`. */
export function servedReport(paths: string[], at: string) {
  return {
    schema_version: 1,
    generated_at: at,
    scan_generated_at: at,
    entries: paths.map((path) => ({
      path,
      category: "served",
      op_type: "delete",
      op: "Delete it.",
      safety_tier: "confirm",
      rationale: "shipped",
      signals: [],
    })),
  };
}

/** The path of the git on `PATH` (what a wrapper placed before it calls). */
export async function realGit(): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).trim();
}

/**
 * Writes into `dir` an executable `git` that, just before prune's hygiene commit (its
 * `git commit --cleanup=whitespace`), lets "another agent" commit `user.md` ("mine") once, then
 * runs the real git; returns a `PATH` with it first.
 */
export async function gitLandingACommit(dir: string): Promise<string> {
  const git = await realGit();
  await writeFiles(dir, {
    git: `#!/bin/sh
case " $* " in *" --cleanup=whitespace "*)
  if [ ! -e "${dir}/landed" ]; then
    : > "${dir}/landed"
    echo "mine" > user.md
    env -u GIT_INDEX_FILE "${git}" add user.md
    env -u GIT_INDEX_FILE "${git}" -c core.hooksPath=/dev/null -c user.email=u@x -c user.name=U commit -q -m "user work"
  fi;;
esac
exec "${git}" "$@"
`,
  });
  await Deno.chmod(`${dir}/git`, 0o755);
  return `${dir}:${Deno.env.get("PATH") ?? ""}`;
}

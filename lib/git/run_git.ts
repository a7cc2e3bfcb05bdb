/**
 * The one way dochygiene runs git: literal pathspecs (a file named
 * `:(exclude)x` or `*` is only ever itself), no pager, no prompts, no quoting
 * of non-ASCII names, and failures as one-line {@linkcode DochygieneError}s.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { DochygieneError } from "../core/dochygiene_error.ts";

/** Options of {@linkcode runGit}. */
export interface GitOptions {
  /** Bytes for git's stdin (e.g. NUL-separated pathspecs for `--pathspec-from-file=-`). */
  stdin?: Uint8Array | string;
  /** Extra environment for git (e.g. `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
  /** Configuration for this command only, given as `git -c KEY=VALUE` (keys are constants). */
  config?: Record<string, string>;
  /** Exit codes that are not failures (default `[0]`). */
  okCodes?: number[];
  /**
   * `false` drops `--literal-pathspecs`, only for the few commands that reject
   * pathspec magic (`check-ignore`); give those constant paths, never user input.
   * Default `true`.
   */
  literalPathspecs?: boolean;
  /**
   * A command that runs the user's hooks (`git commit`): git gets the user's environment (less
   * the repository-selecting variables) and `config` only, none of dochygiene's settings (no
   * `--literal-pathspecs`, `LC_ALL=C`, `GIT_OPTIONAL_LOCKS`, ceiling or `-c core.quotepath`),
   * which git would pass on to the hooks. Give it no pathspec. Default `false`.
   */
  userEnvironment?: boolean;
}

/** What git printed and how it exited. */
export interface GitResult {
  /** Exit code. */
  code: number;
  /** Raw stdout (paths may not be UTF-8). */
  stdout: Uint8Array;
  /** stderr decoded. */
  stderr: string;
}

/**
 * Runs `git --literal-pathspecs -c core.quotepath=off [-c KEY=VALUE…] <args>` in `cwd`, on the
 * repository at `cwd` and no other: the environment's repository-selecting variables
 * (`GIT_DIR`, `GIT_INDEX_FILE`, `GIT_OBJECT_DIRECTORY`, … — set by git hooks, or exported to
 * manage dotfiles) are dropped, git may not look for a repository above `cwd`, and it takes no
 * optional lock (a read never rewrites the index under the user's own git).
 *
 * @throws {DochygieneError} `GIT_MISSING` when git is not installed, `GIT_FAILED` for an exit
 * code not in `okCodes`, quoting git's first `fatal:`/`error:` line (else its last line).
 *
 * @example
 * ```ts
 * import { runGit } from "./run_git.ts";
 * import assert from "node:assert/strict";
 *
 * const { code } = await runGit(Deno.cwd(), ["--version"]);
 * assert.equal(code, 0);
 * ```
 */
export async function runGit(
  cwd: string,
  args: string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const inherited = _inheritedEnv();
  const user = options.userEnvironment === true;
  const command = new Deno.Command("git", {
    args: [
      ...(options.literalPathspecs === false || user ? [] : ["--literal-pathspecs"]),
      ...Object.entries(
        user ? { ...options.config } : { "core.quotepath": "off", ...options.config },
      )
        .flatMap(([key, value]) => ["-c", `${key}=${value}`]),
      ...args,
    ],
    cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: inherited !== undefined,
    env: user ? { ...inherited, ...options.env } : {
      ...inherited,
      GIT_CEILING_DIRECTORIES: _ceiling(cwd),
      GIT_OPTIONAL_LOCKS: "0",
      GIT_TERMINAL_PROMPT: "0",
      GIT_PAGER: "cat",
      LC_ALL: "C",
      ...options.env,
    },
  });
  let child: Deno.ChildProcess;
  try {
    child = command.spawn();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new DochygieneError("GIT_MISSING", "git is not installed or not on PATH; install git");
    }
    throw err;
  }
  // Output is collected while stdin is written: a command that answers as it reads (`cat-file
  // --batch`) would otherwise fill its stdout pipe and stop reading, and both would wait.
  const output = child.output();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    const data = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    await writer.write(data).catch(() => {});
    await writer.close().catch(() => {});
  }
  const out = await output;
  const result = {
    code: out.code,
    stdout: out.stdout,
    stderr: new TextDecoder().decode(out.stderr),
  };
  if (!(options.okCodes ?? [0]).includes(out.code)) {
    throw new DochygieneError(
      "GIT_FAILED",
      `git ${args[0]} failed: ${_gitReason(result.stderr) ?? `exit code ${out.code}`}`,
    );
  }
  return result;
}

/**
 * Variables that make git use another repository, index, object store or history than the
 * one at `cwd` (`git rev-parse --local-env-vars`, less the configuration ones, which the user
 * may set on purpose, e.g. `safe.directory`), and the pathspec switches that conflict with
 * `--literal-pathspecs`.
 */
const _REPOSITORY_ENV = new Set([
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
  "GIT_GLOB_PATHSPECS",
  "GIT_NOGLOB_PATHSPECS",
  "GIT_ICASE_PATHSPECS",
  "GIT_LITERAL_PATHSPECS",
]);

/**
 * The environment less {@linkcode _REPOSITORY_ENV}. Without permission to read the environment
 * (a library caller), git inherits it whole, as `Deno.Command` passes it on unread; the
 * permission is queried, never requested (a prompt in a library call would be a surprise).
 */
function _inheritedEnv(): Record<string, string> | undefined {
  if (Deno.permissions.querySync({ name: "env" }).state !== "granted") return undefined;
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) if (_REPOSITORY_ENV.has(name)) delete env[name];
  return env;
}

/**
 * The directories git may not look for a repository in: above `cwd`, as given and as resolved
 * (git compares the ceiling with its real working directory, and skips relative entries).
 */
function _ceiling(cwd: string): string {
  const given = dirname(resolve(cwd));
  try {
    const real = dirname(Deno.realPathSync(cwd));
    return real === given ? given : `${given}:${real}`;
  } catch {
    return given; // not there: git's own error says so
  }
}

/**
 * The line of git's stderr that says why it failed: the first `fatal:` or
 * `error:` line (the cause; hints and follow-up errors come after it, e.g.
 * `error: gpg failed to sign the data` before `fatal: failed to write commit
 * object`), else the last non-empty line (a hook's own output).
 */
function _gitReason(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const reason = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1);
  // A repository another user owns: git's own fix is on a later line.
  if (reason?.includes("dubious ownership")) {
    const fix = lines.find((l) => l.startsWith("git config --global --add safe.directory"));
    if (fix !== undefined) return `${reason}; if you trust it: ${fix}`;
  }
  // The root holds a `.git` that git cannot use (an empty directory, a broken `gitdir:` file).
  if (reason?.startsWith("fatal: not a git repository")) {
    return `${reason}; the project root's .git is not a repository git can use: repair it or ` +
      "remove it";
  }
  return reason;
}

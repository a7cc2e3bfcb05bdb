/**
 * The one way dochygiene runs git: literal pathspecs (a file named
 * `:(exclude)x` or `*` is only ever itself), no pager, no prompts, no quoting
 * of non-ASCII names, and failures as one-line {@linkcode DochygieneError}s.
 *
 * @module
 */

import { DochygieneError } from "./dochygiene_error.ts";

/** Options of {@linkcode runGit}. */
export interface GitOptions {
  /** Bytes for git's stdin (e.g. NUL-separated pathspecs for `--pathspec-from-file=-`). */
  stdin?: Uint8Array | string;
  /** Extra environment for git (e.g. `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
  /** Exit codes that are not failures (default `[0]`). */
  okCodes?: number[];
  /**
   * `false` drops `--literal-pathspecs`, only for the few commands that reject
   * pathspec magic (`check-ignore`); give those constant paths, never user input.
   * Default `true`.
   */
  literalPathspecs?: boolean;
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
 * Runs `git --literal-pathspecs -c core.quotepath=off <args>` in `cwd`.
 *
 * @throws {DochygieneError} `GIT_MISSING` when git is not installed, `GIT_FAILED` for an exit code not in `okCodes`.
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
  const command = new Deno.Command("git", {
    args: [
      ...(options.literalPathspecs === false ? [] : ["--literal-pathspecs"]),
      "-c",
      "core.quotepath=off",
      ...args,
    ],
    cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C", ...options.env },
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
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    const data = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    await writer.write(data).catch(() => {});
    await writer.close().catch(() => {});
  }
  const out = await child.output();
  const result = {
    code: out.code,
    stdout: out.stdout,
    stderr: new TextDecoder().decode(out.stderr),
  };
  if (!(options.okCodes ?? [0]).includes(out.code)) {
    const detail = result.stderr.trim().split("\n").filter(Boolean).pop() ??
      `exit code ${out.code}`;
    throw new DochygieneError("GIT_FAILED", `git ${args[0]} failed: ${detail}`);
  }
  return result;
}

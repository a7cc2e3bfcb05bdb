/**
 * How an apply talks to git (docs/design.md "Lifecycle deletion", "Apply"): one
 * git per repository that never splits a private index, a failure with a hint,
 * the `git rm` that removes exactly the files named, and git's NUL-separated
 * input and output.
 *
 * @module
 */

import { decodePath } from "../core/decode_path.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { type GitOptions, runGit } from "../git/run_git.ts";

/** Runs git in the project root (see {@linkcode pruneGit}). */
export type Git = (args: string[], options?: GitOptions) => ReturnType<typeof runGit>;

/**
 * Exactly these files (NUL-separated on stdin), never a directory: whatever else appears in a
 * unit is not git rm's.
 */
export const RM: readonly string[] = ["rm", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"];

/** {@linkcode runGit} in `root`, for an apply: a command on a private index never splits it. */
export function pruneGit(root: string): Git {
  // A private index is never split (core.splitIndex would put its shared part in .git).
  return (args, options) =>
    runGit(
      root,
      args,
      options?.env?.GIT_INDEX_FILE === undefined ? options : {
        ...options,
        config: { ...options.config, "core.splitIndex": "false" },
        env: { ...options.env, GIT_TEST_SPLIT_INDEX: "0" },
      },
    );
}

/** Runs git and returns its stdout; on failure rethrows with a hint and git's own reason (see runGit). */
export async function gitOr(
  git: Git,
  args: string[],
  stdin: string | undefined,
  options: {
    env?: Record<string, string>;
    config?: Record<string, string>;
    hint?: string;
    userEnvironment?: boolean;
  },
): Promise<Uint8Array> {
  try {
    const { env, config, userEnvironment } = options;
    return (await git(args, { stdin, env, config, userEnvironment })).stdout;
  } catch (err) {
    if (options.hint && err instanceof DochygieneError) {
      throw new DochygieneError(err.code, `${options.hint} (${err.message})`);
    }
    throw err;
  }
}

/** Git's output as trimmed text. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).trim();
}

/** The non-empty NUL-separated records of git's `-z` output. */
export function* records(bytes: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0, start);
    if (end < 0) end = bytes.length;
    if (end > start) yield bytes.subarray(start, end);
    start = end + 1;
  }
}

/** `paths`, each ended by a NUL: git's `-z` / `--pathspec-file-nul` input. */
export function nul(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}

/** `records`, each ended by a NUL (the inverse of {@linkcode records}). */
export function join0(records: readonly Uint8Array[]): Uint8Array {
  const size = records.reduce((n, r) => n + r.length + 1, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const r of records) {
    out.set(r, at);
    at += r.length + 1;
  }
  return out;
}

/** The path of an `ls-files -s` record (after its tab). */
export function entryPath(record: Uint8Array): string {
  return decodePath(record.subarray(record.indexOf(0x09) + 1));
}

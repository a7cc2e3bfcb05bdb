// Shared test helpers: real temporary git repositories and the seams run as
// subprocesses with exactly their documented permission flags.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PERMISSION_FLAGS, type SeamName } from "../lib/permission_flags.ts";

/** Absolute path of the package (the directory holding deno.json). */
export const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** The Deno binary running the tests: subprocesses use the same one. */
export const DENO = Deno.execPath();

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
}

/**
 * Runs `<seam>.ts` as `deno run <documented flags> <seam>.ts <args>`, the way
 * users, tasks and the hook do.
 */
export async function runSeam(
  seam: SeamName,
  args: string[],
  options: RunOptions,
): Promise<SeamRun> {
  const flags = options.flags ?? PERMISSION_FLAGS[seam];
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      ...flags,
      join(PACKAGE_DIR, `${seam}.ts`),
      ...args,
    ],
    cwd: options.cwd,
    env: { CI: "", NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

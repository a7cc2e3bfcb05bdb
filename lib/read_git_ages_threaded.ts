/**
 * {@linkcode readGitAges} on a thread of its own, for callers that keep their
 * own thread busy meanwhile (the scanner's reading loop).
 *
 * @module
 */

import { DochygieneError, type ExitCode } from "./dochygiene_error.ts";
import { type GitAges, readGitAges } from "./read_git_ages.ts";

/** What the thread posts back. */
type _Reply =
  | { ages: GitAges }
  | { error: { code?: string; name?: string; message: string; exitCode?: ExitCode } };

/**
 * Reads the git ages of `root` like {@linkcode readGitAges}, on a Web Worker.
 * A process writing to a pipe stops when the pipe is full, and this thread
 * only drains it when its event loop runs: a thread that reads docs
 * synchronously would keep git waiting (or pay a timer turn, ~2 ms, every
 * few milliseconds). Where a worker cannot run, reads on this thread.
 *
 * @throws {DochygieneError} as {@linkcode readGitAges} does.
 *
 * @example
 * ```ts
 * import { readGitAgesThreaded } from "./read_git_ages_threaded.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, stdout: "null", stderr: "null" }).output();
 * await git("init", "-q");
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * await git("add", "a.md");
 * await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a");
 * const { ages, head } = await readGitAgesThreaded(root);
 * assert.ok(ages.has("a.md"));
 * assert.equal(head?.length, 40);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function readGitAgesThreaded(root: string): Promise<GitAges> {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./read_git_ages_worker.ts", import.meta.url), {
      type: "module",
    });
  } catch {
    return readGitAges(root);
  }
  return new Promise<GitAges>((resolve, reject) => {
    // A thread that cannot load or answer: read here instead.
    const here = () => {
      worker.terminate();
      readGitAges(root).then(resolve, reject);
    };
    worker.onmessage = (event: MessageEvent<_Reply>) => {
      worker.terminate();
      const reply = event.data;
      if ("ages" in reply) resolve(reply.ages);
      else reject(_rebuild(reply.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      here();
    };
    worker.onmessageerror = here;
    worker.postMessage(root);
  });
}

/** The thread's failure as this thread would have thrown it (`Deno.errors` kept by name). */
function _rebuild(error: { code?: string; name?: string; message: string; exitCode?: ExitCode }) {
  if (error.code !== undefined) {
    return new DochygieneError(error.code, error.message, error.exitCode);
  }
  const errors = Deno.errors as unknown as Record<string, new (message: string) => Error>;
  const Class = error.name !== undefined && Object.hasOwn(errors, error.name)
    ? errors[error.name]
    : Error;
  return new Class(error.message);
}

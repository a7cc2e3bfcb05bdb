/**
 * {@linkcode readGitAges} with its history passes on a thread of their own,
 * for callers that keep their own thread busy meanwhile (the scanner's
 * reading loop).
 *
 * @module
 */

import { DochygieneError, type ExitCode } from "../core/dochygiene_error.ts";
import type { FirstParentRead } from "./first_parent_log.ts";
import {
  type GitAges,
  type GitTip,
  type HistoryPass,
  historyPass,
  historyPassOf,
  type KnownAges,
  readGitAges,
} from "./read_git_ages.ts";

/** What the thread posts back for the pass it was asked for by `id`. */
type _Reply =
  & { id: number }
  & (
    | { read: FirstParentRead }
    | { error: { code?: string; name?: string; message: string; exitCode?: ExitCode } }
  );

/**
 * Reads the git ages of `root` like {@linkcode readGitAges} (from `known`
 * ages and the `tip` being read, when given), with each `git log` pass on a Web Worker. A process
 * writing to a pipe stops when the pipe is full, and this thread only drains
 * it when its event loop runs: a thread that reads docs synchronously would
 * keep git waiting (or pay a timer turn, ~2 ms, every few milliseconds).
 * Where a worker cannot run, passes run on this thread.
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
export async function readGitAgesThreaded(
  root: string,
  known?: Promise<KnownAges | undefined>,
  tip?: Promise<GitTip>,
): Promise<GitAges> {
  const thread = new _PassThread(root);
  try {
    return await readGitAges(root, { known, tip, pass: (since) => thread.pass(since) });
  } finally {
    thread.close();
  }
}

/**
 * A worker running history passes, started on the first (no thread at all when ages are known
 * and HEAD has not moved); they run on this thread where it cannot.
 */
class _PassThread {
  #root: string;
  #worker: Worker | undefined | null = null;
  /** The passes asked for and not answered yet, by id. */
  #waiting = new Map<
    number,
    { since?: string; resolve: (pass: HistoryPass) => void; reject: (err: Error) => void }
  >();
  #asked = 0;

  constructor(root: string) {
    this.#root = root;
  }

  pass(since?: string): Promise<HistoryPass> {
    if (this.#worker === null) this.#worker = this.#start();
    const worker = this.#worker;
    if (worker === undefined) return historyPass(this.#root, since);
    return new Promise((resolve, reject) => {
      const id = this.#asked++;
      this.#waiting.set(id, { since, resolve, reject });
      worker.postMessage({ id, root: this.#root, since });
    });
  }

  close(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
  }

  #start(): Worker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./read_git_ages_worker.ts", import.meta.url), {
        type: "module",
      });
    } catch {
      return undefined;
    }
    worker.onmessage = (event: MessageEvent<_Reply>) => {
      const reply = event.data;
      const asked = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if ("read" in reply) asked?.resolve(historyPassOf(reply.read));
      else asked?.reject(_rebuild(reply.error));
    };
    // A thread that cannot load or answer: its passes run here instead.
    const here = () => {
      this.close();
      const waiting = [...this.#waiting.values()];
      this.#waiting.clear();
      for (const asked of waiting) {
        historyPass(this.#root, asked.since).then(asked.resolve, asked.reject);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      here();
    };
    worker.onmessageerror = here;
    return worker;
  }
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

/**
 * The helper threads of `readDocs` (`read_docs.ts`): {@linkcode ReadHelper}, one Web Worker
 * running `read_docs_worker.ts`; the job it is given and the messages it posts back
 * ({@linkcode HelperJob}, {@linkcode HelperMessage}); and {@linkcode runHelper}, which puts a
 * helper's results where `readDocs` takes them, or clears them when it fails.
 *
 * @module
 */

import type { PathIndexSource } from "../links/path_index.ts";
import { type DiskAnswer, DiskRecord } from "../links/disk_record.ts";
import { cachedRead } from "./read_doc.ts";
import type { FileRead } from "./scan_docs.ts";

/**
 * A message from a helper: loaded, one batch's results with the inbound link counts and disk
 * answers its summaries added (handed over batch by batch: the thread keeps none of them), the
 * end, or its failure (after the results of every batch it finished).
 */
export type HelperMessage =
  | { ready: true }
  | { changed: [string, DiskAnswer][] | null }
  | {
    start: number;
    results: (FileRead | string | typeof CACHED_AS_EXPECTED | typeof CACHED_WITH_OID)[];
    inbound: [string, number][];
    disk: [string, DiskAnswer][];
  }
  | { done: true }
  | { failed: string };

/**
 * A helper's result for a doc read with no `lstat` whose bytes have the key
 * `expect`ed: posted as this number, not as its read (see `cachedRead`), so
 * that nearly nothing is copied between the threads for an unchanged doc.
 */
export const CACHED_AS_EXPECTED = 0;

/** Like {@linkcode CACHED_AS_EXPECTED}, for a read whose `oid` is the job's for its doc. */
export const CACHED_WITH_OID = 1;

/** What each helper is started with. */
export interface HelperJob {
  /** Absolute project root. */
  root: string;
  /** Root-relative paths. */
  paths: readonly string[];
  /** Look docs up in their directory's listing to skip their `lstat`. */
  skipLstat: boolean;
  /** The shared counter: the index of the next batch to take. */
  counter: Int32Array;
  /** Paths per batch. */
  batch: number;
  /** The listing, when links are checked as docs are read. */
  links: PathIndexSource | undefined;
  /** Keep each doc's links in its summary. */
  keepLinks: boolean;
  /** For the scan cache: record disk answers, make cache entries. */
  cache: boolean;
  /** For the scan cache: the cache key of each path (by index) whose cached facts hold. */
  expect: readonly string[] | undefined;
  /** For the scan cache: the blob id git vouches each path (by index) has ("" for none). */
  oids: readonly string[] | undefined;
  /** For the scan cache: hash the bytes of each doc read whole against `oids`. */
  record: boolean;
  /** For the scan cache: 1 for each path (by index) taken as `expect`ed without a read. */
  vouched: Uint8Array | undefined;
  /** Each helper's claim on the job: 0 not yet, 1 taken up by the helper, 2 given up by `readDocs`. */
  claims: Int32Array;
  /** This helper's index into `claims`. */
  slot: number;
}

/**
 * A helper thread for `readDocs` (`read_docs.ts`; a Web Worker loading the reader
 * and analyser). Starting one before the listing is done overlaps its
 * start-up (~50 ms) with the listing; `readDocs` takes it over.
 *
 * @example
 * ```ts
 * import { ReadHelper } from "./_read_helper.ts";
 * import { readDocs } from "./read_docs.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.md`, "# A\n");
 * const helper = new ReadHelper(); // starts loading now
 * const { reads } = await readDocs(root, ["a.md"], { helpers: [helper], parallelFrom: 0 });
 * assert.equal(reads.size, 1);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class ReadHelper {
  #worker: Worker | undefined;
  #onClosed: () => void = () => {};
  /**
   * Settles `true` once the thread has loaded, `false` when it cannot (or never, when it is
   * closed first).
   */
  readonly ready: Promise<boolean>;
  /** Settles when the helper is closed, by anyone (`readDocs` then stops waiting for it). */
  readonly closed: Promise<void>;
  /** Settles with what {@linkcode ReadHelper.recheck} found (`undefined` when it could not ask). */
  rechecked: Promise<DiskRecord | undefined> | undefined;
  #onRechecked: (changed: DiskRecord | undefined) => void = () => {};
  #listener: ((message: _JobMessage) => void) | undefined;

  /** Starts the thread; where Workers are unavailable, the helper does nothing. */
  constructor() {
    let loaded: (value: boolean) => void = () => {};
    this.ready = new Promise((resolve) => loaded = resolve);
    this.closed = new Promise((resolve) => this.#onClosed = resolve);
    try {
      this.#worker = new Worker(new URL("./read_docs_worker.ts", import.meta.url), {
        type: "module",
      });
      this.#worker.onmessage = (event: MessageEvent<HelperMessage>) => {
        const message = event.data;
        if ("ready" in message) loaded(message.ready === true);
        else if ("changed" in message) {
          this.#onRechecked(message.changed === null ? undefined : new DiskRecord(message.changed));
        } else this.#listener?.(message);
      };
      // A thread that cannot load is closed: readDocs then reads everything on its own thread.
      this.#worker.onerror = (event) => {
        event.preventDefault();
        this.close();
        loaded(false);
      };
    } catch {
      this.#worker = undefined; // no workers here: the caller's thread reads everything
      loaded(false);
    }
  }

  /** The thread, until closed. */
  get worker(): Worker | undefined {
    return this.#worker;
  }

  /**
   * Has the thread ask the disk `questions` again (the scan cache's, see
   * `DiskRecord`), before it is given docs to read (e.g. while the caller
   * waits for the listing), from the directory listings it then reads its
   * docs with; `rechecked` settles with the questions answered otherwise.
   */
  recheck(root: string, questions: DiskRecord): void {
    this.rechecked = new Promise((resolve) => this.#onRechecked = resolve);
    if (this.#worker === undefined) this.#onRechecked(undefined);
    else this.#worker.postMessage({ recheck: questions.entries(), root });
  }

  /** Hands each message of the job to `listener` (one job at a time). */
  listen(listener: (message: _JobMessage) => void): void {
    this.#listener = listener;
  }

  /** Stops the thread (idempotent). */
  close(): void {
    const worker = this.#worker;
    worker?.terminate();
    // A terminated Worker stays reachable from the runtime's pending promises for the process's
    // life: without its handlers it no longer keeps the job's results (every doc read) alive.
    if (worker !== undefined) worker.onmessage = worker.onerror = worker.onmessageerror = null;
    this.#listener = undefined;
    this.#worker = undefined;
    this.#onClosed();
    this.#onRechecked(undefined);
  }
}

/** A helper's message about the job it was given (the others go to `ReadHelper` itself). */
type _JobMessage = Exclude<HelperMessage, { ready: true } | { changed: unknown }>;

/** What a helper thread that finished gave: its inbound link counts, disk answers and how many docs it read. */
export interface Helped {
  /** Its inbound link counts. */
  inbound: Map<string, number>;
  /** Its disk answers to its link checks. */
  disk: DiskRecord;
  /** How many docs it read. */
  docs: number;
}

/**
 * Runs one helper thread on the shared counter, telling `onResults` of each
 * batch of results it gives. Resolves with its inbound link counts, disk
 * answers and how many docs it read when it has returned every batch it took
 * (each batch's counts and answers come with it); when it fails (to
 * start, or midway), is closed by anyone or is given up, with `undefined` after
 * clearing every result it gave, so that the caller's thread reads and counts them
 * all again. Never rejects; closes the helper.
 */
export function runHelper(
  helper: ReadHelper,
  job: HelperJob,
  results: (FileRead | string | undefined)[],
  onResults: (start: number, end: number) => void,
): Promise<Helped | undefined> | undefined {
  const worker = helper.worker;
  if (worker === undefined) return undefined;
  const given: number[] = [];
  let docs = 0;
  let settled = false;
  // The batches' counts and answers, kept only when the helper ends well (else its docs are read
  // and counted again).
  const inbound = new Map<string, number>();
  const disk = new DiskRecord();
  return new Promise((resolve) => {
    const finish = (done: boolean) => {
      if (settled) return; // a late error after the end changes nothing
      settled = true;
      helper.close();
      if (!done) { for (const start of given) results.fill(undefined, start, start + job.batch); }
      resolve(done ? { inbound, disk, docs } : undefined);
    };
    helper.listen((message) => {
      if (settled) return;
      if ("failed" in message) return finish(false);
      if ("done" in message) return finish(true);
      for (const [path, count] of message.inbound) {
        inbound.set(path, (inbound.get(path) ?? 0) + count);
      }
      disk.add(message.disk);
      message.results.forEach((result, k) => {
        const i = message.start + k;
        results[i] = result === CACHED_AS_EXPECTED
          ? cachedRead(job.expect![i])
          : result === CACHED_WITH_OID
          ? cachedRead(job.expect![i], job.oids![i])
          : result;
      });
      given.push(message.start);
      docs += message.results.length;
      onResults(message.start, message.start + message.results.length);
    });
    // A helper that cannot load or throws is not fatal: its share is read here.
    worker.onerror = (event) => {
      event.preventDefault();
      finish(false);
    };
    worker.onmessageerror = () => finish(false);
    // Closed from outside (or given up): no event would ever come.
    helper.closed.then(() => finish(false));
    worker.postMessage(job);
  });
}

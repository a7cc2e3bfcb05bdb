/**
 * Keeps a thread's heap near its live data on large scans: a full garbage
 * collection whenever the heap has grown well past what the last one left.
 *
 * V8 lets a heap grow to 2–4 times its live data before it collects it again
 * (it judges collecting then cheap), and a scan that holds 100,000 docs' facts
 * while it makes as much garbage again would then peak near 1 GB for ~200 MB
 * of live data (docs/benchmarks.md "The scanner at scale"). A script cannot
 * pass V8 flags to itself, but it may ask for a collection: V8 gives a new
 * context a `gc` function once `--expose-gc` is set, which `node:v8` can set
 * at run time (the idiom Node.js documents for `v8.setFlagsFromString`).
 * Where that is not possible, nothing is collected and the scan is as before.
 * Both modules are loaded only when a heap first grows that far (a small
 * scan never pays for them).
 *
 * @module
 */

/** How far past the last collection's heap a thread's heap may grow before it is collected again. */
const _SLACK_BYTES = 40 * 1024 * 1024;

/**
 * A heap below this is never collected here (a scan of 40,000 docs stays below it: collecting
 * would only cost it time).
 */
const _FLOOR_BYTES = 160 * 1024 * 1024;

/** With `released`: a heap this large is collected whatever the last collection left. */
const _RELEASED_BYTES = 128 * 1024 * 1024;

/** Options of {@linkcode keepHeapNearLive}. */
export interface KeepHeapOptions {
  /** The caller just let go of most of what it held: a heap of 128 MiB or more is collected now. */
  released?: boolean;
  /**
   * A heap below this is never collected (default 160 MiB); lower on a thread
   * that keeps little between its batches (a helper reading thread: 64 MiB).
   */
  floorBytes?: number;
  /**
   * How far past 15 % more than the last collection left the heap may grow
   * (default 40 MiB); less on a thread whose live data is small (a helper
   * reading thread: 16 MiB, collected in ~10 ms).
   */
  slackBytes?: number;
}

/** The heap is looked at no more often than this (a scan allocates some MB in that time). */
const _LOOK_EVERY_MS = 10;

/** When the heap was last looked at (`performance.now()`). */
let _lookedAt = -Infinity;
/** The heap the last collection left. */
let _after = 0;
/** The collector; `null` when none can be had, `undefined` until it is loaded. */
let _gc: (() => void) | null | undefined;
let _loading: Promise<void> | undefined;

/**
 * Collects the heap when it has grown past 15 % more than the last collection
 * left, plus 40 MiB, and past 160 MiB (never a small heap: a scan of 40,000
 * docs stays below); otherwise costs one look at the heap's size (~10 µs: the
 * process's RSS is read too), and none within 10 ms of the last look (unless
 * `released`). Called every so often by the scan's long loops, on the thread
 * they run on. The first time the heap grows that far, the collector starts
 * loading and nothing is collected: it is there once the thread has
 * waited on anything since.
 *
 * @example
 * ```ts
 * import { keepHeapNearLive } from "./keep_heap_near_live.ts";
 *
 * let garbage: unknown[] = [];
 * for (let i = 0; i < 100_000; i++) {
 *   garbage.push({ i });
 *   if (i % 1000 === 0) keepHeapNearLive();
 * }
 * garbage = [];
 * ```
 */
export function keepHeapNearLive(options: KeepHeapOptions = {}): void {
  // Looking costs ~10 µs (the process's RSS is read too); callers ask every few hundred docs.
  const now = performance.now();
  if (!options.released && now - _lookedAt < _LOOK_EVERY_MS) return;
  _lookedAt = now;
  const ceiling = options.released ? _RELEASED_BYTES : Math.max(
    options.floorBytes ?? _FLOOR_BYTES,
    _after * 1.15 + (options.slackBytes ?? _SLACK_BYTES),
  );
  if (Deno.memoryUsage().heapUsed < ceiling) return;
  if (_gc === undefined) _loading ??= _load();
  else if (_gc !== null) {
    _gc();
    _after = Deno.memoryUsage().heapUsed;
  }
}

async function _load(): Promise<void> {
  try {
    // Started with --v8-flags=--expose-gc: the global one.
    const global = (globalThis as { gc?: unknown }).gc;
    if (typeof global === "function") {
      _gc = global as () => void;
      return;
    }
    const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")]);
    // The flag is the process's: set once (by the first thread that needs it), not again.
    if (vm.runInNewContext("typeof gc") !== "function") v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    _gc = typeof gc === "function" ? gc : null;
  } catch {
    _gc = null;
  }
}

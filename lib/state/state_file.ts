/**
 * `.dochygiene/state.json`: tolerant reads, locked atomic writes that keep
 * keys this version does not know, corrupt files kept aside.
 *
 * @module
 */

import { join } from "../fs/path.ts";
import { atomicWrite, tempFileOf } from "../fs/atomic_write.ts";
import { type Clock, fileStamp } from "../core/clock.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { exceedsDepth } from "../core/exceeds_depth.ts";
import { findEntry } from "../fs/find_entry.ts";
import { isIsoTimestamp } from "../core/is_iso_timestamp.ts";
import { type LockOptions, withLock } from "../fs/with_lock.ts";

/** File name of the state file inside the state directory. */
export const STATE_FILE_NAME = "state.json";

/**
 * Largest state file read, in bytes. A few hundred bytes is normal; a larger
 * file is corrupt (it is never read, and the next write moves it aside by
 * renaming it), so a huge one cannot stall or crash the SessionStart hook.
 */
export const MAX_STATE_BYTES = 1024 * 1024;

/** The state file, schema v1. Unknown keys are carried along untouched. */
export interface State {
  /** Always `1`. */
  schema_version: 1;
  /** When the docs were last checked (ISO-8601 UTC with milliseconds), or `null`. */
  last_check: string | null;
  /** When the reminder last showed its banner, or `null`. */
  last_reminded: string | null;
  /** When `prune.ts` last applied, or `null`. */
  last_prune: string | null;
  /** The latest instant a prune has seen; a clock earlier than this defers age-based deletion. */
  clock_watermark: string | null;
  /** Keys written by other versions or tools, preserved on every write. */
  [key: string]: unknown;
}

/** What {@linkcode readState} found. */
export interface StateRead {
  /** The state, defaults filled in (all `null` when missing or corrupt). */
  state: State;
  /** `missing`: no file; `corrupt`: unparsable, wrong types or too large; `ok` otherwise. */
  status: "ok" | "missing" | "corrupt";
}

const _TIME_KEYS = ["last_check", "last_reminded", "last_prune", "clock_watermark"] as const;

/** A timestamp key of {@linkcode State}. */
export type TimeKey = typeof _TIME_KEYS[number];

/**
 * A fresh, never-checked state.
 *
 * @example
 * ```ts
 * import { emptyState } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(emptyState().last_check, null);
 * ```
 */
export function emptyState(): State {
  return {
    schema_version: 1,
    last_check: null,
    last_reminded: null,
    last_prune: null,
    clock_watermark: null,
  };
}

/**
 * Parses state-file text. Returns `undefined` when it is not a JSON object
 * with schema_version 1 whose timestamps are `null` or ISO-8601 UTC with
 * milliseconds (`2026-11-30T03:36:18.000Z`), or when it nests deeper than
 * `MAX_JSON_DEPTH` (the caller treats all of that as corrupt).
 *
 * @example
 * ```ts
 * import { parseState } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const s = parseState('{"schema_version":1,"last_check":null,"x":1}');
 * assert.equal(s?.x, 1);
 * assert.equal(parseState("{oops"), undefined);
 * assert.equal(parseState('{"schema_version":1,"last_check":"1"}'), undefined);
 * ```
 */
export function parseState(text: string): State | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.schema_version !== 1) return undefined;
  for (const key of _TIME_KEYS) {
    const v = record[key];
    if (v !== undefined && v !== null && !isIsoTimestamp(v, { utcMillis: true })) return undefined;
  }
  // Serialising it (every write, `show`) would overflow the stack.
  if (exceedsDepth(record)) return undefined;
  return { ...emptyState(), ...record } as State;
}

/**
 * The timestamps of `state` later than `now` by more than `slackMs`: written
 * with a clock that ran ahead, or this clock went back. A future `last_check`
 * silences the reminder and a future `clock_watermark` defers every age-based
 * prune until the clock catches up.
 *
 * @example
 * ```ts
 * import { emptyState, futureTimes } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const state = { ...emptyState(), clock_watermark: "2099-01-01T00:00:00.000Z" };
 * assert.deepEqual(futureTimes(state, new Date("2026-11-30T00:00:00Z"), 300_000), [
 *   "clock_watermark",
 * ]);
 * ```
 */
export function futureTimes(state: State, now: Date, slackMs: number): TimeKey[] {
  return _TIME_KEYS.filter((key) => {
    const value = state[key];
    return value !== null && Date.parse(value) > now.getTime() + slackMs;
  });
}

/**
 * Reads `<stateDir>/state.json` without locking and without writing: missing
 * means never checked, corrupt is reported as such. A file larger than
 * {@linkcode MAX_STATE_BYTES} is corrupt and is not read.
 *
 * @throws {DochygieneError} `STATE_FILE_UNREADABLE` (exit 1) when it is a directory or unreadable.
 *
 * @example
 * ```ts
 * import { readState } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const { status, state } = await readState(dir);
 * assert.equal(status, "missing");
 * assert.equal(state.last_check, null);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
// Synchronous syscalls: each async one costs the SessionStart hook a thread hop (remind.ts start-up).
// deno-lint-ignore require-await
export async function readState(stateDir: string): Promise<StateRead> {
  const path = join(stateDir, STATE_FILE_NAME);
  const corrupt: StateRead = { state: emptyState(), status: "corrupt" };
  let text: string;
  try {
    let info = findEntry(stateDir, STATE_FILE_NAME);
    if (info === undefined) return { state: emptyState(), status: "missing" };
    if (info.isSymlink) info = Deno.statSync(path);
    // A FIFO or a device (a symlink to /dev/zero) would block or never end.
    if (!info.isFile && !info.isDirectory) throw new _NotRegular();
    if (info.isFile && info.size > MAX_STATE_BYTES) return corrupt;
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { state: emptyState(), status: "missing" };
    if (err instanceof Deno.errors.NotCapable) throw err;
    const what = err instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : err instanceof _NotRegular
      ? "is not a regular file"
      : `cannot be read (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`;
    throw new DochygieneError(
      "STATE_FILE_UNREADABLE",
      `${path} ${what}: move it away (dochygiene starts a fresh state) and run again`,
    );
  }
  // Replaced by a larger file since the lstat: still never parsed.
  if (text.length > MAX_STATE_BYTES) return corrupt;
  const state = parseState(text);
  return state ? { state, status: "ok" } : corrupt;
}

/** A state path that exists but is neither a file nor a directory. */
class _NotRegular extends Error {
  override name = "NotRegular";
}

/** Options of {@linkcode updateState}. */
export interface UpdateOptions extends LockOptions {
  /** Clock for the corrupt-file stamp (default: the system clock). */
  clock?: Clock;
  /** Called with the `state.json.corrupt-<stamp>` path when a corrupt file was kept aside. */
  onKeptAside?: (path: string) => void;
}

/**
 * Serialised read-modify-write of the state file: under the state lock, read
 * it (a corrupt file is first renamed to `state.json.corrupt-<stamp>`), let
 * `change` return the new state (or `undefined` to write nothing), and write it
 * atomically. Keys `change` does not touch are preserved. Before writing, the
 * `.state.json.tmp-*` files left by killed writers are removed. Returns what
 * is on disk afterwards.
 *
 * @example
 * ```ts
 * import { updateState, readState } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await updateState(dir, (s) => ({ ...s, last_check: "2026-11-30T03:36:18.000Z" }));
 * assert.equal((await readState(dir)).state.last_check, "2026-11-30T03:36:18.000Z");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function updateState(
  stateDir: string,
  change: (current: State, status: StateRead["status"]) => State | undefined,
  options: UpdateOptions = {},
): Promise<State> {
  return withLock(stateDir, async () => {
    const { state, status } = await readState(stateDir);
    // The state is plain JSON, so a JSON round trip is a full copy (structuredClone costs the hook start-up time).
    const next = change(JSON.parse(JSON.stringify(state)), status);
    if (next === undefined) return state;
    _removeLeftoverStateTemps(stateDir);
    if (status === "corrupt") {
      // Not inside `onKeptAside?.(…)`: optional chaining would skip the move when no callback is given.
      const aside = await keepCorrupt(stateDir, options.clock?.now() ?? new Date());
      options.onKeptAside?.(aside);
    }
    await atomicWrite(join(stateDir, STATE_FILE_NAME), JSON.stringify(next, null, 2) + "\n");
    return next;
  }, options);
}

/**
 * Removes the `.state.json.tmp-*` files of writers killed between creating
 * their temp file and renaming it (see `atomicWrite`). Called under the lock:
 * every state write holds it from creating its temp file to renaming it, so
 * none of them belongs to a live writer.
 */
function _removeLeftoverStateTemps(stateDir: string): void {
  for (const entry of Deno.readDirSync(stateDir)) {
    if (tempFileOf(entry.name)?.target !== STATE_FILE_NAME) continue;
    try {
      Deno.removeSync(join(stateDir, entry.name));
    } catch {
      // Best effort: the write that follows reports a directory it cannot change.
    }
  }
}

/**
 * Moves a corrupt state file aside as `state.json.corrupt-<stamp>` (a numeric
 * suffix is added if that name is taken), so no data is ever lost. Returns the
 * new path.
 *
 * @example
 * ```ts
 * import { keepCorrupt } from "./state_file.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/state.json`, "{oops");
 * const aside = await keepCorrupt(dir, new Date("2026-11-30T03:36:18Z"));
 * assert.equal(aside, `${dir}/state.json.corrupt-20261130T033618Z`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function keepCorrupt(stateDir: string, now: Date): Promise<string> {
  const base = join(stateDir, `${STATE_FILE_NAME}.corrupt-${fileStamp(now)}`);
  for (let n = 0;; n++) {
    const target = n === 0 ? base : `${base}-${n}`;
    try {
      await Deno.lstat(target);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      // link + remove rather than rename: never replaces an existing target.
      await Deno.link(join(stateDir, STATE_FILE_NAME), target);
      await Deno.remove(join(stateDir, STATE_FILE_NAME));
      return target;
    }
  }
}

/**
 * `remind.ts` — the SessionStart hook. At most once per calendar day, while
 * the project's docs are stale, it prints one line of hook JSON whose banner
 * says how long ago the docs were checked and to run `/dochygiene:check`.
 *
 * It never reads a doc, never scans, never spawns a process, and writes only
 * `last_reminded`. It always exits 0 with empty stderr: any failure is silence.
 * Its static module graph holds no npm package and no `node:` built-in, so it
 * starts about as fast as an empty script.
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env remind.ts
 * ```
 *
 * @module
 */

import { type Clock, clockFromEnv } from "./lib/core/clock.ts";
import { concatBytes } from "./lib/core/concat_bytes.ts";
import { CONFIG_FILE_NAME } from "./lib/config/config_file_name.ts";
import {
  decideReminder,
  type ReminderDecision,
  type ReminderReason,
} from "./lib/remind/decide_reminder.ts";
import { findEntry } from "./lib/fs/find_entry.ts";
import { findRoot } from "./lib/fs/find_root.ts";
import { formatBanner } from "./lib/remind/format_banner.ts";
import { readThreshold } from "./lib/remind/read_threshold.ts";
import { ensureStateDir, resolveStateDir, STATE_DIR_NAME } from "./lib/state/state_dir.ts";
import { readState, updateState } from "./lib/state/state_file.ts";
import { VERSION } from "./lib/core/version.ts";

export type { Clock, ReminderDecision, ReminderReason };

/** Longest wait for the state lock: well under the hook's 5 s timeout. */
const _LOCK_TIMEOUT_MS = 1500;
/** Larger payloads are ignored. */
const _MAX_PAYLOAD_BYTES = 1024 * 1024;

const _USAGE = `dochygiene remind ${VERSION} — the SessionStart reminder

Usage: deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env remind.ts [options]

Reads the Claude Code SessionStart payload from stdin when there is one (its
"cwd" is the start directory). At most once per calendar day, while the docs
are stale, records last_reminded and prints one line of hook JSON; otherwise
prints nothing. Always exits 0 with empty stderr.

Options:
  --root DIR        start directory for root resolution (default: payload cwd, else .)
  --format F        json (default when stdout is not a terminal) or text
  -h, --help        print this help
  -V, --version     print the version

Silenced by CI (any value but "", 0, false) and DOCHYGIENE_DISABLE=1.
DOCHYGIENE_NOW=<ISO> pins the clock.
`;

/** What the reminder is asked to do. */
export interface RemindRequest {
  /** Start directory for root resolution. */
  start: string;
  /** The clock. */
  clock: Clock;
  /** Longest wait for the state lock, in milliseconds (default 1500). */
  lockTimeoutMs?: number;
}

/**
 * Decides and, on a banner, records `last_reminded = now` under the state lock
 * (re-deciding there, so concurrent sessions show one banner between them).
 * Returns the decision that was recorded, or `undefined` when silent. Throws
 * on failures; the hook turns every throw into silence.
 *
 * @example
 * ```ts
 * import { remind } from "./remind.ts";
 * import { fixedClock } from "./lib/core/clock.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/.git`);
 * const clock = fixedClock(new Date("2026-11-30T09:00:00.000Z"));
 * assert.equal((await remind({ start: root, clock }))?.reason, "never_reminded");
 * assert.equal(await remind({ start: root, clock }), undefined); // once a day
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function remind(request: RemindRequest): Promise<ReminderDecision | undefined> {
  const root = await findRoot(Deno.realPathSync(request.start));
  const stateDir = await resolveStateDir(root);
  const now = request.clock.now();
  const [read, threshold] = await Promise.all([readState(stateDir), readThreshold(root)]);
  if (!decideReminder(read.state, now, threshold).show) return undefined;
  // No repository and nothing of dochygiene's here (a session in $HOME or ~/Downloads): no
  // project to remind about, and no .dochygiene/ to leave behind.
  if (read.status === "missing" && !_isProject(root)) return undefined;
  // Started outside the root, --allow-write=.dochygiene names another directory:
  // the first write (mkdir or the temp file) then throws NotCapable before
  // anything is written, which is cheaper than a permission query on every banner.
  // An existing directory gets its own .gitignore here too (once a day at most: banners only).
  await ensureStateDir(root);
  let shown: ReminderDecision | undefined;
  await updateState(stateDir, (current) => {
    const decision = decideReminder(current, now, threshold);
    if (!decision.show) return undefined;
    shown = decision;
    return { ...current, last_reminded: now.toISOString() };
  }, { timeoutMs: request.lockTimeoutMs ?? _LOCK_TIMEOUT_MS, clock: request.clock });
  return shown;
}

/** Whether `root` is a project: it holds `.git`, `.dochygiene/` or `.dochygiene.yml`. */
function _isProject(root: string): boolean {
  return [".git", STATE_DIR_NAME, CONFIG_FILE_NAME].some((name) => {
    try {
      return findEntry(root, name) !== undefined;
    } catch {
      return true; // cannot tell: as before, the state directory's checks decide
    }
  });
}

/**
 * The hook's entry point: reads the payload and the environment, runs
 * {@linkcode remind}, prints the banner. Always resolves to 0.
 *
 * @example
 * ```ts
 * import { main } from "./remind.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await main(["--unknown-flag"]), 0); // silent, never an error
 * ```
 */
export async function main(args: string[]): Promise<number> {
  try {
    const options = _parseArgs(args);
    if (options === undefined) return 0;
    if (options.help || options.version) {
      _print(options.help ? _USAGE : `dochygiene remind ${VERSION}\n`);
      return 0;
    }
    if (_isSet(Deno.env.get("CI")) || _isSet(Deno.env.get("DOCHYGIENE_DISABLE"))) return 0;
    const clock = clockFromEnv(Deno.env.get("DOCHYGIENE_NOW"));
    const payload = _readPayload();
    const start = options.root ?? _payloadCwd(payload) ?? Deno.cwd();
    const decision = await remind({ start, clock });
    if (decision === undefined) return 0;
    const banner = formatBanner(decision);
    const text = (options.format ?? (Deno.stdout.isTerminal() ? "text" : "json")) === "text";
    _print(`${text ? banner.text : banner.line}\n`);
  } catch {
    // The contract: a reminder never breaks a session, so every failure is silence.
  }
  return 0;
}

interface _Options {
  root?: string;
  format?: "json" | "text";
  help: boolean;
  version: boolean;
}

/** The common options; anything else makes the run silent (`undefined`). */
function _parseArgs(args: string[]): _Options | undefined {
  const options: _Options = { help: false, version: false };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].startsWith("--") && args[i].includes("=")
      ? [args[i].slice(0, args[i].indexOf("=")), args[i].slice(args[i].indexOf("=") + 1)]
      : [args[i], undefined];
    if (flag === "--help" || flag === "-h") options.help = true;
    else if (flag === "--version" || flag === "-V") options.version = true;
    else if (flag === "--root" || flag === "--format") {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") return undefined;
      if (flag === "--root") options.root = value;
      else if (value === "json" || value === "text") options.format = value;
      else return undefined;
    } else return undefined;
  }
  return options;
}

/** `CI`-style truthiness: anything but unset, `""`, `0` or `false`. */
function _isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/**
 * The payload JSON, or `undefined` (terminal, empty, oversized or garbage
 * stdin). Claude Code writes the payload and closes stdin, so this reads to
 * end of file, synchronously and without a timer (each costs Deno start-up
 * time); a caller that keeps stdin open must close it.
 */
function _readPayload(): unknown {
  try {
    if (Deno.stdin.isTerminal()) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    const buffer = new Uint8Array(16 * 1024);
    for (let n = Deno.stdin.readSync(buffer); n !== null; n = Deno.stdin.readSync(buffer)) {
      size += n;
      if (size > _MAX_PAYLOAD_BYTES) return undefined;
      chunks.push(buffer.slice(0, n));
    }
    // Checked first: a thrown SyntaxError costs start-up time too.
    if (size === 0) return undefined;
    return JSON.parse(_decode(concatBytes(chunks, size)));
  } catch {
    return undefined;
  }
}

/**
 * UTF-8 to text. A payload is a few hundred bytes, usually ASCII, and
 * `TextDecoder`'s first decode costs ~0.3 ms of start-up: short ASCII is
 * decoded by hand; anything else (or a malformed byte) by `TextDecoder`.
 */
function _decode(bytes: Uint8Array): string {
  if (bytes.length <= 8192 && bytes.every((b) => b < 0x80)) {
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  return new TextDecoder().decode(bytes);
}

function _payloadCwd(payload: unknown): string | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const cwd = (payload as Record<string, unknown>).cwd;
  return typeof cwd === "string" && cwd !== "" ? cwd : undefined;
}

/** Synchronous: an async write is a hop to Deno's thread pool (start-up time). */
function _print(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

if (import.meta.main) Deno.exit(await main(Deno.args));

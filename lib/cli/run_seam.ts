/**
 * The shared command-line shell of the seams: common options, output format,
 * the one-line error contract and exit codes. A seam supplies its own options
 * and a `main` that returns what to print.
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { type Clock, clockFromEnv } from "../core/clock.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { escapeControls } from "../core/escape_controls.ts";
import { findEntry } from "../fs/find_entry.ts";
import { findRoot } from "../fs/find_root.ts";
import { basename, dirname } from "../fs/path.ts";
import { VERSION } from "../core/version.ts";

/**
 * Output format of a seam: `json` and `text` for every seam; a seam may
 * accept more (`scan.ts`: `sarif`, `github`, `overview`, `overview-json`),
 * printed as its `text`.
 */
export type Format = "json" | "text" | "sarif" | "github" | "overview" | "overview-json";

/** What a seam's `main` receives. */
export interface SeamContext {
  /** Parsed option values (the seam's own and the common ones). */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Positional arguments (subcommands). */
  positionals: string[];
  /** The resolved project root (absolute). */
  root: string;
  /**
   * `--format`, or `json` when stdout is not a terminal and `text` when it is;
   * one of the seam's own {@linkcode SeamSpec.formats} when given.
   */
  format: Format;
  /** The injected clock (`DOCHYGIENE_NOW` or the system clock). */
  clock: Clock;
  /** Whether colour may be used (`text` on a terminal, `NO_COLOR` unset, `TERM` not `dumb`). */
  color: boolean;
}

/** What a seam's `main` returns: the value to print as JSON, the text form, and the exit code. */
export interface SeamResult {
  /** Printed as one JSON document with `--format json`. */
  json: unknown;
  /**
   * `json` already serialised (`JSON.stringify(json, null, 2)`, a trailing
   * newline allowed), or its UTF-8 bytes (ending in a newline): printed as
   * is, so a seam that also writes the document to a file serialises (and
   * encodes) it only once; or its UTF-8 bytes in pieces (the last ending in a
   * newline), printed one by one as they are made (a large document is never
   * held whole), each before the next is asked for (a piece's buffer may be
   * reused for the next).
   */
  jsonText?: string | Uint8Array | Iterable<Uint8Array>;
  /** Printed with `--format text`. */
  text: string;
  /** Exit code (default 0). */
  exitCode?: number;
  /**
   * For stderr: a one-line verdict (e.g. why exit 1), or several lines (e.g.
   * warnings), each printed as `dochygiene <seam>: <line>`.
   */
  stderr?: string | string[];
}

/** Description of a seam's command line. */
export interface SeamSpec {
  /** Seam name as in `dochygiene <name>: …`. */
  name: string;
  /** `--help` text. */
  usage: string;
  /** The seam's own options (node:util parseArgs format). */
  options?: ParseArgsConfig["options"];
  /** Whether positionals (subcommands) are accepted. */
  allowPositionals?: boolean;
  /**
   * Formats accepted beyond `json` and `text`: printed as the result's
   * `text`; a failure prints the `{"ok": false}` document on stdout too when
   * the name ends in `json`.
   */
  formats?: readonly Format[];
}

const _COMMON: NonNullable<ParseArgsConfig["options"]> = {
  root: { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
};

/**
 * Parses `args`, resolves root, format and clock, runs `main`, prints its
 * result in the chosen format and returns the exit code. Failures become one
 * stderr line `dochygiene <seam>: …` (plus `{"ok": false, "error": …}` on
 * stdout with JSON output); never a stack trace.
 *
 * @example
 * ```ts
 * import { runSeam } from "./run_seam.ts";
 * import assert from "node:assert/strict";
 *
 * const code = await runSeam(
 *   { name: "demo", usage: "usage: demo" },
 *   ["--format", "json", "--root", "."],
 *   () => Promise.resolve({ json: { ok: true }, text: "ok" }),
 *   { write: () => {} },
 * );
 * assert.equal(code, 0);
 * ```
 */
export async function runSeam(
  spec: SeamSpec,
  args: string[],
  main: (ctx: SeamContext) => Promise<SeamResult>,
  io: { write: (stream: "stdout" | "stderr", text: string | Uint8Array) => void } = {
    write: _write,
  },
): Promise<number> {
  const formats: readonly Format[] = ["json", "text", ...spec.formats ?? []];
  let format: Format = _guessFormat(args, formats);
  // A write that fails (a full disk, a closed stream) is returned, never thrown: the exit code
  // stays the job's, and a failure's message still reaches whichever stream works.
  const put = (stream: "stdout" | "stderr", text: string | Uint8Array): unknown => {
    try {
      io.write(stream, text);
    } catch (err) {
      return err;
    }
  };
  // Output that could not be written: one stderr line, and an exit code that says so.
  const notPrinted = (err: unknown, exitCode: number): number => {
    const failure = toFailure(err);
    put(
      "stderr",
      `dochygiene ${spec.name}: the output could not be printed: ${_oneLine(failure.message)}\n`,
    );
    return Math.max(exitCode, failure.exitCode);
  };
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        options: { ..._COMMON, ...spec.options },
        allowPositionals: spec.allowPositionals ?? false,
        strict: true,
        tokens: true,
      });
    } catch (err) {
      throw new DochygieneError("USAGE", `${_usageProblem(err)}; see --help`, 2);
    }
    const { values, positionals, tokens } = parsed;
    for (const token of tokens) {
      if (token.kind !== "option" || token.name !== "format") continue;
      if (formats.includes(token.value as Format)) continue;
      format = "json";
      throw new DochygieneError(
        "USAGE",
        `--format must be ${formats.slice(0, -1).join(", ")} or ${
          formats.at(-1)
        } (got "${token.value}")`,
        2,
      );
    }
    if (values.help || values.version) {
      const unprinted = put(
        "stdout",
        values.help ? spec.usage.trimEnd() + "\n" : `dochygiene ${spec.name} ${VERSION}\n`,
      );
      return unprinted === undefined ? 0 : notPrinted(unprinted, 0);
    }
    if (values.root === "") {
      throw new DochygieneError("USAGE", "--root needs a value (--root DIR); see --help", 2);
    }
    const start = typeof values.root === "string" ? values.root : _cwd();
    await _assertDirectory(start);
    const ctx: SeamContext = {
      values,
      positionals,
      root: await findRoot(start),
      format,
      clock: clockFromEnv(Deno.env.get("DOCHYGIENE_NOW")),
      color: format === "text" && Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR") &&
        Deno.env.get("TERM") !== "dumb",
    };
    const result = await main(ctx);
    const { jsonText } = result;
    const out = format !== "json"
      ? result.text.trimEnd() + "\n"
      : jsonText === undefined
      ? JSON.stringify(result.json, null, 2) + "\n"
      : typeof jsonText === "string" && !jsonText.endsWith("\n")
      ? jsonText + "\n"
      : jsonText;
    let unprinted: unknown;
    if (typeof out === "string" || out instanceof Uint8Array) unprinted = put("stdout", out);
    else for (const chunk of out) if ((unprinted = put("stdout", chunk)) !== undefined) break;
    for (const line of [result.stderr ?? []].flat()) {
      if (line) put("stderr", `dochygiene ${spec.name}: ${_oneLine(line)}\n`);
    }
    if (unprinted === undefined) return result.exitCode ?? 0;
    // The job is done (files written), but its output is lost: the caller must know.
    return notPrinted(unprinted, result.exitCode ?? 0);
  } catch (err) {
    const failure = toFailure(err);
    put("stderr", `dochygiene ${spec.name}: ${_oneLine(failure.message)}\n`);
    if (format === "json" || format.endsWith("json")) {
      put(
        "stdout",
        JSON.stringify({ ok: false, error: { code: failure.code, message: failure.message } }) +
          "\n",
      );
    }
    return failure.exitCode;
  }
}

/**
 * Maps any thrown value to a {@linkcode DochygieneError}: expected failures
 * pass through, Deno's sandbox denials become `NO_PERMISSION` (the flags are
 * the fix), the operating system's `ACCESS_DENIED` (owner or mode is the
 * fix), anything else `INTERNAL` (exit 1) with its message on one line.
 *
 * @example
 * ```ts
 * import { toFailure } from "./run_seam.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(toFailure(new Error("boom\nat x")).message, "unexpected error: boom; please report it");
 * ```
 */
export function toFailure(err: unknown): DochygieneError {
  if (err instanceof DochygieneError) return err;
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  if (err instanceof Deno.errors.NotCapable) {
    return new DochygieneError(
      "NO_PERMISSION",
      `${message}; run with the permission flags documented in the README`,
    );
  }
  // The operating system refused (owner, mode), not Deno's sandbox: no flag fixes that.
  if (err instanceof Deno.errors.PermissionDenied) {
    return new DochygieneError("ACCESS_DENIED", _osDenial(message));
  }
  // Deno gives these as plain errors with the errno's name: the file system refused, no bug.
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && code in _FS_REFUSALS) {
    return new DochygieneError("ACCESS_DENIED", `${message}: ${_FS_REFUSALS[code]}`);
  }
  return new DochygieneError("INTERNAL", `unexpected error: ${message}; please report it`);
}

/** File-system refusals that are not a permission error, with their fix. */
const _FS_REFUSALS: Record<string, string> = {
  EROFS: "the file system is mounted read-only; run where it can be written",
  ENOSPC: "the disk is full; free some space and run again",
  EDQUOT: "the disk quota is exceeded; free some space and run again",
  EPERM: "the operating system refused the operation (an immutable or append-only file?): " +
    "clear the attribute (chattr -i / -a) or run elsewhere",
};

/** Deno's OS errors name the call and its path: `Permission denied (os error 13): open '/x/y'`. */
const _OS_CALL = /^(.*?): (\w+) '(.*?)'(?: -> '.*')?$/;
/** Calls that only look: the path they name is what this user may not read. */
const _READ_CALLS = ["stat", "lstat", "readdir", "readfile", "realpath", "readlink"];

/** What the operating system refused, and that owner or mode is the fix. */
function _osDenial(message: string): string {
  // EPERM (os error 1) where EACCES is usual: an immutable or append-only attribute, as a rule.
  const attribute = /\(os error 1\)/.test(message)
    ? "clear an immutable or append-only attribute (chattr -i / -a) or fix its owner or mode"
    : undefined;
  const m = _OS_CALL.exec(message);
  if (m === null) {
    return `${message}: the operating system refused; ${
      attribute ?? "fix the owner or mode it names"
    }`;
  }
  const [, reason, call, path] = m;
  if (_READ_CALLS.includes(call)) {
    return `${path} cannot be read by this user (${reason}): ${
      attribute ?? "fix its owner or mode, or its directory's"
    }`;
  }
  if (call === "open" && _existing(path)) {
    return `${path} cannot be opened by this user (${reason}): ${
      attribute ?? "fix its owner or mode"
    }`;
  }
  // Creating, renaming or removing an entry is refused by its directory.
  return `${dirname(path)} is not writable by this user (${reason}): ${
    attribute ?? "fix its owner or mode"
  }`;
}

/** Whether `path` exists; `false` as well when that cannot be told. */
function _existing(path: string): boolean {
  try {
    return findEntry(dirname(path), basename(path)) !== undefined;
  } catch {
    return false;
  }
}

/**
 * parseArgs' message on one line, without the advice to quote an unknown
 * option after `--` (which, cut to its first line, loses a quote).
 */
function _usageProblem(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  const unknown = /^Unknown option '(.*?)'(?:\. To specify a positional argument|$)/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const positional = /^Unexpected argument '(.*?)'/.exec(message);
  if (positional) return `unexpected argument ${positional[1]}: this command takes options only`;
  // An option last, or before another option, with no value: "argument missing"/"is ambiguous".
  const value = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/
    .exec(message);
  return value
    ? `${value[1]} needs a value (${value[1]} VALUE; one that starts with "-": ${value[1]}=VALUE)`
    : message;
}

/**
 * The output format: the last `--format` before `--`, as parseArgs takes it,
 * else by whether stdout is a terminal; known before the arguments parse, so
 * parse errors use it too. An invalid `--format` value is then refused (as JSON).
 */
function _guessFormat(args: string[], formats: readonly Format[]): Format {
  let value: string | undefined;
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    if (args[i] === "--format") value = args[++i];
    else if (args[i].startsWith("--format=")) value = args[i].slice("--format=".length);
  }
  if (formats.includes(value as Format)) return value as Format;
  return Deno.stdout.isTerminal() ? "text" : "json";
}

/** The working directory; one whose path is not UTF-8 is no root Deno can work in. */
function _cwd(): string {
  try {
    return Deno.cwd();
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    if (!/not valid UTF-8/.test(message)) throw err;
    throw new DochygieneError(
      "BAD_ROOT",
      `the current directory cannot be used: ${message}, which Deno cannot open; rename it ` +
        "(or move the project) to a UTF-8 path",
      2,
    );
  }
}

async function _assertDirectory(path: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await Deno.stat(path)).isDirectory;
    // A directory this user may not list is no project to work in either.
    if (isDirectory) { for (const _ of Deno.readDirSync(path)) break; }
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable) throw err;
    if (!(err instanceof Deno.errors.NotFound) && !(err instanceof Deno.errors.NotADirectory)) {
      // Exists, but this user may not look (a directory above it is not searchable).
      throw new DochygieneError(
        "BAD_ROOT",
        `--root ${path} cannot be read (${
          err instanceof Error ? err.message.split("\n")[0] : err
        }); name a directory this user can read`,
        2,
      );
    }
  }
  if (isDirectory) return;
  // Deno decodes arguments lossily: a name that is not UTF-8 arrives with U+FFFD and is not found.
  throw new DochygieneError(
    "BAD_ROOT",
    path.includes("\uFFFD")
      ? `--root ${path} is not a directory Deno can open (a name in it may not be valid UTF-8: ` +
        "rename it to UTF-8)"
      : `--root ${path} is not a directory; name an existing one`,
    2,
  );
}

/**
 * The stderr contract is one line: names and keys from the repository can hold
 * newlines, terminal escape sequences or bidi controls, all escaped.
 */
function _oneLine(text: string): string {
  return escapeControls(text);
}

function _write(stream: "stdout" | "stderr", text: string | Uint8Array): void {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const target = stream === "stdout" ? Deno.stdout : Deno.stderr;
  let written = 0;
  try {
    while (written < bytes.length) written += target.writeSync(bytes.subarray(written));
  } catch (err) {
    // The reader left (`| head`, `| true`): the job is done all the same; the rest is dropped.
    if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
  }
}

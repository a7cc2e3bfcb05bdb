/**
 * `state.ts` — the state store: `.dochygiene/state.json`, the one report
 * pair, and `doctor`. Run it from the project root:
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git state.ts show
 * ```
 *
 * @module
 */

import { resolve } from "node:path";
import { checkStaleness } from "./lib/state/check_staleness.ts";
import { CLOCK_SLACK_MS } from "./lib/core/clock.ts";
import { diagnose, type Diagnosis } from "./lib/state/diagnose.ts";
import { escapeControls } from "./lib/core/escape_controls.ts";
import { DochygieneError } from "./lib/core/dochygiene_error.ts";
import { loadConfig } from "./lib/config/load_config.ts";
import { readCapped } from "./lib/fs/read_capped.ts";
import { runSeam, type SeamContext, type SeamResult } from "./lib/cli/run_seam.ts";
import {
  assertWritePermission,
  ensureStateDir,
  resolveStateDir,
  STATE_DIR_NAME,
} from "./lib/state/state_dir.ts";
import { futureTimes, readState, type State, updateState } from "./lib/state/state_file.ts";
import { MAX_REPORT_BYTES, parseReport } from "./lib/report/validate_report.ts";
import { withLock } from "./lib/fs/with_lock.ts";
import { writeReportPair } from "./lib/report/write_report_pair.ts";

const USAGE = `usage: state.ts <command> [options]

The dochygiene state store. Run it from the project root with:
  deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git state.ts <command>

commands:
  show           print the state, days since the last check and whether the docs are stale
  mark-checked   set last_check to now (and any other time later than now, e.g. a
                 clock_watermark written by a clock that ran ahead)
  report         validate a schema-v1 report (stdin, or --file F), write the report pair
                 (report-<stamp>.json + .md, older pairs removed) and set last_check
  doctor         check the root, the state directory, that git ignores .dochygiene/ and the
                 config; exit 0 when healthy, 1 when not (it never edits anything)

options:
  --file F            report: read the report from F instead of stdin
  --root DIR          start directory for root resolution (default: the current directory)
  --format json|text  output format (default: json when stdout is not a terminal)
  -h, --help          print this help
  -V, --version       print the version

exit codes: 0 success, 1 could not do the job (or doctor found problems), 2 usage or input error
`;

const _COMMANDS = ["show", "mark-checked", "report", "doctor"];

/**
 * Runs `state.ts` with `args` and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./state.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await main(["--version"]), 0);
 * ```
 */
export function main(args: string[]): Promise<number> {
  return runSeam(
    { name: "state", usage: USAGE, options: { file: { type: "string" } }, allowPositionals: true },
    args,
    _run,
  );
}

function _run(ctx: SeamContext): Promise<SeamResult> {
  const [command, ...extra] = ctx.positionals;
  if (command === undefined) {
    throw _usage(`missing command: use one of ${_COMMANDS.join(", ")}; see --help`);
  }
  if (!_COMMANDS.includes(command)) {
    throw _usage(`unknown command "${command}": use one of ${_COMMANDS.join(", ")}; see --help`);
  }
  if (extra.length > 0) throw _usage(`unexpected argument "${extra[0]}"; see --help`);
  if (ctx.values.file !== undefined && command !== "report") {
    throw _usage("--file only applies to the report command; see --help");
  }
  switch (command) {
    case "show":
      return _show(ctx);
    case "mark-checked":
      return _markChecked(ctx);
    case "report":
      return _report(ctx);
    default:
      return _doctor(ctx);
  }
}

async function _show(ctx: SeamContext): Promise<SeamResult> {
  const stateDir = await resolveStateDir(ctx.root);
  const config = await loadConfig(ctx.root);
  const { state, status } = await readState(stateDir);
  const now = ctx.clock.now();
  const derived = checkStaleness(state.last_check, now, config.threshold_days);
  // A check later than now counts as just checked, as for the reminder: never a negative count.
  const days = derived.days_since_check === null ? null : Math.max(0, derived.days_since_check);
  const future = futureTimes(state, now, CLOCK_SLACK_MS);
  const when = (key: "last_reminded" | "last_prune") =>
    `${state[key] ?? "never"}${future.includes(key) ? " (in the future)" : ""}`;
  return {
    json: {
      ok: true,
      root: ctx.root,
      state_dir: stateDir,
      state_status: status,
      state,
      days_since_check: days,
      stale: derived.stale,
      threshold_days: config.threshold_days,
      future_times: future,
    },
    text: _terminalSafe([
      `root:           ${ctx.root}`,
      `state:          ${stateDir}/state.json (${status})`,
      `last check:     ${
        days === null
          ? "never"
          : `${state.last_check} (${
            future.includes("last_check") ? "in the future" : `${days} days ago`
          })`
      }`,
      `stale:          ${derived.stale ? "yes" : "no"} (threshold ${config.threshold_days} days)`,
      `last reminded:  ${when("last_reminded")}`,
      `last prune:     ${when("last_prune")}`,
      ...(future.length > 0
        ? [
          `in the future:  ${
            future.join(", ")
          } (now is ${now.toISOString()}); if the clock is right, run mark-checked to reset them`,
        ]
        : []),
    ]),
  };
}

async function _markChecked(ctx: SeamContext): Promise<SeamResult> {
  const stateDir = await _writableStateDir(ctx.root);
  const { state, keptAside, reset } = await _setLastCheck(ctx, stateDir, { resetFuture: true });
  return {
    json: {
      ok: true,
      root: ctx.root,
      state_dir: stateDir,
      state,
      kept_corrupt: keptAside,
      reset_future: reset,
    },
    text: _terminalSafe([
      `last_check set to ${state.last_check} in ${stateDir}/state.json`,
      ...(reset.length > 0 ? [`reset to now (they were later than now): ${reset.join(", ")}`] : []),
      ...(keptAside ? [`the corrupt state file was kept aside as ${keptAside}`] : []),
    ]),
  };
}

async function _report(ctx: SeamContext): Promise<SeamResult> {
  const file = ctx.values.file as string | undefined;
  const report = parseReport(await _readReportText(file), { now: ctx.clock.now() });
  const stateDir = await _writableStateDir(ctx.root);
  // A state file that cannot be read (a directory, no permission) fails here, before the
  // previous pair is rolled over: the pair and its last_check go together.
  await readState(stateDir);
  // One critical section: a racing report cannot leave one writer's pair with another's last_check.
  const { written, state, keptAside } = await withLock(stateDir, async () => ({
    written: await writeReportPair(stateDir, report, { clock: ctx.clock, held: true }),
    ...await _setLastCheck(ctx, stateDir, { held: true }),
  }));
  return {
    json: {
      ok: true,
      root: ctx.root,
      state_dir: stateDir,
      report: { stamp: written.stamp, json: written.json, md: written.md },
      entries: report.entries.length,
      removed: written.removed,
      last_check: state.last_check,
      kept_corrupt: keptAside,
    },
    text: _terminalSafe([
      `wrote ${written.json}`,
      `wrote ${written.md}`,
      ...written.removed.map((p) => `removed ${p}`),
      `last_check set to ${state.last_check}`,
      ...(keptAside ? [`the corrupt state file was kept aside as ${keptAside}`] : []),
    ]),
  };
}

async function _doctor(ctx: SeamContext): Promise<SeamResult> {
  const d = await diagnose(ctx.root, { clock: ctx.clock });
  const summary = d.healthy
    ? undefined
    : `doctor found ${d.problems.length} problem(s): ${d.problems.join("; ")}`;
  return {
    json: d.healthy
      ? { ok: true, ...d }
      : { ok: false, error: { code: "UNHEALTHY", message: summary }, ...d },
    text: _doctorText(d),
    exitCode: d.healthy ? 0 : 1,
    stderr: summary,
  };
}

function _doctorText(d: Diagnosis): string {
  const ignored = !d.git_repository
    ? "n/a (not a git repository)"
    : d.gitignore.error !== null
    ? `unknown: git failed (${d.gitignore.error})`
    : d.gitignore.ignored
    ? "yes"
    : "NO";
  const lines = [
    `root:        ${d.root}${d.git_repository ? "" : " (no .git found: not a git repository)"}`,
    `state dir:   ${d.state_dir.path} (${d.state_dir.status}, ${
      d.state_dir.writable ? "writable" : "NOT writable"
    })`,
    `state file:  ${d.state_file}`,
    `report:      ${d.report ? `${d.report.json} + .md` : "none"}`,
    `git ignores ${STATE_DIR_NAME}/: ${ignored}`,
    `config:      ${d.config.path} (${
      d.config.present ? (d.config.valid ? "valid" : "INVALID") : "absent: defaults"
    })`,
    "",
  ];
  if (d.healthy) return _terminalSafe([...lines, "healthy"]);
  lines.push(`${d.problems.length} problem(s):`, ...d.problems.map((p) => `- ${p}`));
  if (d.gitignore.ignored === false) {
    lines.push("", `Add this line to ${d.root}/.gitignore:`, "", d.gitignore.line);
  }
  return _terminalSafe(lines);
}

/** The state dir, checked (real directory inside the root, write permission) and created. */
async function _writableStateDir(root: string): Promise<string> {
  assertWritePermission(await resolveStateDir(root), root);
  return await ensureStateDir(root);
}

/**
 * Sets `last_check` to now. With `resetFuture`, also every other time later
 * than now plus the prune's clock slack: `mark-checked` is the user's word that
 * the clock is right, so a watermark or banner date from a clock that ran
 * ahead no longer defers prune or snoozes the reminder. `report` (run by the
 * check skill) leaves them alone.
 */
async function _setLastCheck(
  ctx: SeamContext,
  stateDir: string,
  options: { held?: boolean; resetFuture?: boolean } = {},
): Promise<{ state: State; keptAside: string | null; reset: string[] }> {
  let keptAside: string | null = null;
  let reset: string[] = [];
  const now = ctx.clock.now();
  const iso = now.toISOString();
  const state = await updateState(stateDir, (s) => {
    reset = options.resetFuture ? futureTimes(s, now, CLOCK_SLACK_MS) : [];
    return { ...s, ...Object.fromEntries(reset.map((key) => [key, iso])), last_check: iso };
  }, {
    clock: ctx.clock,
    held: options.held,
    onKeptAside: (path) => (keptAside = path),
  });
  return { state, keptAside, reset };
}

async function _readReportText(file: string | undefined): Promise<string> {
  let bytes: Uint8Array | undefined;
  let source: string;
  if (file !== undefined) {
    source = resolve(file);
    let handle: Deno.FsFile;
    try {
      // Checked before opening: opening a FIFO without a writer blocks forever.
      if (!(await Deno.stat(source)).isFile) {
        throw new DochygieneError("INVALID_REPORT", `--file ${file} is not a regular file`, 2);
      }
      handle = await Deno.open(source, { read: true });
    } catch (err) {
      if (err instanceof DochygieneError) throw err;
      throw new DochygieneError(
        "INVALID_REPORT",
        `cannot read --file ${file} (${_reason(err)}); name an existing report file`,
        2,
      );
    }
    const info = await handle.stat();
    if (!info.isFile) {
      handle.close();
      throw new DochygieneError("INVALID_REPORT", `--file ${file} is not a regular file`, 2);
    }
    // The size check spares reading a huge file; the cap still holds if it grows meanwhile.
    if (info.size > MAX_REPORT_BYTES) handle.close();
    else bytes = await readCapped(handle.readable, MAX_REPORT_BYTES);
  } else {
    source = "stdin";
    if (Deno.stdin.isTerminal()) {
      throw _usage("report reads the report JSON on stdin: pipe it in, or pass --file F");
    }
    bytes = await readCapped(Deno.stdin.readable, MAX_REPORT_BYTES);
  }
  if (bytes === undefined) {
    throw new DochygieneError(
      "INVALID_REPORT",
      `the report on ${source} is larger than ${MAX_REPORT_BYTES} bytes; shorten it`,
      2,
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DochygieneError("INVALID_REPORT", `the report on ${source} is not UTF-8 text`, 2);
  }
}

function _usage(message: string): DochygieneError {
  return new DochygieneError("USAGE", message, 2);
}

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

if (import.meta.main) Deno.exit(await main(Deno.args));

/** Lines for a terminal: paths and values may hold control characters (a root named so). */
function _terminalSafe(lines: string[]): string {
  return lines.map((line) => escapeControls(line)).join("\n");
}

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

import { describeState } from "./lib/state/describe_state.ts";
import { diagnose } from "./lib/state/diagnose.ts";
import { escapeLines } from "./lib/core/escape_controls.ts";
import { DochygieneError } from "./lib/core/dochygiene_error.ts";
import { loadConfig } from "./lib/config/load_config.ts";
import { readReportText } from "./lib/report/read_report_text.ts";
import { renderDoctorText } from "./lib/state/render_doctor_text.ts";
import { runSeam, type SeamContext, type SeamResult } from "./lib/cli/run_seam.ts";
import { setLastCheck } from "./lib/state/set_last_check.ts";
import { assertWritePermission, ensureStateDir, resolveStateDir } from "./lib/state/state_dir.ts";
import { readState } from "./lib/state/state_file.ts";
import { parseReport } from "./lib/report/validate_report.ts";
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
  return describeState({
    root: ctx.root,
    stateDir,
    read: await readState(stateDir),
    now: ctx.clock.now(),
    thresholdDays: config.threshold_days,
  });
}

async function _markChecked(ctx: SeamContext): Promise<SeamResult> {
  const stateDir = await _writableStateDir(ctx.root);
  const { state, keptAside, reset } = await setLastCheck(stateDir, ctx.clock, {
    resetFuture: true,
  });
  return {
    json: {
      ok: true,
      root: ctx.root,
      state_dir: stateDir,
      state,
      kept_corrupt: keptAside,
      reset_future: reset,
    },
    text: escapeLines([
      `last_check set to ${state.last_check} in ${stateDir}/state.json`,
      ...(reset.length > 0 ? [`reset to now (they were later than now): ${reset.join(", ")}`] : []),
      ...(keptAside ? [`the corrupt state file was kept aside as ${keptAside}`] : []),
    ]),
  };
}

async function _report(ctx: SeamContext): Promise<SeamResult> {
  const file = ctx.values.file as string | undefined;
  const report = parseReport(await readReportText(file), { now: ctx.clock.now() });
  const stateDir = await _writableStateDir(ctx.root);
  // A state file that cannot be read (a directory, no permission) fails here, before the
  // previous pair is rolled over: the pair and its last_check go together.
  await readState(stateDir);
  // One critical section: a racing report cannot leave one writer's pair with another's last_check.
  const { written, state, keptAside } = await withLock(stateDir, async () => ({
    written: await writeReportPair(stateDir, report, { clock: ctx.clock, held: true }),
    ...await setLastCheck(stateDir, ctx.clock, { held: true }),
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
    text: escapeLines([
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
    text: renderDoctorText(d),
    exitCode: d.healthy ? 0 : 1,
    stderr: summary,
  };
}

/** The state dir, checked (real directory inside the root, write permission) and created. */
async function _writableStateDir(root: string): Promise<string> {
  assertWritePermission(await resolveStateDir(root), root);
  return await ensureStateDir(root);
}

function _usage(message: string): DochygieneError {
  return new DochygieneError("USAGE", message, 2);
}

if (import.meta.main) Deno.exit(await main(Deno.args));

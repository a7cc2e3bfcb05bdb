/**
 * The facts behind `state.ts doctor`: root, state directory, whether git
 * ignores `.dochygiene/`, config validity. Read-only: it reports problems
 * with their fix and never edits anything (`.gitignore` included).
 *
 * @module
 */

import { join } from "node:path";
import { type Clock, CLOCK_SLACK_MS, systemClock } from "../core/clock.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { findReportPair, type ReportPair } from "../report/find_report_pair.ts";
import { CONFIG_FILE_NAME, loadConfig } from "../config/load_config.ts";
import { pathExists } from "../fs/path_exists.ts";
import { runGit } from "../git/run_git.ts";
import { hasWritePermission, resolveStateDir, STATE_DIR_NAME } from "./state_dir.ts";
import { futureTimes, readState, STATE_FILE_NAME } from "./state_file.ts";
import { staleTempFiles } from "../fs/stale_temp_files.ts";
import { MAX_REPORT_BYTES } from "../report/validate_report.ts";

/** The `.gitignore` line that keeps the state directory out of git. */
export const GITIGNORE_LINE = ".dochygiene/";

/** What `doctor` found. */
export interface Diagnosis {
  /** No problem found. */
  healthy: boolean;
  /** The project root (absolute). */
  root: string;
  /** Whether the root holds a `.git` entry. */
  git_repository: boolean;
  /** The state directory. */
  state_dir: {
    /** `<root>/.dochygiene`. */
    path: string;
    /** `ok`, `missing` (created on the first write; healthy) or `invalid` (symlink, file, outside the root, unreadable). */
    status: "ok" | "missing" | "invalid";
    /**
     * Whether this process can write it: Deno's write permission and, when the
     * directory exists, the operating system's (owner, mode, read-only mount),
     * tried by creating and removing an empty probe file.
     */
    writable: boolean;
  };
  /** The state file: `ok`, `missing` (never checked), `corrupt`, `unreadable`, or `unknown` when the directory is invalid. */
  state_file: "ok" | "missing" | "corrupt" | "unreadable" | "unknown";
  /** The state's timestamps later than now plus {@linkcode CLOCK_SLACK_MS} (`clock_watermark`, …). */
  future_times: string[];
  /** Temp files of interrupted writes in the state directory (names, sorted). */
  leftover_temps: string[];
  /** The current report pair, if any. */
  report: ReportPair | null;
  /** Git's view of the state directory (`null` fields outside a repository). */
  gitignore: {
    /** Whether git ignores `.dochygiene/` (`null`: not a git repository or git failed). */
    ignored: boolean | null;
    /** Whether some file under `.dochygiene/` is tracked anyway. */
    tracked: boolean | null;
    /** The exact line to add to `<root>/.gitignore` when not ignored. */
    line: string;
    /** Why git could not tell, when it failed in a repository; else `null`. */
    error: string | null;
  };
  /** `.dochygiene.yml`. */
  config: {
    /** Absolute path. */
    path: string;
    /** Whether the file exists (absent = defaults, valid). */
    present: boolean;
    /** Whether it validates. */
    valid: boolean;
  };
  /** One line per problem, each naming the fix; empty when healthy. */
  problems: string[];
}

/**
 * Gathers the doctor's facts for `root`. It edits nothing: the one thing it
 * creates is an empty probe file in an existing state directory, removed at
 * once, because only a write tells whether the operating system allows one.
 * `clock` (default: the system clock) dates the future-timestamp check.
 *
 * @example
 * ```ts
 * import { diagnose } from "./diagnose.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const d = await diagnose(root);
 * assert.equal(d.git_repository, false);
 * assert.equal(d.state_dir.status, "missing");
 * assert.equal(d.healthy, true);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function diagnose(root: string, options: { clock?: Clock } = {}): Promise<Diagnosis> {
  const problems: string[] = [];
  const stateDirPath = join(root, STATE_DIR_NAME);
  const statePath = join(stateDirPath, STATE_FILE_NAME);
  let dirStatus: Diagnosis["state_dir"]["status"] = "invalid";
  let stateFile: Diagnosis["state_file"] = "unknown";
  let future: string[] = [];
  let leftovers: string[] = [];
  let report: ReportPair | null = null;
  try {
    await resolveStateDir(root);
    dirStatus = await pathExists(stateDirPath) ? "ok" : "missing";
  } catch (err) {
    problems.push(_message(err));
  }
  let writable = hasWritePermission(stateDirPath);
  if (!writable) {
    problems.push(
      `no write permission for ${stateDirPath}: run from the project root (cd ${root}) so that --allow-write=.dochygiene names it`,
    );
  } else if (dirStatus === "ok") {
    const denied = _writeDenied(stateDirPath);
    writable = denied === undefined;
    if (denied !== undefined) {
      problems.push(
        `${stateDirPath} is not writable by this user (${denied}): fix its owner or mode`,
      );
    }
  }
  if (dirStatus !== "invalid") {
    try {
      const read = await readState(stateDirPath);
      stateFile = read.status;
      if (stateFile === "corrupt") {
        problems.push(
          `${statePath} is corrupt: the next write keeps it aside as state.json.corrupt-<stamp> and starts fresh (run state.ts mark-checked)`,
        );
      }
      const now = (options.clock ?? systemClock).now();
      future = futureTimes(read.state, now, CLOCK_SLACK_MS);
      if (future.length > 0) {
        const times = future.map((key) => `${key} ${read.state[key]}`).join(", ");
        // What each one does until then (a future last_reminded or last_prune only misleads).
        const effects = [
          ...(future.includes("last_check") ? ["last_check silences the reminder"] : []),
          ...(future.includes("clock_watermark") ? ["clock_watermark defers prune"] : []),
        ];
        problems.push(
          `${statePath} holds times later than now (${now.toISOString()}): ${times}${
            effects.length > 0 ? ` (${effects.join("; ")})` : ""
          }; if the clock is right, run state.ts mark-checked (it resets them to now)`,
        );
      }
      report = (await findReportPair(stateDirPath)) ?? null;
      const judgedAt = report === null ? undefined : _reportTime(report.json);
      if (
        report !== null && judgedAt !== undefined &&
        Date.parse(judgedAt) > now.getTime() + CLOCK_SLACK_MS
      ) {
        problems.push(
          `${report.json} is dated ${judgedAt}, later than now (${now.toISOString()}): prune ` +
            "does not use its judgments; if the clock is right, run /dochygiene:check again",
        );
      }
      // Stamped with the real time by atomicWrite, whatever clock this check was given.
      if (dirStatus === "ok") leftovers = staleTempFiles(stateDirPath, Date.now());
      if (leftovers.length > 0) {
        problems.push(
          `${stateDirPath} holds ${leftovers.length} temp file(s) of interrupted writes (${
            leftovers.join(", ")
          }): delete them while no dochygiene command runs (the next state write removes those of state.json)`,
        );
      }
    } catch (err) {
      stateFile = "unreadable";
      problems.push(_message(err));
    }
  }
  const gitRepository = await pathExists(join(root, ".git"));
  let ignored: boolean | null = null;
  let tracked: boolean | null = null;
  let gitError: string | null = null;
  if (gitRepository) {
    try {
      ignored = await _isIgnored(root);
      tracked = await _isTracked(root);
      if (!ignored) {
        problems.push(
          `${STATE_DIR_NAME}/ is not ignored by git: add the line "${GITIGNORE_LINE}" to ${
            join(root, ".gitignore")
          }`,
        );
      }
      if (tracked) {
        problems.push(
          `files under ${STATE_DIR_NAME}/ are tracked by git: run git rm -r --cached ${STATE_DIR_NAME} and commit`,
        );
      }
    } catch (err) {
      gitError = _message(err);
      problems.push(gitError);
    }
  }
  const configPath = join(root, CONFIG_FILE_NAME);
  let valid = true;
  try {
    await loadConfig(root);
  } catch (err) {
    valid = false;
    problems.push(_message(err));
  }
  return {
    healthy: problems.length === 0,
    root,
    git_repository: gitRepository,
    state_dir: { path: stateDirPath, status: dirStatus, writable },
    state_file: stateFile,
    future_times: future,
    leftover_temps: leftovers,
    report,
    gitignore: { ignored, tracked, line: GITIGNORE_LINE, error: gitError },
    config: { path: configPath, present: await pathExists(configPath), valid },
    problems,
  };
}

/**
 * Ignored when git ignores every kind of file dochygiene writes there. Asked per
 * file, never for the directory: `.dochygiene/*` matches the path `.dochygiene/`
 * while a later `!.dochygiene/state.json` still re-includes that file.
 */
async function _isIgnored(root: string): Promise<boolean> {
  const files = ["state.json", "scan.json", "scan-cache.json", "report-20000101T000000Z.json"]
    .concat(["report-20000101T000000Z.md", "state.lock", "state.json.corrupt-20000101T000000Z"])
    .map((f) => `${STATE_DIR_NAME}/${f}`);
  // check-ignore rejects --literal-pathspecs; these paths are constants.
  const { stdout } = await runGit(root, ["check-ignore", "--no-index", "--stdin", "-z"], {
    stdin: files.join("\0") + "\0",
    okCodes: [0, 1],
    literalPathspecs: false,
  });
  const hits = new Set(new TextDecoder().decode(stdout).split("\0"));
  return files.every((f) => hits.has(f));
}

/** doctor's probe: one fixed name, so a killed doctor leaves at most one, removed by the next. */
const _PROBE = ".doctor-probe";

/**
 * Why the operating system refuses to create or remove a file in `dir`
 * (owner, mode, read-only mount, append-only attribute), or `undefined` when
 * it allows both.
 */
function _writeDenied(dir: string): string | undefined {
  const probe = join(dir, _PROBE);
  try {
    _removeIfThere(probe);
    try {
      Deno.openSync(probe, { write: true, createNew: true }).close();
    } catch (err) {
      // Another doctor's probe, created an instant ago: the directory takes new files.
      if (err instanceof Deno.errors.AlreadyExists) return undefined;
      throw err;
    }
    _removeIfThere(probe);
    return undefined;
  } catch (err) {
    // "Permission denied (os error 13): open '<probe>'": the probe's name would only confuse.
    return _message(err).replace(/: \w+ '.*$/, "");
  }
}

function _removeIfThere(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

async function _isTracked(root: string): Promise<boolean> {
  const { stdout } = await runGit(root, ["ls-files", "-z", "--", STATE_DIR_NAME]);
  return stdout.length > 0;
}

/** The `generated_at` of the report at `path`, when it can be read (the report is small). */
function _reportTime(path: string): string | undefined {
  try {
    if (Deno.statSync(path).size > MAX_REPORT_BYTES) return undefined;
    const at = JSON.parse(Deno.readTextFileSync(path))?.generated_at;
    return typeof at === "string" ? at : undefined;
  } catch {
    return undefined; // unreadable or not JSON: prune says so when it reads it
  }
}

function _message(err: unknown): string {
  if (err instanceof DochygieneError) return err.message;
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

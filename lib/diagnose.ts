/**
 * The facts behind `state.ts doctor`: root, state directory, whether git
 * ignores `.dochygiene/`, config validity. Read-only: it reports problems
 * with their fix and never edits anything (`.gitignore` included).
 *
 * @module
 */

import { join } from "node:path";
import { DochygieneError } from "./dochygiene_error.ts";
import { findReportPair, type ReportPair } from "./find_report_pair.ts";
import { CONFIG_FILE_NAME, loadConfig } from "./load_config.ts";
import { pathExists } from "./path_exists.ts";
import { runGit } from "./run_git.ts";
import { hasWritePermission, resolveStateDir, STATE_DIR_NAME } from "./state_dir.ts";
import { readState, STATE_FILE_NAME } from "./state_file.ts";

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
    /** Whether this process holds Deno write permission for it. */
    writable: boolean;
  };
  /** The state file: `ok`, `missing` (never checked), `corrupt`, `unreadable`, or `unknown` when the directory is invalid. */
  state_file: "ok" | "missing" | "corrupt" | "unreadable" | "unknown";
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
 * Gathers the doctor's facts for `root` without writing anything.
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
export async function diagnose(root: string): Promise<Diagnosis> {
  const problems: string[] = [];
  const stateDirPath = join(root, STATE_DIR_NAME);
  let dirStatus: Diagnosis["state_dir"]["status"] = "invalid";
  let stateFile: Diagnosis["state_file"] = "unknown";
  let report: ReportPair | null = null;
  try {
    await resolveStateDir(root);
    dirStatus = await pathExists(stateDirPath) ? "ok" : "missing";
  } catch (err) {
    problems.push(_message(err));
  }
  const writable = hasWritePermission(stateDirPath);
  if (!writable) {
    problems.push(
      `no write permission for ${stateDirPath}: run from the project root (cd ${root}) so that --allow-write=.dochygiene names it`,
    );
  }
  if (dirStatus !== "invalid") {
    try {
      stateFile = (await readState(stateDirPath)).status;
      if (stateFile === "corrupt") {
        problems.push(
          `${
            join(stateDirPath, STATE_FILE_NAME)
          } is corrupt: the next write keeps it aside as state.json.corrupt-<stamp> and starts fresh (run state.ts mark-checked)`,
        );
      }
      report = (await findReportPair(stateDirPath)) ?? null;
    } catch (err) {
      stateFile = "unreadable";
      problems.push(_message(err));
    }
  }
  const gitRepository = await pathExists(join(root, ".git"));
  let ignored: boolean | null = null;
  let tracked: boolean | null = null;
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
      problems.push(_message(err));
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
    report,
    gitignore: { ignored, tracked, line: GITIGNORE_LINE },
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
  const files = ["state.json", "scan.json", "report-20000101T000000Z.json"]
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

async function _isTracked(root: string): Promise<boolean> {
  const { stdout } = await runGit(root, ["ls-files", "-z", "--", STATE_DIR_NAME]);
  return stdout.length > 0;
}

function _message(err: unknown): string {
  if (err instanceof DochygieneError) return err.message;
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

/**
 * `deno task demo`: the whole dochygiene cycle on a sample repository, in
 * plain words. It builds a repository from `fixtures/demo/` in a temporary
 * directory (stale and fresh docs, a dated superpowers plan and spec, an
 * OpenSpec change with its archived twin, benchmark run folders of different
 * ages, broken links, a CHANGELOG, a frozen page, a rulebook) with backdated
 * git history, then runs each script the way the plugin does — as a
 * subprocess, from the sample root, with exactly its permission flags — and
 * leaves the repository behind for you to explore.
 *
 * `DOCHYGIENE_NOW=<ISO>` pins the clock (the history is dated back from it);
 * `--dir DIR` builds the sample in `DIR` (which must be empty or missing).
 *
 * @example Run the tour
 * ```sh
 * deno task demo                 # or: npx -y deno@2.9.6 task demo
 * deno task demo --dir /tmp/sample
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { clockFromEnv } from "../lib/core/clock.ts";
import { PERMISSION_FLAGS, type SeamName } from "../lib/cli/permission_flags.ts";
import { runGit } from "../lib/git/run_git.ts";

const _PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const _FIXTURE_DIR = join(_PACKAGE_DIR, "fixtures", "demo");
const _DAY_MS = 86_400_000;

/** What {@linkcode buildSampleRepo} made. */
export interface SampleRepo {
  /** Absolute path of the sample repository's root. */
  root: string;
  /** How many files it holds. */
  files: number;
  /** How many backdated commits it has. */
  commits: number;
  /** Days between the oldest commit and the clock. */
  spanDays: number;
}

interface _History {
  commits: { days_ago: number; message: string; paths: string[] }[];
  untracked: string[];
}

/**
 * Builds the sample repository in `dir` (created when missing; must be empty):
 * copies `fixtures/demo/repo/`, then commits the files in the order and at
 * the dates `fixtures/demo/history.json` gives, counted back from `now`
 * (author and committer dates both set, so ages are real git facts).
 *
 * @example
 * ```ts
 * import { buildSampleRepo } from "./demo.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const built = await buildSampleRepo(dir, new Date("2026-11-30T12:00:00Z"));
 * assert.ok((await Deno.stat(`${built.root}/.dochygiene.yml`)).isFile);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function buildSampleRepo(dir: string, now: Date): Promise<SampleRepo> {
  await Deno.mkdir(dir, { recursive: true });
  for await (const _ of Deno.readDir(dir)) {
    throw new Error(`${dir} is not empty; name an empty or missing directory`);
  }
  const root = await Deno.realPath(dir);
  const source = join(_FIXTURE_DIR, "repo");
  const files = await _copyTree(source, root);
  const history: _History = JSON.parse(await Deno.readTextFile(join(_FIXTURE_DIR, "history.json")));
  await _git(root, ["init", "-q", "-b", "main"]);
  await _git(root, ["config", "user.name", "Sample Author"]);
  await _git(root, ["config", "user.email", "author@example.com"]);
  await _git(root, ["config", "commit.gpgsign", "false"]);
  for (const commit of history.commits) {
    const when = `${Math.floor((now.getTime() - commit.days_ago * _DAY_MS) / 1000)} +0000`;
    await _git(root, ["add", "--", ...commit.paths]);
    await _git(root, ["commit", "-q", "-m", commit.message], {
      GIT_AUTHOR_DATE: when,
      GIT_COMMITTER_DATE: when,
    });
  }
  const spanDays = Math.max(...history.commits.map((c) => c.days_ago));
  return { root, files, commits: history.commits.length, spanDays };
}

/** A report entry as the check skill writes it (schema v1). */
export interface SampleReportEntry {
  /** Root-relative path of the doc. */
  path: string;
  /** `stale`, `superseded`, `duplicate`, `served`, `orphan`, `bloat` or `ok`. */
  category: string;
  /** `keep`, `update`, `merge`, `delete` or `extract-then-delete`. */
  op_type: string;
  /** One imperative sentence. */
  op: string;
  /** `auto`, `confirm` or `never`. */
  safety_tier: string;
  /** Why, grounded in the signals. */
  rationale: string;
  /** The scan's signals for the path. */
  signals: unknown[];
  /** Where durable content goes (`extract-then-delete` only). */
  extract_to?: string;
  /** Rough size of the doc in tokens. */
  token_estimate: number;
}

/** A schema-v1 report. */
export interface SampleReport {
  /** Always `1`. */
  schema_version: 1;
  /** When the report was written (ISO). */
  generated_at: string;
  /** `generated_at` of the scan it classifies. */
  scan_generated_at: string;
  /** One entry per classified doc. */
  entries: SampleReportEntry[];
}

/**
 * Builds the sample report from `fixtures/demo/report.json` and a scan
 * artifact, the way the check skill does: entries only for shortlisted paths,
 * each carrying the scan's signals for its path.
 *
 * @example
 * ```ts
 * import { sampleReport } from "./demo.ts";
 * import assert from "node:assert/strict";
 *
 * const scan = {
 *   generated_at: "2026-11-30T12:00:00.000Z",
 *   shortlist: ["README.md"],
 *   signals: { "README.md": [{ kind: "size", bytes: 10, lines: 1 }] },
 * };
 * const report = await sampleReport(scan, new Date("2026-11-30T12:01:00Z"));
 * assert.deepEqual(report.entries.map((e) => e.path), ["README.md"]);
 * assert.equal(report.scan_generated_at, scan.generated_at);
 * ```
 */
export async function sampleReport(
  scan: { generated_at: string; shortlist: string[]; signals: Record<string, unknown[]> },
  now: Date,
): Promise<SampleReport> {
  const template: { entries: Omit<SampleReportEntry, "signals">[] } = JSON.parse(
    await Deno.readTextFile(join(_FIXTURE_DIR, "report.json")),
  );
  const shortlisted = new Set(scan.shortlist);
  return {
    schema_version: 1,
    generated_at: now.toISOString(),
    scan_generated_at: scan.generated_at,
    entries: template.entries
      .filter((e) => shortlisted.has(e.path))
      .map((e) => ({ ...e, signals: scan.signals[e.path] ?? [] })),
  };
}

/** What one seam run printed. */
interface _Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the tour and returns the exit code: 0 when every step did what it
 * should, 1 otherwise (the failing step is named).
 *
 * @example
 * ```ts
 * import { main } from "./demo.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof main, "function");
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let dir: string | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: { dir: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      console.log(
        "usage: deno task demo [--dir DIR]\n\nBuilds a sample repository (in DIR, or a new temporary directory), runs\nthe dochygiene cycle on it step by step, and leaves it there to explore.\nDOCHYGIENE_NOW=<ISO> pins the clock.",
      );
      return 0;
    }
    dir = values.dir;
  } catch (err) {
    console.error(`dochygiene demo: ${err instanceof Error ? err.message : err}; see --help`);
    return 2;
  }
  try {
    await _tour(dir);
    return 0;
  } catch (err) {
    console.error(`\ndochygiene demo: ${err instanceof Error ? err.message : err}`);
    return 1;
  }
}

async function _tour(dirArg: string | undefined): Promise<void> {
  const clock = clockFromEnv(Deno.env.get("DOCHYGIENE_NOW"));
  const now = clock.now();
  const dir = dirArg ?? await Deno.makeTempDir({ prefix: "dochygiene-demo-" });
  const sample = await buildSampleRepo(dir, now);
  const root = sample.root;

  _step(1, "A sample repository with the kind of doc rot coding agents leave behind");
  _say(`Built in ${root}:`);
  _say(
    `${sample.files} files, ${sample.commits} commits backdated over ${sample.spanDays} days.`,
  );
  _say("docs/ (a stale architecture page, a fresh guide, a frozen release checklist),");
  _say("a superpowers plan and spec from August, an OpenSpec change with its archived twin,");
  _say("five autoresearch/ benchmark runs, a CHANGELOG and a .dochygiene.yml rulebook.");
  _say(`Every script below runs from this root with exactly its permission flags.`);

  _step(2, "A Claude Code session starts: the SessionStart hook runs remind.ts");
  const payload = JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: root });
  const banner = await _seam("remind", [], root, payload);
  const message = _json(banner, "remind.ts").systemMessage;
  if (typeof message !== "string") throw new Error("remind.ts showed no banner on a stale project");
  _say(`It prints one line for Claude Code, which shows you:`);
  _say(`  ${message}`);
  _say("(It only read .dochygiene/state.json; it wrote only last_reminded.)");

  _step(3, "/dochygiene:check, part 1: scan.ts lists the docs in scope and attaches facts");
  const scanRun = await _seam("scan", ["--format", "text"], root);
  _show(scanRun);
  const scan = JSON.parse(await Deno.readTextFile(join(root, ".dochygiene", "scan.json")));
  _say(`${scan.shortlist.length} docs shortlisted. Never shortlisted, never deleted:`);
  for (const e of scan.excluded) _say(`  ${e.path} (${e.reason.replace("_", "-")})`);

  _step(4, "/dochygiene:check, part 2: Claude classifies the shortlist; state.ts report stores it");
  const report = await sampleReport(scan, clock.now());
  _say(`A sample report with ${report.entries.length} entries, grounded in the scan's signals:`);
  for (const e of report.entries) {
    _say(`  ${e.path}: ${e.category} -> ${e.op_type} (${e.safety_tier})`);
  }
  const stored = await _seam("state", ["report", "--format", "text"], root, JSON.stringify(report));
  _show(stored);
  const pair = [...Deno.readDirSync(join(root, ".dochygiene"))]
    .map((e) => e.name).filter((n) => n.startsWith("report-")).sort();
  _say(`.dochygiene/ now holds one report pair: ${pair.join(" + ")}`);

  _step(5, "The next session starts: remind.ts stays silent (the docs were just checked)");
  const silent = await _seam("remind", [], root, payload);
  if (silent.stdout.trim() !== "") throw new Error(`remind.ts was not silent: ${silent.stdout}`);
  _say("(no output)");

  _step(6, "/dochygiene:clean, part 1: prune.ts plans the lifecycle deletions (a dry run)");
  _show(await _seam("prune", ["--format", "text"], root));
  _say("auto = git can give it back and nothing is uncommitted: deleted without asking.");
  _say("confirm = asked one by one (plans judged served, extractions first); never = kept.");

  _step(7, "/dochygiene:clean, part 2: prune.ts --yes deletes the auto tier in ONE commit");
  const applied = await _seam("prune", ["--yes", "--format", "json"], root);
  const result = _json(applied, "prune.ts --yes");
  for (const a of result.applied ?? []) _say(`  deleted ${a.path} (${a.how})`);
  for (const s of result.skipped ?? []) _say(`  left ${s.path}: ${s.reason}`);
  if (!result.commit) throw new Error("prune.ts --yes made no commit");

  _step(8, "The hygiene commit: git log --stat -1");
  _block(await _git(root, ["log", "--stat", "-1"]));

  _step(9, "Done");
  _say(`The sample repository stays at ${root}`);
  _say("Undo the hygiene commit:   git revert --no-edit HEAD");
  _say("Look around:               git log --stat; cat .dochygiene/report-*.md");
  _say("Scan it again (from its root):");
  _say(
    `  ${_denoCommand()} run --config ${join(_PACKAGE_DIR, "deno.json")} ${
      PERMISSION_FLAGS.scan.join(" ")
    } ${join(_PACKAGE_DIR, "scan.ts")} --format text`,
  );
  _say(`Remove it when done:       rm -rf ${root}`);
}

/**
 * How the reader starts Deno: started through `npx` (npm sets `npm_command`),
 * the demo's Deno is in npm's cache, not on the reader's PATH.
 */
function _denoCommand(): string {
  return Deno.env.get("npm_command") === "exec" ? `npx -y deno@${Deno.version.deno}` : "deno";
}

async function _seam(seam: SeamName, args: string[], cwd: string, stdin?: string): Promise<_Run> {
  _say(`$ deno run ${PERMISSION_FLAGS[seam].join(" ")} ${seam}.ts ${args.join(" ")}`.trimEnd());
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(_PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS[seam],
      join(_PACKAGE_DIR, `${seam}.ts`),
      ...args,
    ],
    cwd,
    // The tour shows the reminder even when run under CI.
    env: { CI: "", DOCHYGIENE_DISABLE: "", NO_COLOR: "1" },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  const run = {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
  if (run.code !== 0) {
    throw new Error(
      `${seam}.ts ${args.join(" ")} exited ${run.code}: ${run.stderr.trim() || run.stdout.trim()}`,
    );
  }
  return run;
}

// deno-lint-ignore no-explicit-any
function _json(run: _Run, what: string): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`${what} printed no JSON: ${run.stdout.slice(0, 200)}`);
  }
}

function _show(run: _Run): void {
  if (run.stdout.trim() !== "") _block(run.stdout);
}

function _step(n: number, title: string): void {
  console.log(`\n${n}. ${title}`);
}

function _say(line: string): void {
  console.log(`   ${line}`);
}

function _block(text: string): void {
  for (const line of text.trimEnd().split("\n")) console.log(`     ${line}`);
}

async function _copyTree(from: string, to: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(from)) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory) {
      await Deno.mkdir(dst, { recursive: true });
      count += await _copyTree(src, dst);
    } else if (entry.isFile) {
      await Deno.copyFile(src, dst);
      count++;
    }
  }
  return count;
}

/** git in the sample repository, without the machine's system-wide git config. */
async function _git(
  root: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await runGit(root, args, { env: { GIT_CONFIG_NOSYSTEM: "1", ...env } });
  return new TextDecoder().decode(stdout);
}

if (import.meta.main) Deno.exit(await main(Deno.args));

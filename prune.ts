/**
 * `prune.ts` — lifecycle deletion. Applies the rulebook of `.dochygiene.yml`
 * (keep / temporary / delete-once-served) with the tier matrix (auto /
 * confirm / never). Dry run by default; `--yes` deletes through git and
 * records the tracked deletions in ONE commit. Run it from the project root:
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git prune.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { applyPrune, PRUNE_JOURNAL_FILE, skipHiddenUnits } from "./lib/prune/apply_prune.ts";
import type { Clock } from "./lib/core/clock.ts";
import { DochygieneError } from "./lib/core/dochygiene_error.ts";
import { escapeControls, TERMINAL_UNSAFE } from "./lib/core/escape_controls.ts";
import type { DocLink } from "./lib/markdown/extract_links.ts";
import { findDangling } from "./lib/prune/find_dangling.ts";
import { findReportPair } from "./lib/report/find_report_pair.ts";
import { gitBusy } from "./lib/git/git_busy.ts";
import { loadConfig } from "./lib/config/load_config.ts";
import { pathExists } from "./lib/fs/path_exists.ts";
import { planFromDisk } from "./lib/prune/plan_from_disk.ts";
import { type Judgment, type Plan, planPrune } from "./lib/prune/plan_prune.ts";
import { resolveLink } from "./lib/links/resolve_link.ts";
import { runSeam, type SeamContext, type SeamResult } from "./lib/cli/run_seam.ts";
import { assertWritePermission, ensureStateDir, resolveStateDir } from "./lib/state/state_dir.ts";
import { readState, STATE_FILE_NAME, updateState } from "./lib/state/state_file.ts";
import { MAX_REPORT_BYTES, parseReport } from "./lib/report/validate_report.ts";

const USAGE = `usage: prune.ts [options]

Applies the lifecycle rules of .dochygiene.yml. Dry run by default: prints the plan
(what goes and why, what stays, what needs a confirmation) and changes nothing.
Run it from the project root with:
  deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git prune.ts

options:
  --yes               apply: delete the auto tier and every confirmed entry through git,
                      tracked ones in ONE commit; on a terminal, asks y/N for each other
                      entry that needs a confirmation
  --confirm PATH      confirm one entry of the confirm tier (repeatable)
  --extracted PATH    acknowledge that an extract: true entry's durable content was
                      distilled (ADR, CLAUDE.md, docs/ or /os-vault:write) (repeatable)
  --from-report FILE  the check skill's report (served_when judgments); default: the
                      current report pair in .dochygiene/
  --root DIR          start directory for root resolution (default: the current directory)
  --format json|text  json: the plan/result JSON; text: a table (default: json when
                      stdout is not a terminal)
  -h, --help          print this help
  -V, --version       print the version

exit codes: 0 success, 1 could not do the job (git failed or busy, lock held, no
permission, a failed deletion was restored), 2 usage or input error (unknown flag,
invalid .dochygiene.yml or report)
`;

/**
 * Runs `prune.ts` with `args` and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./prune.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await main(["--version"]), 0);
 * ```
 */
export function main(args: string[]): Promise<number> {
  return runSeam(
    {
      name: "prune",
      usage: USAGE,
      options: {
        yes: { type: "boolean" },
        confirm: { type: "string", multiple: true },
        extracted: { type: "string", multiple: true },
        "from-report": { type: "string" },
      },
    },
    args,
    _run,
  );
}

async function _run(ctx: SeamContext): Promise<SeamResult> {
  const { root, clock } = ctx;
  const config = await loadConfig(root);
  const apply = ctx.values.yes === true;
  const paths = (key: string) =>
    new Set(
      ((ctx.values[key] as string[] | undefined) ?? []).map((p) => p.replace(/^(\.\/)+/, "")),
    );
  const confirm = paths("confirm");
  const extracted = paths("extracted");
  if (config.rules.length === 0) {
    const plan = planPrune({
      units: [],
      existing: { sorted: [] },
      judgments: new Map(),
      confirm: new Set(),
      extracted: new Set(),
      now: clock.now(),
      watermark: null,
      mode: apply ? "apply" : "dry-run",
    });
    plan.warnings.push("nothing is managed: .dochygiene.yml has no rules");
    return {
      json: plan,
      text: "nothing is managed: .dochygiene.yml has no rules (see README, prune)",
    };
  }
  if (!(await _isRepository(root))) {
    throw new DochygieneError(
      "NOT_A_REPOSITORY",
      `${root} is not a git repository; prune only deletes what git can give back: run it inside one`,
    );
  }
  const stateDir = await resolveStateDir(root);
  if (apply) {
    assertWritePermission(stateDir, root);
    await ensureStateDir(root);
  }
  const judged = config.rules.some((r) => r.served_when !== undefined);
  const judgments = await _judgments(
    ctx.values["from-report"] as string | undefined,
    stateDir,
    judged,
  );
  const reportMissing = judged && judgments === undefined;
  // Before anything changes: a state file --yes could not update afterwards is refused now
  // (STATE_FILE_UNREADABLE), and a corrupt one, whose clock watermark is lost, is said.
  const state = await readState(stateDir);
  const watermark = state.state.clock_watermark;
  const facts = async (mode: "dry-run" | "apply") => {
    const fresh = await planFromDisk({
      root,
      config,
      clock,
      judgments: judgments ?? new Map(),
      reportMissing,
      confirm,
      extracted,
      watermark,
      mode,
    });
    if (state.status === "corrupt") {
      // With --yes, the state's update says where the file went instead.
      fresh.plan.warnings.push(
        `${STATE_FILE_NAME} is corrupt, so its clock watermark is unknown and a clock set back ` +
          `cannot be detected` + (mode === "apply" ? "" : `; --yes keeps it aside as ` +
            `${STATE_FILE_NAME}.corrupt-<stamp> and starts a fresh one`),
      );
    }
    return fresh;
  };

  let plan: Plan;
  let links: Map<string, DocLink[]>;
  if (!apply) {
    const dry = await facts("dry-run");
    ({ plan, links } = dry);
    const busy = await gitBusy(root);
    if (busy) plan.warnings.push(`${busy.state}: --yes refuses until you ${busy.fix}`);
    if (await pathExists(join(stateDir, PRUNE_JOURNAL_FILE))) {
      plan.warnings.push(
        "an earlier prune --yes was interrupted; the next prune --yes rolls it back first",
      );
    }
    skipHiddenUnits(plan, dry.collection.files);
    // Only what --yes will delete can leave a link dangling.
    const skipped = new Set(plan.skipped.map((s) => s.path));
    const going = plan.candidates.filter((c) => !skipped.has(c.path)).map((c) => c.path);
    plan.dangling = findDangling(links, going, resolveLink);
  } else {
    const declined = new Set<string>();
    if (Deno.stdin.isTerminal()) {
      const { plan: draft, collection } = await facts("dry-run");
      skipHiddenUnits(draft, collection.files);
      const skipped = new Set(draft.skipped.map((s) => s.path));
      for (const c of draft.candidates) {
        if (c.needs !== `--confirm ${c.path}` || skipped.has(c.path)) continue;
        if (await _ask(`delete ${_show(c.path)} (${_escape(c.reason)})?`)) confirm.add(c.path);
        else declined.add(c.path);
      }
    }
    links = new Map();
    plan = await applyPrune({
      root,
      stateDir,
      replan: async () => {
        const fresh = await facts("apply");
        links = fresh.links;
        return fresh;
      },
    });
    for (const skip of plan.skipped) {
      if (declined.has(skip.path)) skip.reason = `declined at the prompt (${skip.reason})`;
    }
    // Links as planned, just before deletion: docs inside what went are skipped as sources.
    plan.dangling = findDangling(links, plan.applied.map((a) => a.path), resolveLink);
    await _recordPrune(stateDir, clock, plan);
  }
  return { json: plan, text: _text(plan) };
}

/**
 * Sets `last_prune` and `clock_watermark` (never moved back). The prune is
 * done by then: a failure is a warning in the result, never a failed run.
 */
async function _recordPrune(stateDir: string, clock: Clock, plan: Plan): Promise<void> {
  const now = clock.now().toISOString();
  try {
    await updateState(stateDir, (s) => ({
      ...s,
      last_prune: now,
      clock_watermark: s.clock_watermark !== null && s.clock_watermark > now
        ? s.clock_watermark
        : now,
    }), {
      clock,
      onKeptAside: (aside) =>
        plan.warnings.push(`the corrupt state file was kept aside as ${aside}`),
    });
  } catch (err) {
    plan.warnings.push(
      `the prune is done${plan.commit === null ? "" : ` (commit ${plan.commit})`} but could ` +
        `not be recorded in ${STATE_FILE_NAME} (last_prune, clock_watermark): ` +
        `${err instanceof Error ? err.message : err}. The deletions need no second run; once ` +
        `${STATE_FILE_NAME} is fixed, the next prune records its time`,
    );
  }
}

function _isRepository(root: string): Promise<boolean> {
  return pathExists(join(root, ".git"));
}

/**
 * `served_when` judgments from `--from-report FILE`, or from the current
 * report pair when a rule uses `served_when` (`judged`): a rulebook without
 * one never reads it. `undefined` when there is no report to read.
 */
async function _judgments(
  file: string | undefined,
  stateDir: string,
  judged: boolean,
): Promise<Map<string, Judgment> | undefined> {
  const path = file ?? (judged ? (await findReportPair(stateDir))?.json : undefined);
  if (path === undefined) return undefined;
  const invalid = (why: string) =>
    new DochygieneError(
      "INVALID_REPORT",
      `cannot read the report ${path} (${why}); name an existing report with --from-report`,
      2,
    );
  let text: string;
  try {
    // Never read a device, a FIFO or a huge file whole.
    const info = await Deno.stat(path);
    if (!info.isFile) throw invalid("it is not a regular file");
    if (info.size > MAX_REPORT_BYTES) {
      throw invalid(`${info.size} bytes; a report is at most ${MAX_REPORT_BYTES}`);
    }
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof DochygieneError) throw err;
    throw invalid(err instanceof Error ? err.message : String(err));
  }
  let report;
  try {
    report = parseReport(text);
  } catch (err) {
    if (!(err instanceof DochygieneError)) throw err;
    throw new DochygieneError(
      err.code,
      `${path}: ${err.message}; fix it or name a valid report with --from-report`,
      err.exitCode,
    );
  }
  return new Map(report.entries.map((e) => [e.path, {
    op_type: e.op_type,
    rationale: e.rationale,
    extract_to: e.extract_to,
    judged_at: report.generated_at,
  }]));
}

/** Asks y/N on the terminal (stderr), reading one line from stdin. */
async function _ask(question: string): Promise<boolean> {
  await Deno.stderr.write(new TextEncoder().encode(`${question} [y/N] `));
  const buf = new Uint8Array(1);
  let answer = "";
  while ((await Deno.stdin.read(buf)) === 1 && buf[0] !== 0x0a) {
    answer += String.fromCharCode(buf[0]);
  }
  return /^y(es)?$/i.test(answer.trim());
}

/** `text` with every code point a terminal acts on written as a `\uXXXX` escape. */
function _escape(text: string): string {
  return escapeControls(text, "json");
}

/** A path as itself, or quoted (JSON) and escaped when it holds a code point a terminal acts on. */
function _show(path: string): string {
  return path.search(TERMINAL_UNSAFE) < 0 ? path : _escape(JSON.stringify(path));
}

/**
 * A candidate's `needs` (`--confirm P`, `--confirm P and --extracted P`, `--extracted P`) as
 * flags to paste into a shell: the path one shell word, joined with `=` when it starts with `-`
 * (else it reads as an option).
 */
function _pastable(needs: string, path: string): string {
  const flag = (name: string) => `--${name}${path.startsWith("-") ? "=" : " "}${_shellWord(path)}`;
  const flags = needs === `--confirm ${path}`
    ? ["confirm"]
    : needs === `--extracted ${path}`
    ? ["extracted"]
    : needs === `--confirm ${path} and --extracted ${path}`
    ? ["confirm", "extracted"]
    : undefined;
  return flags === undefined ? needs : flags.map(flag).join(" ");
}

/** A skip reason as shown: the flags it says are needed, pastable (see {@linkcode _pastable}). */
function _reasonShown(reason: string, path: string): string {
  return reason.startsWith("needs ") ? `needs ${_pastable(reason.slice(6), path)}` : reason;
}

/**
 * `path` as one shell word: bare when nothing in it is special to a shell, `'…'` otherwise, and
 * `$'…'` (bash, zsh) when it holds a control or bidi character, each written as its UTF-8 bytes
 * (`\xNN`), which both read back in any locale.
 */
function _shellWord(path: string): string {
  if (/^[\w./@%+:,-][\w./@%+=:,-]*$/.test(path)) return path;
  if (path.search(TERMINAL_UNSAFE) < 0) return `'${path.replaceAll("'", `'\\''`)}'`;
  const escaped = path.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replace(
    TERMINAL_UNSAFE,
    (c) => _bytesOf(c).map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join(""),
  );
  return `$'${escaped}'`;
}

/** The bytes of a name's character: UTF-8, or the byte a lone `\udcXX` stands for (decodePath). */
function _bytesOf(c: string): number[] {
  const code = c.charCodeAt(0);
  return c.length === 1 && code >= 0xdc80 && code <= 0xdcff
    ? [code - 0xdc00]
    : [...new TextEncoder().encode(c)];
}

/** The widest first column of the text output's tables. */
const _MAX_COLUMN = 60;

function _text(plan: Plan): string {
  const out: string[] = [];
  // As wide as the longest path (at most 60): a longer one has its text on the next line.
  const firsts = [
    ...[plan.candidates, plan.skipped, plan.applied, plan.deferred, plan.kept].flat()
      .map((x) => _show(x.path)),
    ...plan.dangling.map((d) => `${_show(d.from)}:${d.line}`),
  ];
  const width = Math.min(_MAX_COLUMN, Math.max(0, ...firsts.map((f) => f.length)));
  const row = (a: string, b: string) =>
    a.length > width
      ? `  ${a}\n  ${" ".repeat(width)} ${_escape(b)}`
      : `  ${a.padEnd(width)} ${_escape(b)}`;
  out.push(
    plan.mode === "dry-run"
      ? `dochygiene prune — dry run, nothing changed (now ${plan.clock.now})`
      : `dochygiene prune — applied (now ${plan.clock.now})`,
  );
  if (plan.clock.backward) {
    out.push(
      `clock reads earlier than the watermark ${plan.clock.watermark}: age-based deletion deferred`,
    );
  }
  const skipped = new Set(plan.skipped.map((s) => s.path));
  const goes = plan.candidates.filter((c) => c.needs === null && !skipped.has(c.path));
  if (plan.mode === "dry-run") {
    const pending = plan.candidates.filter((c) => c.needs !== null && !skipped.has(c.path));
    out.push("", `Goes with --yes (${goes.length}):`);
    for (const c of goes) out.push(row(_show(c.path), `[${c.tier}] ${c.rule}: ${c.reason}`));
    out.push("", `Needs a confirmation (${pending.length}):`);
    for (const c of pending) {
      out.push(row(_show(c.path), `${c.rule}: ${c.reason}`));
      out.push(row("", `→ ${_pastable(c.needs!, c.path)}`));
      if (c.extract_to) out.push(row("", `extract first to: ${c.extract_to.join(" · ")}`));
    }
    if (plan.skipped.length > 0) {
      out.push("", `Skipped by --yes (${plan.skipped.length}):`);
      for (const s of plan.skipped) out.push(row(_show(s.path), _reasonShown(s.reason, s.path)));
    }
  } else {
    out.push("", `Deleted (${plan.applied.length}):`);
    for (const a of plan.applied) out.push(row(_show(a.path), a.how));
    if (plan.skipped.length > 0) {
      out.push("", `Not deleted (${plan.skipped.length}):`);
      for (const s of plan.skipped) out.push(row(_show(s.path), _reasonShown(s.reason, s.path)));
    }
    out.push(
      "",
      plan.commit === null
        ? "Commit: none (nothing that was committed was deleted)"
        : `Commit: ${plan.commit} — undo with: git revert ${plan.commit}`,
    );
  }
  if (plan.deferred.length > 0) {
    out.push("", `Deferred (${plan.deferred.length}):`);
    for (const d of plan.deferred) out.push(row(_show(d.path), d.reason));
  }
  out.push("", `Stays (${plan.kept.length}):`);
  for (const k of plan.kept) out.push(row(_show(k.path), `${k.rule}: ${k.reason}`));
  if (plan.dangling.length > 0) {
    out.push("", `Links left dangling (${plan.dangling.length}):`);
    for (const d of plan.dangling) {
      out.push(row(`${_show(d.from)}:${d.line}`, `→ ${_show(d.to)}`));
    }
  }
  if (plan.warnings.length > 0) {
    out.push("", "Warnings:");
    for (const w of plan.warnings) out.push(`  ${_escape(w)}`);
  }
  if (plan.mode === "dry-run" && goes.length > 0) out.push("", "Run again with --yes to apply.");
  return out.join("\n");
}

if (import.meta.main) Deno.exit(await main(Deno.args));

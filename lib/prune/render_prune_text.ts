/**
 * `prune.ts --format text`: the plan (or what apply did) as tables a terminal
 * shows safely, with the flags a confirmation needs ready to paste into a
 * shell; and the question the prompt asks for each such entry.
 *
 * @module
 */

import { escapeControls, TERMINAL_UNSAFE } from "../core/escape_controls.ts";
import type { Plan } from "./plan_prune.ts";

/** The widest first column of the text output's tables. */
const _MAX_COLUMN = 60;

/**
 * The text output of a plan: a dry run's "Goes with --yes", "Needs a
 * confirmation" (with pastable flags) and "Skipped by --yes", or apply's
 * "Deleted", "Not deleted" and commit; then what is deferred, what stays, the
 * links left dangling and the warnings. Paths and reasons holding a code point
 * a terminal acts on are escaped.
 *
 * @example
 * ```ts
 * import { renderPruneText } from "./render_prune_text.ts";
 * import assert from "node:assert/strict";
 *
 * const text = renderPruneText({
 *   schema_version: 1,
 *   mode: "dry-run",
 *   generated_at: "2026-11-30T00:00:00.000Z",
 *   clock: { now: "2026-11-30T00:00:00.000Z", watermark: null, backward: false },
 *   candidates: [{
 *     path: "runs/old/", unit: "dir", rule: "runs/*\/", lifetime: "temporary", tier: "confirm",
 *     reason: "uncommitted changes", tracked: true, dirty: true, age_days: 9, age_source: "git",
 *     needs: "--confirm runs/old/",
 *   }],
 *   kept: [], deferred: [], dangling: [], applied: [], skipped: [], commit: null, warnings: [],
 * });
 * assert.equal(
 *   text,
 *   [
 *     "dochygiene prune — dry run, nothing changed (now 2026-11-30T00:00:00.000Z)",
 *     "",
 *     "Goes with --yes (0):",
 *     "",
 *     "Needs a confirmation (1):",
 *     "  runs/old/ runs/*\/: uncommitted changes",
 *     "            → --confirm runs/old/",
 *     "",
 *     "Stays (0):",
 *   ].join("\n"),
 * );
 * ```
 */
export function renderPruneText(plan: Plan): string {
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

/**
 * The y/N question `prune.ts --yes` asks on a terminal for an entry that needs
 * a confirmation (without the ` [y/N] ` the prompt adds): its path and reason,
 * escaped where a terminal would act on them.
 *
 * @example
 * ```ts
 * import { confirmQuestion } from "./render_prune_text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   confirmQuestion({ path: "runs/a\tb/", reason: "uncommitted changes" }),
 *   'delete "runs/a\\tb/" (uncommitted changes)?',
 * );
 * ```
 */
export function confirmQuestion(candidate: { path: string; reason: string }): string {
  return `delete ${_show(candidate.path)} (${_escape(candidate.reason)})?`;
}

/**
 * `path` as one shell word: bare when nothing in it is special to a shell, `'…'` otherwise, and
 * `$'…'` (bash, zsh) when it holds a control or bidi character, each written as its UTF-8 bytes
 * (`\xNN`), which both read back in any locale.
 *
 * @example
 * ```ts
 * import { shellWord } from "./render_prune_text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shellWord("runs/a/"), "runs/a/");
 * assert.equal(shellWord("it's here/"), `'it'\\''s here/'`);
 * assert.equal(shellWord("tab\tx/"), "$'tab\\x09x/'");
 * ```
 */
export function shellWord(path: string): string {
  if (/^[\w./@%+:,-][\w./@%+=:,-]*$/.test(path)) return path;
  if (path.search(TERMINAL_UNSAFE) < 0) return `'${path.replaceAll("'", `'\\''`)}'`;
  const escaped = path.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replace(
    TERMINAL_UNSAFE,
    (c) => _bytesOf(c).map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join(""),
  );
  return `$'${escaped}'`;
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
  const flag = (name: string) => `--${name}${path.startsWith("-") ? "=" : " "}${shellWord(path)}`;
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

/** The bytes of a name's character: UTF-8, or the byte a lone `\udcXX` stands for (decodePath). */
function _bytesOf(c: string): number[] {
  const code = c.charCodeAt(0);
  return c.length === 1 && code >= 0xdc80 && code <= 0xdcff
    ? [code - 0xdc00]
    : [...new TextEncoder().encode(c)];
}

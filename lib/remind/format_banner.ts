/**
 * What the reminder prints: the banner for the user, the same facts for the
 * model, and the one line of SessionStart hook JSON that carries both.
 *
 * @module
 */

import type { ReminderDecision } from "./decide_reminder.ts";

/** The reminder's output for one banner. */
export interface Banner {
  /** The one-line banner shown to the user (`systemMessage`). */
  text: string;
  /** The same facts for the model (`additionalContext`). */
  context: string;
  /** The whole hook output: one line of JSON, no trailing newline. */
  line: string;
}

/**
 * Formats the banner for a decision: whole days since the last check (or that
 * the docs were never checked) and `/dochygiene:check`.
 *
 * @example
 * ```ts
 * import { formatBanner } from "./format_banner.ts";
 * import assert from "node:assert/strict";
 *
 * const banner = formatBanner({
 *   show: true,
 *   reason: "never_reminded",
 *   days_since_check: 12,
 *   threshold_days: 7,
 * });
 * assert.equal(banner.text, "dochygiene: docs last checked 12 days ago — run /dochygiene:check");
 * const hook = JSON.parse(banner.line);
 * assert.equal(hook.systemMessage, banner.text);
 * assert.equal(hook.hookSpecificOutput.hookEventName, "SessionStart");
 * ```
 */
export function formatBanner(decision: ReminderDecision): Banner {
  const days = decision.days_since_check;
  const threshold = `${decision.threshold_days} ${_plural(decision.threshold_days, "day")}`;
  const text = days === null
    ? "dochygiene: docs never checked — run /dochygiene:check"
    : `dochygiene: docs last checked ${days} ${_plural(days, "day")} ago — run /dochygiene:check`;
  const when = days === null
    ? "have never been checked by dochygiene"
    : `were last checked by dochygiene ${days} ${_plural(days, "day")} ago`;
  const context = `This project's docs ${when} (the reminder threshold is ${threshold}), ` +
    "so some may be stale: verify a doc against the code before relying on it. " +
    "The user was shown a one-line reminder to run /dochygiene:check; " +
    "do not run it unless the user asks.";
  const line = JSON.stringify({
    systemMessage: text,
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  });
  return { text, context, line };
}

function _plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/**
 * Deterministic Markdown for a validated report: the same report always
 * renders to the same bytes.
 *
 * @module
 */

import { escapeControls } from "../core/escape_controls.ts";
import {
  CATEGORIES,
  OP_TYPES,
  type Report,
  type ReportEntry,
  SAFETY_TIERS,
} from "./validate_report.ts";

/**
 * Renders `report` as Markdown: a header with its timestamps, summary counts
 * per category, operation and safety tier (fixed enum order), then one
 * section per tier (`auto`, `confirm`, `never`) with a table of its entries
 * sorted by path (locale-independent). Cells show their text literally in
 * any renderer: no link, image, code span or emphasis forms, as the ASCII
 * punctuation that would open one (`[ ] ! ( ) \` * _ ~ $`), `\` and `|` are
 * backslash-escaped; `<` becomes `&lt;` and a
 * `&` that would start a character reference `&amp;` (so no HTML tag or
 * comment opens), line breaks become `<br>`, and other control characters
 * (C0, DEL, C1) show as `\xNN`.
 *
 * @example
 * ```ts
 * import { renderReport } from "./render_report.ts";
 * import assert from "node:assert/strict";
 *
 * const md = renderReport({
 *   schema_version: 1,
 *   generated_at: "2026-11-30T03:36:18.000Z",
 *   scan_generated_at: "2026-11-30T03:30:00.000Z",
 *   entries: [{
 *     path: "docs/a|b.md", category: "stale", op_type: "delete", op: "Delete it.",
 *     safety_tier: "confirm", rationale: "old\nand unused", signals: [{ kind: "age", days: 41 }],
 *   }],
 * });
 * assert.ok(md.includes("docs/a\\|b.md"));
 * assert.ok(md.includes("old<br>and unused"));
 * ```
 *
 * @example HTML and control characters stay visible text
 * ```ts
 * import { renderReport } from "./render_report.ts";
 * import assert from "node:assert/strict";
 *
 * const md = renderReport({
 *   schema_version: 1,
 *   generated_at: "2026-11-30T03:36:18.000Z",
 *   scan_generated_at: "2026-11-30T03:30:00.000Z",
 *   entries: [{
 *     path: "a.md", category: "ok", op_type: "keep", op: "Keep <!-- it.",
 *     safety_tier: "never", rationale: "R&D &amp; \x1b[2J", signals: [],
 *   }],
 * });
 * assert.ok(md.includes("| Keep &lt;\\!-- it. |"));
 * assert.ok(md.includes("| R&D &amp;amp; \\x1b\\[2J |"));
 * ```
 */
export function renderReport(report: Report): string {
  const entries = [...report.entries].sort((a, b) => _compare(a.path, b.path));
  const tokens = entries.reduce((sum, e) => sum + (e.token_estimate ?? 0), 0);
  const lines: string[] = [
    "# dochygiene report",
    "",
    `- generated at: ${report.generated_at}`,
    `- scan generated at: ${report.scan_generated_at}`,
    `- entries: ${entries.length}`,
    `- token estimate: ${tokens}`,
    "",
    "## Summary",
    "",
    ..._counts("category", CATEGORIES, entries, (e) => e.category),
    "",
    ..._counts("op_type", OP_TYPES, entries, (e) => e.op_type),
    "",
    ..._counts("safety_tier", SAFETY_TIERS, entries, (e) => e.safety_tier),
  ];
  for (const tier of SAFETY_TIERS) {
    const inTier = entries.filter((e) => e.safety_tier === tier);
    lines.push("", `## ${tier} (${inTier.length})`, "");
    if (inTier.length === 0) {
      lines.push("None.");
      continue;
    }
    lines.push(
      "| path | category | op_type | op | extract_to | tokens | signals | rationale |",
      "| --- | --- | --- | --- | --- | ---: | --- | --- |",
    );
    for (const e of inTier) {
      lines.push(
        "| " + [
          e.path,
          e.category,
          e.op_type,
          e.op,
          e.extract_to ?? "",
          e.token_estimate === undefined ? "" : String(e.token_estimate),
          _signalKinds(e),
          e.rationale,
        ].map(_cell).join(" | ") + " |",
      );
    }
  }
  return lines.join("\n") + "\n";
}

function _counts(
  title: string,
  keys: readonly string[],
  entries: ReportEntry[],
  pick: (e: ReportEntry) => string,
): string[] {
  const rows = keys.map((k) => `| ${k} | ${entries.filter((e) => pick(e) === k).length} |`);
  return [`| ${title} | count |`, "| --- | ---: |", ...rows];
}

/** `age, broken_link ×2` — signal kinds in first-seen order with repeat counts. */
function _signalKinds(entry: ReportEntry): string {
  const counts = new Map<string, number>();
  for (const s of entry.signals) {
    const kind = String(s.kind);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(", ");
}

/** `&` that starts a character reference (`&amp;`, `&#60;`, `&#x3C;`), which would not show as typed. */
const _REFERENCE = /&(?=[A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)/g;

/**
 * ASCII punctuation that opens Markdown inline syntax: links and images (`[`, `]`, `!`, `(`,
 * `)`), code, emphasis and strikethrough (`` ` ``, `*`, `_`, `~`), math (`$`), and the table's
 * `|`; with `\` itself. A backslash before any of them shows it as typed (CommonMark, GFM).
 */
const _SYNTAX = /[\\`*_~$[\]!()|]/g;

function _cell(text: string): string {
  const markdown = text
    .replace(_SYNTAX, "\\$&")
    .replace(_REFERENCE, "&amp;")
    // No tag, comment or raw HTML block can open: an unclosed `<!--` would hide every later row.
    .replace(/</g, "&lt;")
    .replace(/\r\n|\r|\n/g, "<br>");
  // Visible, and no escape sequence reaches a terminal that shows the file.
  return escapeControls(markdown).trim();
}

function _compare(a: string, b: string): number {
  // Locale-independent, so the output never depends on the machine.
  return a < b ? -1 : a > b ? 1 : 0;
}

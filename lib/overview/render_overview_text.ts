/**
 * The overview as text (`scan.ts --format overview`).
 *
 * @module
 */

import { showSafe } from "../core/escape_controls.ts";
import type { AgeSpread, Overview, OverviewTally } from "./overview_builder.ts";

/**
 * Renders the overview: the scan's counts, the totals, one line per
 * directory row and one per ranked doc. Deterministic, no colour, no trailing
 * spaces; every path terminal-safe.
 *
 * @example
 * ```ts
 * import { OverviewBuilder } from "./overview_builder.ts";
 * import { renderOverviewText } from "./render_overview_text.ts";
 * import assert from "node:assert/strict";
 *
 * const builder = new OverviewBuilder();
 * builder.add("docs/a.md", [
 *   { kind: "age", days: 40, last_commit: null, source: "mtime" },
 *   { kind: "missing_path", line: 3, path: "src/x.ts" },
 * ]);
 * const text = renderOverviewText(builder.finish({
 *   generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null, under: null,
 *   counts: { candidates: 1, shortlisted: 1, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 * }));
 * assert.match(text, /^  \. +1 docs +age 40\/40\/40 +missing_path 1$/m);
 * assert.match(text, /^  1 finding +40 d +missing_path 1 +docs\/a\.md$/m);
 * ```
 */
export function renderOverviewText(overview: Overview): string {
  const { counts } = overview;
  const ex = counts.excluded;
  const out: string[] = [
    `dochygiene overview — ${showSafe(overview.root)}`,
    `  scanned ${overview.generated_at} · ` +
    (overview.git === null
      ? "no git repository (ages are mtimes)"
      : `git HEAD ${overview.git.head?.slice(0, 12) ?? "(no commits)"}${
        overview.git.shallow ? " (shallow)" : ""
      }`),
    `  ${counts.candidates} candidates · ${counts.shortlisted} shortlisted · excluded: ` +
    `${ex.dir} in excluded dirs, ${ex.ignore} ignored, ${ex.frozen} frozen, ` +
    `${ex.append_only} append-only`,
  ];
  if (overview.under !== null) {
    out.push(`  under ${overview.under.map(showSafe).join(", ")}: ${overview.docs} docs`);
  }
  out.push(
    `  all: ${_tallyLine(overview)}`,
    "",
    `Directories: ${overview.dirs.length} rows; a row counts the docs below it that no deeper ` +
      `row holds ("+ rest"); age min/median/max days`,
  );
  const width = Math.min(48, Math.max(0, ...overview.dirs.map((d) => _label(d).length)));
  for (const row of overview.dirs) {
    out.push(`  ${_label(row).padEnd(width)}  ${_tallyLine(row)}`);
  }
  out.push(
    "",
    `Most findings: ${overview.with_findings} of ${overview.docs} docs have findings; ` +
      `ordered by ${overview.ranking} (an order, not a verdict)`,
  );
  for (const doc of overview.top) {
    const kinds = Object.entries(doc.kinds).map(([k, n]) => `${k} ${n}`).join(", ");
    out.push(
      `  ${doc.findings} finding${doc.findings === 1 ? "" : "s"}  ${
        doc.age_days === null ? "-" : `${doc.age_days} d`
      }  ${kinds === "" ? "-" : kinds}  ${showSafe(doc.path)}`,
    );
  }
  const left = overview.docs - overview.top.length;
  if (left > 0) out.push(`  … ${left} more docs`);
  out.push("", "zoom: scan.ts --under DIR (repeatable) prints the full artifact of those docs");
  return out.join("\n") + "\n";
}

function _label(row: { dir: string; rest: boolean }): string {
  return showSafe(row.dir) + (row.rest ? " + rest" : "");
}

function _tallyLine(t: OverviewTally): string {
  const parts = [`${t.docs} docs`, `age ${_ages(t.age_days)}`];
  for (const [kind, n] of Object.entries(t.findings)) parts.push(`${kind} ${n}`);
  for (const [rule, n] of Object.entries(t.lifecycle)) parts.push(`rule ${showSafe(rule)} ${n}`);
  if (t.served > 0) parts.push(`served ${t.served}`);
  return parts.join("  ");
}

function _ages(a: AgeSpread | null): string {
  return a === null ? "-" : `${a.min}/${a.median}/${a.max}`;
}

/**
 * The human summary of a scan (`scan.ts --format text`).
 *
 * @module
 */

import { showSafe } from "../core/escape_controls.ts";
import type { ScanArtifact, Signal } from "./scan_docs.ts";

/** Options of {@linkcode renderScanText}. */
export interface RenderScanOptions {
  /** Where the artifact was written (root-relative), or `undefined` with `--no-write`. */
  written: string | undefined;
  /** Problems that did not stop the scan. */
  warnings?: readonly string[];
  /** ANSI colour (only on a terminal with `NO_COLOR` unset and `TERM` not `dumb`). */
  color?: boolean;
  /** Findings shown per kind (default 5; `Infinity` for all). */
  perKind?: number;
  /** Kinds left out of the per-kind sections: the caller lists them (`lib/findings`). */
  omitKinds?: ReadonlySet<string>;
  /** Lines the caller adds after the per-kind sections, before the warnings. */
  extra?: readonly string[];
  /** A last line, after where the artifact is (e.g. the findings' summary). */
  closing?: string;
}

/** Finding kinds in the order they are summarised, with what a line shows. */
const _KINDS: readonly [Signal["kind"], string][] = [
  ["malformed_frontmatter", "malformed frontmatter"],
  ["broken_link", "broken links"],
  ["broken_anchor", "broken anchors"],
  ["missing_path", "missing paths"],
  ["stale_reference", "stale references (code elements the code no longer has)"],
  ["code_drift", "code drift (files changed after the doc)"],
  ["duplicate", "duplicates"],
  ["checkboxes", "open checkboxes"],
  ["status", "status lines"],
  ["dated_name", "dated names"],
  ["lifecycle", "governed by a rule"],
  ["review", "reviews due"],
];

/**
 * Renders counts, the oldest docs, the top findings by kind and where the
 * artifact is. Deterministic (the artifact's order), no trailing spaces.
 *
 * @example
 * ```ts
 * import { renderScanText } from "./render_scan_text.ts";
 * import assert from "node:assert/strict";
 *
 * const text = renderScanText({
 *   schema_version: 1, generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null,
 *   scope_globs: ["**\/*.md"], excluded_dirs: [],
 *   counts: { candidates: 1, shortlisted: 1, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 *   excluded: [], shortlist: ["a.md"],
 *   signals: { "a.md": [{ kind: "broken_link", line: 3, target: "b.md", hint: "extension" }] },
 * }, { written: ".dochygiene/scan.json" });
 * assert.match(text, /a\.md:3 → b\.md \(hint: extension\)/);
 * assert.match(text, /artifact: \.dochygiene\/scan\.json/);
 * ```
 */
export function renderScanText(artifact: ScanArtifact, options: RenderScanOptions): string {
  const bold = (s: string) => options.color ? `\x1b[1m${s}\x1b[0m` : s;
  const dim = (s: string) => options.color ? `\x1b[2m${s}\x1b[0m` : s;
  const warn = (s: string) => options.color ? `\x1b[33m${s}\x1b[0m` : s;
  const perKind = options.perKind ?? 5;
  const { counts } = artifact;
  const out: string[] = [];
  out.push(bold(`dochygiene scan — ${showSafe(artifact.root)}`));
  const ex = counts.excluded;
  out.push(
    `  ${counts.candidates} candidates · ${counts.shortlisted} shortlisted · excluded: ` +
      `${ex.dir} in excluded dirs, ${ex.ignore} ignored, ${ex.frozen} frozen, ` +
      `${ex.append_only} append-only`,
  );
  out.push(
    artifact.git === null
      ? "  no git repository: ages are file modification times"
      : `  git HEAD ${artifact.git.head?.slice(0, 12) ?? "(no commits)"}${
        artifact.git.shallow ? " — shallow clone: ages are bounded by the clone's depth" : ""
      }`,
  );

  const aged = artifact.shortlist
    .map((path) => ({ path, age: _first(artifact.signals[path], "age") }))
    .filter((x) => x.age !== undefined)
    .sort((a, b) => (b.age?.days ?? 0) - (a.age?.days ?? 0));
  if (aged.length > 0) {
    out.push("", bold("Oldest"));
    for (const { path, age } of aged.slice(0, perKind)) {
      out.push(`  ${showSafe(path)}  ${age?.days} days (${age?.source})`);
    }
  }

  for (const [kind, title] of _KINDS) {
    if (options.omitKinds?.has(kind)) continue;
    const rows: string[] = [];
    let docs = 0;
    for (const path of artifact.shortlist) {
      const found = artifact.signals[path].filter((s) => s.kind === kind)
        .filter((s) => s.kind !== "checkboxes" || s.open > 0)
        .filter((s) => s.kind !== "review" || s.due === true);
      if (found.length === 0) continue;
      docs++;
      for (const signal of found) rows.push(_line(path, signal));
    }
    if (rows.length === 0) continue;
    out.push("", bold(`${title}: ${rows.length} in ${docs} doc${docs === 1 ? "" : "s"}`));
    for (const row of rows.slice(0, perKind)) out.push(`  ${row}`);
    if (rows.length > perKind) out.push(dim(`  … and ${rows.length - perKind} more`));
  }

  if (options.extra !== undefined && options.extra.length > 0) out.push("", ...options.extra);
  const warnings = options.warnings ?? [];
  if (warnings.length > 0) {
    out.push("", warn(`warnings: ${warnings.length}`));
    for (const w of warnings.slice(0, perKind)) out.push(`  ${showSafe(w)}`);
    if (warnings.length > perKind) out.push(dim(`  … and ${warnings.length - perKind} more`));
  }
  out.push(
    "",
    options.written === undefined
      ? "artifact: not written (--no-write); use --format json to see it"
      : `artifact: ${options.written}`,
  );
  if (options.closing !== undefined) out.push(options.closing);
  return out.join("\n") + "\n";
}

function _first<K extends Signal["kind"]>(
  signals: readonly Signal[] | undefined,
  kind: K,
): Extract<Signal, { kind: K }> | undefined {
  return signals?.find((s) => s.kind === kind) as Extract<Signal, { kind: K }> | undefined;
}

function _line(path: string, s: Signal): string {
  const p = showSafe(path);
  switch (s.kind) {
    case "broken_link":
      return `${p}:${s.line} → ${showSafe(s.target)}${s.hint ? ` (hint: ${s.hint})` : ""}`;
    case "broken_anchor":
      return `${p}:${s.line} → ${showSafe(s.target)}`;
    case "missing_path":
      return `${p}:${s.line} \`${showSafe(s.path)}\``;
    case "malformed_frontmatter":
      return `${p}:${s.line} ${showSafe(s.reason)}${
        s.hygiene ? " (has a hygiene: line: prune never deletes it)" : ""
      }`;
    case "duplicate":
      return `${p} = ${s.of.map(showSafe).join(", ")}`;
    case "checkboxes":
      return `${p}  ${s.done} done, ${s.open} open`;
    case "status":
      return `${p}  ${showSafe(s.value)}`;
    case "dated_name":
      return `${p}  ${s.date}`;
    case "stale_reference":
      return `${p}:${s.line} \`${showSafe(s.element)}\` last seen ${
        s.last_seen.date.slice(0, 10)
      } (${s.last_seen.commit.slice(0, 12)})`;
    case "code_drift":
      return `${p} → ${showSafe(s.path)}: ${s.commits_after} commit${
        s.commits_after === 1 ? "" : "s"
      } after, ${s.days_after} days later`;
    case "review":
      return `${p}  reviewed ${s.reviewed}, ${s.days_since} days ago (every ${s.interval_days} days)`;
    case "lifecycle":
      return `${p}  ${s.rule} (${s.lifetime}${
        s.served === null ? "" : s.served ? ", served" : ", not served"
      })`;
    default:
      return p;
  }
}

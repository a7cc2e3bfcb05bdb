/**
 * What `scan.ts` prints of a scan, by `--format` and `--under`.
 *
 * @module
 */

import { type ScanOutput, scanOutput, type ScanOutputOptions } from "../findings/scan_output.ts";
import type { ScanArtifact } from "../scan/scan_docs.ts";
import { OverviewBuilder } from "./overview_builder.ts";
import { renderOverview } from "./render_overview.ts";
import { restrictArtifact } from "./restrict_artifact.ts";

/** The formats `scan.ts` adds to `json` and `text` for the judge. */
export const OVERVIEW_FORMATS: readonly ("overview" | "overview-json")[] = [
  "overview",
  "overview-json",
];

/** Options of {@linkcode scanView}. */
export interface ScanViewOptions {
  /** `json`, `text`, `sarif`, `github`, `overview` or `overview-json`. */
  format: ScanOutputOptions["format"] | (typeof OVERVIEW_FORMATS)[number];
  /** Normalised `--under` directories (see `underDir`); empty for the whole scan. */
  under: readonly string[];
  /** The `--fail-on` kinds, when given (judged on the docs shown). */
  failOn?: readonly string[];
  /** `--all`: every finding in the text format. */
  all?: boolean;
  /** Where the artifact was written (text summary only). */
  written: string | undefined;
  /** Problems that did not stop the scan. */
  warnings: readonly string[];
  /** ANSI colour (text summary only). */
  color?: boolean;
}

/** What {@linkcode scanView} gives the seam. */
export interface ScanView extends ScanOutput {
  /**
   * The artifact of the docs shown: the scan's own without `--under` (with
   * `fail_on` set under `--fail-on`), else its restriction to the subtrees.
   */
  shown: ScanArtifact;
}

/**
 * The output of a scan in `options.format` — the artifact (`json`: printed by
 * the caller from `shown`), its summary, SARIF, annotations (see
 * `scanOutput`), or its overview (`overview`, `overview-json`) — each of the
 * docs under the `--under` directories only when some are given.
 *
 * @example
 * ```ts
 * import { scanView } from "./scan_view.ts";
 * import assert from "node:assert/strict";
 *
 * const artifact = {
 *   schema_version: 1, generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null,
 *   scope_globs: ["**\/*.md"], excluded_dirs: [],
 *   counts: { candidates: 2, shortlisted: 2, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 *   excluded: [], shortlist: ["a.md", "docs/b.md"],
 *   signals: { "a.md": [], "docs/b.md": [] },
 * };
 * const zoomed = scanView(artifact, { format: "json", under: ["docs"], written: undefined, warnings: [] });
 * assert.deepEqual(zoomed.shown.shortlist, ["docs/b.md"]);
 * const overview = scanView(artifact, { format: "overview-json", under: [], written: undefined, warnings: [] });
 * assert.equal(JSON.parse(overview.text).docs, 2);
 * ```
 */
export function scanView(artifact: ScanArtifact, options: ScanViewOptions): ScanView {
  const shown = options.under.length > 0 ? restrictArtifact(artifact, options.under) : artifact;
  const { format } = options;
  // The overview is printed instead of the artifact: its warnings and `--fail-on` verdict (on
  // stderr, and the exit code) are the artifact's.
  const overview = format === "overview" || format === "overview-json";
  const output = scanOutput(shown, { ...options, format: overview ? "json" : format });
  if (output.gate !== undefined) shown.fail_on = output.gate;
  if (!overview) return { ...output, shown };
  const builder = new OverviewBuilder();
  for (const path of shown.shortlist) builder.add(path, shown.signals[path]);
  const text = renderOverview(builder, {
    generated_at: shown.generated_at,
    root: shown.root,
    git: shown.git,
    under: options.under.length > 0 ? [...options.under] : null,
    counts: shown.counts,
  }, format === "overview" ? "text" : "json");
  return { ...output, text, shown };
}

/**
 * What `scan.ts` prints of a scan, by `--format` and `--under`.
 *
 * @module
 */

import { formatScanJson } from "../scan/format_scan_json.ts";
import { renderScanText } from "../scan/render_scan_text.ts";
import type { ScanArtifact } from "../scan/scan_docs.ts";
import { OverviewBuilder } from "./overview_builder.ts";
import { renderOverview } from "./render_overview.ts";
import { restrictArtifact } from "./restrict_artifact.ts";

/** The formats `scan.ts` adds to `json` and `text`. */
export const OVERVIEW_FORMATS: readonly string[] = ["overview", "overview-json"];

/** Options of {@linkcode scanView}. */
export interface ScanViewOptions {
  /** `json`, `text`, `overview` or `overview-json`. */
  format: string;
  /** Normalised `--under` directories (see `underDir`); empty for the whole scan. */
  under: readonly string[];
  /** Where the artifact was written (text summary only). */
  written?: string;
  /** Problems that did not stop the scan (text summary only). */
  warnings?: readonly string[];
  /** ANSI colour (text summary only). */
  color?: boolean;
}

/**
 * The text `scan.ts` prints: the artifact (`json`), its summary (`text`) or
 * its overview (`overview`, `overview-json`), each of the docs under the
 * `--under` directories only when some are given.
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
 * const zoomed = JSON.parse(scanView(artifact, { format: "json", under: ["docs"] }));
 * assert.deepEqual(zoomed.shortlist, ["docs/b.md"]);
 * const overview = JSON.parse(scanView(artifact, { format: "overview-json", under: [] }));
 * assert.equal(overview.docs, 2);
 * ```
 */
export function scanView(artifact: ScanArtifact, options: ScanViewOptions): string {
  const shown = options.under.length > 0 ? restrictArtifact(artifact, options.under) : artifact;
  if (options.format === "json") return formatScanJson(shown);
  if (options.format === "text") {
    return renderScanText(shown, {
      written: options.written,
      warnings: options.warnings,
      color: options.color,
    });
  }
  const builder = new OverviewBuilder();
  for (const path of shown.shortlist) builder.add(path, shown.signals[path]);
  return renderOverview(builder, {
    generated_at: shown.generated_at,
    root: shown.root,
    git: shown.git,
    under: options.under.length > 0 ? [...options.under] : null,
    counts: shown.counts,
  }, options.format === "overview" ? "text" : "json");
}

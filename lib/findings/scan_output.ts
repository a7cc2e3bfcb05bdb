/**
 * What `scan.ts` prints in each format, and its exit code under `--fail-on`:
 * the seam's output logic, kept out of the seam.
 *
 * @module
 */

import type { ScanArtifact } from "../scan/scan_docs.ts";
import { renderScanText } from "../scan/render_scan_text.ts";
import { collectFindings } from "./collect_findings.ts";
import { FINDING_KINDS } from "./finding_kinds.ts";
import { formatGithub } from "./format_github.ts";
import { formatSarif } from "./format_sarif.ts";
import { type Gate, gateFindings, gateLine } from "./gate_findings.ts";
import { renderFindingsText } from "./render_findings_text.ts";
import { summaryLine } from "./summary_line.ts";

/** Options of {@linkcode scanOutput}. */
export interface ScanOutputOptions {
  /** The output format. */
  format: "json" | "text" | "sarif" | "github";
  /** The `--fail-on` kinds, when given. */
  failOn?: readonly string[];
  /** `--all`: every finding in the text format. */
  all?: boolean;
  /** Where the artifact was written (root-relative), or `undefined` with `--no-write`. */
  written: string | undefined;
  /** Problems that did not stop the scan. */
  warnings: readonly string[];
  /** ANSI colour for the text format. */
  color?: boolean;
}

/** What {@linkcode scanOutput} gives the seam. */
export interface ScanOutput {
  /** The output for the text, sarif and github formats ("" for json: the artifact is printed). */
  text: string;
  /** The `--fail-on` verdict (put in the JSON as `fail_on`), when `--fail-on` was given. */
  gate: Gate | undefined;
  /** 1 when the verdict failed, else 0. */
  exitCode: number;
  /** For stderr: the warnings (not with text, which lists them), then the verdict's line. */
  stderr: string[];
}

/**
 * The scan's output in `options.format` and its `--fail-on` verdict. With
 * `json` the artifact itself is the output (the caller adds the verdict as
 * `fail_on`); findings are only collected when needed.
 *
 * @example
 * ```ts
 * import { scanOutput } from "./scan_output.ts";
 * import assert from "node:assert/strict";
 *
 * const artifact = {
 *   schema_version: 1, generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null,
 *   scope_globs: ["**\/*.md"], excluded_dirs: [],
 *   counts: { candidates: 1, shortlisted: 1, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 *   excluded: [], shortlist: ["a.md"],
 *   signals: { "a.md": [{ kind: "broken_link" as const, line: 3, target: "b.md", hint: null }] },
 * };
 * const out = scanOutput(artifact, {
 *   format: "json", failOn: ["broken_link"], written: undefined, warnings: [],
 * });
 * assert.equal(out.exitCode, 1);
 * assert.deepEqual(out.stderr, ["--fail-on: 1 finding (1 broken_link); exit 1"]);
 * ```
 */
export function scanOutput(artifact: ScanArtifact, options: ScanOutputOptions): ScanOutput {
  const { format, failOn } = options;
  const findings = format === "json" && failOn === undefined ? [] : collectFindings(artifact);
  const gate = failOn === undefined ? undefined : gateFindings(findings, failOn);
  const docs = artifact.shortlist.length;
  const suppressed = artifact.suppressed?.total;
  let text = "";
  if (format === "text") {
    text = renderScanText(artifact, {
      written: options.written,
      warnings: options.warnings,
      color: options.color,
      perKind: options.all ? Infinity : undefined,
      omitKinds: new Set(FINDING_KINDS.map((k) => k.id)),
      extra: renderFindingsText(findings, { all: options.all, color: options.color }),
      closing: summaryLine(findings, { docs, failOn, suppressed }),
    });
  } else if (format === "sarif") {
    text = formatSarif(findings, { root: artifact.root, failOn });
  } else if (format === "github") {
    text = formatGithub(findings, { docs, failOn, suppressed });
  }
  const stderr = format === "text" ? [] : options.warnings.map((w) => `warning: ${w}`);
  if (gate?.failed) stderr.push(gateLine(gate));
  return { text, gate, exitCode: gate?.failed ? 1 : 0, stderr };
}

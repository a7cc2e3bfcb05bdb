/**
 * `scan.ts --format sarif`: the findings as a SARIF 2.1.0 log, for GitHub
 * code scanning and other SARIF viewers (docs/ci.md).
 *
 * @module
 */

import { VERSION } from "../core/version.ts";
import type { Finding } from "./collect_findings.ts";
import { FINDING_KINDS } from "./finding_kinds.ts";

/** Where the tool is documented (SARIF `informationUri`). */
export const INFORMATION_URI = "https://jsr.io/@dochygiene/dochygiene";

/** The key of dochygiene's fingerprint in a result's `partialFingerprints`. */
export const FINGERPRINT_KEY = "dochygieneFinding/v1";

/** Options of {@linkcode formatSarif}. */
export interface SarifOptions {
  /** Absolute project root: the base the results' relative URIs resolve against. */
  root: string;
  /** Kinds that fail the run (`--fail-on`): their results are errors, the rest warnings. */
  failOn?: readonly string[];
}

/**
 * A SARIF 2.1.0 log of `findings`: one run, one rule per finding kind (id,
 * name, short and full description, help with the fix), each result with its
 * artifact's URI relative to the root (`%SRCROOT%`), its line and column, and
 * a stable `partialFingerprints` entry. Serialised, with a trailing newline.
 *
 * @example
 * ```ts
 * import { formatSarif } from "./format_sarif.ts";
 * import assert from "node:assert/strict";
 *
 * const log = JSON.parse(formatSarif([{
 *   path: "docs/a b.md", line: 3, column: 1, kind: "broken_link",
 *   message: "x.md does not exist", fingerprint: "0123456789abcdef",
 * }], { root: "/repo" }));
 * assert.equal(log.version, "2.1.0");
 * const result = log.runs[0].results[0];
 * assert.equal(result.ruleId, "broken_link");
 * assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, "docs/a%20b.md");
 * assert.equal(result.locations[0].physicalLocation.region.startLine, 3);
 * ```
 */
export function formatSarif(findings: readonly Finding[], options: SarifOptions): string {
  const failOn = new Set(options.failOn ?? []);
  const rules = FINDING_KINDS.map((kind) => ({
    id: kind.id,
    name: kind.name,
    shortDescription: { text: kind.short },
    fullDescription: { text: kind.full },
    help: { text: kind.help },
    defaultConfiguration: { level: "warning" },
  }));
  const ruleIndex = new Map(FINDING_KINDS.map((k, i) => [k.id, i]));
  const results = findings.map((f) => {
    const index = ruleIndex.get(f.kind);
    return {
      ruleId: f.kind,
      ...(index === undefined ? {} : { ruleIndex: index }),
      level: failOn.has(f.kind) ? "error" : "warning",
      message: { text: _sentence(f.message) },
      locations: [{
        physicalLocation: {
          artifactLocation: { uri: _uri(f.path), uriBaseId: "%SRCROOT%" },
          region: { startLine: f.line, startColumn: f.column },
        },
      }],
      partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
    };
  });
  const root = options.root.endsWith("/") ? options.root : options.root + "/";
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "dochygiene",
          informationUri: INFORMATION_URI,
          version: VERSION,
          semanticVersion: VERSION,
          rules,
        },
      },
      originalUriBaseIds: { "%SRCROOT%": { uri: _fileUri(root) } },
      columnKind: "utf16CodeUnits",
      results,
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}

/** A relative URI reference of a root-relative path: each segment percent-encoded. */
function _uri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** The `file:` URI of an absolute directory path ending in `/`. */
function _fileUri(dir: string): string {
  return "file://" + (dir.startsWith("/") ? "" : "/") +
    dir.replaceAll("\\", "/").split("/").map((s) =>
      /^[A-Za-z]:$/.test(s) ? s : encodeURIComponent(s)
    )
      .join("/");
}

/** SARIF messages are sentences: ending in a full stop. */
function _sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : text + ".";
}

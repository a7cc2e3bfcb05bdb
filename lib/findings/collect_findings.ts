/**
 * The findings of a scan artifact, one per problem at a place in a doc, in
 * the order CI outputs list them.
 *
 * @module
 */

import type { ScanArtifact, Signal } from "../scan/scan_docs.ts";
import { findingKind } from "./finding_kinds.ts";

/** One finding: a problem at a place in a doc. */
export interface Finding {
  /** Root-relative path of the doc. */
  path: string;
  /** 1-based line (1 for a finding about the whole doc). */
  line: number;
  /** 1-based column (the scan records lines only: always 1). */
  column: number;
  /** The signal kind (see `FINDING_KINDS`). */
  kind: string;
  /** One line: what is wrong, naming the target. */
  message: string;
  /**
   * A stable identity across commits: the kind, the doc and what it names
   * (target, path, reason), and which of its equals in the doc it is — not
   * the line, which moves with edits above it. 16 hex digits.
   */
  fingerprint: string;
}

/**
 * Every finding of `artifact`, by path (the shortlist's order), then by line
 * and kind as the artifact lists them.
 *
 * @example
 * ```ts
 * import { collectFindings } from "./collect_findings.ts";
 * import assert from "node:assert/strict";
 *
 * const findings = collectFindings({
 *   shortlist: ["a.md"],
 *   signals: { "a.md": [
 *     { kind: "inbound_links", count: 0 },
 *     { kind: "broken_link", line: 3, target: "b.md", hint: null },
 *   ] },
 * });
 * assert.equal(findings.length, 1);
 * assert.equal(findings[0].message, "b.md does not exist");
 * assert.match(findings[0].fingerprint, /^[0-9a-f]{16}$/);
 * ```
 */
export function collectFindings(
  artifact: Pick<ScanArtifact, "shortlist" | "signals">,
): Finding[] {
  const findings: Finding[] = [];
  for (const path of artifact.shortlist) {
    const seen = new Map<string, number>();
    for (const signal of artifact.signals[path] ?? []) {
      if (findingKind(signal.kind) === undefined) continue;
      const { subject, message } = _describe(signal);
      const key = `${signal.kind}\u0000${path}\u0000${subject}`;
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      findings.push({
        path,
        line: "line" in signal && typeof signal.line === "number" && signal.line > 0
          ? signal.line
          : 1,
        column: 1,
        kind: signal.kind,
        message,
        fingerprint: _hash(`${key}\u0000${nth}`),
      });
    }
  }
  return findings;
}

/** What a finding names (its identity) and its one-line message. */
function _describe(signal: Signal): { subject: string; message: string } {
  switch (signal.kind) {
    case "broken_link":
      return {
        subject: signal.target,
        message: `${signal.target} does not exist${_hint(signal.hint)}`,
      };
    case "broken_anchor":
      return {
        subject: signal.target,
        message: `${signal.target}: no heading or anchor of the target matches the fragment`,
      };
    case "missing_path": {
      const { hint, candidates } = signal;
      const near = hint
        ? ` (did you mean ${hint}?)`
        : candidates
        ? ` (${candidates} listed paths end in it)`
        : "";
      return { subject: signal.path, message: `\`${signal.path}\` does not exist${near}` };
    }
    case "malformed_frontmatter":
      return {
        subject: signal.reason,
        // With a hygiene: line, prune protects the doc until its YAML is fixed (docs/prune.md).
        message: `malformed frontmatter: ${signal.reason}` +
          (signal.hygiene ? " (has a hygiene: line: prune keeps it until the YAML is fixed)" : ""),
      };
    case "duplicate":
      return { subject: "", message: `same content as ${signal.of.join(", ")}` };
    default: {
      // A finding kind this module does not word yet: its fields, as JSON.
      const { kind: _, ...rest } = signal as { kind: string };
      const text = JSON.stringify(rest);
      return { subject: text, message: text };
    }
  }
}

function _hint(hint: string | null | undefined): string {
  if (hint === "case") return " (a path differing only in letter case exists)";
  if (hint === "extension") return " (it exists with a .md extension)";
  return hint ? ` (did you mean ${hint}?)` : "";
}

/** Two 32-bit FNV-1a variants of `text`'s UTF-16 code units, as 16 hex digits (not cryptographic). */
function _hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

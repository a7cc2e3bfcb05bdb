/**
 * The append-only heuristic: is this document a dated log (a changelog, a
 * release history, a journal) that grows by appending entries?
 *
 * @module
 */

import { type MarkdownDoc, parseMarkdown, scanBlock } from "./parse_markdown.ts";

/** A heading of level 1–3, as the heuristic sees it. */
interface _Heading {
  level: number;
  /** Starts with `Unreleased` (not counted in the level's share). */
  unreleased: boolean;
  /** Its date or version, when it starts with one. */
  key: _EntryKey | undefined;
}

/** The sortable key of a log-entry heading. */
interface _EntryKey {
  kind: "date" | "version";
  parts: number[];
}

/** Fewest dated headings at one level for a log (with a log-like file name: {@linkcode _NAMED_MINIMUM}). */
const _MINIMUM = 3;
const _NAMED_MINIMUM = 2;
/** Share of the level's headings (not counting `Unreleased`) that must be dated. */
const _SHARE = 0.6;
/** Share of consecutive dated headings that must be in the same order (ties count both ways). */
const _ORDERED = 0.8;

const LOG_NAME =
  /^(?:changelog|changes|history|news|releases?|release[-_ ]?notes|journal|log|diary|devlog|worklog)(?:[-_.][^/]*)?\.(?:md|mdx|markdown)$/i;
const KEEP_A_CHANGELOG = /keepachangelog\.com|keep a changelog/i;
const UNRELEASED = /^\[?unreleased\]?(?:$|[\s:(–—-])/i;
const DATE = /^\[?(\d{4})-(\d{2})-(\d{2})(?!\d)/;
// A version entry: `[1.2]`, `v1.2`, `Version 1.2`, `Release 1.2`, or a bare
// `1.2.3` followed by nothing or by punctuation (`1.2.3 (2026-08-03)`,
// `1.2.3 - …`) — so numbered sections like `1.2 Scope` are not versions.
const MARKED_VERSION = /^(?:\[v?|v|(?:version|release)\s+v?)(\d+(?:\.\d+){1,3})(?![.\d])/i;
const BARE_VERSION =
  /^(\d+\.\d+\.\d+(?:\.\d+)?)(?![.\d])(?:[-+][0-9A-Za-z.-]+)?(?:$|\s*[^\p{L}\s])/u;

/**
 * Whether a document is append-only. True when `hygiene` is `append-only`,
 * or when the document is a dated log — never because of its name alone:
 *
 * - at some heading level 1–3, at least 3 headings (2 when the file name is
 *   log-like: `CHANGELOG`, `CHANGES`, `HISTORY`, `NEWS`, `RELEASES`,
 *   `RELEASE-NOTES`, `JOURNAL`, `LOG`, `DIARY`, `DEVLOG`, `WORKLOG`) start with
 *   a date `YYYY-MM-DD` or a version (`[1.2.0]`, `v1.2`, `Version 1.2`,
 *   `1.2.0` then nothing or punctuation), they make up at least 60% of that
 *   level's headings (an `Unreleased` heading is not counted), and at least
 *   80% of consecutive pairs of the majority kind (dates or versions) run in
 *   one direction, newest first or oldest first;
 * - or the document mentions "Keep a Changelog" (or keepachangelog.com) and
 *   has at least one version or `Unreleased` heading.
 *
 * @example
 * ```ts
 * import { isAppendOnly } from "./is_append_only.ts";
 * import assert from "node:assert/strict";
 *
 * const log = "# Changelog\n\n## 1.2.0\n\n## 1.1.0\n\n## 1.0.0\n";
 * assert.ok(isAppendOnly("CHANGELOG.md", log));
 * assert.ok(!isAppendOnly("history.md", "# history\n\n## Usage\n\n## Options\n"));
 * assert.ok(isAppendOnly("notes.md", "# Notes\n", "append-only"));
 * ```
 */
export function isAppendOnly(path: string, text: string | MarkdownDoc, hygiene?: string): boolean {
  if (hygiene === "append-only") return true;
  const doc = typeof text === "string" ? parseMarkdown(text) : text;
  const headings: _Heading[] = [];
  let keyed = 0;
  for (const b of doc.blocks) {
    if (b.kind !== "heading" || b.level! > 3) continue;
    const text = (scanBlock(b, doc).text ?? "").trim();
    // Most headings cannot be entries; a first-character test spares them the regexes.
    const entry = _mayBeEntry(text);
    const key = entry ? _entryKey(text) : undefined;
    if (key) keyed++;
    headings.push({ level: b.level!, unreleased: entry && UNRELEASED.test(text), key });
  }
  if (headings.length === 0) return false;
  if (
    headings.some((h) => h.unreleased || h.key?.kind === "version") &&
    _mentionsKeepAChangelog(doc)
  ) return true;
  if (keyed < _NAMED_MINIMUM) return false; // no level can qualify
  const named = LOG_NAME.test(path.slice(path.lastIndexOf("/") + 1));
  for (const level of [1, 2, 3]) {
    const atLevel = headings.filter((h) => h.level === level && !h.unreleased);
    const keys = atLevel.map((h) => h.key).filter((k) => k !== undefined);
    const minimum = named ? _NAMED_MINIMUM : _MINIMUM;
    if (keys.length < minimum || keys.length < _SHARE * atLevel.length) continue;
    const dates = keys.filter((k) => k.kind === "date");
    const versions = keys.filter((k) => k.kind === "version");
    const major = dates.length >= versions.length ? dates : versions;
    if (major.length >= minimum && _ordered(major)) return true;
  }
  return false;
}

// Whether a heading's text starts as an entry or `Unreleased` heading can: `[`, a digit, `v`
// (`v1.2`, `Version`), `r` (`Release`) or `u` (`Unreleased`), in either case.
function _mayBeEntry(text: string): boolean {
  const c = text.charCodeAt(0) | 0x20; // ASCII lower case; `[` (0x5b) becomes `{` (0x7b)
  return c === 0x7b || (c >= 0x30 && c <= 0x39) || c === 0x76 || c === 0x72 || c === 0x75;
}

function _mentionsKeepAChangelog(doc: MarkdownDoc): boolean {
  // Only the first blocks: the preamble, where the convention is declared.
  return doc.blocks.slice(0, 8).some((b) => KEEP_A_CHANGELOG.test(b.lines.join(" ")));
}

function _entryKey(text: string): _EntryKey | undefined {
  const d = DATE.exec(text);
  if (d) {
    const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    const valid = month >= 1 && month <= 12 && day >= 1 &&
      day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
    return valid ? { kind: "date", parts: [year, month, day] } : undefined;
  }
  const v = MARKED_VERSION.exec(text) ?? BARE_VERSION.exec(text);
  return v ? { kind: "version", parts: v[1].split(".").map(Number) } : undefined;
}

function _ordered(keys: _EntryKey[]): boolean {
  let descending = 0;
  let ascending = 0;
  for (let i = 1; i < keys.length; i++) {
    const c = _compare(keys[i - 1].parts, keys[i].parts);
    if (c >= 0) descending++;
    if (c <= 0) ascending++;
  }
  return Math.max(descending, ascending) >= _ORDERED * (keys.length - 1);
}

function _compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

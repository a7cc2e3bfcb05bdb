/**
 * Per-document text analysis for the scanner: everything that can be known
 * from one document's text and path alone.
 *
 * @module
 */

import { type DocLink, extractLinks } from "./extract_links.ts";
import { headingAnchors } from "./github_slug.ts";
import { isAppendOnly } from "./is_append_only.ts";
import { type MarkdownDoc, parseMarkdown, scanBlock } from "./parse_markdown.ts";

/** What {@linkcode analyzeDoc} learns from one document. */
export interface DocAnalysis {
  /** The YAML frontmatter mapping; `undefined` when absent or malformed. */
  frontmatter: Record<string, unknown> | undefined;
  /** The frontmatter's `hygiene:` value, when it is `frozen` or `append-only`. */
  hygiene: "frozen" | "append-only" | undefined;
  /** `hygiene: append-only`, or the dated-log heuristic of {@linkcode isAppendOnly}. */
  appendOnly: boolean;
  /** Every link (see {@linkcode extractLinks}). */
  links: DocLink[];
  /** Heading slugs and explicit HTML anchors (see {@linkcode headingAnchors}). */
  anchors: Set<string>;
  /** Inline-code spans that are repo-relative file paths (see {@linkcode inlineCodePath}). */
  inlinePaths: { line: number; path: string }[];
  /**
   * The other inline-code spans of one token (no whitespace, 3 to 100
   * characters), trimmed: where code elements are looked for (docs/signals.md
   * "stale_reference").
   */
  inlineTokens: { line: number; code: string }[];
  /** Task-list items outside code; `undefined` when there are none. */
  checkboxes: { done: number; open: number } | undefined;
  /** Frontmatter `status:`, or else a leading `Status:` line (see {@linkcode analyzeDoc}). */
  status: string | undefined;
  /**
   * A frontmatter that cannot be parsed: the line of the problem, a short
   * reason, and whether it has a `hygiene:` line (then the doc may be meant
   * frozen: prune never deletes it; it fails closed).
   */
  malformedFrontmatter: MalformedFrontmatter | undefined;
  /** Inline suppression comments outside code, in document order (see {@linkcode Suppression}). */
  suppressions: Suppression[];
}

/**
 * A `<!-- dochygiene-disable [kinds] -->`, `<!-- dochygiene-enable [kinds] -->`
 * or `<!-- dochygiene-disable-next-line [kinds] -->` comment, as an HTML block
 * (on its own lines, outside code).
 */
export interface Suppression {
  /** 1-based line the comment ends on. */
  line: number;
  /** `disable` or `enable` from its line on; `next`: the line after it only. */
  op: "disable" | "enable" | "next";
  /** The signal kinds it names (lower case); empty: every kind. */
  kinds: string[];
}

/** What {@linkcode DocAnalysis.malformedFrontmatter} says. */
export interface MalformedFrontmatter {
  /** 1-based line of the file. */
  line: number;
  /** What is wrong, in a few words (the YAML parser's message, without its position). */
  reason: string;
  /** Whether the block has a top-level `hygiene:` line. */
  hygiene: boolean;
}

/** How many body lines a `Status:` line may come after and still be "leading". */
export const STATUS_WINDOW = 20;

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const NOT_PATH_CHARS = /[\s*?[\]{}!<>|$%^&=,;'"`\\()#~]/;
const LINE_SUFFIX = /:\d+(?::\d+)?$/;
const EXTENSION = /[^/.]\.[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*$/;
const HOSTNAME =
  /^(?:[A-Za-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|co|edu|gov|info|me|sh|rs|so|xyz|cloud|page|site|tech)$/i;
const _WHITESPACE = /\s/;
const STATUS_LINE = /^(?:\*\*|__)?status(?:\*\*|__)?\s*:\s*(.*)$/i;

/**
 * Analyses one document's text. `path` is root-relative with `/`; it feeds
 * only the append-only heuristic's file-name tie-breaker.
 *
 * `status` is the frontmatter's `status:` (a string, number or boolean, as
 * text) or else the first line reading `Status: value` (also `**Status:**
 * value`, `**Status**: value`, in a list item or blockquote) that is within
 * the first {@linkcode STATUS_WINDOW} lines of the body and before the first
 * heading of level 2 or deeper, outside code. Emphasis and code markers around
 * the value are removed; values are cut at 200 characters.
 *
 * Frontmatter beyond flat `key: words` lines needs the full YAML parser: until
 * `loadYaml` (`load_yaml.ts`) has been awaited, such a doc throws
 * `YamlNotLoadedError`.
 *
 * @example
 * ```ts
 * import { analyzeDoc } from "./analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const a = analyzeDoc(
 *   "# Plan\n\nStatus: **draft**\n\n- [x] write `lib/a.ts`\n- [ ] test [it](#plan)\n",
 *   "docs/plan.md",
 * );
 * assert.equal(a.status, "draft");
 * assert.deepEqual(a.checkboxes, { done: 1, open: 1 });
 * assert.deepEqual(a.inlinePaths, [{ line: 5, path: "lib/a.ts" }]);
 * assert.deepEqual(a.links, [{ line: 6, target: "#plan", kind: "inline" }]);
 * assert.ok(a.anchors.has("plan"));
 * assert.equal(a.appendOnly, false);
 * ```
 */
export function analyzeDoc(text: string, path: string): DocAnalysis {
  const doc = parseMarkdown(text);
  const frontmatter = doc.frontmatter.data;
  const hygiene = _hygiene(frontmatter?.hygiene);
  const inlinePaths: { line: number; path: string }[] = [];
  const suppressions: Suppression[] = [];
  const inlineTokens: { line: number; code: string }[] = [];
  let done = 0;
  let open = 0;
  for (const block of doc.blocks) {
    if (block.task === "done") done++;
    if (block.task === "open") open++;
    if (block.kind === "html") {
      if (block.lines.some((line) => line.includes("dochygiene-"))) {
        _suppressions(block, suppressions);
      }
      continue;
    }
    const scan = scanBlock(block, doc);
    for (const code of scan.codeSpans) {
      const p = inlineCodePath(code.content);
      if (p !== undefined) inlinePaths.push({ line: scan.lineOf(code.offset), path: p });
      else {
        const token = code.content.trim();
        if (token.length >= 3 && token.length <= 100 && !_WHITESPACE.test(token)) {
          inlineTokens.push({ line: scan.lineOf(code.offset), code: token });
        }
      }
    }
  }
  return {
    frontmatter,
    hygiene,
    appendOnly: isAppendOnly(path, doc, hygiene),
    links: extractLinks(doc),
    anchors: headingAnchors(doc),
    inlinePaths,
    inlineTokens,
    checkboxes: done + open > 0 ? { done, open } : undefined,
    status: _frontmatterStatus(frontmatter?.status) ?? _leadingStatus(doc),
    malformedFrontmatter: _malformed(doc.frontmatter),
    suppressions,
  };
}

const SUPPRESSION = /<!--\s*dochygiene-(disable-next-line|disable|enable)((?:\s[\s\w,]*?)?)\s*-->/g;

/** The suppression comments of an HTML block, appended to `out` (see docs/signals.md). */
function _suppressions(block: { line: number; lines: string[] }, out: Suppression[]): void {
  const text = block.lines.join("\n");
  for (const m of text.matchAll(SUPPRESSION)) {
    const end = m.index + m[0].length;
    let line = block.line;
    for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) line++;
    const op = m[1] === "disable-next-line" ? "next" : m[1] as "disable" | "enable";
    const kinds = m[2].toLowerCase().split(/[\s,]+/).filter((kind) => kind !== "");
    out.push({ line, op, kinds });
  }
}

function _malformed(fm: MarkdownDoc["frontmatter"]): MalformedFrontmatter | undefined {
  if (fm.data !== undefined || fm.reason === undefined) return undefined;
  return { line: fm.errorLine ?? 1, reason: fm.reason, hygiene: fm.hygieneLine !== undefined };
}

/**
 * The repo-relative file path an inline-code span names, or `undefined`.
 * A path has a `/`, a last segment with an extension (containing a letter),
 * no whitespace, scheme (`https:`, `node:`), glob or shell characters
 * (`* ? [ ] { } ! < > | $ % ^ & = , ; ' " \ ( ) # ~`), no empty, `.` or `..`
 * segments, does not start with `/` or end with `/`, and does not start with
 * a host name (`github.com/…`). Placeholders are not paths: `path/to/…`, and
 * an ellipsis segment (`…`, `...`; `{{x}}` and `<name>` have characters a path
 * has not). A leading `./` and a trailing `:line[:col]` are removed.
 *
 * @example
 * ```ts
 * import { inlineCodePath } from "./analyze_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(inlineCodePath("./src/main.ts:12"), "src/main.ts");
 * assert.equal(inlineCodePath(".github/workflows/ci.yml"), ".github/workflows/ci.yml");
 * assert.equal(inlineCodePath("docs/*.md"), undefined);
 * assert.equal(inlineCodePath("https://x.dev/a.md"), undefined);
 * assert.equal(inlineCodePath("github.com/o/r/a.md"), undefined);
 * assert.equal(inlineCodePath("npm install"), undefined);
 * assert.equal(inlineCodePath("path/to/config.yml"), undefined);
 * assert.equal(inlineCodePath("src/.../main.ts"), undefined);
 * ```
 */
export function inlineCodePath(code: string): string | undefined {
  // Every later step only removes characters, so a span without `/` is never a path.
  if (code.indexOf("/") < 0) return undefined;
  let p = code.trim();
  // SCHEME and LINE_SUFFIX need a `:`, which most paths do not have.
  const colon = p.indexOf(":") >= 0;
  if (p.length > 512 || (colon && SCHEME.test(p)) || NOT_PATH_CHARS.test(p)) return undefined;
  if (colon) p = p.replace(LINE_SUFFIX, "");
  while (p.startsWith("./")) p = p.slice(2);
  if (!p.includes("/") || p.startsWith("/") || p.endsWith("/") || p.includes(":")) return undefined;
  if (_hasEmptyOrDotSegment(p) || _isPlaceholder(p)) return undefined;
  const first = p.slice(0, p.indexOf("/"));
  const host = first.indexOf(".") >= 0 && HOSTNAME.test(first); // HOSTNAME needs a `.`
  if (host || !EXTENSION.test(p.slice(p.lastIndexOf("/") + 1))) return undefined;
  return p;
}

/** `path/to/…` (the conventional placeholder), from the start or after a `/`. */
const PATH_TO = /(?:^|\/)path\/to\//i;

/** A placeholder, not a path: `path/to/x.md`, an ellipsis segment (`a/…/b.md`, `a/.../b.md`). */
function _isPlaceholder(p: string): boolean {
  return p.includes("\u2026") || p.startsWith("...") || p.includes("/...") || PATH_TO.test(p);
}

// Whether a `/`-separated path has an empty, `.` or `..` segment (walked, not split).
function _hasEmptyOrDotSegment(p: string): boolean {
  for (let start = 0; start <= p.length;) {
    let end = p.indexOf("/", start);
    if (end < 0) end = p.length;
    const length = end - start;
    if (length === 0) return true;
    if (length <= 2 && p[start] === "." && (length === 1 || p[start + 1] === ".")) return true;
    start = end + 1;
  }
  return false;
}

function _hygiene(value: unknown): DocAnalysis["hygiene"] {
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  return v === "frozen" || v === "append-only" ? v : undefined;
}

function _frontmatterStatus(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    return undefined;
  }
  return _cleanStatus(String(value));
}

function _leadingStatus(doc: MarkdownDoc): string | undefined {
  const last = doc.frontmatter.bodyStart + STATUS_WINDOW;
  for (const block of doc.blocks) {
    if (block.line > last || (block.kind === "heading" && block.level! >= 2)) return undefined;
    if (block.kind !== "paragraph") continue;
    for (let k = 0; k < block.lines.length && block.line + k <= last; k++) {
      const line = block.lines[k];
      if (line.length > 1000) continue;
      const m = STATUS_LINE.exec(line.trim());
      const value = m ? _cleanStatus(m[1]) : undefined;
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function _cleanStatus(raw: string): string | undefined {
  let v = raw.trim();
  // Trimmed, it has markers to strip only when it starts or ends with one (usually not).
  if (_isMarker(v.charCodeAt(0)) || _isMarker(v.charCodeAt(v.length - 1))) {
    v = v.replace(/^[*_`\s]+|[*_`\s]+$/g, "");
  }
  v = v.slice(0, 200).trim();
  return v === "" ? undefined : v;
}

// `*`, `_` or `` ` ``.
function _isMarker(c: number): boolean {
  return c === 0x2a || c === 0x5f || c === 0x60;
}

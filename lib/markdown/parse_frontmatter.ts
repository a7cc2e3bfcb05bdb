/**
 * YAML frontmatter: the block between a first line `---` and the next `---`
 * or `...` line, parsed with the capped safe YAML parser.
 *
 * @module
 */

import { loadedYaml, YamlNotLoadedError } from "../yaml/load_yaml.ts";

/** Options of {@linkcode parseFrontmatter} and `parseMarkdown`. */
export interface FrontmatterOptions {
  /**
   * Whether the frontmatter's YAML is parsed (default `true`). With `false`
   * the frontmatter is only delimited: the result is `{ data: undefined,
   * bodyStart }`, and the full YAML parser is never needed — for readers of
   * the body alone (anchors), which may run before anyone loaded it.
   */
  yaml?: boolean;
}

/** What {@linkcode parseFrontmatter} found. */
export interface Frontmatter {
  /** The mapping, or `undefined` when there is no frontmatter or it is malformed. */
  data: Record<string, unknown> | undefined;
  /** 0-based index of the first body line (0 when there is no frontmatter). */
  bodyStart: number;
  /** Why the frontmatter could not be used (malformed YAML, not a mapping). */
  error?: string;
  /** With `error`: the 1-based line of the file where the problem is (the opening `---` when not known). */
  errorLine?: number;
  /**
   * With `error`: the problem in a few words — the parser's first line,
   * without its position (given by `errorLine`), at most 200 characters.
   */
  reason?: string;
  /**
   * With `error`: the value written on a top-level `hygiene:` line, when the
   * block has one (a doc meant frozen or append-only whose YAML is broken).
   */
  hygieneLine?: string;
}

/**
 * Splits off and parses YAML frontmatter. Malformed YAML, an alias bomb or an
 * oversized block give `data: undefined` and an `error`, with `bodyStart`
 * still after the closing delimiter. Flat `key: words` frontmatter is read
 * directly; anything else needs the full parser, and throws
 * {@linkcode YamlNotLoadedError} (its only throw) until
 * `loadYaml` (`load_yaml.ts`) has been awaited. An unclosed opening `---` is
 * not frontmatter (GitHub renders it as a rule). A leading BOM and CRLF line
 * endings are accepted. With `{ yaml: false }` only `bodyStart` is found.
 *
 * @example
 * ```ts
 * import { parseFrontmatter } from "./parse_frontmatter.ts";
 * import { loadYaml } from "../yaml/load_yaml.ts";
 * import assert from "node:assert/strict";
 *
 * await loadYaml();
 * const fm = parseFrontmatter("---\nhygiene: frozen\n---\n# Title\n");
 * assert.deepEqual(fm.data, { hygiene: "frozen" });
 * assert.equal(fm.bodyStart, 3);
 * assert.equal(parseFrontmatter("# No frontmatter\n").data, undefined);
 * assert.match(parseFrontmatter("---\na: [1\n---\n").error ?? "", /frontmatter/);
 * const broken = parseFrontmatter("---\nhygiene: frozen\ntitle: Plan: search\n---\n");
 * assert.equal(broken.data, undefined);
 * assert.equal(broken.errorLine, 3);
 * assert.equal(broken.hygieneLine, "frozen");
 * assert.deepEqual(parseFrontmatter("---\na: [1\n---\n# Title\n", { yaml: false }), {
 *   data: undefined,
 *   bodyStart: 3,
 * });
 * ```
 */
export function parseFrontmatter(text: string, options?: FrontmatterOptions): Frontmatter {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith("---")) return { data: undefined, bodyStart: 0 };
  // Lines are walked with indexOf and checked in place (no regex split, no line strings).
  const cr = text.indexOf("\r") >= 0;
  let start = 0;
  let index = 0;
  let yamlStart = 0;
  while (true) {
    const end = _lineEnd(text, start, cr);
    if (index === 0) {
      if (!_isDelimiter(text, start, end, false)) return { data: undefined, bodyStart: 0 };
    } else if (_isDelimiter(text, start, end, true)) {
      if (options?.yaml === false) return { data: undefined, bodyStart: index + 1 };
      return _parse(text.slice(yamlStart, start), index + 1);
    }
    if (end === text.length) return { data: undefined, bodyStart: 0 };
    start = end + (text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? 2 : 1);
    if (index === 0) yamlStart = start;
    index++;
  }
}

// The offset of the line break (`\n`, `\r` or `\r\n`) ending the line at `start`, or the length.
function _lineEnd(text: string, start: number, cr: boolean): number {
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  if (cr) {
    const r = text.indexOf("\r", start);
    if (r >= 0 && r < end) end = r;
  }
  return end;
}

// Whether `text[start, end)` is `---` (or, closing, `...`) followed only by spaces and tabs.
function _isDelimiter(text: string, start: number, end: number, closing: boolean): boolean {
  if (end - start < 3) return false;
  const c = text.charCodeAt(start);
  if (c !== 0x2d && !(closing && c === 0x2e)) return false;
  if (text.charCodeAt(start + 1) !== c || text.charCodeAt(start + 2) !== c) return false;
  for (let i = start + 3; i < end; i++) {
    const s = text.charCodeAt(i);
    if (s !== 0x20 && s !== 0x09) return false;
  }
  return true;
}

function _parse(yaml: string, bodyStart: number): Frontmatter {
  if (yaml.indexOf("\r") >= 0) yaml = yaml.replace(/\r\n?/g, "\n");
  const simple = _simpleMapping(yaml);
  if (simple) return { data: simple, bodyStart };
  // Anything else needs the full parser: loaded on demand (see load_yaml.ts).
  const parseYaml = loadedYaml();
  if (parseYaml === undefined) throw new YamlNotLoadedError();
  let value: unknown;
  try {
    value = parseYaml(yaml);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const line = (err as { line?: unknown }).line;
    const reason = why.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
    return _broken(yaml, bodyStart, `malformed YAML frontmatter: ${why}`, line, reason);
  }
  if (value === null || value === undefined) return { data: {}, bodyStart };
  if (typeof value !== "object" || Array.isArray(value)) {
    const reason = "YAML frontmatter is not a mapping";
    return _broken(yaml, bodyStart, reason, undefined, reason);
  }
  return { data: value as Record<string, unknown>, bodyStart };
}

/** A frontmatter that cannot be used, with where and whether it has a `hygiene:` line. */
function _broken(
  yaml: string,
  bodyStart: number,
  error: string,
  line: unknown,
  reason: string,
): Frontmatter {
  const out: Frontmatter = { data: undefined, bodyStart, error, reason: reason.slice(0, 200) };
  // The YAML's line 1 is the file's line 2 (after the opening `---`).
  out.errorLine = typeof line === "number" && line >= 1 && line < bodyStart ? line + 1 : 1;
  const hygiene = _HYGIENE_LINE.exec(yaml);
  if (hygiene !== null) out.hygieneLine = hygiene[1].replace(/^["']|["']$/g, "").trim();
  return out;
}

// A top-level `hygiene:` line (the key bare or quoted), whatever follows it.
const _HYGIENE_LINE = /^["']?hygiene["']?[ \t]*:[ \t]*([^\n]*)$/m;

// Plain scalars that YAML 1.2's core schema reads as strings: a letter first, then only
// letters, digits, spaces and `_ . / - : ? & = % + ~ @` (no `#`, quotes, flow or block
// indicators; a `:` never before a space nor last: see `_isSimpleString`) — names, URLs; or an
// ISO date (the core schema has no timestamps), a date with slashes, a version of three numbers
// or more (none is an int or a float).
const SIMPLE_STRING =
  /^(?:[A-Za-z][A-Za-z0-9 _./:?&=%+~@-]{0,199}|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|\d+(?:\.\d+){2,8})$/;
const RESERVED = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

// The fast path for the common frontmatter of flat `key: word words` lines, which gives
// exactly what `parseYaml` gives (pinned by a test) at a fraction of its cost — the full
// parser costs ~30 µs per document. Anything else returns undefined: the full parser decides.
function _simpleMapping(yaml: string): Record<string, unknown> | undefined {
  // The lines of `yaml` (a final line break ends the last line), walked with indexOf: a
  // one-character split is a runtime call that costs more than the few lines here.
  // A `\u2028` or `\u2029` (line terminators for YAML too) is left to the full parser.
  if (yaml === "" || yaml.indexOf("\u2028") >= 0 || yaml.indexOf("\u2029") >= 0) return undefined;
  const end = yaml.endsWith("\n") ? yaml.length - 1 : yaml.length;
  const data: Record<string, unknown> = {};
  for (let start = 0, count = 1; start <= end; count++) {
    if (count > 64) return undefined;
    let next = yaml.indexOf("\n", start);
    if (next < 0 || next > end) next = end;
    const line = yaml.slice(start, next);
    start = next + 1;
    const colon = _keyEnd(line);
    if (colon < 0) return undefined;
    const key = line.slice(0, colon);
    if (_isReserved(key) || key === "__proto__" || Object.hasOwn(data, key)) return undefined;
    // YAML trims only spaces and tabs around a plain scalar (`trim()` would also take a no-break
    // space, which YAML keeps): anything else at either end is left to the full parser.
    const raw = line.slice(colon + 1).replace(_SPACES_AROUND, "");
    if (raw === "" || _isReserved(raw)) {
      data[key] = raw === "" || raw[0] === "n" || raw[0] === "N"
        ? null
        : raw[0] === "t" || raw[0] === "T";
    } else if (_isSimpleString(raw)) data[key] = raw;
    else return undefined;
  }
  return data;
}

const _SPACES_AROUND = /^[ \t]+|[ \t]+$/g;

// A simple line is `key:`, then nothing or spaces or tabs and a value: the offset of the `:`
// after a key of 1–64 letters, digits, `_`, `-` and `.`, words of them parted by single spaces
// (`ms.date`, `online version`; not starting with a digit, `-` or `.`), or -1.
function _keyEnd(line: string): number {
  let k = 0;
  for (; k < line.length && k <= 64; k++) {
    const c = line.charCodeAt(k);
    if (k === 0 ? _isKeyStart(c) : _isKeyChar(c)) continue;
    if (k === 0) break;
    // A space between two words of the key (a plain scalar keeps it).
    if (c === 0x20 && line.charCodeAt(k - 1) !== 0x20 && _isKeyChar(line.charCodeAt(k + 1))) {
      continue;
    }
    break;
  }
  if (k === 0 || k > 64 || line.charCodeAt(k) !== 0x3a) return -1;
  const after = line.charCodeAt(k + 1);
  return k + 1 === line.length || after === 0x20 || after === 0x09 ? k : -1;
}

// RESERVED, after a first-character test (`t`, `f` or `n`, either case) that most values fail.
/** A value {@linkcode SIMPLE_STRING} allows whose `:` (in a URL) is neither last nor before a space. */
function _isSimpleString(raw: string): boolean {
  return SIMPLE_STRING.test(raw) && !raw.endsWith(":") && raw.indexOf(": ") < 0;
}

/** A letter or `_`: what a key starts with. */
function _isKeyStart(c: number): boolean {
  return ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x5f;
}

/** What a key holds after its first character: a letter, `_`, a digit, `-` or `.`. */
function _isKeyChar(c: number): boolean {
  return _isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
}

function _isReserved(s: string): boolean {
  const c = s.charCodeAt(0) | 0x20;
  return (c === 0x74 || c === 0x66 || c === 0x6e) && RESERVED.test(s);
}

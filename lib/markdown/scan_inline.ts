/**
 * A linear-time scanner for CommonMark inline syntax: links and images (with
 * their destinations), code spans, raw HTML tags and comments, autolinks,
 * backslash escapes and — on request — the plain text a heading renders to.
 *
 * @module
 */

import { decodeEntities, referenceAt } from "./_decode_entities.ts";

export { decodeEntities };

/** A link or image found by {@linkcode scanInline}. */
export interface InlineLink {
  /** Offset of the opening `[` (or `!`) in the scanned text. */
  offset: number;
  /** The destination as written (without `<` `>`); empty for `[t]()`. */
  destination: string;
  /** `![alt](src)` rather than `[text](href)`. */
  image: boolean;
}

/** A code span found by {@linkcode scanInline}. */
export interface InlineCode {
  /** Offset of the opening backticks. */
  offset: number;
  /** The span's content, normalised as CommonMark does (line endings → spaces, one padding space stripped). */
  content: string;
}

/** A raw HTML start tag found by {@linkcode scanInline} or {@linkcode scanHtml}. */
export interface HtmlTag {
  /** Offset of `<`. */
  offset: number;
  /** Lower-case tag name. */
  name: string;
  /** Attributes by lower-case name, entity-decoded (first one wins). */
  attributes: Map<string, string>;
}

/** What {@linkcode scanInline} found. */
export interface InlineScan {
  /** Links and images, by offset. */
  links: InlineLink[];
  /** Code spans, by offset. */
  codeSpans: InlineCode[];
  /** Raw HTML start tags, by offset. */
  tags: HtmlTag[];
  /** The rendered plain text (only with `text: true`). */
  text?: string;
}

/** Options for {@linkcode scanInline}. */
export interface ScanInlineOptions {
  /** Normalised labels of the document's reference definitions (for `[t][ref]` and `[ref]`). */
  labels?: ReadonlySet<string>;
  /** Also build the plain text: markup stripped, image alt text and HTML dropped. */
  text?: boolean;
}

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const LT = 0x3c;
const BANG = 0x21;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const UNDERSCORE = 0x5f;
const AMP = 0x26;
// The characters that can start syntax (`_` and `&` matter only for the plain text).
const SPECIAL = /[\\`<![\]]/g;
const SPECIAL_TEXT = /[\\`<![\]_&]/g;
const AUTOLINK =
  /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9][A-Za-z0-9.-]*>/y;
const OPEN_TAG =
  /^<([A-Za-z][A-Za-z0-9-]*)((?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*)\s*\/?>$/;
const CLOSE_TAG = /^<\/[A-Za-z][A-Za-z0-9-]*\s*>$/;
const ATTRIBUTES = /([A-Za-z_:][\w.:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
// A run of link destination characters with no meaning of their own: anything but controls,
// space, `\`, `(` and `)`.
const PLAIN_DESTINATION = /[!-'*-[\]-~\u0080-\uffff]*/y;
// Link destinations longer than this are only followed while the work budget lasts.
const CAPPED_DESTINATION = 256;

/**
 * Scans one block's inline content (a paragraph's lines joined with `\n`, or
 * a heading's text). Follows CommonMark precedence: code spans, autolinks and
 * raw HTML bind tighter than links; links do not nest; a backslash escapes
 * ASCII punctuation. HTML comments hide what is inside them. Every step is
 * amortised constant time, so hostile input (100,000 `[`, unclosed titles,
 * unmatched backticks) stays linear.
 *
 * @example
 * ```ts
 * import { scanInline } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * const scan = scanInline("See [the guide](docs/guide.md \"Guide\") and `a/b.ts`, not \\[x](y).");
 * assert.deepEqual(scan.links.map((l) => l.destination), ["docs/guide.md"]);
 * assert.deepEqual(scan.codeSpans.map((c) => c.content), ["a/b.ts"]);
 * assert.equal(scanInline("Use `x` _now_ [here](#h)", { text: true }).text, "Use x now here");
 * ```
 */
export function scanInline(src: string, options: ScanInlineOptions = {}): InlineScan {
  // Many blocks have no syntax at all: skip building the scanner for them.
  const first = _nextSpecial(src, 0, options.text ? SPECIAL_TEXT : SPECIAL);
  if (first < 0) {
    return options.text
      ? { links: [], codeSpans: [], tags: [], text: src }
      : { links: [], codeSpans: [], tags: [] };
  }
  // Most of the rest have only simple links and code spans: those need no scanner state.
  const simple = options.text ? undefined : _scanSimple(src, first);
  return simple ?? new _InlineScanner(src, options).run(first);
}

// The scan of a text whose syntax is only simple links (see #simpleLink), simple code spans
// (see #simpleCodeSpan), backslash escapes and stray `]` or `!`, found without the scanner's
// state: what the scanner finds for such a text. `undefined` at anything else (a `<`, or a `[`
// or backtick that starts no simple link or span): the scanner then starts over.
function _scanSimple(src: string, start: number): InlineScan | undefined {
  const links: InlineLink[] = [];
  const codeSpans: InlineCode[] = [];
  const n = src.length;
  for (let i = start; i >= 0; i = i < n ? _nextSpecial(src, i, SPECIAL) : -1) {
    const c = src.charCodeAt(i);
    if (c === BACKTICK) {
      const close = _simpleCodeClose(src, i);
      if (close < 0) return undefined;
      codeSpans.push({ offset: i, content: _stripPadding(src.slice(i + 1, close)) });
      i = close + 1;
    } else if (c === LBRACKET || (c === BANG && src.charCodeAt(i + 1) === LBRACKET)) {
      const image = c === BANG;
      const text = _simpleLinkText(src, image ? i + 1 : i);
      const end = text < 0 ? -1 : _simpleDestinationEnd(src, text + 2);
      if (end < 0) return undefined;
      links.push({ offset: i, destination: src.slice(text + 2, end), image });
      i = end + 1;
    } else if (c === BACKSLASH) {
      i += _isAsciiPunct(src.charCodeAt(i + 1)) ? 2 : 1;
    } else if (c === RBRACKET || c === BANG) {
      i++; // a `]` without an opener, a `!` without `[`: literal
    } else return undefined;
  }
  return { links, codeSpans, tags: [] };
}

/**
 * Finds the start tags of raw HTML (an HTML block), skipping comments.
 *
 * @example
 * ```ts
 * import { scanHtml } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * const tags = scanHtml('<p align="center">\n<img src="logo.png"> <!-- <a href="x"> -->\n</p>');
 * assert.deepEqual(tags.map((t) => t.attributes.get("src") ?? t.name), ["p", "logo.png"]);
 * ```
 */
export function scanHtml(src: string): HtmlTag[] {
  const tags: HtmlTag[] = [];
  const finder = new _TagFinder(src);
  let i = src.indexOf("<");
  while (i >= 0) {
    const comment = finder.commentEnd(i);
    if (comment >= 0) {
      i = src.indexOf("<", comment);
      continue;
    }
    const tag = finder.tagAt(i);
    if (tag?.tag) tags.push(tag.tag);
    i = src.indexOf("<", tag ? tag.end : i + 1);
  }
  return tags;
}

// Memoised `indexOf` for queries at (mostly) increasing positions: a search
// that found nothing, or found a match past the next query, is reused.
class _NextIndex {
  #from = -1;
  #found = -1;
  constructor(private readonly src: string, private readonly needle: string) {}
  from(p: number): number {
    if (this.#from >= 0 && p >= this.#from && (this.#found < 0 || p <= this.#found)) {
      return this.#found;
    }
    this.#from = p;
    this.#found = this.src.indexOf(this.needle, p);
    return this.#found;
  }
}

class _TagFinder {
  readonly #gt: _NextIndex;
  readonly #lt: _NextIndex;
  readonly #commentEnd: _NextIndex;
  constructor(private readonly src: string) {
    this.#gt = new _NextIndex(src, ">");
    this.#lt = new _NextIndex(src, "<");
    this.#commentEnd = new _NextIndex(src, "-->");
  }

  /** End offset of an HTML comment starting at `i`, or -1. */
  commentEnd(i: number): number {
    const src = this.src;
    if (!src.startsWith("<!--", i)) return -1;
    if (src.startsWith(">", i + 4)) return i + 5;
    if (src.startsWith("->", i + 4)) return i + 6;
    const end = this.#commentEnd.from(i + 4);
    return end < 0 ? -1 : end + 3;
  }

  /** A start or end tag at `i` (ending at the next `>`, with no `<` before it). */
  tagAt(i: number): { tag?: HtmlTag; end: number } | undefined {
    const gt = this.#gt.from(i + 1);
    if (gt < 0) return undefined;
    const lt = this.#lt.from(i + 1);
    if (lt >= 0 && lt < gt) return undefined;
    const candidate = this.src.slice(i, gt + 1);
    if (CLOSE_TAG.test(candidate)) return { end: gt + 1 };
    const m = OPEN_TAG.exec(candidate);
    if (!m) return undefined;
    const attributes = new Map<string, string>();
    for (const a of m[2].matchAll(ATTRIBUTES)) {
      const name = a[1].toLowerCase();
      if (!attributes.has(name)) attributes.set(name, decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""));
    }
    return { tag: { offset: i, name: m[1].toLowerCase(), attributes }, end: gt + 1 };
  }
}

/**
 * Normalises a link label for matching: trimmed, inner whitespace collapsed,
 * case folded.
 *
 * @example
 * ```ts
 * import { normalizeLabel } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeLabel("  Foo \n Bar "), "foo bar");
 * ```
 */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}

interface _Bracket {
  offset: number;
  image: boolean;
  token: number;
}

interface _Delimiter {
  token: number;
  count: number;
  canOpen: boolean;
  canClose: boolean;
  length: number;
}

class _InlineScanner {
  readonly links: InlineLink[] = [];
  readonly codeSpans: InlineCode[] = [];
  readonly tags: HtmlTag[] = [];
  readonly #tokens: string[] | undefined;
  readonly #delimiters: _Delimiter[] = [];
  readonly #brackets: _Bracket[] = [];
  readonly #labels: ReadonlySet<string>;
  #finder: _TagFinder | undefined;
  #quotes: Record<string, _NextIndex> | undefined;
  #runs: Map<number, { starts: number[]; next: number }> | undefined;
  #linkBarrier = 0;
  #budget: number;
  #textStart = 0;

  constructor(private readonly src: string, options: ScanInlineOptions) {
    this.#tokens = options.text ? [] : undefined;
    this.#labels = options.labels ?? new Set();
    this.#budget = src.length * 4 + 65536;
  }

  /** Scans from `start`, the first character that can start syntax. */
  run(start: number): InlineScan {
    const src = this.src;
    const n = src.length;
    // Jump from one character that can start syntax to the next.
    const special = this.#tokens ? SPECIAL_TEXT : SPECIAL;
    let i = start;
    while (i >= 0) {
      const c = src.charCodeAt(i);
      if (c === BACKSLASH) {
        if (_isAsciiPunct(src.charCodeAt(i + 1))) {
          this.#flush(i);
          this.#emit(src[i + 1]);
          i += 2;
          this.#textStart = i;
        } else i++;
      } else if (c === BACKTICK) {
        const end = this.#simpleCodeSpan(i);
        i = end >= 0 ? end : this.#codeSpan(i);
      } else if (c === LT) {
        i = this.#angle(i);
      } else if (c === BANG && src.charCodeAt(i + 1) === LBRACKET) {
        const end = this.#simpleLink(i, true);
        if (end >= 0) i = end;
        else {
          this.#open(i, true);
          i += 2;
        }
      } else if (c === LBRACKET) {
        const end = this.#simpleLink(i, false);
        if (end >= 0) i = end;
        else {
          this.#open(i, false);
          i++;
        }
      } else if (c === RBRACKET) {
        i = this.#close(i);
      } else if (c === UNDERSCORE && this.#tokens) {
        i = this.#underscores(i);
      } else if (c === AMP && this.#tokens) {
        const reference = referenceAt(src, i);
        if (reference) {
          this.#flush(i);
          this.#emit(reference[0]);
          i += reference[1];
          this.#textStart = i;
        } else i++;
      } else i++;
      i = i < n ? _nextSpecial(src, i, special) : -1;
    }
    this.#flush(n);
    const scan: InlineScan = { links: this.links, codeSpans: this.codeSpans, tags: this.tags };
    if (this.#tokens) scan.text = this.#plainText();
    if (scan.links.length > 1) scan.links.sort(_byOffset);
    return scan;
  }

  #emit(s: string): number {
    if (!this.#tokens) return -1;
    this.#tokens.push(s);
    return this.#tokens.length - 1;
  }

  #flush(end: number): void {
    if (this.#tokens && end > this.#textStart) {
      this.#tokens.push(this.src.slice(this.#textStart, end));
    }
    this.#textStart = end;
  }

  // The fast path for the most common code spans: single backticks around one line, outside
  // the plain-text scan (see _simpleCodeClose). It finds what #codeSpan would. Returns the
  // span's end, or -1 when this is not such a span.
  #simpleCodeSpan(i: number): number {
    if (this.#tokens) return -1;
    const close = _simpleCodeClose(this.src, i);
    if (close < 0) return -1;
    this.codeSpans.push({ offset: i, content: _stripPadding(this.src.slice(i + 1, close)) });
    return close + 1;
  }

  #codeSpan(i: number): number {
    const src = this.src;
    let j = i;
    while (src.charCodeAt(j) === BACKTICK) j++;
    const length = j - i;
    const close = this.#closingRun(length, j);
    if (close < 0) return j; // literal backticks
    this.#flush(i);
    let content = src.slice(j, close);
    if (content.indexOf("\n") >= 0) content = content.replace(/\n/g, " ");
    content = _stripPadding(content);
    this.codeSpans.push({ offset: i, content });
    this.#emit(content);
    this.#textStart = close + length;
    return close + length;
  }

  // The start of the next backtick run of exactly `length` at or after `from`:
  // one index of all runs, with a forward-only cursor per length.
  #closingRun(length: number, from: number): number {
    const src = this.src;
    if (!this.#runs) {
      // Usually the next run (`from` ends the opening run, so a backtick after it starts one)
      // is the closing one: then the index is not needed.
      const next = src.indexOf("`", from);
      if (next < 0) return -1;
      let e = next;
      while (src.charCodeAt(e) === BACKTICK) e++;
      if (e - next === length) return next;
      this.#runs = new Map();
      let k = src.indexOf("`");
      while (k >= 0) {
        let e = k;
        while (src.charCodeAt(e) === BACKTICK) e++;
        let entry = this.#runs.get(e - k);
        if (!entry) this.#runs.set(e - k, entry = { starts: [], next: 0 });
        entry.starts.push(k);
        k = src.indexOf("`", e);
      }
    }
    const entry = this.#runs.get(length);
    if (!entry) return -1;
    while (entry.next < entry.starts.length && entry.starts[entry.next] < from) entry.next++;
    return entry.next < entry.starts.length ? entry.starts[entry.next] : -1;
  }

  #angle(i: number): number {
    const src = this.src;
    this.#finder ??= new _TagFinder(src);
    const comment = this.#finder.commentEnd(i);
    if (comment >= 0) {
      this.#flush(i);
      this.#textStart = comment;
      return comment;
    }
    AUTOLINK.lastIndex = i;
    const auto = AUTOLINK.exec(src);
    if (auto) {
      this.#flush(i);
      this.#emit(auto[0].slice(1, -1));
      this.#textStart = i + auto[0].length;
      return this.#textStart;
    }
    const tag = this.#finder.tagAt(i);
    if (!tag) return i + 1;
    this.#flush(i);
    if (tag.tag) this.tags.push(tag.tag);
    this.#textStart = tag.end;
    return tag.end;
  }

  // The fast path for the most common links: `[text](destination)` (or an image) outside other
  // brackets, whose text has no syntax characters and whose destination no space, escape or
  // parenthesis (see _simpleLinkText, _simpleDestinationEnd). It finds what #open, #close and
  // #inlineTail would; anything else (and the plain-text scan) takes that general path. Returns
  // the link's end, or -1 when this is not a simple link.
  #simpleLink(i: number, image: boolean): number {
    if (this.#tokens || this.#brackets.length > 0 || this.#budget <= 0) return -1;
    const src = this.src;
    const text = _simpleLinkText(src, image ? i + 1 : i);
    const end = text < 0 ? -1 : _simpleDestinationEnd(src, text + 2);
    if (end < 0) return -1;
    this.#budget -= end - text - 2;
    this.links.push({ offset: i, destination: src.slice(text + 2, end), image });
    return end + 1;
  }

  #open(i: number, image: boolean): void {
    this.#flush(i);
    const token = this.#emit(image ? "![" : "[");
    this.#brackets.push({ offset: i, image, token });
    this.#textStart = i + (image ? 2 : 1);
  }

  #close(i: number): number {
    const src = this.src;
    const opener = this.#brackets.pop();
    if (!opener) return i + 1;
    const depth = this.#brackets.length;
    const inactive = !opener.image && depth < this.#linkBarrier;
    if (depth < this.#linkBarrier) this.#linkBarrier = depth;
    if (inactive) return i + 1;
    let end = -1;
    let destination: string | undefined;
    if (src.charCodeAt(i + 1) === 0x28) {
      const tail = this.#inlineTail(i + 1);
      if (tail) [destination, end] = [tail.destination, tail.end];
    }
    if (end < 0 && this.#labels.size > 0) end = this.#referenceTail(opener, i);
    if (end < 0) return i + 1;
    this.#flush(i);
    if (destination !== undefined) {
      this.links.push({ offset: opener.offset, destination, image: opener.image });
    }
    if (this.#tokens) {
      if (opener.image) {
        this.#tokens.length = opener.token;
        while (this.#delimiters.length && this.#delimiters.at(-1)!.token >= opener.token) {
          this.#delimiters.pop();
        }
      } else this.#tokens[opener.token] = "";
    }
    if (!opener.image) this.#linkBarrier = this.#brackets.length;
    this.#textStart = end;
    return end;
  }

  // `(destination "title")` at `p`; undefined when it is not a valid inline link tail.
  #inlineTail(p: number): { destination: string; end: number } | undefined {
    const src = this.src;
    const j = _skipSpace(src, p + 1);
    let destination: string;
    let k: number;
    if (src.charCodeAt(j) === LT) {
      k = j + 1;
      for (;; k++) {
        const ch = src[k];
        if (ch === undefined || ch === "\n" || ch === "<") return undefined;
        if (ch === ">") break;
        if (ch === "\\") k++;
      }
      destination = src.slice(j + 1, k);
      k++;
    } else {
      let depth = 0;
      const cap = this.#budget > 0 ? Infinity : j + CAPPED_DESTINATION;
      // Characters the loop would just step over are skipped in one native search.
      if (cap === Infinity) {
        PLAIN_DESTINATION.lastIndex = j;
        PLAIN_DESTINATION.test(src);
        k = PLAIN_DESTINATION.lastIndex;
      } else k = j;
      for (; k < src.length && k < cap; k++) {
        const code = src.charCodeAt(k);
        if (code <= 0x20 || code === 0x7f) break;
        if (code === BACKSLASH && _isAsciiPunct(src.charCodeAt(k + 1))) k++;
        else if (code === 0x28) {
          if (++depth > 32) return undefined;
        } else if (code === 0x29) {
          if (depth === 0) break;
          depth--;
        }
      }
      this.#budget -= k - j;
      if (depth !== 0 || k >= cap) return undefined;
      destination = src.slice(j, k);
    }
    let w = _skipSpace(src, k);
    const q = src[w];
    if (w > k && (q === '"' || q === "'" || q === "(")) {
      this.#quotes ??= {
        '"': new _NextIndex(src, '"'),
        "'": new _NextIndex(src, "'"),
        ")": new _NextIndex(src, ")"),
      };
      const closer = this.#quotes[q === "(" ? ")" : q];
      let t = closer.from(w + 1);
      while (t >= 0 && _escaped(src, t)) t = closer.from(t + 1);
      if (t < 0) return undefined;
      w = _skipSpace(src, t + 1);
    }
    if (src.charCodeAt(w) !== 0x29) return undefined;
    return { destination, end: w + 1 };
  }

  // `[text][label]`, `[text][]` or `[label]` with a defined label: the end offset, or -1.
  #referenceTail(opener: _Bracket, i: number): number {
    const src = this.src;
    const textStart = opener.offset + (opener.image ? 2 : 1);
    if (src.charCodeAt(i + 1) === LBRACKET) {
      let k = i + 2;
      for (; k < src.length && k - i < 1002; k++) {
        const ch = src[k];
        if (ch === "]" || ch === "[") break;
        if (ch === "\\") k++;
      }
      if (src[k] !== "]") return -1;
      const label = src.slice(i + 2, k);
      if (label.trim() === "") {
        return i - textStart <= 999 && this.#labels.has(normalizeLabel(src.slice(textStart, i)))
          ? k + 1
          : -1;
      }
      return this.#labels.has(normalizeLabel(label)) ? k + 1 : -1;
    }
    if (i - textStart > 999) return -1;
    return this.#labels.has(normalizeLabel(src.slice(textStart, i))) ? i + 1 : -1;
  }

  #underscores(i: number): number {
    const src = this.src;
    let j = i;
    while (src.charCodeAt(j) === UNDERSCORE) j++;
    const before = i > 0 ? src[i - 1] : " ";
    const after = j < src.length ? src[j] : " ";
    const left = !_isSpace(after) && (!_isPunct(after) || _isSpace(before) || _isPunct(before));
    const right = !_isSpace(before) && (!_isPunct(before) || _isSpace(after) || _isPunct(after));
    this.#flush(i);
    const token = this.#emit(src.slice(i, j));
    this.#delimiters.push({
      token,
      count: j - i,
      length: j - i,
      canOpen: left && (!right || _isPunct(before)),
      canClose: right && (!left || _isPunct(after)),
    });
    this.#textStart = j;
    return j;
  }

  // Resolves `_` emphasis (CommonMark's delimiter rules, bounded look-back) and joins the text.
  #plainText(): string {
    const tokens = this.#tokens!;
    const openers: _Delimiter[] = [];
    for (const d of this.#delimiters) {
      if (d.canClose) {
        for (let k = openers.length - 1; k >= 0 && k >= openers.length - 64 && d.count > 0; k--) {
          const o = openers[k];
          if (
            (o.canClose || d.canOpen) && (o.length + d.length) % 3 === 0 &&
            !(o.length % 3 === 0 && d.length % 3 === 0)
          ) continue;
          const use = o.count >= 2 && d.count >= 2 ? 2 : 1;
          o.count -= use;
          d.count -= use;
          openers.length = o.count > 0 ? k + 1 : k;
          k = openers.length;
        }
      }
      if (d.canOpen && d.count > 0) openers.push(d);
    }
    for (const d of this.#delimiters) tokens[d.token] = "_".repeat(d.count);
    return tokens.join("");
  }
}

// The offset of the first match of `re` (global) at or after `i`, or -1. A native regex search
// beats a charCode loop here: the gaps between syntax characters are long.
function _nextSpecial(src: string, i: number, re: RegExp): number {
  re.lastIndex = i;
  return re.test(src) ? re.lastIndex - 1 : -1;
}

// A simple code span's closing backtick, for the backtick at `i` that starts a run: one or more
// characters, none a backtick or line break, then a lone backtick. -1 when there is none.
function _simpleCodeClose(src: string, i: number): number {
  let k = i + 1;
  for (; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === BACKTICK) break;
    if (c === 0x0a) return -1;
  }
  if (k === i + 1 || k >= src.length || src.charCodeAt(k + 1) === BACKTICK) return -1;
  return k;
}

// A simple link's `]`, for the `[` at `open`: the text has no `\`, `[`, backtick, `<` or `!`,
// and `(` follows. -1 when there is none.
function _simpleLinkText(src: string, open: number): number {
  for (let k = open + 1; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === RBRACKET) return src.charCodeAt(k + 1) === 0x28 ? k : -1;
    if (c === BACKSLASH || c === LBRACKET || c === BACKTICK || c === LT || c === BANG) return -1;
  }
  return -1;
}

// A simple link destination's closing `)`, for the destination starting at `from`: it does not
// start with `<`, and has no controls, space, `\`, `(` or DEL. -1 when there is none.
function _simpleDestinationEnd(src: string, from: number): number {
  if (src.charCodeAt(from) === LT) return -1;
  for (let k = from; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === 0x29) return k;
    if (!((c >= 0x21 && c <= 0x7e && c !== 0x28 && c !== BACKSLASH) || c >= 0x80)) return -1;
  }
  return -1;
}

// ASCII punctuation (what a backslash escapes): `!`–`/`, `:`–`@`, `[`–`` ` ``, `{`–`~`.
function _isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e);
}

// One space is stripped from both ends of a code span's content that has a space at both ends
// and is not all white space.
function _stripPadding(content: string): string {
  return content.length > 1 && content[0] === " " && content.at(-1) === " " &&
      content.trim() !== ""
    ? content.slice(1, -1)
    : content;
}

function _byOffset(a: InlineLink, b: InlineLink): number {
  return a.offset - b.offset;
}

function _skipSpace(src: string, i: number): number {
  let newlines = 0;
  for (;; i++) {
    const ch = src[i];
    if (ch === " " || ch === "\t") continue;
    if (ch === "\n" && newlines++ === 0) continue;
    return i;
  }
}

function _escaped(src: string, i: number): boolean {
  let backslashes = 0;
  while (i - backslashes - 1 >= 0 && src.charCodeAt(i - backslashes - 1) === BACKSLASH) {
    backslashes++;
  }
  return backslashes % 2 === 1;
}

function _isSpace(ch: string): boolean {
  return /\s/.test(ch);
}

function _isPunct(ch: string): boolean {
  return /[\p{P}\p{S}]/u.test(ch);
}

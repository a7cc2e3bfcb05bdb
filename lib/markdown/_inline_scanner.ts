/**
 * The general path of the inline scan: CommonMark's brackets, code spans,
 * raw HTML, autolinks and, for headings, the plain text.
 *
 * @module
 */

import { referenceAt } from "./_decode_entities.ts";
import {
  AMP,
  BACKSLASH,
  BACKTICK,
  BANG,
  isAsciiPunct,
  LBRACKET,
  LT,
  nextSpecial,
  RBRACKET,
  SPECIAL,
  SPECIAL_TEXT,
  UNDERSCORE,
} from "./_inline_chars.ts";
import type {
  HtmlTag,
  InlineCode,
  InlineLink,
  InlineScan,
  ScanInlineOptions,
} from "./_inline_scan.ts";
import { normalizeLabel } from "./_link_definitions.ts";
import { NextIndex } from "./_next_index.ts";
import { type Delimiter, resolveEmphasis, underscoreRun } from "./_resolve_emphasis.ts";
import {
  simpleCodeClose,
  simpleDestinationEnd,
  simpleLinkText,
  stripPadding,
} from "./_scan_simple.ts";
import { TagFinder } from "./_tag_finder.ts";

const AUTOLINK =
  /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9][A-Za-z0-9.-]*>/y;
// A run of link destination characters with no meaning of their own: anything but controls,
// space, `\`, `(` and `)`.
const PLAIN_DESTINATION = /[!-'*-[\]-~\u0080-\uffff]*/y;
// Link destinations longer than this are only followed while the work budget lasts.
const CAPPED_DESTINATION = 256;

interface _Bracket {
  offset: number;
  image: boolean;
  token: number;
}

/**
 * The general inline scanner, for what the fast paths (`_scan_simple.ts`)
 * leave: nested and reference links, link tails with titles, code spans of
 * any backtick run, raw HTML and autolinks, and the plain text with `_`
 * emphasis resolved. Every step is amortised constant time (memoised
 * searches, a work budget for long destinations), so hostile input stays
 * linear.
 *
 * @example
 * ```ts
 * import { InlineScanner } from "./_inline_scanner.ts";
 * import assert from "node:assert/strict";
 *
 * const src = "[a [b](c.md)](d.md) <!-- [e](f) -->";
 * const scan = new InlineScanner(src, {}).run(0);
 * assert.deepEqual(scan.links.map((l) => l.destination), ["c.md"]);
 * ```
 */
export class InlineScanner {
  readonly links: InlineLink[] = [];
  readonly codeSpans: InlineCode[] = [];
  readonly tags: HtmlTag[] = [];
  readonly #tokens: string[] | undefined;
  readonly #delimiters: Delimiter[] = [];
  readonly #brackets: _Bracket[] = [];
  readonly #labels: ReadonlySet<string>;
  #finder: TagFinder | undefined;
  #quotes: Record<string, NextIndex> | undefined;
  #runs: Map<number, { starts: number[]; next: number }> | undefined;
  #linkBarrier = 0;
  #budget: number;
  #textStart = 0;

  /** A scanner over `src` (one block's inline content). */
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
        if (isAsciiPunct(src.charCodeAt(i + 1))) {
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
      i = i < n ? nextSpecial(src, i, special) : -1;
    }
    this.#flush(n);
    const scan: InlineScan = { links: this.links, codeSpans: this.codeSpans, tags: this.tags };
    if (this.#tokens) scan.text = resolveEmphasis(this.#tokens, this.#delimiters);
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
  // the plain-text scan (see simpleCodeClose). It finds what #codeSpan would. Returns the
  // span's end, or -1 when this is not such a span.
  #simpleCodeSpan(i: number): number {
    if (this.#tokens) return -1;
    const close = simpleCodeClose(this.src, i);
    if (close < 0) return -1;
    this.codeSpans.push({ offset: i, content: stripPadding(this.src.slice(i + 1, close)) });
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
    content = stripPadding(content);
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
    this.#finder ??= new TagFinder(src);
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
  // parenthesis (see simpleLinkText, simpleDestinationEnd). It finds what #open, #close and
  // #inlineTail would; anything else (and the plain-text scan) takes that general path. Returns
  // the link's end, or -1 when this is not a simple link.
  #simpleLink(i: number, image: boolean): number {
    if (this.#tokens || this.#brackets.length > 0 || this.#budget <= 0) return -1;
    const src = this.src;
    const text = simpleLinkText(src, image ? i + 1 : i);
    const end = text < 0 ? -1 : simpleDestinationEnd(src, text + 2);
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
        if (code === BACKSLASH && isAsciiPunct(src.charCodeAt(k + 1))) k++;
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
        '"': new NextIndex(src, '"'),
        "'": new NextIndex(src, "'"),
        ")": new NextIndex(src, ")"),
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
    this.#flush(i);
    this.#delimiters.push(underscoreRun(src, i, j, this.#emit(src.slice(i, j))));
    this.#textStart = j;
    return j;
  }
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

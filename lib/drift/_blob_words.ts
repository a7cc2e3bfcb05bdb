/**
 * The words of a code blob that a doc's elements ask for: one pass over its
 * text, with no match object made per word (the drift signals' first scan
 * reads every code blob of HEAD and of up to 24 older trees; docs/signals.md).
 *
 * @module
 */

/**
 * The wanted terms a blob has as whole words, as `git grep -I -F -w` finds
 * them or more (a text blob: no NUL in its first 8,000 bytes): every run of
 * git's word characters (`[A-Za-z0-9_]`), and every run of them joined by `$`
 * or an inner `-` (a flag's name, a `$` name) with each `-`-joined part of it
 * of two parts or more (when it has at most 8). More matches only make an
 * element present, never stale. A run of no term's length, first and last
 * character is passed over without a look-up.
 *
 * @example
 * ```ts
 * import { blobWords } from "./_blob_words.ts";
 * import assert from "node:assert/strict";
 *
 * const code = new TextEncoder().encode('cli.option("--dry-run"); const $el = load_config();');
 * const wanted = new Set(["dry-run", "load_config", "$el", "run", "missing"]);
 * assert.deepEqual([...blobWords(code, wanted)].sort(), ["$el", "dry-run", "load_config", "run"]);
 * ```
 */
export function blobWords(bytes: Uint8Array, wanted: ReadonlySet<string>): Set<string> {
  const has = new Set<string>();
  if (wanted.size === 0 || bytes.subarray(0, 8000).includes(0)) return has;
  const text = _decoder.decode(bytes);
  // Each term's length, first and last character as one number: a run none has is passed over
  // without making its string.
  const shapes = new Set<number>();
  for (const term of wanted) {
    if (term !== "") shapes.add(_shape(term, 0, term.length));
  }
  const check = (from: number, to: number) => {
    if (!shapes.has(_shape(text, from, to))) return;
    const word = text.slice(from, to);
    if (wanted.has(word)) has.add(word);
  };
  const n = text.length;
  const hyphens: number[] = [];
  for (let i = 0; i < n;) {
    if (!_isLongWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    // One run: word characters and `$`, joined by single inner `-`.
    const start = i;
    hyphens.length = 0;
    while (true) {
      while (i < n && _isLongWordChar(text.charCodeAt(i))) i++;
      if (i + 1 < n && text.charCodeAt(i) === 0x2d && _isLongWordChar(text.charCodeAt(i + 1))) {
        hyphens.push(i++);
        continue;
      }
      break;
    }
    const end = i;
    check(start, end);
    // git's words within it: the runs between its `$` and `-`.
    for (let k = start, from = start; k <= end; k++) {
      if (k < end && _isGitWordChar(text.charCodeAt(k))) continue;
      if (k > from) check(from, k);
      from = k + 1;
    }
    if (hyphens.length > 0 && hyphens.length < 8) {
      // Part p spans (bounds[p] + 1) to bounds[p + 1]; each run of two parts or more.
      const bounds = [start - 1, ...hyphens, end];
      for (let a = 0; a < bounds.length - 1; a++) {
        for (let b = a + 2; b < bounds.length; b++) check(bounds[a] + 1, bounds[b]);
      }
    }
  }
  return has;
}

/** `text[from, to)`'s length, first and last UTF-16 unit as one number. */
function _shape(text: string, from: number, to: number): number {
  return ((to - from) * 0x10000 + text.charCodeAt(from)) * 0x10000 + text.charCodeAt(to - 1);
}

/** `[A-Za-z0-9_]`: git's word characters. */
function _isGitWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x5f;
}

/** Word characters and `$`. */
function _isLongWordChar(c: number): boolean {
  return _isGitWordChar(c) || c === 0x24;
}

const _decoder = new TextDecoder();

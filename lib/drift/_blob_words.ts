/**
 * The words of a code blob that a doc's elements ask for: one pass over its
 * bytes, with no match object made per word (the drift signals' first scan
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
  const shapes = _shapesOf(wanted);
  // Bytes, not text: word characters are ASCII (as git's, under LC_ALL=C), so every byte of a
  // multi-byte character parts words as the character would.
  const check = (from: number, to: number) => {
    const length = to - from;
    const lengths = shapes[bytes[from] * 128 + bytes[to - 1]];
    if (lengths === 0 || (lengths & (length < 30 ? 1 << length : 1 << 30)) === 0) return;
    if (length > shapes[_LONGEST]) return;
    const word = String.fromCharCode(...bytes.subarray(from, to));
    if (wanted.has(word)) has.add(word);
  };
  const n = bytes.length;
  const hyphens: number[] = [];
  for (let i = 0; i < n;) {
    if (_CLASS[bytes[i]] === 0) {
      i++;
      continue;
    }
    // One run: word characters and `$`, joined by single inner `-`.
    const start = i;
    hyphens.length = 0;
    let dollars = false;
    while (true) {
      for (let c: number; i < n && (c = _CLASS[bytes[i]]) !== 0; i++) dollars ||= c === _DOLLAR;
      if (i + 1 < n && bytes[i] === 0x2d && _CLASS[bytes[i + 1]] !== 0) {
        hyphens.push(i++);
        continue;
      }
      break;
    }
    const end = i;
    check(start, end);
    // git's words within it: the runs between its `$` and `-` (a run of neither is one).
    if (!dollars && hyphens.length === 0) continue;
    for (let k = start, from = start; k <= end; k++) {
      if (k < end && _CLASS[bytes[k]] === _WORD) continue;
      if (k > from) check(from, k);
      from = k + 1;
    }
    // Its `-`-joined parts of two or more, up to as many as a term has (none: no term has a `-`).
    const most = shapes[_MOST_HYPHENS];
    if (hyphens.length > 0 && hyphens.length < 8 && most > 0) {
      // Part p spans (bounds[p] + 1) to bounds[p + 1].
      const bounds = [start - 1, ...hyphens, end];
      for (let a = 0; a < bounds.length - 1; a++) {
        const last = Math.min(bounds.length - 1, a + 1 + most);
        for (let b = a + 2; b <= last; b++) check(bounds[a] + 1, bounds[b]);
      }
    }
  }
  return has;
}

/** A byte's class: git's word characters (`[A-Za-z0-9_]`), `$`, or neither (0). */
const _WORD = 1;
const _DOLLAR = 2;
const _CLASS = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_]/.test(ch)) _CLASS[c] = _WORD;
}
_CLASS[0x24] = _DOLLAR;

/**
 * The terms' shapes: for each first and last character (both ASCII: a term of other characters
 * is never found), the lengths of the terms that have them as bits (bit 30: 30 or more). A run of
 * no term's shape, or longer than every term (slot {@linkcode _LONGEST}), is passed over without
 * making its string; a run's `-`-joined parts are tried up to the most `-` a term has (slot
 * {@linkcode _MOST_HYPHENS}). Made once per set of terms.
 */
function _shapesOf(wanted: ReadonlySet<string>): Int32Array {
  let shapes = _shapes.get(wanted);
  if (shapes !== undefined) return shapes;
  shapes = new Int32Array(_MOST_HYPHENS + 1);
  for (const term of wanted) {
    const first = term.charCodeAt(0);
    const last = term.charCodeAt(term.length - 1);
    if (term === "" || first >= 128 || last >= 128) continue;
    shapes[first * 128 + last] |= term.length < 30 ? 1 << term.length : 1 << 30;
    shapes[_LONGEST] = Math.max(shapes[_LONGEST], term.length);
    let hyphens = 0;
    for (let i = term.indexOf("-"); i >= 0; i = term.indexOf("-", i + 1)) hyphens++;
    shapes[_MOST_HYPHENS] = Math.max(shapes[_MOST_HYPHENS], hyphens);
  }
  _shapes.set(wanted, shapes);
  return shapes;
}

/** The slot after the shapes: the longest term's length. */
const _LONGEST = 128 * 128;
/** The slot after that: the most `-` a term has. */
const _MOST_HYPHENS = _LONGEST + 1;

const _shapes = new WeakMap<ReadonlySet<string>, Int32Array>();

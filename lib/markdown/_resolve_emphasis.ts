/**
 * `_` emphasis for the plain text of a heading: CommonMark's delimiter runs and
 * the matching of openers with closers, so that `_now_` renders as `now` while
 * `snake_case` keeps its underscore.
 *
 * @module
 */

/** A run of `_` in the plain text's tokens. */
export interface Delimiter {
  /** Index of the run's token in the plain text's tokens. */
  token: number;
  /** How many of its `_` are still unmatched. */
  count: number;
  /** Whether it can open emphasis. */
  canOpen: boolean;
  /** Whether it can close emphasis. */
  canClose: boolean;
  /** The run's length as written. */
  length: number;
}

/**
 * The delimiter run of the `_`s from `i` to `j` (exclusive) of `src`, whose
 * text is token `token`: whether it can open or close emphasis, by what
 * stands before and after it (CommonMark's left- and right-flanking rules).
 *
 * @example
 * ```ts
 * import { underscoreRun } from "./_resolve_emphasis.ts";
 * import assert from "node:assert/strict";
 *
 * const open = underscoreRun("a _b_", 2, 3, 1);
 * assert.deepEqual([open.canOpen, open.canClose], [true, false]);
 * const inner = underscoreRun("snake_case", 5, 6, 1);
 * assert.deepEqual([inner.canOpen, inner.canClose], [false, false]);
 * ```
 */
export function underscoreRun(src: string, i: number, j: number, token: number): Delimiter {
  const before = i > 0 ? src[i - 1] : " ";
  const after = j < src.length ? src[j] : " ";
  const left = !_isSpace(after) && (!_isPunct(after) || _isSpace(before) || _isPunct(before));
  const right = !_isSpace(before) && (!_isPunct(before) || _isSpace(after) || _isPunct(after));
  return {
    token,
    count: j - i,
    length: j - i,
    canOpen: left && (!right || _isPunct(before)),
    canClose: right && (!left || _isPunct(after)),
  };
}

/**
 * Resolves `_` emphasis (CommonMark's delimiter rules, with a bounded
 * look-back so that it stays linear) and joins the tokens into the plain text:
 * each run keeps only its unmatched `_`s.
 *
 * @example
 * ```ts
 * import { resolveEmphasis, underscoreRun } from "./_resolve_emphasis.ts";
 * import assert from "node:assert/strict";
 *
 * const src = "_now_";
 * const tokens = ["_", "now", "_"];
 * const runs = [underscoreRun(src, 0, 1, 0), underscoreRun(src, 4, 5, 2)];
 * assert.equal(resolveEmphasis(tokens, runs), "now");
 * ```
 */
export function resolveEmphasis(tokens: string[], delimiters: Delimiter[]): string {
  const openers: Delimiter[] = [];
  for (const d of delimiters) {
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
  for (const d of delimiters) tokens[d.token] = "_".repeat(d.count);
  return tokens.join("");
}

function _isSpace(ch: string): boolean {
  return /\s/.test(ch);
}

function _isPunct(ch: string): boolean {
  return /[\p{P}\p{S}]/u.test(ch);
}

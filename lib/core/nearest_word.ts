/**
 * "Did you mean …?": the known word nearest a mistyped one.
 *
 * @module
 */

/**
 * The one known word within a small edit distance of `word` (one edit for
 * short words, two from six letters, case ignored; a swap of two neighbouring
 * letters is one edit), or `undefined` when none or several are that close.
 *
 * @example
 * ```ts
 * import { nearestWord } from "./nearest_word.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nearestWord("threshold_dayz", ["threshold_days", "rules"]), "threshold_days");
 * assert.equal(nearestWord("tempoarry", ["keep", "temporary"]), "temporary");
 * assert.equal(nearestWord("xyz", ["keep", "temporary"]), undefined);
 * ```
 */
export function nearestWord(word: string, known: readonly string[]): string | undefined {
  const limit = word.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of known) {
    const d = _editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false];
    else if (d === bestDistance) tie = true;
  }
  return bestDistance <= limit && !tie ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function _editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

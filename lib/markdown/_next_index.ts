/**
 * A memoised `indexOf`, for the scans that ask for the next `>`, `<`, `-->`
 * or closing quote from many positions.
 *
 * @module
 */

/**
 * Memoised `indexOf` for queries at (mostly) increasing positions: a search
 * that found nothing, or found a match past the next query, is reused (so
 * that many queries over one text stay linear).
 *
 * @example
 * ```ts
 * import { NextIndex } from "./_next_index.ts";
 * import assert from "node:assert/strict";
 *
 * const gt = new NextIndex("a > b > c", ">");
 * assert.deepEqual([gt.from(0), gt.from(2), gt.from(3), gt.from(7)], [2, 2, 6, -1]);
 * ```
 */
export class NextIndex {
  #from = -1;
  #found = -1;
  constructor(private readonly src: string, private readonly needle: string) {}
  /** The first offset of the needle at or after `p`, or -1. */
  from(p: number): number {
    if (this.#from >= 0 && p >= this.#from && (this.#found < 0 || p <= this.#found)) {
      return this.#found;
    }
    this.#from = p;
    this.#found = this.src.indexOf(this.needle, p);
    return this.#found;
  }
}

/**
 * The listed paths by their last segment, for the near miss of a missing
 * inline-code path: `references/x.md` is the tail of `skills/y/references/x.md`.
 *
 * @module
 */

/** The listed paths that end in a given relative path (see {@linkcode TailIndex.of}). */
export interface TailMatch {
  /** The first of them (in listing order). */
  first: string;
  /** How many there are. */
  count: number;
}

/**
 * Listed paths indexed by their last segment, built once (one pass over the
 * listing); a look-up compares only the paths of that name.
 *
 * @example
 * ```ts
 * import { TailIndex } from "./tail_index.ts";
 * import assert from "node:assert/strict";
 *
 * const tails = new TailIndex(["skills/y/references/x.md", "a/x.md", "b/references/x.md"]);
 * assert.deepEqual(tails.of("references/x.md"), { first: "skills/y/references/x.md", count: 2 });
 * assert.deepEqual(tails.of("y/references/x.md"), { first: "skills/y/references/x.md", count: 1 });
 * assert.equal(tails.of("other/x.md"), undefined);
 * ```
 */
export class TailIndex {
  /** A name's one path, or its paths once it has more (most names have one: no array each). */
  #byName = new Map<string, string | string[]>();

  /** Indexes `paths` (root-relative, `/`-separated). */
  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const known = this.#byName.get(name);
      if (known === undefined) this.#byName.set(name, path);
      else if (typeof known === "string") this.#byName.set(name, [known, path]);
      else known.push(path);
    }
  }

  /** The listed paths that end in `/` + `tail` (segment by segment); `undefined` when none. */
  of(tail: string): TailMatch | undefined {
    const known = this.#byName.get(tail.slice(tail.lastIndexOf("/") + 1));
    if (known === undefined) return undefined;
    const list = typeof known === "string" ? [known] : known;
    let first: string | undefined;
    let count = 0;
    for (const path of list) {
      if (
        path.length > tail.length && path.endsWith(tail) &&
        path.charCodeAt(path.length - tail.length - 1) === 0x2f
      ) {
        first ??= path;
        count++;
      }
    }
    return first === undefined ? undefined : { first, count };
  }
}

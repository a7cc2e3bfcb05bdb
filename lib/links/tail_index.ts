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
 * Listed paths by their last segment; a look-up compares only the paths of
 * that name. The first few names asked for are each found by one pass over
 * the listing (most scans ask for a handful: `index.ts`, `README.md`); past
 * that, every path is indexed by its name at once.
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
  #paths: readonly string[];
  /** A name's one path, or its paths once it has more (most names have one: no array each). */
  #byName = new Map<string, string | string[]>();
  /** Whether every path is in `#byName` (else only the names asked for so far). */
  #whole = false;

  /** Indexes `paths` (root-relative, `/`-separated) as names are asked for. */
  constructor(paths: Iterable<string>) {
    this.#paths = [...paths];
  }

  /** The listed paths that end in `/` + `tail` (segment by segment); `undefined` when none. */
  of(tail: string): TailMatch | undefined {
    const name = tail.slice(tail.lastIndexOf("/") + 1);
    let known = this.#byName.get(name);
    if (known === undefined && !this.#whole) {
      if (this.#byName.size < _NAMES_ONE_BY_ONE) known = this.#named(name);
      else {
        this.#indexAll();
        known = this.#byName.get(name);
      }
    }
    if (known === undefined || known.length === 0) return undefined;
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

  /** The paths named `name`, found by one pass (no path's name cut out), and kept. */
  #named(name: string): string | string[] {
    const slashed = `/${name}`;
    const found: string[] = [];
    for (const path of this.#paths) {
      if (path.endsWith(slashed) || path === name) found.push(path);
    }
    const known = found.length === 1 ? found[0] : found;
    this.#byName.set(name, known);
    return known;
  }

  #indexAll(): void {
    this.#byName.clear();
    for (const path of this.#paths) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const known = this.#byName.get(name);
      if (known === undefined) this.#byName.set(name, path);
      else if (typeof known === "string") this.#byName.set(name, [known, path]);
      else known.push(path);
    }
    this.#whole = true;
  }
}

/** How many names are each found by a pass over the listing before every path is indexed. */
const _NAMES_ONE_BY_ONE = 8;

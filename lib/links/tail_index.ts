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
 * Listed paths by their last segment, for the tails to be asked about: one
 * pass over the listing indexes the paths named as those tails' last
 * segments (a path whose name is of no such length is passed over without
 * cutting its name out); a look-up compares only the paths of that name. A
 * tail not named up front is found by a pass of its own.
 *
 * @example
 * ```ts
 * import { TailIndex } from "./tail_index.ts";
 * import assert from "node:assert/strict";
 *
 * const listing = ["skills/y/references/x.md", "a/x.md", "b/references/x.md"];
 * const tails = new TailIndex(listing, ["references/x.md", "other/x.md"]);
 * assert.deepEqual(tails.of("references/x.md"), { first: "skills/y/references/x.md", count: 2 });
 * assert.deepEqual(tails.of("y/references/x.md"), { first: "skills/y/references/x.md", count: 1 });
 * assert.equal(tails.of("other/x.md"), undefined);
 * assert.equal(tails.named, 3);
 * ```
 */
export class TailIndex {
  #paths: readonly string[];
  /** A name's one path, or its paths once it has more (most names have one: no array each). */
  #byName = new Map<string, string | string[]>();

  /** How many listed paths are named as one of the tails given up front. */
  readonly named: number = 0;

  /** Indexes `paths` (root-relative, `/`-separated) for `tails` (the tails to be asked about). */
  constructor(paths: readonly string[], tails: Iterable<string>) {
    this.#paths = paths;
    const names = new Set<string>();
    const lengths = new Set<number>();
    for (const tail of tails) {
      const name = tail.slice(tail.lastIndexOf("/") + 1);
      names.add(name);
      lengths.add(name.length);
    }
    for (const name of names) this.#byName.set(name, []);
    for (const path of paths) {
      const slash = path.lastIndexOf("/");
      if (!lengths.has(path.length - slash - 1)) continue;
      const name = path.slice(slash + 1);
      if (names.has(name)) this.#add(name, path), this.named++;
    }
  }

  /** The listed paths that end in `/` + `tail` (segment by segment); `undefined` when none. */
  of(tail: string): TailMatch | undefined {
    const name = tail.slice(tail.lastIndexOf("/") + 1);
    let known = this.#byName.get(name);
    if (known === undefined) {
      this.#byName.set(name, []);
      for (const path of this.#paths) {
        if (path === name || path.endsWith(`/${name}`)) this.#add(name, path);
      }
      known = this.#byName.get(name)!;
    }
    if (known.length === 0) return undefined;
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

  #add(name: string, path: string): void {
    const known = this.#byName.get(name);
    if (known === undefined || known.length === 0) this.#byName.set(name, path);
    else if (typeof known === "string") this.#byName.set(name, [known, path]);
    else known.push(path);
  }
}

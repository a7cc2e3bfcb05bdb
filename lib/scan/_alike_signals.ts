/**
 * Signals many docs of a scan have alike — the age of one commit, an inbound
 * count, a status, a checkbox count — made once each and frozen, so that a
 * scan of 100,000 docs holds a few thousand of them rather than one a doc
 * (docs/benchmarks.md "The scanner at scale").
 *
 * @module
 */

import type { FileRead, Signal } from "./scan_docs.ts";

/** Signals many docs have alike, one frozen object each, by kind and value (see the module). */
export class AlikeSignals {
  #now: number;
  #commits = new Map<number, Signal>();
  #mtimes = new Map<number, Signal>();
  #counts = new Map<number, Signal>();
  #statuses = new Map<string, Signal>();
  #boxes = new Map<number, Signal>();

  /** Signals of a scan made at `now` (ages count days to it). */
  constructor(now: Date) {
    this.#now = now.getTime();
  }

  /** A doc's age: its newest commit's (one signal a commit), else its mtime's (one a day). */
  age(read: FileRead, commitSeconds: number | undefined): Signal {
    if (commitSeconds !== undefined) {
      const ms = commitSeconds * 1000;
      return this.#get(this.#commits, commitSeconds, () => ({
        kind: "age",
        days: Math.floor((this.#now - ms) / 86_400_000),
        last_commit: new Date(ms).toISOString(),
        source: "git",
      }));
    }
    const days = Math.floor((this.#now - read.mtimeMs) / 86_400_000);
    return this.#get(this.#mtimes, days, () => ({
      kind: "age",
      days,
      last_commit: null,
      source: "mtime",
    }));
  }

  /** The inbound link count. */
  inbound(count: number): Signal {
    return this.#get(this.#counts, count, () => ({ kind: "inbound_links", count }));
  }

  /** The status a doc declares. */
  status(value: string): Signal {
    return this.#get(this.#statuses, value, () => ({ kind: "status", value }));
  }

  /** The checkboxes, done and open. */
  checkboxes(done: number, open: number): Signal {
    const make = (): Signal => ({ kind: "checkboxes", done, open });
    // One number for both while each fits in 2^21 (any real doc); else a signal of its own.
    return done < 0x200000 && open < 0x200000
      ? this.#get(this.#boxes, done * 0x200000 + open, make)
      : make();
  }

  #get<K>(map: Map<K, Signal>, key: K, make: () => Signal): Signal {
    let signal = map.get(key);
    if (signal === undefined) {
      signal = make();
      Object.freeze(signal);
      map.set(key, signal);
    }
    return signal;
  }
}

/**
 * What the link check asked the disk, and what it heard: the part of the
 * world beyond the listing that a doc's link facts depend on (gitignored
 * targets, near misses only the disk holds). The scan cache keeps it, and
 * trusts its link facts again only while the disk still answers the same.
 *
 * @module
 */

import type { DiskLookup, DiskState } from "./path_index.ts";

/** One answer of a {@linkcode DiskLookup}. */
export type DiskAnswer = DiskState | boolean;

/**
 * The questions put to a {@linkcode DiskLookup} and its answers, keyed by the
 * question: `s` + path (its state), `c` + path (a case twin on disk), `h` +
 * count + `/` + directory (whether it holds exactly that many entries). A link check is a pure function of
 * its doc, the listing and these answers: while the disk answers every
 * recorded question the same, every recorded check would come out the same;
 * and a check asks only about the paths it probes (see `DocLinkFacts.probed`),
 * those paths with `.md`, and their directories.
 *
 * @example
 * ```ts
 * import { DiskRecord } from "./disk_record.ts";
 * import assert from "node:assert/strict";
 *
 * const onDisk = Object.assign((path: string) => path === "dist/a.js" ? "exists" : "missing", {
 *   caseTwin: () => false,
 *   holds: (_dir: string, count: number) => count === 3,
 * });
 * const record = new DiskRecord();
 * const lookup = record.watch(onDisk);
 * assert.equal(lookup("dist/a.js"), "exists");
 * assert.equal(lookup.holds?.("dist", 3), true);
 * assert.deepEqual(record.entries(), [["sdist/a.js", "exists"], ["h3/dist", true]]);
 * assert.equal(record.differences(onDisk).size, 0);
 * const cleaned = Object.assign(() => "missing" as const, { holds: () => true });
 * const changed = record.differences(cleaned);
 * assert.deepEqual(changed.entries(), [["sdist/a.js", "missing"]]);
 * assert.ok(changed.concerns(["dist/a.js"]));
 * assert.ok(!changed.concerns(["src/b.js"]));
 * assert.equal(record.about(["dist/a.js"]).size, 2); // the path, and its directory
 * assert.equal(record.about(["src/b.js"]).size, 0);
 * const twice = new DiskRecord(record.entries());
 * twice.merge(changed); // answered "exists", then "missing": never alike again
 * assert.equal(twice.differences(onDisk).size, 1);
 * assert.equal(twice.differences(cleaned).size, 1);
 * ```
 */
export class DiskRecord {
  #answers: Map<string, DiskAnswer>;
  /** What the questions are about, made on first need (see {@linkcode DiskRecord.concerns}). */
  #subjects: { size: number; paths: Set<string> } | undefined;

  /** A record holding `entries` (as {@linkcode DiskRecord.entries} gave them). */
  constructor(entries: Iterable<readonly [string, DiskAnswer]> = []) {
    this.#answers = new Map(entries);
  }

  /** How many questions are recorded. */
  get size(): number {
    return this.#answers.size;
  }

  /** `lookup`, with every question it is asked and its answer recorded here. */
  watch(lookup: DiskLookup): DiskLookup {
    const answers = this.#answers;
    const state = (path: string): DiskState => {
      const answer = lookup(path);
      answers.set(`s${path}`, answer);
      return answer;
    };
    const watched: DiskLookup = state;
    const { caseTwin, holds } = lookup;
    if (caseTwin !== undefined) {
      watched.caseTwin = (path) => {
        const answer = caseTwin(path);
        answers.set(`c${path}`, answer);
        return answer;
      };
    }
    if (holds !== undefined) {
      watched.holds = (dir, count) => {
        const answer = holds(dir, count);
        answers.set(`h${count}/${dir}`, answer);
        return answer;
      };
    }
    return watched;
  }

  /**
   * Adds every question and answer of `other`, as answered later: a question
   * answered otherwise there (the disk changed between the two) is kept with
   * an answer of the wrong kind, which no lookup gives, so that it is never
   * found answered alike (and what rests on it is checked again).
   */
  merge(other: DiskRecord | Iterable<readonly [string, DiskAnswer]>): void {
    const entries = other instanceof DiskRecord ? other.#answers : other;
    for (const [question, answer] of entries) {
      const known = this.#answers.get(question);
      this.#answers.set(
        question,
        known === undefined || known === answer ? answer : question[0] === "s" ? false : "missing",
      );
    }
  }

  /** Adds every question and answer of `other`, its answers replacing these. */
  add(other: DiskRecord | Iterable<readonly [string, DiskAnswer]>): void {
    const entries = other instanceof DiskRecord ? other.#answers : other;
    for (const [question, answer] of entries) this.#answers.set(question, answer);
  }

  /** The questions and answers, in the order first asked (plain data: it is stored and posted). */
  entries(): [string, DiskAnswer][] {
    return [...this.#answers];
  }

  /**
   * The questions and answers recorded since the last drain (as
   * {@linkcode DiskRecord.entries} gives them), leaving the record empty: a
   * reading thread hands its answers over batch by batch instead of holding
   * them all.
   *
   * @example
   * ```ts
   * import { DiskRecord } from "./disk_record.ts";
   * import assert from "node:assert/strict";
   *
   * const record = new DiskRecord([["sa.md", "exists"]]);
   * assert.deepEqual(record.drain(), [["sa.md", "exists"]]);
   * assert.deepEqual(record.entries(), []);
   * ```
   */
  drain(): [string, DiskAnswer][] {
    const entries = this.entries();
    this.#answers.clear();
    this.#subjects = undefined;
    return entries;
  }

  /** The recorded questions `lookup` answers otherwise, with its answers. */
  differences(lookup: DiskLookup): DiskRecord {
    const changed = new DiskRecord();
    for (const [question, answer] of this.#answers) {
      const kind = question[0];
      const arg = question.slice(1);
      let now: DiskAnswer;
      if (kind === "s") now = lookup(arg);
      else if (kind === "c") now = lookup.caseTwin?.(arg) ?? false;
      else {
        const slash = arg.indexOf("/");
        now = lookup.holds?.(arg.slice(slash + 1), Number(arg.slice(0, slash))) ?? false;
      }
      if (now !== answer) changed.#answers.set(question, now);
    }
    return changed;
  }

  /**
   * Whether any recorded question is one a link check that probed `probed`
   * may have asked: about one of them, one of them with `.md`, or the
   * directory of one.
   */
  concerns(probed: readonly string[]): boolean {
    // Made again when questions were added since (`drain` empties the record and these with it).
    if (this.#subjects?.size !== this.#answers.size) {
      this.#subjects = { size: this.#answers.size, paths: new Set() };
      for (const q of this.#answers.keys()) this.#subjects.paths.add(_subject(q));
    }
    const subjects = this.#subjects.paths;
    for (const path of probed) {
      for (const subject of _asked(path)) if (subjects.has(subject)) return true;
    }
    return false;
  }

  /** The questions (with their answers) a link check that probed `probed` may have asked. */
  about(probed: Iterable<string>): DiskRecord {
    const subjects = new Set<string>();
    for (const path of probed) for (const subject of _asked(path)) subjects.add(subject);
    const record = new DiskRecord();
    for (const [question, answer] of this.#answers) {
      if (subjects.has(_subject(question))) record.#answers.set(question, answer);
    }
    return record;
  }
}

/** The path or directory a question is about. */
function _subject(question: string): string {
  return question[0] === "h" ? question.slice(question.indexOf("/") + 1) : question.slice(1);
}

/** What a link check may ask the disk about a path it probes: it, it with `.md`, its directory. */
function _asked(path: string): [string, string, string] {
  const slash = path.lastIndexOf("/");
  return [path, `${path}.md`, slash < 0 ? "" : path.slice(0, slash)];
}

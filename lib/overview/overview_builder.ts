/**
 * The overview of a scan (`scan.ts --format overview`): per directory, how
 * many docs, their age spread and what was found; then the docs with the most
 * findings. Counts and orders, never judges (see docs/scan.md "The overview").
 *
 * @module
 */

import { byCodePoint } from "../core/by_code_point.ts";
import type { ScanArtifact, Signal } from "../scan/scan_docs.ts";
import { isFinding } from "./is_finding.ts";

/** Version of the overview's JSON shape. */
export const OVERVIEW_VERSION = 1;

/** The ranking key of {@linkcode Overview.top}, as printed in the overview. */
export const RANKING_KEY = "findings desc, then age_days desc, then path by code point";

/** Smallest, middle (the lower of the two middle values for an even count) and largest age in days. */
export interface AgeSpread {
  /** The youngest doc's age. */
  min: number;
  /** The lower median. */
  median: number;
  /** The oldest doc's age. */
  max: number;
}

/** What a set of docs holds: counts only. */
export interface OverviewTally {
  /** Shortlisted docs counted. */
  docs: number;
  /** Their `age.days` spread; `null` when none has an `age` signal. */
  age_days: AgeSpread | null;
  /** Signals per finding kind (every kind that is not descriptive), keys by code point. */
  findings: Record<string, number>;
  /** Docs per governing lifecycle rule, keys by code point. */
  lifecycle: Record<string, number>;
  /** Docs whose `lifecycle` signal says `served: true`. */
  served: number;
}

/** One directory row: the docs below `dir` that no deeper row holds. */
export interface OverviewDir extends OverviewTally {
  /** Root-relative directory (`.` for the root). */
  dir: string;
  /** Some subdirectories of `dir` have rows of their own (their docs are not counted here). */
  rest: boolean;
}

/** One ranked doc. */
export interface OverviewDoc {
  /** Root-relative path. */
  path: string;
  /** Its finding signals, all kinds together. */
  findings: number;
  /** Its finding signals per kind, keys by code point. */
  kinds: Record<string, number>;
  /** Its `age.days` (`null` without an `age` signal). */
  age_days: number | null;
}

/** The overview (`--format overview-json`); its text form is `renderOverviewText`. */
export interface Overview extends OverviewTally {
  /** Always 1. */
  overview_version: number;
  /** The scan's `generated_at`. */
  generated_at: string;
  /** The scan's `root`. */
  root: string;
  /** The scan's `git`. */
  git: ScanArtifact["git"];
  /** The `--under` directories it is restricted to, or `null` for the whole scan. */
  under: string[] | null;
  /** The whole scan's `counts`. */
  counts: ScanArtifact["counts"];
  /** Directory rows by path (code point); together they hold every doc counted, each once. */
  dirs: OverviewDir[];
  /** Docs with at least one finding. */
  with_findings: number;
  /** {@linkcode RANKING_KEY}. */
  ranking: string;
  /** The first docs by the ranking key (docs without findings included, after those with). */
  top: OverviewDoc[];
}

/** How large an overview {@linkcode OverviewBuilder.finish} makes. */
export interface OverviewLimits {
  /** Directory rows at most (default 50). */
  rows?: number;
  /** Ranked docs at most (default 30, at most {@linkcode TOP_KEPT}). */
  top?: number;
}

/** Ranked docs kept while adding (the most `finish` can show). */
export const TOP_KEPT = 30;
/** Directory rows are not nested deeper than this many path components. */
const _MAX_DEPTH = 8;

interface _DirFacts {
  docs: number;
  ages: number[];
  findings: Map<string, number>;
  lifecycle: Map<string, number>;
  served: number;
}

/**
 * Collects the overview doc by doc (one pass, the doc's signals dropped once
 * counted), so that it can be made while the artifact is streamed.
 *
 * @example
 * ```ts
 * import { OverviewBuilder } from "./overview_builder.ts";
 * import assert from "node:assert/strict";
 *
 * const builder = new OverviewBuilder();
 * builder.add("docs/a.md", [
 *   { kind: "age", days: 40, last_commit: null, source: "mtime" },
 *   { kind: "broken_link", line: 3, target: "b.md", hint: null },
 * ]);
 * builder.add("docs/b.md", [{ kind: "age", days: 2, last_commit: null, source: "mtime" }]);
 * const overview = builder.finish({
 *   generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null, under: null,
 *   counts: { candidates: 2, shortlisted: 2, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 * });
 * assert.deepEqual(overview.findings, { broken_link: 1 });
 * assert.deepEqual(overview.dirs.map((d) => [d.dir, d.docs]), [["docs", 2]]);
 * assert.equal(overview.top[0].path, "docs/a.md");
 * ```
 */
export class OverviewBuilder {
  #dirs = new Map<string, _DirFacts>();
  #top: OverviewDoc[] = [];

  /** Counts one shortlisted doc. */
  add(path: string, signals: readonly Signal[]): void {
    const slash = path.lastIndexOf("/");
    const dir = slash < 0 ? "" : path.slice(0, slash);
    let facts = this.#dirs.get(dir);
    if (facts === undefined) {
      facts = { docs: 0, ages: [], findings: new Map(), lifecycle: new Map(), served: 0 };
      this.#dirs.set(dir, facts);
    }
    facts.docs++;
    let age: number | null = null;
    let found = 0;
    let kinds: Map<string, number> | undefined;
    for (const signal of signals) {
      if (signal.kind === "age") {
        age = signal.days;
        facts.ages.push(age);
      } else if (signal.kind === "lifecycle") {
        _bump(facts.lifecycle, signal.rule, 1);
        if (signal.served === true) facts.served++;
      } else if (isFinding(signal.kind)) {
        _bump(facts.findings, signal.kind, 1);
        _bump(kinds ??= new Map(), signal.kind, 1);
        found++;
      }
    }
    this.#rank({ path, findings: found, kinds: _record(kinds ?? new Map()), age_days: age });
  }

  /** The overview of the docs added, under the scan's own facts. */
  finish(
    scan: Pick<Overview, "generated_at" | "root" | "git" | "under" | "counts">,
    limits: OverviewLimits = {},
  ): Overview {
    const rows = _chooseRows(this.#dirs, limits.rows ?? 50);
    const byRow = new Map<string, _DirFacts[]>();
    for (const [dir, facts] of this.#dirs) {
      const row = _rowOf(dir, rows);
      let list = byRow.get(row);
      if (list === undefined) byRow.set(row, list = []);
      list.push(facts);
    }
    const dirs = [...byRow.keys()].sort(byCodePoint).map((row): OverviewDir => ({
      dir: row === "" ? "." : row,
      rest: [...rows].some((other) => other !== row && _contains(row, other)),
      ..._tally(byRow.get(row)!),
    }));
    const top = this.#top.slice(0, Math.min(limits.top ?? TOP_KEPT, TOP_KEPT));
    return {
      overview_version: OVERVIEW_VERSION,
      generated_at: scan.generated_at,
      root: scan.root,
      git: scan.git,
      under: scan.under,
      counts: scan.counts,
      ..._tally([...this.#dirs.values()]),
      dirs,
      with_findings: this.#withFindings,
      ranking: RANKING_KEY,
      top,
    };
  }

  #withFindings = 0;

  #rank(doc: OverviewDoc): void {
    if (doc.findings > 0) this.#withFindings++;
    const top = this.#top;
    if (top.length === TOP_KEPT && _compare(doc, top[top.length - 1]) >= 0) return;
    let at = top.length;
    while (at > 0 && _compare(doc, top[at - 1]) < 0) at--;
    top.splice(at, 0, doc);
    if (top.length > TOP_KEPT) top.pop();
  }
}

/** The ranking key: more findings first, then older, then path by code point. */
function _compare(a: OverviewDoc, b: OverviewDoc): number {
  return b.findings - a.findings ||
    (b.age_days ?? -Infinity) - (a.age_days ?? -Infinity) ||
    byCodePoint(a.path, b.path);
}

/**
 * The directories that get rows: the root first; then, as long as the budget allows, the row
 * holding the most docs is split into its subdirectories that hold at least 1 % of the docs
 * (at least 2), all of them or none; a row left holding no docs of its own is dropped (so a
 * chain of single subdirectories costs one row).
 */
function _chooseRows(dirs: ReadonlyMap<string, _DirFacts>, budget: number): Set<string> {
  // Docs per directory subtree, and each directory's subdirectories that hold docs.
  const below = new Map<string, number>();
  const children = new Map<string, Set<string>>();
  let total = 0;
  for (const [dir, facts] of dirs) {
    total += facts.docs;
    let at = dir;
    for (;;) {
      below.set(at, (below.get(at) ?? 0) + facts.docs);
      if (at === "") break;
      const slash = at.lastIndexOf("/");
      const parent = slash < 0 ? "" : at.slice(0, slash);
      let set = children.get(parent);
      if (set === undefined) children.set(parent, set = new Set());
      set.add(at);
      at = parent;
    }
  }
  const minDocs = Math.max(2, Math.ceil(total / 100));
  const rows = new Set<string>([""]);
  const done = new Set<string>();
  const own = (row: string) => {
    let n = below.get(row) ?? 0;
    for (const other of rows) {
      if (other !== row && _contains(row, other) && _nearest(other, rows) === row) {
        n -= below.get(other) ?? 0;
      }
    }
    return n;
  };
  for (;;) {
    let pick: string | undefined;
    let pickOwn = -1;
    for (const row of [...rows].sort(byCodePoint)) {
      if (done.has(row)) continue;
      const n = own(row);
      if (n > pickOwn) [pick, pickOwn] = [row, n];
    }
    if (pick === undefined) break;
    done.add(pick);
    if (pickOwn === 0 || _depth(pick) >= _MAX_DEPTH) continue;
    const split = [...children.get(pick) ?? []].filter((c) =>
      !rows.has(c) && (below.get(c) ?? 0) >= minDocs
    );
    if (split.length === 0) continue;
    const keepsOwn = pickOwn - split.reduce((n, c) => n + below.get(c)!, 0) > 0;
    const count = [...rows].filter((r) => own(r) > 0).length;
    if (count - (keepsOwn ? 0 : 1) + split.length > budget) continue;
    for (const c of split) rows.add(c);
  }
  return new Set([...rows].filter((row) => own(row) > 0));
}

/** The deepest row that holds `dir` (a directory holding docs: some row always holds it). */
function _rowOf(dir: string, rows: ReadonlySet<string>): string {
  let at = dir;
  for (;;) {
    if (rows.has(at)) return at;
    if (at === "") return "";
    const slash = at.lastIndexOf("/");
    at = slash < 0 ? "" : at.slice(0, slash);
  }
}

/** The nearest row strictly above `dir`. */
function _nearest(dir: string, rows: ReadonlySet<string>): string {
  const slash = dir.lastIndexOf("/");
  return _rowOf(slash < 0 ? "" : dir.slice(0, slash), rows);
}

/** Whether directory `outer` holds `inner` (or is it). */
function _contains(outer: string, inner: string): boolean {
  return outer === "" || inner === outer || inner.startsWith(outer + "/");
}

function _depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

function _tally(list: readonly _DirFacts[]): OverviewTally {
  const findings = new Map<string, number>();
  const lifecycle = new Map<string, number>();
  let docs = 0;
  let served = 0;
  let count = 0;
  for (const facts of list) count += facts.ages.length;
  const ages = new Float64Array(count);
  let at = 0;
  for (const facts of list) {
    docs += facts.docs;
    served += facts.served;
    for (const [k, n] of facts.findings) _bump(findings, k, n);
    for (const [k, n] of facts.lifecycle) _bump(lifecycle, k, n);
    ages.set(facts.ages, at);
    at += facts.ages.length;
  }
  ages.sort();
  return {
    docs,
    age_days: count === 0
      ? null
      : { min: ages[0], median: ages[Math.floor((count - 1) / 2)], max: ages[count - 1] },
    findings: _record(findings),
    lifecycle: _record(lifecycle),
    served,
  };
}

function _bump(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function _record(map: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...map.keys()].sort(byCodePoint)) out[key] = map.get(key)!;
  return out;
}

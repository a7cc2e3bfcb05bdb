// The overview's numbers recomputed straight from a full artifact, the slow and obvious way:
// each doc goes to the deepest listed row that holds it; the ranking is a full sort by the
// documented key. Shared by the unit and the e2e tests.

import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";
import type { Overview } from "../../lib/overview/overview_builder.ts";
import { DESCRIPTIVE_KINDS } from "../../lib/overview/is_finding.ts";
import { OverviewBuilder } from "../../lib/overview/overview_builder.ts";
import type { Signal } from "../../lib/scan/scan_docs.ts";
import { prng } from "../support/helpers.ts";

interface Tally {
  docs: number;
  age_days: { min: number; median: number; max: number } | null;
  findings: Record<string, number>;
  lifecycle: Record<string, number>;
  served: number;
}

const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!);
const byCode = (a: string, b: string) => {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

function tally(artifact: ScanArtifact, paths: string[]): Tally {
  const ages: number[] = [];
  const findings: Record<string, number> = {};
  const lifecycle: Record<string, number> = {};
  let served = 0;
  for (const path of paths) {
    for (const s of artifact.signals[path]) {
      if (s.kind === "age") ages.push(s.days);
      else if (s.kind === "lifecycle") {
        lifecycle[s.rule] = (lifecycle[s.rule] ?? 0) + 1;
        if (s.served === true) served++;
      } else if (!DESCRIPTIVE_KINDS.has(s.kind)) findings[s.kind] = (findings[s.kind] ?? 0) + 1;
    }
  }
  ages.sort((a, b) => a - b);
  const sorted = (r: Record<string, number>) =>
    Object.fromEntries(Object.entries(r).sort(([a], [b]) => byCode(a, b)));
  return {
    docs: paths.length,
    age_days: ages.length === 0
      ? null
      : { min: ages[0], median: ages[Math.floor((ages.length - 1) / 2)], max: ages.at(-1)! },
    findings: sorted(findings),
    lifecycle: sorted(lifecycle),
    served,
  };
}

/** What `overview` must say, given the artifact it was made from (only its rows and top size are taken from it). */
export function recomputeOverview(artifact: ScanArtifact, overview: Overview): Overview {
  const rows = overview.dirs.map((d) => d.dir);
  const holds = (row: string, path: string) => row === "." || path.startsWith(row + "/");
  const members = new Map<string, string[]>(rows.map((r) => [r, []]));
  for (const path of artifact.shortlist) {
    const row = rows.filter((r) => holds(r, path)).sort((a, b) => b.length - a.length)[0];
    if (row === undefined) throw new Error(`no row holds ${path}`);
    members.get(row)!.push(path);
  }
  const docs = artifact.shortlist.map((path) => {
    const t = tally(artifact, [path]);
    const age = artifact.signals[path].find((s) => s.kind === "age");
    return {
      path,
      findings: Object.values(t.findings).reduce((a, b) => a + b, 0),
      kinds: t.findings,
      age_days: age?.kind === "age" ? age.days : null,
    };
  });
  docs.sort((a, b) =>
    b.findings - a.findings || (b.age_days ?? -Infinity) - (a.age_days ?? -Infinity) ||
    byCode(a.path, b.path)
  );
  return {
    overview_version: 1,
    generated_at: artifact.generated_at,
    root: artifact.root,
    git: artifact.git,
    under: overview.under,
    counts: artifact.counts,
    ...tally(artifact, artifact.shortlist),
    dirs: rows.map((dir) => ({
      dir,
      rest: rows.some((r) => r !== dir && (dir === "." || r.startsWith(dir + "/"))),
      ...tally(artifact, members.get(dir)!),
    })),
    with_findings: docs.filter((d) => d.findings > 0).length,
    ranking: overview.ranking,
    top: docs.slice(0, overview.top.length),
  };
}

const COUNTS = {
  candidates: 0,
  shortlisted: 0,
  excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 },
};

/** An artifact of `n` docs spread over nested directories, with findings of old and new kinds. */
export function randomArtifact(n: number, seed: number): ScanArtifact {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const dirs = ["", "docs", "docs/guides", "docs/guides/old", "docs/plans", "a/b/c/d", "notes"];
  for (let i = 0; i < 60; i++) dirs.push(`area-${i % 12}/sub-${i}`);
  const paths = new Set<string>();
  while (paths.size < n) {
    const dir = pick(dirs);
    paths.add(`${dir === "" ? "" : dir + "/"}doc-${Math.floor(rand() * n * 10)}.md`);
  }
  const shortlist = [...paths].sort();
  const signals: Record<string, Signal[]> = {};
  for (const path of shortlist) {
    const list: Signal[] = [];
    if (rand() < 0.95) {
      list.push({ kind: "age", days: Math.floor(rand() * 900), last_commit: null, source: "git" });
    }
    list.push({ kind: "size", bytes: 10, lines: 1 });
    if (rand() < 0.2) list.push({ kind: "checkboxes", done: 1, open: 1 });
    if (rand() < 0.2) {
      list.push({
        kind: "lifecycle",
        rule: pick(["docs/plans/*.md", "notes/**"]),
        lifetime: "delete-once-served",
        served: pick([true, false, null]),
      });
    }
    list.push({ kind: "inbound_links", count: 0 });
    for (let k = Math.floor(rand() * 4); k > 0; k--) {
      list.push({ kind: "broken_link", line: k, target: "x.md", hint: null });
    }
    if (rand() < 0.1) list.push({ kind: "missing_path", line: 1, path: "src/x.ts" });
    // A kind the scanner does not have (yet): counted as a finding all the same.
    if (rand() < 0.1) list.push({ kind: "stale_reference", line: 2 } as unknown as Signal);
    signals[path] = list;
  }
  return {
    schema_version: 1,
    generated_at: "2026-11-30T00:00:00.000Z",
    root: "/r",
    git: null,
    scope_globs: ["**/*.md"],
    excluded_dirs: [],
    counts: { ...COUNTS, candidates: n, shortlisted: n },
    excluded: [],
    shortlist,
    signals,
  };
}

/** The overview of `artifact` made by the builder. */
export function overviewOf(artifact: ScanArtifact, limits = {}): Overview {
  const builder = new OverviewBuilder();
  for (const path of artifact.shortlist) builder.add(path, artifact.signals[path]);
  return builder.finish({ ...artifact, under: null }, limits);
}

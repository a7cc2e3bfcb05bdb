import assert from "node:assert/strict";
import { checkDocLinks, type DocLinkFacts } from "../../lib/links/check_doc_links.ts";
import { DiskRecord } from "../../lib/links/disk_record.ts";
import { ListingChange } from "../../lib/links/listing_change.ts";
import { type DiskLookup, PathIndex, type PathIndexSource } from "../../lib/links/path_index.ts";
import { prng } from "../support/helpers.ts";

/** A disk holding `paths` (and their directories). */
function disk(paths: ReadonlySet<string>): DiskLookup {
  const all = new Set<string>([""]);
  for (const path of paths) {
    all.add(path);
    for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
      all.add(path.slice(0, i));
    }
  }
  const dirOf = (p: string) => p.lastIndexOf("/") < 0 ? "" : p.slice(0, p.lastIndexOf("/"));
  return Object.assign((p: string) => all.has(p) ? "exists" as const : "missing" as const, {
    caseTwin: (p: string) => [...all].some((q) => q !== p && q.toLowerCase() === p.toLowerCase()),
    holds: (dir: string, count: number) =>
      [...all].filter((q) => q !== "" && dirOf(q) === dir).length === count,
  });
}

const facts = (f: DocLinkFacts) =>
  JSON.stringify({
    broken: f.broken,
    targets: f.targets,
    fragments: f.fragments,
    missing: f.missing,
  });

Deno.test("link facts a listing change does not touch, on a disk that answers their questions alike, are the facts checked again", () => {
  const random = prng(4242);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  // Few names, in both letter cases and with and without `.md`: changes hit the links often.
  const segments = ["a", "A", "b", "b.md", "B.md", "c.txt", "d"];
  const path = () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(segments)).join("/");
  const listing = (): PathIndexSource => {
    const all = new Set<string>(["doc.md"]);
    for (let i = Math.floor(random() * 8); i > 0; i--) all.add(path());
    // A file cannot also be a directory.
    const paths = [...all].filter((p) => ![...all].some((q) => q.startsWith(`${p}/`))).sort();
    return { paths, nonFiles: [], opaque: [] };
  };
  let checked = 0;
  let touched = 0;
  for (let i = 0; i < 20_000; i++) {
    const before = listing();
    const after = random() < 0.5 ? before : listing();
    const doc = {
      links: Array.from({ length: 3 }, (_, k) => ({
        line: k + 1,
        target: path() + (random() < 0.2 ? "#x" : ""),
        kind: "inline" as const,
      })),
      inlinePaths: Array.from({ length: 2 }, (_, k) => ({ line: 10 + k, path: `${path()}/e.ts` })),
      anchors: new Set<string>(),
    };
    const onDisk = new Set<string>();
    for (let k = Math.floor(random() * 5); k > 0; k--) onDisk.add(path());
    if (random() < 0.5) onDisk.add(pick(doc.links).target.replace("#x", ""));
    const later = new Set(onDisk);
    if (random() < 0.5) later.add(path());
    if (random() < 0.5) later.delete(pick([...later, "x"]));
    if (random() < 0.3) later.add(pick(doc.links).target.replace("#x", ""));
    const docPath = pick(["doc.md", "a/doc.md"]);
    const asked = new DiskRecord();
    const first = checkDocLinks(docPath, doc, new PathIndex(before, asked.watch(disk(onDisk))));
    const change = ListingChange.between(before, after)!;
    if (
      change.touches(first.targets, first.probed) ||
      asked.differences(disk(later)).concerns(first.probed)
    ) {
      touched++;
      continue;
    }
    checked++;
    const again = checkDocLinks(docPath, doc, new PathIndex(after, disk(later)));
    assert.equal(facts(first), facts(again), JSON.stringify({ before, after, docPath, doc }));
  }
  // Both ways were taken often enough to mean something.
  assert.ok(checked > 5_000 && touched > 5_000, `${checked} kept, ${touched} checked again`);
});

Deno.test("a target found on disk only is probed: the listing gaining its case twin, or the disk losing it, touches the doc", () => {
  const index = (paths: string[]) => ({ paths, nonFiles: [], opaque: [] });
  const before = index(["a.md"]);
  const asked = new DiskRecord();
  const built = new Set(["dist/out.md"]);
  const doc = {
    links: [{ line: 1, target: "dist/out.md", kind: "inline" as const }],
    inlinePaths: [],
    anchors: new Set<string>(),
  };
  const facts = checkDocLinks("a.md", doc, new PathIndex(before, asked.watch(disk(built))));
  assert.deepEqual(facts.broken, []);
  assert.deepEqual(facts.probed, ["dist/out.md"]);
  assert.ok(
    ListingChange.between(before, index(["a.md", "dist/OUT.md"]))!.touches(
      facts.targets,
      facts.probed,
    ),
  );
  assert.ok(asked.differences(disk(new Set())).concerns(facts.probed));
});

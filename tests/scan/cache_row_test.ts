import assert from "node:assert/strict";
import { encodeCacheEntry, parseCacheRow } from "../../lib/scan/_cache_row.ts";
import type { DocSummary } from "../../lib/scan/summarize_doc.ts";

const listed = ["a.md", "b.md", "src/x.ts"];
const indexOf = (path: string) => listed.indexOf(path);

/** A summary with something in every field a row holds. */
function summary(n: number): DocSummary {
  return {
    hygiene: undefined,
    appendOnly: false,
    status: `status ${n}`,
    checkboxes: { done: n, open: n + 1 },
    anchors: new Set([`anchor-${n}`, "setup"]),
    linkFacts: {
      broken: [{ kind: "broken_link", line: n + 1, target: `gone-${n}.md`, hint: null }],
      fragments: [{ line: n + 2, target: `b.md#x${n}`, path: "b.md", fragment: `x${n}` }],
      missing: [{ kind: "missing_path", line: n + 3, path: `src/missing-${n}.ts` }],
    },
    malformedFrontmatter: { line: 1, reason: `reason ${n}`, hygiene: false },
    suppressions: [{ line: n + 4, op: "next", kinds: ["broken_link"] }],
    drift: { elements: [{ line: n + 5, element: `load${n}()` }], paths: ["src/x.ts"] },
  };
}

/** Every fact an entry gives, read in the order the scan asks for them. */
function facts(doc: DocSummary) {
  const { hygiene, appendOnly, status, checkboxes, malformedFrontmatter, suppressions } = doc;
  return {
    hygiene,
    appendOnly,
    status,
    checkboxes,
    malformedFrontmatter,
    suppressions,
    linkFacts: doc.linkFacts,
    anchors: doc.anchors,
    drift: doc.drift,
  };
}

Deno.test("a row's facts read back whole, kept parsed or made again from the line each time", () => {
  const lines = [0, 1, 2].map((n) =>
    encodeCacheEntry(10 + n, summary(n), ["b.md"], ["c.md"], indexOf)
  );
  for (const keep of [true, false]) {
    const docs = lines.map((line) => parseCacheRow(line, listed, keep)!);
    // Asked in turns, as the scan asks (another doc's anchors between a doc's facts): each
    // entry gives its own facts, whichever was parsed last.
    for (const order of [[0, 1, 2], [2, 0, 1], [1, 1, 0, 2, 0]]) {
      for (const n of order) {
        const expected = summary(n);
        const { drift, ...rest } = facts(docs[n].summary);
        assert.deepEqual(rest, {
          hygiene: expected.hygiene,
          appendOnly: expected.appendOnly,
          status: expected.status,
          checkboxes: expected.checkboxes,
          malformedFrontmatter: expected.malformedFrontmatter,
          suppressions: expected.suppressions,
          linkFacts: expected.linkFacts,
          anchors: expected.anchors,
        }, `keep ${keep}, doc ${n}`);
        assert.deepEqual(drift, expected.drift);
        assert.deepEqual([docs[n].lines, docs[n].targets, docs[n].probed()], [
          10 + n,
          ["b.md"],
          ["c.md"],
        ]);
      }
    }
  }
});

Deno.test("a row that is not well formed gives no entry, kept or not", () => {
  const line = encodeCacheEntry(3, summary(0), ["b.md"], [], indexOf);
  const cut = line.replace(/^\[3,/, "[-3,");
  assert.equal(parseCacheRow(cut, listed, true), undefined);
  assert.equal(parseCacheRow(cut, listed, false), undefined);
  // A target past the listing it was made under.
  assert.equal(parseCacheRow(line, listed.slice(0, 1)), undefined);
});

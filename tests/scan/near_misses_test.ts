import assert from "node:assert/strict";
import { giveNearMisses } from "../../lib/scan/_near_misses.ts";
import type { ListedFile } from "../../lib/git/list_candidates.ts";
import type { MissingPath } from "../../lib/links/check_doc_links.ts";
import type { Signal } from "../../lib/scan/scan_docs.ts";

const files: ListedFile[] = ["skills/y/references/x.md", "a/util.ts", "b/util.ts", "docs/a.md"]
  .map((path) => ({ path, type: "file", tracked: true }));

const miss = (line: number, path: string): MissingPath => ({ kind: "missing_path", line, path });

Deno.test("each missing path gets its own near miss, past suppressed ones and other docs'", () => {
  const [x, gone, util, none] = [
    miss(1, "references/x.md"),
    miss(2, "util.ts"),
    miss(3, "util.ts"),
    miss(4, "nowhere.md"),
  ];
  const other = miss(7, "x.md");
  // `gone` was suppressed: no longer in its doc's list.
  const signals: Record<string, Signal[]> = {
    "docs/a.md": [{ kind: "inbound_links", count: 0 }, x, util, none],
    "docs/b.md": [other],
  };
  giveNearMisses(
    [["docs/a.md", x], ["docs/a.md", gone], ["docs/a.md", util], ["docs/a.md", none], [
      "docs/b.md",
      other,
    ]],
    files,
    signals,
  );
  assert.deepEqual(signals["docs/a.md"], [
    { kind: "inbound_links", count: 0 },
    { ...x, hint: "skills/y/references/x.md" },
    { ...util, candidates: 2 },
    none,
  ]);
  assert.deepEqual(signals["docs/b.md"], [{ ...other, hint: "skills/y/references/x.md" }]);
});

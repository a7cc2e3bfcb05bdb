// Inline suppression comments (docs/signals.md "Suppressing findings"): suppressed findings are
// counted in the artifact and are findings for no output and no --fail-on.

import assert from "node:assert/strict";
import { commitFiles, runSeam, tempRepo } from "../support/helpers.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";

const NOW = "2026-11-30T03:36:18.000Z";

const DOC = [
  "# Guide", // 1
  "",
  "<!-- dochygiene-disable-next-line -->", // 3
  "See `src/example.ts` and [x](gone.md).", // 4: both suppressed
  "See `src/other.ts`.", // 5: a finding
  "<!-- dochygiene-disable missing_path, broken_anchor -->", // 6
  "`lib/a.ts` [y](gone2.md)", // 7: the path suppressed, the link not
  "",
  "```md",
  "<!-- dochygiene-enable -->", // 10: in code, no comment
  "```",
  "`lib/b.ts`", // 12: still suppressed
  "<!-- dochygiene-enable missing_path -->", // 13
  "`lib/c.ts`", // 14: a finding
].join("\n") + "\n";

async function scan(root: string, args: string[]) {
  return await runSeam("scan", args, { cwd: root, env: { DOCHYGIENE_NOW: NOW } });
}

Deno.test("suppressed findings leave the signals, are counted, and fail nothing", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "docs/guide.md": DOC }, "2026-10-01T00:00:00Z");
  const r = await scan(repo.path, ["--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const artifact = JSON.parse(r.stdout) as ScanArtifact;
  const findings = artifact.signals["docs/guide.md"].flatMap((s) =>
    "line" in s ? [`${s.line} ${s.kind}`] : []
  );
  assert.deepEqual(findings, ["7 broken_link", "5 missing_path", "14 missing_path"]);
  assert.deepEqual(artifact.suppressed, {
    total: 4,
    by_kind: { broken_link: 1, missing_path: 3 },
    by_path: { "docs/guide.md": 4 },
  });
  // The cache (written by the scan above) keeps the comments: the same artifact again.
  const again = JSON.parse((await scan(repo.path, ["--format", "json"])).stdout) as ScanArtifact;
  assert.deepEqual({ ...again, generated_at: "" }, { ...artifact, generated_at: "" });

  const github = await scan(repo.path, ["--format", "github", "--no-write"]);
  assert.equal(github.stdout.split("\n").filter((l) => l.startsWith("::")).length, 3);
  assert.match(github.stdout, /in 1 of 1 doc, 4 suppressed by comments \(/);
  const sarif = JSON.parse((await scan(repo.path, ["--format", "sarif", "--no-write"])).stdout);
  assert.equal(sarif.runs[0].results.length, 3);
});

Deno.test("--fail-on: suppressed findings do not fail the run", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "a.md": "# A\n\n<!-- dochygiene-disable-next-line missing_path -->\nUse `path/x.ts`.\n",
  }, "2026-10-01T00:00:00Z");
  const r = await scan(repo.path, ["--format", "json", "--no-write", "--fail-on", "missing_path"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as ScanArtifact).suppressed?.total, 1);
});

Deno.test("a stale_reference (a drift finding) is suppressed by the doc's comments too", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "src/config.ts": "export function parseConfig() {}\n",
  }, "2025-01-01T00:00:00Z");
  await commitFiles(repo.path, {
    "src/config.ts": "export function loadConfig() {}\n",
  }, "2025-02-01T00:00:00Z");
  const doc = (comment: string) => `# Guide\n\n${comment}Call \`parseConfig()\` first.\n`;
  await commitFiles(repo.path, { "docs/guide.md": doc("") }, "2025-03-01T00:00:00Z");
  const kinds = async () => {
    const r = await scan(repo.path, ["--format", "json", "--no-write"]);
    const artifact = JSON.parse(r.stdout) as ScanArtifact;
    return {
      kinds: artifact.signals["docs/guide.md"].map((s) => s.kind) as string[],
      suppressed: artifact.suppressed,
    };
  };
  const before = (await kinds()).kinds;
  assert.ok(before.includes("stale_reference"), String(before));
  await commitFiles(repo.path, {
    "docs/guide.md": doc("<!-- dochygiene-disable-next-line stale_reference -->\n"),
  }, "2025-03-02T00:00:00Z");
  const { kinds: after, suppressed } = await kinds();
  assert.ok(!after.includes("stale_reference"), String(after));
  assert.deepEqual(suppressed, {
    total: 1,
    by_kind: { stale_reference: 1 },
    by_path: { "docs/guide.md": 1 },
  });
});

// The project's own docs pass its own scan: every page of README.md, docs/ and skills/ is
// shortlisted, and none has a broken link, a broken anchor or a missing path.

import assert from "node:assert/strict";
import { join } from "node:path";
import { PACKAGE_DIR, runSeam } from "../support/helpers.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";

/** The Markdown pages the project publishes, as paths relative to the package. */
async function pages(): Promise<string[]> {
  const found = ["README.md"];
  const dirs = ["docs", "skills"];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    for await (const entry of Deno.readDir(join(PACKAGE_DIR, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) dirs.push(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  }
  return found.sort();
}

Deno.test("the project's own scan finds no broken link, anchor or path in README.md, docs/ and skills/", async () => {
  const run = await runSeam("scan", ["--format", "json", "--no-write"], { cwd: PACKAGE_DIR });
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  const expected = await pages();
  assert.deepEqual(expected.filter((page) => !artifact.shortlist.includes(page)), []);
  const findings = expected.flatMap((page) =>
    (artifact.signals[page] ?? [])
      .filter((s) => ["broken_link", "broken_anchor", "missing_path"].includes(s.kind))
      .map((s) => `${page}: ${JSON.stringify(s)}`)
  );
  assert.deepEqual(findings, []);
});

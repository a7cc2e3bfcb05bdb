// scan.ts --format overview / overview-json and --under, run as users run them.

import assert from "node:assert/strict";
import { join } from "node:path";
import { assertSeamError, commitFiles, runSeam, tempRepo } from "../support/helpers.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";
import type { Overview } from "../../lib/overview/overview_builder.ts";
import { OVERVIEW_MAX_BYTES } from "../../lib/overview/render_overview.ts";
import { restrictArtifact } from "../../lib/overview/restrict_artifact.ts";
import { formatScanJson } from "../../lib/scan/format_scan_json.ts";
import { recomputeOverview } from "../overview/recompute_overview.ts";

const NOW = "2026-11-30T03:36:18.000Z";

const scan = (cwd: string, args: string[]) =>
  runSeam("scan", args, { cwd, env: { DOCHYGIENE_NOW: NOW } });

/**
 * A repository of 600 docs over nested directories, committed on three dates, with broken
 * links, missing paths, duplicates, checkboxes and a served_when_path rule.
 */
async function variedRepo(root: string): Promise<void> {
  await commitFiles(root, {
    ".dochygiene.yml": "rules:\n  - match: docs/plans/*.md\n    lifetime: delete-once-served\n" +
      "    served_when_path: docs/done/{name}.md\n",
  }, "2026-01-01T00:00:00Z");
  const dates = ["2025-03-01T00:00:00Z", "2026-06-01T00:00:00Z", "2026-11-01T00:00:00Z"];
  for (const [d, date] of dates.entries()) {
    const files: Record<string, string> = {};
    for (let i = d; i < 600; i += 3) {
      const dir = [
        "docs/guides",
        "docs/guides/old",
        "docs/plans",
        "docs/done",
        `area-${i % 5}/sub-${i % 4}`,
        "",
      ][i % 6];
      const body = i % 7 === 0
        ? "# copy\n\nSame text.\n"
        : `# Doc ${i}\n\n[next](doc-${i + 6}.md) [gone](gone-${i}.md#x)\n\n` +
          `Run \`src/m-${i}.ts\`.\n\n- [ ] open\n- [x] done\n`;
      files[`${dir === "" ? "" : dir + "/"}doc-${i}.md`] = body;
      // Half the plans are served: their name is in docs/done/.
      if (i % 12 === 2) files[`docs/done/doc-${i}.md`] = `# Done ${i}\n`;
    }
    await commitFiles(root, files, date, `docs ${d}`);
  }
}

Deno.test("the overview's numbers equal those recomputed from the artifact the same scan wrote", async () => {
  await using repo = await tempRepo();
  await variedRepo(repo.path);
  const run = await scan(repo.path, ["--format", "overview-json"]);
  assert.equal(run.code, 0, run.stderr);
  const overview: Overview = JSON.parse(run.stdout);
  const artifact: ScanArtifact = JSON.parse(
    await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json")),
  );
  assert.deepEqual(overview, recomputeOverview(artifact, overview));
  // Something to count: several rows, findings of several kinds, a rule with served docs.
  assert.ok(overview.dirs.length >= 5, JSON.stringify(overview.dirs));
  for (const kind of ["broken_link", "missing_path", "duplicate"]) {
    assert.ok(overview.findings[kind] > 0, kind);
  }
  assert.ok(overview.lifecycle["docs/plans/*.md"] > 0 && overview.served > 0);
  assert.ok(new TextEncoder().encode(run.stdout).length <= OVERVIEW_MAX_BYTES);
});

Deno.test("the text overview shows the same rows and ranked docs as the JSON one", async () => {
  await using repo = await tempRepo();
  await variedRepo(repo.path);
  const text = await scan(repo.path, ["--format", "overview"]);
  const json = await scan(repo.path, ["--format", "overview-json", "--no-write"]);
  assert.equal(text.code, 0, text.stderr);
  const overview: Overview = JSON.parse(json.stdout);
  const lines = text.stdout.split("\n");
  for (const row of overview.dirs) {
    assert.ok(
      lines.some((l) =>
        l.startsWith(`  ${row.dir}${row.rest ? " + rest" : ""} `) &&
        l.includes(` ${row.docs} docs  age ${row.age_days!.min}/`)
      ),
      row.dir,
    );
  }
  for (const doc of overview.top) assert.ok(lines.some((l) => l.endsWith(`  ${doc.path}`)));
  assert.match(text.stdout, /ordered by findings desc, then age_days desc, then path/);
});

Deno.test("--under prints the whole scan's artifact of that subtree, and scan.json stays the whole scan", async () => {
  await using repo = await tempRepo();
  await variedRepo(repo.path);
  const whole = await scan(repo.path, ["--format", "json"]);
  const wholeFile = await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json"));
  const zoom = await scan(repo.path, [
    "--format",
    "json",
    "--under",
    "docs/guides/",
    "--under",
    "./area-1",
  ]);
  assert.equal(zoom.code, 0, zoom.stderr);
  assert.equal(zoom.stderr, "");
  const artifact: ScanArtifact = JSON.parse(whole.stdout);
  // Byte for byte what filtering the whole scan gives (same signals: inbound links and
  // duplicates counted over every doc), nothing else printed.
  assert.equal(zoom.stdout, formatScanJson(restrictArtifact(artifact, ["docs/guides", "area-1"])));
  const shown: ScanArtifact = JSON.parse(zoom.stdout);
  assert.ok(shown.shortlist.some((p) => p.startsWith("docs/guides/old/")));
  assert.ok(shown.shortlist.every((p) => p.startsWith("docs/guides/") || p.startsWith("area-1/")));
  assert.ok(shown.shortlist.some((p) => shown.signals[p].some((s) => s.kind === "duplicate")));
  assert.equal(await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json")), wholeFile);
});

Deno.test("--under with the overview counts only that subtree, rows below it", async () => {
  await using repo = await tempRepo();
  await variedRepo(repo.path);
  const run = await scan(repo.path, ["--format", "overview-json", "--under", "docs"]);
  assert.equal(run.code, 0, run.stderr);
  const overview: Overview = JSON.parse(run.stdout);
  const artifact: ScanArtifact = JSON.parse(
    await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json")),
  );
  assert.deepEqual(overview.under, ["docs"]);
  assert.deepEqual(overview, recomputeOverview(restrictArtifact(artifact, ["docs"]), overview));
  assert.ok(overview.dirs.every((d) => d.dir.startsWith("docs")));
  assert.equal(overview.counts.shortlisted, artifact.counts.shortlisted);
});

Deno.test("--under a directory that holds no doc prints an empty shortlist, exit 0", async () => {
  await using repo = await tempRepo();
  await variedRepo(repo.path);
  const run = await scan(repo.path, ["--format", "json", "--under", "no/such/dir", "--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const shown: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual([shown.shortlist, shown.signals, shown.excluded], [[], {}, []]);
});

Deno.test("--under outside the project, or an unknown format, is a usage error (exit 2) naming the fix", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# a\n" }, "2026-01-01T00:00:00Z");
  assertSeamError(
    "scan",
    await scan(repo.path, ["--format", "overview-json", "--under", "../elsewhere"]),
    2,
    "USAGE",
    /--under "\.\.\/elsewhere" is not inside the project: give a directory relative to the project root/,
  );
  assertSeamError(
    "scan",
    await scan(repo.path, ["--format", "xml"]),
    2,
    "USAGE",
    /--format must be json, text, sarif, github, overview or overview-json \(got "xml"\)/,
  );
});

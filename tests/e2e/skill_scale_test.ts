// The check skill's scan commands, verbatim from skills/check/SKILL.md, on a generated
// repository (bench/generate_repo.ts) of DOCHYGIENE_SKILL_DOCS docs (default 20,000: the
// largest that keeps this test under ~20 s on the 2-core build machine; bench/skill_bench.ts
// runs it at 50,000 — docs/development.md). It walks as the skill says: the overview, then one
// row (the one with the most findings per doc), split with that row's overview when it holds
// more than ~60 docs, then one batch; and checks what the skill promises about the sizes read.

import assert from "node:assert/strict";
import { join } from "node:path";
import { generateRepo } from "../../bench/generate_repo.ts";
import { OVERVIEW_MAX_BYTES } from "../../lib/overview/render_overview.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";
import { DENO, git, PACKAGE_DIR, runCommand, tempDir } from "../support/helpers.ts";

const DOCS = Number(Deno.env.get("DOCHYGIENE_SKILL_DOCS") ?? 20_000);
/** What the skill says it reads before the first batch, at most. */
const BEFORE_FIRST_BATCH = 2 * OVERVIEW_MAX_BYTES;

/** The skill's ```bash blocks that run scan.ts, by what they do. */
async function scanBlocks(): Promise<{ overview: string; rowOverview: string; zoom: string }> {
  const text = await Deno.readTextFile(join(PACKAGE_DIR, "skills/check/SKILL.md"));
  const blocks = [...text.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1].trim())
    .filter((b) => b.includes('/scan.ts"'));
  const find = (test: (b: string) => boolean) => {
    const found = blocks.filter(test);
    assert.equal(found.length, 1, `expected one such scan block among:\n${blocks.join("\n")}`);
    return found[0];
  };
  return {
    overview: find((b) => b.endsWith("--format overview")),
    rowOverview: find((b) => b.includes("--format overview --under")),
    zoom: find((b) => b.includes("--format json --under")),
  };
}

/** A row of the text overview. */
interface Row {
  dir: string;
  docs: number;
  findings: number;
}

function rowsOf(overview: string): Row[] {
  const section = overview.split("\nDirectories: ")[1].split("\n\n")[0].split("\n").slice(1);
  return section.map((line) => {
    const m = /^ {2}(\S+)(?: \+ rest)? +(\d+) docs {2}age \S+(.*)$/.exec(line);
    assert.ok(m, `not a row: ${line}`);
    const findings = [...m[3].matchAll(/ {2}(?!rule )[a-z_]+ (\d+)/g)]
      .reduce((n, f) => n + Number(f[1]), 0);
    return { dir: m[1], docs: Number(m[2]), findings };
  });
}

Deno.test(`the check skill's commands, verbatim, on a generated repository of ${DOCS} docs`, async () => {
  const source = await generateRepo({ docs: DOCS, commits: 5_000 });
  await using tmp = await tempDir("dochygiene-skill-scale-");
  const root = join(tmp.path, "repo");
  // A clone of its own (objects shared): the cached repository is left as the benches want it.
  await git(tmp.path, ["clone", "-q", "--shared", source, root]);
  await Deno.mkdir(join(tmp.path, "bin"));
  await Deno.symlink(DENO, join(tmp.path, "bin", "deno"));
  const env = {
    CI: "",
    NO_COLOR: "1",
    CLAUDE_PLUGIN_ROOT: PACKAGE_DIR,
    PATH: `${join(tmp.path, "bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: Deno.env.get("HOME") ?? tmp.path,
  };
  const blocks = await scanBlocks();
  const run = async (block: string, dir = "") => {
    const filled = block.replaceAll("${CLAUDE_PLUGIN_ROOT}", PACKAGE_DIR)
      .replaceAll('"<dir>"', `'${dir}'`);
    const r = await runCommand("bash", ["-c", filled], { cwd: join(root, "docs"), env });
    assert.equal(r.code, 0, `${filled}\n${r.stderr}`);
    return r.stdout;
  };
  const bytes = (text: string) => new TextEncoder().encode(text).length;

  let read = 0;
  const overview = await run(blocks.overview);
  read += bytes(overview);
  assert.ok(bytes(overview) <= OVERVIEW_MAX_BYTES, `${bytes(overview)} bytes`);
  const whole: ScanArtifact = JSON.parse(
    await Deno.readTextFile(join(root, ".dochygiene/scan.json")),
  );
  assert.match(overview, new RegExp(`\\b${whole.counts.shortlisted} shortlisted\\b`));
  const byEvidence = (a: Row, b: Row) => b.findings / b.docs - a.findings / a.docs;
  let row = rowsOf(overview).sort(byEvidence)[0];
  let paths: string[] | undefined;
  if (row.docs > 60) {
    const split = await run(blocks.rowOverview, row.dir);
    read += bytes(split);
    assert.ok(bytes(split) <= OVERVIEW_MAX_BYTES);
    assert.match(split, new RegExp(`under ${row.dir}: ${row.docs} docs`));
    const rows = rowsOf(split).sort(byEvidence);
    row = rows[0];
    if (row.docs > 60) {
      // A flat directory: its ranked docs, by path.
      paths = [...split.matchAll(/^ {2}\d+ findings? {2}.* {2}(\S+\.md)$/gm)].map((m) => m[1]);
    }
  }
  assert.ok(read <= BEFORE_FIRST_BATCH, `${read} bytes read before the first batch`);
  const batchBlock = paths === undefined
    ? blocks.zoom
    : blocks.zoom.replace('"<dir>"', paths.map((p) => `"${p}"`).join(" --under "));
  const batch: ScanArtifact = JSON.parse(await run(batchBlock, row.dir));
  const expected = paths ?? whole.shortlist.filter((p) => p.startsWith(`${row.dir}/`));
  assert.deepEqual(batch.shortlist, expected);
  assert.ok(
    batch.shortlist.length > 0 && batch.shortlist.length <= 60,
    `${batch.shortlist.length}`,
  );
  for (const path of batch.shortlist) assert.deepEqual(batch.signals[path], whole.signals[path]);
});

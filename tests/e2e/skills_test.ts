// The skills' command lines, run verbatim: every ```bash block of
// skills/check/SKILL.md and skills/clean/SKILL.md is executed with bash against
// the demo repository, in the order the skill gives, from a subdirectory (the
// `cd` must find the root). `${CLAUDE_PLUGIN_ROOT}` becomes this package's
// directory, as Claude Code's skill loader substitutes it (the variable is
// also set in the environment); the only other substitutions are the
// placeholders the skills tell Claude to fill in.
// A new command in a skill fails this test until it is given an expectation.

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildSampleRepo, sampleReport } from "../../tools/demo.ts";
import { PERMISSION_FLAGS, type SeamName } from "../../lib/cli/permission_flags.ts";
import { parseYaml } from "../../lib/yaml/parse_yaml.ts";
import { DENO, git, PACKAGE_DIR, runCommand, type SeamRun, tempDir } from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";

interface Skill {
  frontmatter: Record<string, unknown>;
  blocks: string[];
}

async function readSkill(name: string): Promise<Skill> {
  const text = await Deno.readTextFile(join(PACKAGE_DIR, "skills", name, "SKILL.md"));
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(fm, `skills/${name}/SKILL.md has no YAML frontmatter`);
  const blocks = [...text.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1].trim());
  return { frontmatter: parseYaml(fm[1]) as Record<string, unknown>, blocks };
}

/** Runs one block with bash the way Claude Code's Bash tool does: a fresh shell in `cwd`. */
function bash(block: string, cwd: string, env: Record<string, string>): Promise<SeamRun> {
  return runCommand("bash", ["-c", block], { cwd, env: { CI: "", NO_COLOR: "1", ...env } });
}

/**
 * What Claude runs: Claude Code's skill loader replaces `${CLAUDE_PLUGIN_ROOT}`
 * in the skill's text with the plugin's directory, then Claude fills the
 * placeholders the skill asks it to; any other `<…>` left is an error.
 */
function fill(block: string, values: Record<string, string>): string {
  let filled = block.replaceAll("${CLAUDE_PLUGIN_ROOT}", PACKAGE_DIR);
  for (const [placeholder, value] of Object.entries(values)) {
    filled = filled.replaceAll(`"<${placeholder}>"`, `'${value}'`);
  }
  const left = /"<[^>]+>"/.exec(filled);
  assert.equal(left, null, `unfilled placeholder ${left?.[0]} in: ${block}`);
  return filled;
}

/** The seam a block runs, checking it uses exactly the documented flags. */
function seamOf(block: string): SeamName | undefined {
  const m = /"\$\{CLAUDE_PLUGIN_ROOT\}\/(\w+)\.ts"/.exec(block);
  if (!m) return undefined;
  const seam = m[1] as SeamName;
  assert.ok(seam in PERMISSION_FLAGS, `unknown seam ${seam}.ts in: ${block}`);
  const expected = `cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)" && deno run --quiet ` +
    `--config "\${CLAUDE_PLUGIN_ROOT}/deno.json" ${PERMISSION_FLAGS[seam].join(" ")} ` +
    `"\${CLAUDE_PLUGIN_ROOT}/${seam}.ts"`;
  assert.ok(block.startsWith(expected), `${seam}.ts is not run as documented:\n${block}`);
  return seam;
}

/** A PATH whose `deno` is the binary running the tests. */
async function pathWithDeno(dir: string): Promise<string> {
  await Deno.mkdir(join(dir, "bin"));
  await Deno.symlink(DENO, join(dir, "bin", "deno"));
  return `${join(dir, "bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

Deno.test("both skills have the frontmatter Claude Code requires", async () => {
  for (const name of ["check", "clean"]) {
    const { frontmatter, blocks } = await readSkill(name);
    assert.equal(frontmatter.name, name);
    assert.equal(typeof frontmatter.description, "string");
    assert.ok((frontmatter.description as string).length > 40);
    assert.ok((frontmatter.description as string).length <= 1024);
    assert.ok(blocks.length >= 3, `skills/${name} has too few commands`);
  }
});

Deno.test("every command of the check and clean skills runs verbatim against a real repository", async () => {
  await using tmp = await tempDir("dochygiene-skills-");
  const repo = join(tmp.path, "repo");
  const { root } = await buildSampleRepo(repo, new Date(NOW));
  // A project that does not ignore .dochygiene/ yet, whose .gitignore lacks a final newline.
  await Deno.writeTextFile(join(root, ".gitignore"), "node_modules/");
  await git(root, ["commit", "-q", "-am", "gitignore"], {
    GIT_AUTHOR_DATE: NOW,
    GIT_COMMITTER_DATE: NOW,
  });
  const env = {
    CLAUDE_PLUGIN_ROOT: PACKAGE_DIR,
    TMPDIR: tmp.path,
    PATH: await pathWithDeno(tmp.path),
    DOCHYGIENE_NOW: NOW,
    HOME: Deno.env.get("HOME") ?? tmp.path,
  };
  // Claude's Bash tool may start anywhere in the project.
  const cwd = join(root, "docs");
  let reportFile = "";
  let zoomDir = "";
  let scan: Parameters<typeof sampleReport>[0] | undefined;

  // /dochygiene:check
  const check = await readSkill("check");
  let doctorRuns = 0;
  for (const block of check.blocks) {
    const seam = seamOf(block);
    const run = await bash(fill(block, { "report file": reportFile, dir: zoomDir }), cwd, env);
    const where = `check: ${block}\n${run.stderr}${run.stdout.slice(0, 500)}`;
    if (block.startsWith("date -u ")) {
      // The report's time and a file of its own, in TMPDIR.
      assert.equal(run.code, 0, where);
      const [time, file] = run.stdout.trim().split("\n");
      assert.ok(Date.parse(time) <= Date.now() && time.endsWith("Z"), where);
      assert.ok(file.startsWith(join(tmp.path, "dochygiene-report-")), where);
      reportFile = file;
      // What Claude writes there with the Write tool (dated by the pinned clock here).
      await Deno.writeTextFile(
        reportFile,
        JSON.stringify(await sampleReport(scan!, new Date(NOW))),
      );
    } else if (seam === "scan" && !block.includes("--under")) {
      // The overview first: the scan wrote the whole artifact, which the report is made from.
      assert.equal(run.code, 0, where);
      assert.match(run.stdout, /^dochygiene overview — /, where);
      assert.match(run.stdout, new RegExp(`scanned ${NOW.replaceAll(".", "\\.")}`), where);
      scan = JSON.parse(await Deno.readTextFile(join(root, ".dochygiene/scan.json")));
      assert.ok(scan!.shortlist.includes("docs/architecture.md"), where);
      // A row without "+ rest" (the skill zooms those by directory).
      const row = /^ {2}(docs\S*) +\d+ docs /m.exec(run.stdout);
      assert.ok(row, where);
      zoomDir = row[1];
    } else if (seam === "scan" && block.includes("--format overview")) {
      // The overview of one row.
      assert.equal(run.code, 0, where);
      assert.match(run.stdout, new RegExp(`under ${zoomDir}: \\d+ docs`), where);
    } else if (seam === "scan") {
      // A batch: the whole scan's signals for the docs of one row, nothing else.
      assert.equal(run.code, 0, where);
      const zoomed = JSON.parse(run.stdout);
      assert.deepEqual(zoomed.under, [zoomDir], where);
      assert.ok(zoomed.shortlist.length > 0, where);
      assert.deepEqual(
        zoomed.shortlist,
        scan!.shortlist.filter((p: string) => p.startsWith(`${zoomDir}/`)),
      );
      for (const path of zoomed.shortlist) {
        assert.deepEqual(zoomed.signals[path], scan!.signals[path], path);
      }
    } else if (seam === "state" && block.includes(" report ")) {
      assert.equal(run.code, 0, where);
      assert.equal(JSON.parse(run.stdout).ok, true, where);
    } else if (seam === "state" && block.includes(" doctor ")) {
      const doctor = JSON.parse(run.stdout);
      if (doctorRuns++ === 0) {
        // The scan made .dochygiene/ with its own .gitignore: ignored, the project's file untouched.
        assert.equal(run.code, 0, where);
        assert.equal(doctor.gitignore.ignored, true, where);
        assert.equal(await Deno.readTextFile(join(root, ".gitignore")), "node_modules/");
        assert.equal(doctor.gitignore.line, ".dochygiene/");
      } else {
        assert.equal(run.code, 0, where);
      }
    } else if (block.startsWith("rm -f ")) {
      assert.equal(run.code, 0, where);
      await assert.rejects(Deno.stat(reportFile));
    } else if (block.includes(">> .gitignore")) {
      assert.equal(run.code, 0, where);
      assert.equal(
        await Deno.readTextFile(join(root, ".gitignore")),
        "node_modules/\n.dochygiene/\n",
      );
      // The skill says to run the doctor again: it is healthy now.
      const again = check.blocks.find((b) => b.includes(" doctor "))!;
      const rerun = await bash(again, cwd, env);
      assert.equal(rerun.code, 0, rerun.stdout);
      doctorRuns++;
    } else {
      assert.fail(`no expectation for this check command; add one:\n${block}`);
    }
  }
  assert.equal(doctorRuns, 2);
  const stateDir = join(root, ".dochygiene");
  const pair = [...Deno.readDirSync(stateDir)].map((e) => e.name).filter((n) =>
    n.startsWith("report-")
  );
  assert.equal(pair.length, 2, `one report pair: ${pair}`);

  // /dochygiene:clean
  const clean = await readSkill("clean");
  const plan = "docs/superpowers/plans/2026-08-03-search-rewrite.md";
  const spec = "docs/superpowers/specs/2026-08-03-search-rewrite-design.md";
  let commit = "";
  const headBefore = (await git(root, ["rev-parse", "HEAD"])).trim();
  for (const block of clean.blocks) {
    const seam = seamOf(block);
    if (seam === "prune" && block.includes("--yes")) {
      // What Claude writes before applying an extraction.
      await Deno.writeTextFile(join(root, "docs/adr/0002-rank-search-with-bm25.md"), "# 2. BM25\n");
    }
    const run = await bash(
      fill(block, { "confirmed path": spec, "extracted path": plan, commit }),
      cwd,
      env,
    );
    const where = `clean: ${block}\n${run.stderr}${run.stdout.slice(0, 800)}`;
    assert.equal(run.code, 0, where);
    if (seam === "state") {
      assert.ok(JSON.parse(run.stdout).report, where);
    } else if (seam === "prune" && !block.includes("--yes")) {
      const dry = JSON.parse(run.stdout);
      assert.equal(dry.mode, "dry-run", where);
      const tiers = Object.fromEntries(dry.candidates.map((c: CandidateLike) => [c.path, c.tier]));
      assert.equal(tiers[spec], "confirm", where);
      assert.equal(tiers[plan], "confirm", where);
      assert.equal((await git(root, ["rev-parse", "HEAD"])).trim(), headBefore);
    } else if (seam === "prune") {
      const result = JSON.parse(run.stdout);
      assert.equal(result.mode, "apply", where);
      const applied = result.applied.map((a: { path: string }) => a.path);
      assert.ok(applied.includes(spec) && applied.includes(plan), where);
      assert.ok(applied.includes("autoresearch/run-01/"), where);
      commit = result.commit;
      assert.match(commit, /^[0-9a-f]{40}$/, where);
      await assert.rejects(Deno.stat(join(root, plan)));
      // The extraction stays an ordinary uncommitted change.
      assert.match(await git(root, ["status", "--porcelain"]), /\?\? docs\/adr\/0002/);
    } else if (block.includes("git log --stat -1")) {
      assert.ok(run.stdout.includes(commit), where);
      assert.ok(run.stdout.includes(spec), where);
    } else if (block.includes("git revert")) {
      assert.ok((await Deno.stat(join(root, plan))).isFile, "revert restores the plan");
      assert.ok((await Deno.stat(join(root, "autoresearch/run-01/notes.md"))).isFile);
    } else {
      assert.fail(`no expectation for this clean command; add one:\n${block}`);
    }
  }
  assert.ok(commit, "the clean skill applied a prune");
});

interface CandidateLike {
  path: string;
  tier: string;
}

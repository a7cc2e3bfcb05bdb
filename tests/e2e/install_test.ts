// docs/install.md's `deno install -g` recipes, exercised: each seam is installed
// with exactly its permission flags into a temporary install root, then the
// installed commands are run in real repositories — one with its own deno.json
// (conflicting imports), one without — from their roots, and from a
// subdirectory (one clear line naming the root).

import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_FLAGS, type SeamName } from "../../lib/cli/permission_flags.ts";
import {
  commitFiles,
  DENO,
  git,
  PACKAGE_DIR,
  runCommand,
  type SeamRun,
  tempDir,
  tempRepo,
} from "../support/helpers.ts";

const SEAMS: SeamName[] = ["remind", "state", "scan", "prune"];
const NOW = "2026-11-30T12:00:00.000Z";

/** docs/install.md's recipe for one seam, as arguments of `deno`. */
function recipe(seam: SeamName, installRoot: string): string[] {
  return [
    "install",
    "-g",
    "-f",
    "--quiet",
    "--root",
    installRoot,
    "--name",
    `dochygiene-${seam}`,
    "--config",
    join(PACKAGE_DIR, "deno.json"),
    ...PERMISSION_FLAGS[seam],
    join(PACKAGE_DIR, `${seam}.ts`),
  ];
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<SeamRun> {
  return runCommand(cmd, args, {
    cwd,
    env: { CI: "", NO_COLOR: "1", DOCHYGIENE_NOW: NOW, ...env },
    stdin,
  });
}

async function sampleRepo(ownDenoJson: boolean) {
  const repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": ".dochygiene/\n",
    "docs/guide.md": "# Guide\n\nSee [setup](setup.md).\n",
    "runs/r1/notes.md": "# run 1\n",
    "runs/r2/notes.md": "# run 2\n",
    ".dochygiene.yml":
      'rules:\n  - match: "runs/*/"\n    lifetime: temporary\n    retain_recent: 1\n    max_age_days: 3\n',
  }, "2026-10-01T00:00:00Z");
  await commitFiles(repo.path, { "runs/r2/notes.md": "# run 2, again\n" }, "2026-11-29T00:00:00Z");
  if (ownDenoJson) {
    // A project whose own config would break dochygiene if it were picked up.
    await commitFiles(repo.path, {
      "deno.json": JSON.stringify({
        imports: { yaml: "npm:yaml@1.0.0", picomatch: "./nowhere.js" },
        nodeModulesDir: "manual",
        lock: false,
      }),
    }, "2026-11-29T00:00:00Z");
  }
  await Deno.mkdir(join(repo.path, "docs", "deep"));
  return repo;
}

Deno.test("deno install -g of each seam with its exact flags gives commands that work in any repository", async () => {
  await using installRoot = await tempDir("dochygiene-install-");
  const bin = join(installRoot.path, "bin");
  for (const seam of SEAMS) {
    const out = await run(DENO, recipe(seam, installRoot.path), PACKAGE_DIR, {});
    assert.equal(out.code, 0, out.stderr);
    const shim = await Deno.readTextFile(join(bin, `dochygiene-${seam}`));
    for (const flag of PERMISSION_FLAGS[seam]) assert.ok(shim.includes(flag), `${seam}: ${flag}`);
    assert.ok(!shim.includes("--allow-all") && !shim.includes(" -A "), `${seam} is not widened`);
  }
  // The shims call `deno`: put the one running the tests first on PATH.
  await Deno.symlink(DENO, join(bin, "deno"));
  const env = { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` };
  const cmd = (seam: SeamName) => join(bin, `dochygiene-${seam}`);

  for (const ownDenoJson of [true, false]) {
    await using repo = await sampleRepo(ownDenoJson);
    const root = repo.path;
    const what = ownDenoJson ? "with its own deno.json" : "without a deno.json";
    const payload = JSON.stringify({
      hook_event_name: "SessionStart",
      source: "startup",
      cwd: root,
    });

    const banner = await run(cmd("remind"), [], root, env, payload);
    assert.equal(banner.code, 0, `${what}: ${banner.stderr}`);
    assert.match(JSON.parse(banner.stdout).systemMessage, /dochygiene:check/, what);

    const scan = await run(cmd("scan"), ["--format", "json"], root, env);
    assert.equal(scan.code, 0, `${what}: ${scan.stderr}`);
    assert.deepEqual(JSON.parse(scan.stdout).shortlist, [
      "docs/guide.md",
      "runs/r1/notes.md",
      "runs/r2/notes.md",
    ]);
    assert.ok((await Deno.stat(join(root, ".dochygiene", "scan.json"))).isFile, what);

    const checked = await run(cmd("state"), ["mark-checked", "--format", "json"], root, env);
    assert.equal(checked.code, 0, `${what}: ${checked.stderr}`);
    assert.equal(JSON.parse(checked.stdout).state.last_check, NOW);

    const dry = await run(cmd("prune"), ["--format", "json"], root, env);
    assert.equal(dry.code, 0, `${what}: ${dry.stderr}`);
    const plan = JSON.parse(dry.stdout);
    assert.deepEqual(plan.candidates.map((c: { path: string; tier: string }) => [c.path, c.tier]), [
      ["runs/r1/", "auto"],
    ]);
    const applied = await run(cmd("prune"), ["--yes", "--format", "json"], root, env);
    assert.equal(applied.code, 0, `${what}: ${applied.stderr}`);
    assert.match(JSON.parse(applied.stdout).commit, /^[0-9a-f]{40}$/);
    assert.equal(await git(root, ["status", "--porcelain"]), "");

    // From a subdirectory, --allow-write=.dochygiene names the wrong directory: one clear line.
    const deep = await run(cmd("state"), ["mark-checked"], join(root, "docs", "deep"), env);
    assert.equal(deep.code, 1, what);
    const lines = deep.stderr.trim().split("\n");
    assert.equal(lines.length, 1, deep.stderr);
    assert.ok(lines[0].includes(root) && lines[0].includes("--allow-write"), deep.stderr);
  }
});

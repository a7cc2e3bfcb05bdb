// scan.ts in CI: --fail-on, the SARIF log (validated with Microsoft's SARIF multitool), GitHub
// annotations, the text lines, and the documented workflow and pre-commit hook run as written.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  commitFiles,
  DENO,
  PACKAGE_DIR,
  runCommand,
  runSeam,
  tempDir,
  tempRepo,
} from "../support/helpers.ts";
import { parseYaml } from "../../lib/yaml/parse_yaml.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";

const NOW = "2026-11-30T03:36:18.000Z";

const scan = (cwd: string, args: string[]) =>
  runSeam("scan", ["--no-write", ...args], { cwd, env: { DOCHYGIENE_NOW: NOW } });

/** A repository with one broken link, one broken anchor and one missing inline-code path. */
async function sampleRepo(root: string): Promise<void> {
  await commitFiles(root, {
    "README.md": "# Sample\n\nSee [the guide](docs/guide.md).\n",
    "docs/guide.md": "# Guide\n\n## Setup\n\n" +
      "Read [setup](#setup), [old](old.md) and [intro](../README.md#missing).\n\n" +
      "Run `scripts/gone.sh`.\n",
  }, "2026-10-01T00:00:00Z");
}

Deno.test("--fail-on exits 1 on findings of its kinds, with the same output, a verdict in the JSON and one stderr line", async () => {
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const plain = await scan(repo.path, ["--format", "json"]);
  assert.equal(plain.code, 0, "without --fail-on findings never fail the run");
  const gated = await scan(repo.path, [
    "--format",
    "json",
    "--fail-on",
    "broken_link,broken_anchor",
  ]);
  assert.equal(gated.code, 1);
  const artifact = JSON.parse(gated.stdout) as ScanArtifact;
  assert.deepEqual(artifact.fail_on, {
    kinds: ["broken_link", "broken_anchor"],
    failed: true,
    counts: { broken_link: 1, broken_anchor: 1 },
  });
  const { fail_on: _, ...rest } = artifact;
  assert.deepEqual(rest, JSON.parse(plain.stdout), "the same artifact otherwise");
  assert.equal(
    gated.stderr,
    "dochygiene scan: --fail-on: 2 findings (1 broken_link, 1 broken_anchor); exit 1\n",
  );
  const clean = await scan(repo.path, ["--format", "json", "--fail-on", "duplicate"]);
  assert.equal(clean.code, 0);
  assert.equal(JSON.parse(clean.stdout).fail_on.failed, false);
  assert.equal(clean.stderr, "");
});

Deno.test("--fail-on with an unknown kind is a usage error, told apart from failing on findings", async () => {
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const r = await scan(repo.path, ["--format", "json", "--fail-on", "broken_links"]);
  assert.equal(r.code, 2);
  assert.equal(JSON.parse(r.stdout).ok, false);
  assert.match(
    r.stderr,
    /^dochygiene scan: unknown --fail-on kind "broken_links" \(did you mean "broken_link"\?\)/,
  );
  assert.equal(r.stderr.split("\n").length, 2, "one line");
});

Deno.test("--format text lists findings as file:line:col lines by file, and a closing summary", async () => {
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const r = await scan(repo.path, ["--format", "text", "--fail-on", "missing_path"]);
  assert.equal(r.code, 1);
  const lines = r.stdout.trimEnd().split("\n");
  assert.ok(lines.includes("docs/guide.md:5:1  broken_link  old.md does not exist"), r.stdout);
  assert.ok(lines.includes(
    "docs/guide.md:5:1  broken_anchor  ../README.md#missing: no heading or anchor of the target matches the fragment",
  ));
  assert.ok(lines.includes("docs/guide.md:7:1  missing_path  `scripts/gone.sh` does not exist"));
  assert.ok(!/^broken links:/m.test(r.stdout), "no per-kind section repeats them");
  assert.equal(
    lines.at(-1),
    "dochygiene: 3 findings in 1 of 2 docs (1 broken_link, 1 broken_anchor, 1 missing_path); " +
      "1 fails --fail-on: fix it and scan again",
  );
});

Deno.test("--format github writes one annotation per finding and a summary", async () => {
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const r = await scan(repo.path, ["--format", "github", "--fail-on", "broken_link"]);
  assert.equal(r.code, 1);
  assert.deepEqual(r.stdout.trimEnd().split("\n"), [
    "::error file=docs/guide.md,line=5,col=1,title=dochygiene broken_link::old.md does not exist",
    "::warning file=docs/guide.md,line=5,col=1,title=dochygiene broken_anchor::../README.md#missing: no heading or anchor of the target matches the fragment",
    "::warning file=docs/guide.md,line=7,col=1,title=dochygiene missing_path::`scripts/gone.sh` does not exist",
    "dochygiene: 3 findings in 1 of 2 docs (1 broken_link, 1 broken_anchor, 1 missing_path); 1 fails --fail-on: fix it and scan again",
  ]);
});

Deno.test("--format sarif is a SARIF 2.1.0 log the SARIF multitool validates with 0 errors", async (t) => {
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const r = await scan(repo.path, ["--format", "sarif"]);
  assert.equal(r.code, 0, r.stderr);
  const log = JSON.parse(r.stdout);
  const run = log.runs[0];
  assert.deepEqual(
    run.tool.driver.rules.map((rule: { id: string }) => rule.id),
    ["malformed_frontmatter", "broken_link", "broken_anchor", "missing_path", "duplicate"],
  );
  for (const rule of run.tool.driver.rules) {
    assert.ok(rule.shortDescription.text && rule.fullDescription.text && rule.help.text);
  }
  const result = run.results.find((x: { ruleId: string }) => x.ruleId === "broken_link");
  assert.deepEqual(result.locations[0].physicalLocation, {
    artifactLocation: { uri: "docs/guide.md", uriBaseId: "%SRCROOT%" },
    region: { startLine: 5, startColumn: 1 },
  });
  // The fingerprint holds when the finding moves down the doc.
  await commitFiles(repo.path, {
    "docs/guide.md": "# Guide\n\nNew intro.\n\n## Setup\n\n" +
      "Read [setup](#setup), [old](old.md) and [intro](../README.md#missing).\n\n" +
      "Run `scripts/gone.sh`.\n",
  }, "2026-10-02T00:00:00Z");
  const moved = JSON.parse((await scan(repo.path, ["--format", "sarif"])).stdout).runs[0].results
    .find((x: { ruleId: string }) => x.ruleId === "broken_link");
  assert.equal(moved.locations[0].physicalLocation.region.startLine, 7);
  assert.deepEqual(moved.partialFingerprints, result.partialFingerprints);
  await using dir = await tempDir();
  const file = join(dir.path, "dochygiene.sarif");
  await Deno.writeTextFile(file, r.stdout);
  await assertValidSarif(t, file);
});

Deno.test("the documented GitHub Actions workflow's commands gate, annotate and write valid SARIF", async (t) => {
  const workflow = parseYaml(
    await Deno.readTextFile(join(PACKAGE_DIR, "docs/examples/dochygiene.yml")),
  ) as { jobs: Record<string, { steps: { run?: string }[] }> };
  const runs = Object.values(workflow.jobs).flatMap((job) => job.steps)
    .flatMap((step) => step.run === undefined ? [] : [step.run]);
  assert.equal(runs.length, 2);
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  // Exactly the workflow's commands; only the published module is this checkout's scan.ts.
  const local = (command: string) =>
    command.replaceAll("jsr:@dochygiene/dochygiene/scan", join(PACKAGE_DIR, "scan.ts"));
  const gate = await bash(repo.path, local(runs[0]));
  assert.equal(gate.code, 1, gate.stderr);
  assert.match(
    gate.stdout,
    /^::error file=docs\/guide\.md,line=5,col=1,title=dochygiene broken_link::/m,
  );
  const sarif = await bash(repo.path, local(runs[1]));
  assert.equal(sarif.code, 0, sarif.stderr);
  await assertValidSarif(t, join(repo.path, "dochygiene.sarif"));
});

Deno.test("the .pre-commit-hooks.yaml hook's entry fails on findings and passes once they are fixed", async () => {
  const hooks = parseYaml(await Deno.readTextFile(join(PACKAGE_DIR, ".pre-commit-hooks.yaml"))) as {
    id: string;
    entry: string;
    language: string;
    pass_filenames: boolean;
  }[];
  const hook = hooks.find((h) => h.id === "dochygiene-scan")!;
  assert.equal(hook.language, "script");
  assert.equal(hook.pass_filenames, false);
  // pre-commit runs a script hook's entry from the hook repository's checkout, in the user's root.
  const command = join(PACKAGE_DIR, hook.entry);
  assert.ok(((await Deno.stat(join(PACKAGE_DIR, hook.entry.split(" ")[0]))).mode! & 0o111) !== 0);
  await using repo = await tempRepo();
  await sampleRepo(repo.path);
  const failing = await bash(repo.path, command);
  assert.equal(failing.code, 1, failing.stderr);
  assert.match(failing.stdout, /^docs\/guide\.md:5:1 {2}broken_link {2}old\.md does not exist$/m);
  await commitFiles(repo.path, {
    "docs/guide.md":
      "# Guide\n\n## Setup\n\nRead [setup](#setup) and [intro](../README.md#sample).\n",
  }, "2026-10-02T00:00:00Z");
  const passing = await bash(repo.path, command);
  assert.equal(passing.code, 0, passing.stdout + passing.stderr);
  assert.match(passing.stdout, /^dochygiene: no findings in 2 docs$/m);
});

/** Runs `command` with bash in `cwd`, this test's Deno first on PATH. */
function bash(cwd: string, command: string) {
  return runCommand("bash", ["-c", command], {
    cwd,
    env: {
      PATH: `${dirname(DENO)}:${Deno.env.get("PATH") ?? ""}`,
      DOCHYGIENE_NOW: NOW,
      NO_COLOR: "1",
      CI: "",
    },
  });
}

/** Where the SARIF multitool is installed (`npm install`, once per machine). */
const MULTITOOL_DIR = Deno.env.get("DOCHYGIENE_SARIF_MULTITOOL_DIR") ??
  join(
    Deno.env.get("HOME") ?? Deno.env.get("TMPDIR") ?? "/tmp",
    ".cache/dochygiene/sarif-multitool",
  );
const MULTITOOL_VERSION = "5.7.0";

/**
 * Validates `file` with `npx sarif-multitool validate`: 0 errors. Installs the multitool into
 * {@linkcode MULTITOOL_DIR} first when it is not there; without npm the check is skipped with
 * one line, unless `DOCHYGIENE_REQUIRE_SARIF_VALIDATOR=1` (set by .ci/run) makes that a failure.
 */
async function assertValidSarif(t: Deno.TestContext, file: string): Promise<void> {
  const bin = join(MULTITOOL_DIR, "node_modules/.bin/sarif-multitool");
  const installed = await Deno.stat(bin).then(() => true, () => false);
  if (!installed) {
    const npm = await runCommand("npm", ["--version"], { cwd: PACKAGE_DIR }).catch(() => undefined);
    if (npm?.code !== 0) {
      assert.notEqual(
        Deno.env.get("DOCHYGIENE_REQUIRE_SARIF_VALIDATOR"),
        "1",
        "npm is needed to install the SARIF multitool",
      );
      console.log(
        `skipped in "${t.name}": npm is unavailable to install @microsoft/sarif-multitool`,
      );
      return;
    }
    await Deno.mkdir(MULTITOOL_DIR, { recursive: true });
    const install = await runCommand("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefix",
      MULTITOOL_DIR,
      `@microsoft/sarif-multitool@${MULTITOOL_VERSION}`,
    ], { cwd: MULTITOOL_DIR });
    assert.equal(install.code, 0, install.stderr);
  }
  const r = await runCommand("npx", ["--no-install", "sarif-multitool", "validate", file], {
    cwd: MULTITOOL_DIR,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /: error /, r.stdout);
  assert.match(r.stdout, /Analysis completed successfully/);
}

// mod.ts as a JSR user gets it: a script in another directory, whose own
// deno.json imports `jsr:@dochygiene/dochygiene` — served from this checkout
// through `links`, so the package's own import map applies exactly as it does
// for a published package — runs a scan with the library in a subprocess. Its
// artifact must equal what scan.ts prints at the same clock.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitFiles,
  DENO,
  PACKAGE_DIR,
  runCommand,
  runSeam,
  type TempDir,
  tempDir,
  tempRepo,
} from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";

const SCRIPT = `import {
  findRoot,
  fixedClock,
  loadConfig,
  scanRepository,
  VERSION,
} from "@dochygiene/dochygiene";

const root = await findRoot(Deno.args[0]);
const config = await loadConfig(root);
const { artifact } = await scanRepository({
  root,
  config,
  clock: fixedClock(new Date(Deno.args[1])),
});
console.log(JSON.stringify({ version: VERSION, artifact }));
`;

function run(args: string[], cwd: string) {
  return runCommand(DENO, args, { cwd, env: { NO_COLOR: "1" } });
}

/** A directory outside the package whose deno.json imports it as `jsr:@dochygiene/dochygiene`. */
async function jsrUser(): Promise<TempDir> {
  const user = await tempDir("dochygiene-jsr-user-");
  await Deno.writeTextFile(
    join(user.path, "deno.json"),
    JSON.stringify({
      imports: { "@dochygiene/dochygiene": "jsr:@dochygiene/dochygiene@^0.1.0" },
      links: [PACKAGE_DIR],
    }),
  );
  return user;
}

Deno.test("a script outside the package imports mod.ts as a JSR user would and scans a repository", async () => {
  await using user = await jsrUser();
  await Deno.writeTextFile(join(user.path, "main.ts"), SCRIPT);
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "README.md": "# x\n\nSee [the guide](docs/guide.md) and [gone](docs/gone.md).\n",
    "docs/guide.md": "# Guide\n",
    "CHANGELOG.md":
      "# Changelog\n\n## [1.2.0] - 2026-09-01\n\n- Search.\n\n## [1.1.0] - 2026-05-01\n\n- SQLite.\n\n## [1.0.0] - 2026-01-01\n\n- First.\n",
  }, "2026-10-01T00:00:00Z");

  const typeCheck = await run(["check", "--quiet", "main.ts"], user.path);
  assert.equal(typeCheck.code, 0, typeCheck.stderr);
  const lib = await run(
    [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-env",
      "--allow-run=git",
      "main.ts",
      join(repo.path, "docs"),
      NOW,
    ],
    user.path,
  );
  assert.equal(lib.code, 0, lib.stderr);
  const { version, artifact } = JSON.parse(lib.stdout);
  const denoJson = JSON.parse(await Deno.readTextFile(join(PACKAGE_DIR, "deno.json")));
  assert.equal(version, denoJson.version);
  assert.equal(artifact.root, repo.path);
  assert.deepEqual(artifact.shortlist, ["README.md", "docs/guide.md"]);

  const seam = await runSeam("scan", ["--no-write", "--format", "json"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: NOW },
  });
  assert.equal(seam.code, 0, seam.stderr);
  assert.deepEqual(artifact, JSON.parse(seam.stdout), "library and scan.ts agree");
});

Deno.test("mod.ts is publishable: deno publish --dry-run passes (no slow types) and deno doc --lint is clean", async () => {
  const docLint = await run(["doc", "--lint", "mod.ts"], PACKAGE_DIR);
  assert.equal(docLint.code, 0, docLint.stderr + docLint.stdout);
  const publish = await run(["publish", "--dry-run", "--allow-dirty"], PACKAGE_DIR);
  assert.equal(publish.code, 0, publish.stderr + publish.stdout);
  assert.match(publish.stderr + publish.stdout, /Dry run complete/);
});

/** The marked section of docs/library.md: the example and the export table. */
async function librarySection(): Promise<string> {
  const page = await Deno.readTextFile(join(PACKAGE_DIR, "docs", "library.md"));
  const start = page.indexOf("<!-- section:library -->");
  const end = page.indexOf("<!-- /section:library -->");
  assert.ok(start >= 0 && end > start, "docs/library.md has a library section");
  return page.slice(start, end);
}

Deno.test("docs/library.md's example runs as written, from another project", async () => {
  const section = await librarySection();
  const examples = [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert.equal(examples.length, 1);
  await using user = await jsrUser();
  await Deno.writeTextFile(join(user.path, "example.ts"), examples[0]);
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "README.md": "# x\n\nSee [gone](docs/gone.md).\n",
    "runs/r1/log.md": "# r1\n",
    "runs/r2/log.md": "# r2\n",
    ".dochygiene.yml":
      'rules:\n  - match: "runs/*/"\n    lifetime: temporary\n    retain_recent: 1\n    max_age_days: 3\n',
  }, "2026-01-01T00:00:00Z");
  await commitFiles(repo.path, { "runs/r2/log.md": "# r2 again\n" }, "2026-01-02T00:00:00Z");
  const out = await run([
    "run",
    "--quiet",
    `--config=${join(user.path, "deno.json")}`,
    "--allow-read",
    "--allow-env",
    "--allow-run=git",
    join(user.path, "example.ts"),
  ], repo.path);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^README\.md: 1 broken link\(s\)$/m);
  assert.match(out.stdout, /^auto\truns\/r1\/\t/m);
});

Deno.test("docs/library.md's export table lists exactly what mod.ts exports", async () => {
  const doc = await run(["doc", "--json", "mod.ts"], PACKAGE_DIR);
  assert.equal(doc.code, 0, doc.stderr);
  const nodes = JSON.parse(doc.stdout).nodes as Record<string, { symbols: { name: string }[] }>;
  const exported = Object.values(nodes)[0].symbols.map((s) => s.name).sort();
  const table = (await librarySection()).split("\n").filter((l) => /^\| [a-z]/.test(l))
    .filter((l) => !l.startsWith("| area"));
  const listed = [...new Set(table.flatMap((l) => [...l.matchAll(/`(\w+)`/g)].map((m) => m[1])))]
    .sort();
  assert.deepEqual(listed, exported);
});

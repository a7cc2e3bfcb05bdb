import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitFiles,
  DENO,
  entryNames,
  git,
  giveToUnprivileged,
  HOSTILE_NAMES,
  PACKAGE_DIR,
  runCommand,
  runSeam,
  tempDir,
  tempRepo,
  writeFiles,
  writeNonUtf8Name,
} from "../support/helpers.ts";
import type { ScanArtifact, Signal } from "../../lib/scan/scan_docs.ts";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";

const NOW = "2026-11-30T03:36:18.000Z";
const OLD_DAY = "2026-10-01T00:00:00Z";
const FIXTURE = join(PACKAGE_DIR, "fixtures/scan/basic");

const scan = (cwd: string, args: string[] = [], env: Record<string, string> = {}) =>
  runSeam("scan", ["--format", "json", ...args], { cwd, env: { DOCHYGIENE_NOW: NOW, ...env } });

/** `scan` as an unprivileged user when the suite runs as root (who reads any directory). */
const scanAsNobody = (cwd: string) =>
  runSeam("scan", ["--format", "json", "--no-write"], {
    cwd,
    env: { DOCHYGIENE_NOW: NOW },
    unprivileged: true,
  });

const of = (a: ScanArtifact, path: string, kind: Signal["kind"]) =>
  (a.signals[path] ?? []).filter((s) => s.kind === kind);

/** Copies the basic fixture into `root` and commits it on 2026-10-01. */
async function basicRepo(root: string): Promise<void> {
  await new Deno.Command("cp", { args: ["-R", `${FIXTURE}/.`, root] }).output();
  await writeFiles(root, { "node_modules/pkg/README.md": "# vendored\n" });
  await git(root, ["add", "-A", "-f"]);
  await git(root, ["commit", "-qm", "fixture"], {
    GIT_AUTHOR_DATE: "2026-10-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-10-01T00:00:00Z",
  });
}

/** Every path below `root` with its size and mtime, to prove nothing else was written. */
async function snapshot(root: string): Promise<string> {
  const out = await new Deno.Command("find", {
    args: [
      ".",
      "-mindepth",
      "1",
      "-path",
      "./.dochygiene",
      "-prune",
      "-o",
      "-printf",
      "%p %s %T@ %m\\n",
    ],
    cwd: root,
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").sort().join("\n");
}

Deno.test("a first scan in a fresh repository leaves git status clean: .dochygiene/ ignores itself", async () => {
  await using repo = await tempRepo();
  await basicRepo(repo.path);
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await git(repo.path, ["status", "--porcelain", "--untracked-files=all"]), "");
});

Deno.test("scan writes .dochygiene/scan.json atomically and prints the same artifact, with every signal of the fixture", async () => {
  await using repo = await tempRepo();
  await basicRepo(repo.path);
  const before = await snapshot(repo.path);
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  const written = await Deno.readTextFile(`${repo.path}/.dochygiene/scan.json`);
  assert.equal(written, run.stdout);
  assert.deepEqual(JSON.parse(written), artifact);
  // One line per doc: a doc's facts are one grep away.
  const line = written.split("\n").find((l) => l.startsWith('    "docs/plan.md": ['));
  assert.deepEqual(
    JSON.parse(`{${line!.replace(/,$/, "")}}`)["docs/plan.md"],
    artifact.signals["docs/plan.md"],
  );
  assert.deepEqual(await entryNames(`${repo.path}/.dochygiene`), [
    ".gitignore",
    "scan-cache.json",
    "scan.json",
  ]);
  assert.equal(await snapshot(repo.path), before, "nothing written outside .dochygiene");
  assert.equal(artifact.generated_at, NOW);
  assert.equal(artifact.root, repo.path);
  assert.equal(artifact.git?.head, (await git(repo.path, ["rev-parse", "HEAD"])).trim());
  assert.equal(artifact.git?.shallow, false);
  assert.deepEqual(artifact.shortlist, [
    "README.md",
    "docs/guide-copy.md",
    "docs/guide.md",
    "docs/plan.md",
  ]);
  assert.deepEqual(artifact.excluded, [
    { path: "CHANGELOG.md", reason: "append_only" },
    { path: "docs/adr/0001-frozen.md", reason: "frozen" },
    { path: "notes/scratch.md", reason: "ignore" },
  ]);
  assert.deepEqual(artifact.counts, {
    candidates: 8,
    shortlisted: 4,
    excluded: { dir: 1, ignore: 1, frozen: 1, append_only: 1 },
  });
  assert.deepEqual(of(artifact, "README.md", "age"), [
    { kind: "age", days: 60, last_commit: "2026-10-01T00:00:00.000Z", source: "git" },
  ]);
  assert.deepEqual(of(artifact, "README.md", "broken_link"), [
    { kind: "broken_link", line: 4, target: "docs/Guide.md", hint: "case" },
    { kind: "broken_link", line: 5, target: "docs/plan", hint: "extension" },
    { kind: "broken_link", line: 5, target: "docs/gone.md", hint: null },
  ]);
  assert.deepEqual(of(artifact, "README.md", "broken_anchor"), [
    { kind: "broken_anchor", line: 4, target: "docs/guide.md#nowhere" },
  ]);
  assert.deepEqual(of(artifact, "README.md", "missing_path"), [
    { kind: "missing_path", line: 7, path: "src/main.ts" },
  ]);
  assert.deepEqual(of(artifact, "docs/guide.md", "broken_anchor"), [
    { kind: "broken_anchor", line: 5, target: "#teardown" },
  ]);
  assert.deepEqual(of(artifact, "docs/guide.md", "inbound_links"), [{
    kind: "inbound_links",
    count: 1,
  }]);
  assert.deepEqual(of(artifact, "docs/guide.md", "duplicate"), [{
    kind: "duplicate",
    of: ["docs/guide-copy.md"],
  }]);
  assert.deepEqual(of(artifact, "docs/plan.md", "checkboxes"), [{
    kind: "checkboxes",
    done: 1,
    open: 1,
  }]);
  assert.deepEqual(of(artifact, "docs/plan.md", "status"), [{
    kind: "status",
    value: "in progress",
  }]);
});

Deno.test("a scan removes the temp files of scans killed mid-write, not one that may be in flight", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# A\n" }, OLD_DAY);
  const dir = join(repo.path, ".dochygiene");
  await Deno.mkdir(dir);
  const killed = ".scan.json.tmp-4242-1000-0";
  const fresh = `.scan.json.tmp-4243-${Date.now()}-0`;
  // Left by a scan killed while the clock was ahead (set back since): no write in flight.
  const ahead = `.scan.json.tmp-4244-${Date.now() + 3_600_000}-0`;
  const other = ".state.json.tmp-4242-1000-0";
  const cache = ".scan-cache.json.tmp-4245-1000-0";
  for (const name of [killed, fresh, ahead, other, cache]) {
    await Deno.writeTextFile(join(dir, name), "{");
  }
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    await entryNames(dir),
    [fresh, other, ".gitignore", "scan-cache.json", "scan.json"].sort(),
  );
});

Deno.test("two scans of an unchanged repository are identical except generated_at; --no-write writes nothing", async () => {
  await using repo = await tempRepo();
  await basicRepo(repo.path);
  const first = await runSeam("scan", ["--format", "json", "--no-write"], { cwd: repo.path });
  const second = await runSeam("scan", ["--format", "json", "--no-write"], { cwd: repo.path });
  assert.equal(first.code, 0, first.stderr);
  await assert.rejects(() => Deno.lstat(`${repo.path}/.dochygiene`), Deno.errors.NotFound);
  const strip = (s: string) => ({ ...JSON.parse(s), generated_at: "" });
  assert.deepEqual(strip(first.stdout), strip(second.stdout));
  assert.equal(JSON.stringify(strip(first.stdout)), JSON.stringify(strip(second.stdout)));
});

Deno.test("--format text prints counts, top findings and where the artifact is", async () => {
  await using repo = await tempRepo();
  await basicRepo(repo.path);
  const run = await runSeam("scan", ["--format", "text"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: NOW },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /8 candidates · 4 shortlisted/);
  assert.match(run.stdout, /^findings: \d+ in \d+ docs?$/m);
  assert.match(
    run.stdout,
    /^README\.md:4:1 {2}broken_link {2}docs\/Guide\.md does not exist \(a path differing only in letter case exists\)$/m,
  );
  assert.match(run.stdout, /^dochygiene: \d+ findings in \d+ of 4 docs \(3 broken_link/m);
  assert.match(run.stdout, /artifact: \.dochygiene\/scan\.json/);
  assert.ok(!run.stdout.includes("\x1b"), "no colour without a terminal");
});

Deno.test("--format text escapes control characters in names (ESC, C1 CSI, newline): nothing raw reaches the terminal", async () => {
  await using dir = await tempDir();
  const names = ["e\x1b[31mred.md", "csi\u009b2J.md", "new\nline.md"];
  await writeFiles(dir.path, Object.fromEntries(names.map((n) => [n, "[x](gone.md)\n"])));
  const run = await runSeam("scan", ["--format", "text", "--no-write"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  // deno-lint-ignore no-control-regex
  const raw = run.stdout.replace(/\n/g, "").match(/[\x00-\x1f\x7f-\x9f]/);
  assert.equal(raw, null, `raw control character in ${JSON.stringify(run.stdout)}`);
  assert.match(run.stdout, /csi\\x9b2J\.md:1:1 {2}broken_link {2}gone\.md does not exist/);
});

Deno.test("--format text escapes the root and the warnings too (ESC, C1 CSI, bidi marks)", async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "root\x1b[2J");
  await Deno.mkdir(root);
  await git(root, ["init", "-q"]);
  // A name that is not UTF-8 (its warning quotes it) holding a bidi override and a C1 CSI.
  await new Deno.Command("sh", {
    args: ["-c", "printf x > \"$(printf 'evil\\342\\200\\256\\302\\23331m\\377.md')\""],
    cwd: root,
  }).output();
  const run = await runSeam("scan", ["--format", "text", "--no-write"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /not valid UTF-8/);
  // deno-lint-ignore no-control-regex
  const raw = run.stdout.replace(/\n/g, "").match(/[\x00-\x1f\x7f-\x9f\u202e]/);
  assert.equal(raw, null, `raw control character in ${JSON.stringify(run.stdout)}`);
});

Deno.test("a plain scan loads no npm package (it runs from an empty Deno cache); YAML, glob and ignore engines load on demand", async () => {
  await using repo = await tempRepo();
  await using cache = await tempDir();
  await commitFiles(repo.path, {
    "README.md": "---\ntitle: Read me\nstatus: draft\n---\n# Read me\n\n[plan](docs/plan.md)\n",
    "docs/plan.md": "# Plan\n\n- [ ] step\n",
  }, "2026-10-01T00:00:00Z");
  // --cached-only with an empty DENO_DIR: loading any npm package would fail.
  const offline = ["--cached-only", ...PERMISSION_FLAGS.scan];
  const plain = await runSeam("scan", ["--format", "json"], {
    cwd: repo.path,
    env: { DOCHYGIENE_NOW: NOW, DENO_DIR: cache.path },
    flags: offline,
  });
  assert.equal(plain.code, 0, plain.stderr);
  const artifact: ScanArtifact = JSON.parse(plain.stdout);
  assert.deepEqual(artifact.shortlist.toSorted(), ["README.md", "docs/plan.md"]);
  // Each engine, once needed, is loaded (here from the test's own cache), with or without a config.
  await writeFiles(repo.path, {
    "docs/adr.md": "---\nhygiene: frozen\ntags: [a, b]\n---\n# ADR\n",
    ".dochygiene-ignore": "scratch/\n",
    "scratch/x.md": "# x\n",
    "odd\nname.md": "# Odd\n",
  });
  for (const config of [undefined, "rules:\n  - match: 'docs/*.md'\n    lifetime: keep\n"]) {
    if (config) await writeFiles(repo.path, { ".dochygiene.yml": config });
    const run = await scan(repo.path);
    assert.equal(run.code, 0, run.stderr);
    const a: ScanArtifact = JSON.parse(run.stdout);
    assert.deepEqual(a.excluded.toSorted((x, y) => x.path < y.path ? -1 : 1), [
      { path: "docs/adr.md", reason: "frozen" },
      { path: "scratch/x.md", reason: "ignore" },
    ]);
    assert.deepEqual(a.shortlist.toSorted(), ["README.md", "docs/plan.md", "odd\nname.md"]);
  }
});

Deno.test("duplicates: a CRLF copy is one; a BOM copy and invalid UTF-8 that decodes alike are not", async () => {
  await using repo = await tempRepo();
  const bytes = (s: string) => new TextEncoder().encode(s);
  const files: Record<string, Uint8Array> = {
    "a.md": bytes("# Same\nbody\n"),
    "a-crlf.md": bytes("# Same\r\nbody\r\n"),
    "a-bom.md": bytes("\ufeff# Same\nbody\n"),
    "x1.md": new Uint8Array([0x23, 0x20, 0xff, 0x0a]),
    "x2.md": new Uint8Array([0x23, 0x20, 0xfe, 0x0a]),
    "x3.md": new Uint8Array([0x23, 0x20, 0xff, 0x0a]),
  };
  for (const [path, content] of Object.entries(files)) {
    await Deno.writeFile(join(repo.path, path), content);
  }
  await git(repo.path, ["add", "-A"]);
  await git(repo.path, ["commit", "-qm", "docs"], {
    GIT_AUTHOR_DATE: "2026-10-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-10-01T00:00:00Z",
  });
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  const a: ScanArtifact = JSON.parse(run.stdout);
  const dup = (path: string) => of(a, path, "duplicate");
  assert.deepEqual(dup("a.md"), [{ kind: "duplicate", of: ["a-crlf.md"] }]);
  assert.deepEqual(dup("a-bom.md"), []);
  assert.deepEqual(dup("x1.md"), [{ kind: "duplicate", of: ["x3.md"] }]);
  assert.deepEqual(dup("x2.md"), []);
});

Deno.test("outside git: a filesystem walk, git null, ages from mtime", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, { "a.md": "# A\n", "build/b.md": "# B\n" });
  const mtime = new Date("2026-11-20T00:00:00Z");
  await Deno.utime(`${dir.path}/a.md`, mtime, mtime);
  const run = await scan(dir.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.equal(artifact.git, null);
  assert.deepEqual(artifact.shortlist, ["a.md"]);
  // The walk never descends excluded dirs, so build/b.md is not even a candidate.
  assert.equal(artifact.counts.candidates, 1);
  assert.deepEqual(of(artifact, "a.md", "age"), [{
    kind: "age",
    days: 10,
    last_commit: null,
    source: "mtime",
  }]);
});

Deno.test("in git: committed docs take git ages; untracked and staged-only docs their mtime", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "docs/old.md": "# Old\n" }, "2026-10-01T00:00:00Z");
  await writeFiles(repo.path, { "docs/new.md": "# New\n", "docs/staged.md": "# Staged\n" });
  await git(repo.path, ["add", "docs/staged.md"]);
  const mtime = new Date("2026-11-20T00:00:00Z");
  await Deno.utime(join(repo.path, "docs/new.md"), mtime, mtime);
  await Deno.utime(join(repo.path, "docs/staged.md"), mtime, mtime);
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(of(artifact, "docs/old.md", "age"), [{
    kind: "age",
    days: 60,
    last_commit: "2026-10-01T00:00:00.000Z",
    source: "git",
  }]);
  for (const path of ["docs/new.md", "docs/staged.md"]) {
    assert.deepEqual(of(artifact, path, "age"), [{
      kind: "age",
      days: 10,
      last_commit: null,
      source: "mtime",
    }], path);
  }
});

Deno.test("a tracked doc deleted from disk but not staged is gone: links to it break, it proves nothing served, it is no candidate", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "notes/a.md": "# a\n\nSee [b](b.md) and `notes/b.md`.\n",
    "notes/b.md": "# b\n",
    "done/a.md": "x\n",
    "vendor/v.md": "# v\n",
    ".dochygiene.yml": 'rules:\n  - match: "notes/*.md"\n    lifetime: delete-once-served\n' +
      '    served_when_path: "done/{name}.md"\n',
  }, "2026-10-01T00:00:00Z");
  for (const path of ["done/a.md", "notes/b.md", "vendor/v.md"]) {
    await Deno.remove(join(repo.path, path));
  }
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(artifact.shortlist, ["notes/a.md"]);
  assert.deepEqual(artifact.counts, {
    candidates: 1,
    shortlisted: 1,
    excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 },
  });
  assert.deepEqual(of(artifact, "notes/a.md", "lifecycle"), [
    { kind: "lifecycle", rule: "notes/*.md", lifetime: "delete-once-served", served: false },
  ]);
  assert.deepEqual(of(artifact, "notes/a.md", "broken_link"), [
    { kind: "broken_link", line: 3, target: "b.md", hint: null },
  ]);
  assert.deepEqual(of(artifact, "notes/a.md", "missing_path"), [
    { kind: "missing_path", line: 3, path: "notes/b.md" },
  ]);
});

Deno.test("a commit dated after the year 9999 stops nothing: those docs take their mtime, with a warning", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "old.md": "# Old\n" }, "2026-10-01T00:00:00Z");
  await commitFiles(repo.path, { "far.md": "# Far\n" }, "@8640000000001 +0000");
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.equal((of(artifact, "far.md", "age")[0] as { source: string }).source, "mtime");
  assert.equal((of(artifact, "old.md", "age")[0] as { source: string }).source, "git");
  assert.match(run.stderr, /1 file's newest commit is dated after the year 9999/);
});

Deno.test("a shallow clone is reported (git.shallow: true) and still has git ages", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# A\n", "b.md": "# B\n" }, "2026-01-01T00:00:00Z");
  await commitFiles(repo.path, { "a.md": "# A2\n" }, "2026-11-01T00:00:00Z");
  await using clone = await tempDir();
  await git(clone.path, ["clone", "-q", "--depth", "1", `file://${repo.path}`, "c"]);
  const run = await scan(join(clone.path, "c"), ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.equal(artifact.git?.shallow, true);
  assert.deepEqual(of(artifact, "a.md", "age"), [
    { kind: "age", days: 29, last_commit: "2026-11-01T00:00:00.000Z", source: "git" },
  ]);
  assert.equal((of(artifact, "b.md", "age")[0] as { source: string }).source, "git");
});

Deno.test("hostile file names (spaces, newline, *, [, :(, leading -, unicode, non-UTF-8) survive", async () => {
  await using repo = await tempRepo();
  const names = [...HOSTILE_NAMES, "ünï/ço.md"];
  await writeFiles(repo.path, Object.fromEntries(names.map((n) => [n, `# ${n}\n`])));
  await git(repo.path, ["--literal-pathspecs", "add", "--", ...names.slice(0, 4)]);
  await git(repo.path, ["commit", "-qm", "x"], { GIT_COMMITTER_DATE: "2026-11-01T00:00:00Z" });
  await writeNonUtf8Name(repo.path, "# x");
  await new Deno.Command("sh", {
    args: ["-c", "printf x > \"$(printf 'na\\377ve.md')\""],
    cwd: repo.path,
  }).output();
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(new Set(artifact.shortlist), new Set(names));
  // Non-UTF-8 names cannot be opened by Deno: each is left out with a warning naming its bytes,
  // one stderr line per warning.
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2, run.stderr);
  assert.match(
    lines[0],
    /^dochygiene scan: warning: "caf\\\\xe9\.md": the name is not valid UTF-8/,
  );
  assert.match(
    lines[1],
    /^dochygiene scan: warning: "na\\\\xffve\.md": the name is not valid UTF-8/,
  );
  for (const name of names.slice(0, 4)) {
    assert.equal((of(artifact, name, "age")[0] as { source: string }).source, "git", name);
  }
});

Deno.test("hostile content: 30 MB, binary, invalid UTF-8, CRLF, 100,000 links and an alias bomb do not break the scan", async () => {
  await using repo = await tempRepo();
  const big = "# Big\n" + "lorem ipsum dolor sit amet [x](#big)\n".repeat(850_000);
  const links = "# Many\n" +
    Array.from({ length: 100_000 }, (_, i) => `[l${i}](many.md#many)`).join("\n") +
    "\n";
  const bomb =
    "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
    "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nhygiene: frozen\n---\n# Bomb\n";
  await writeFiles(repo.path, {
    "big.md": big,
    "many.md": links,
    "bomb.md": bomb,
    "crlf.md": "# C\r\n\r\n[b](big.md)\r\n",
  });
  await Deno.writeFile(
    `${repo.path}/binary.md`,
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 10]),
  );
  await Deno.writeFile(
    `${repo.path}/latin1.md`,
    new Uint8Array([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]),
  );
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(artifact.shortlist, [
    "big.md",
    "binary.md",
    "bomb.md",
    "crlf.md",
    "latin1.md",
    "many.md",
  ]);
  const bigBytes = new TextEncoder().encode(big).length;
  assert.ok(bigBytes > 30_000_000);
  assert.deepEqual(of(artifact, "big.md", "size"), [{
    kind: "size",
    bytes: bigBytes,
    lines: 850_001,
  }]);
  assert.deepEqual(of(artifact, "binary.md", "size"), [{ kind: "size", bytes: 9, lines: 1 }]);
  assert.deepEqual(of(artifact, "crlf.md", "size"), [{ kind: "size", bytes: 20, lines: 3 }]);
  assert.deepEqual(of(artifact, "latin1.md", "size"), [{ kind: "size", bytes: 7, lines: 1 }]);
  assert.deepEqual(of(artifact, "many.md", "broken_anchor"), []);
  assert.deepEqual(of(artifact, "many.md", "inbound_links"), [{ kind: "inbound_links", count: 0 }]);
  assert.deepEqual(of(artifact, "big.md", "inbound_links"), [{ kind: "inbound_links", count: 1 }]);
});

Deno.test("a repository mid-merge with conflicts scans, listing the conflicted file once", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "c.md": "# C\nbase\n" }, "2026-01-01T00:00:00Z");
  await git(repo.path, ["checkout", "-q", "-b", "other"]);
  await commitFiles(repo.path, { "c.md": "# C\nother\n" }, "2026-01-02T00:00:00Z");
  await git(repo.path, ["checkout", "-q", "main"]);
  await commitFiles(repo.path, { "c.md": "# C\nmain\n" }, "2026-01-03T00:00:00Z");
  await new Deno.Command("git", {
    args: ["merge", "other"],
    cwd: repo.path,
    stdout: "null",
    stderr: "null",
  })
    .output();
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(artifact.shortlist, ["c.md"]);
  assert.deepEqual(of(artifact, "c.md", "age"), [
    { kind: "age", days: 331, last_commit: "2026-01-03T00:00:00.000Z", source: "git" },
  ]);
});

Deno.test("a symlinked .md pointing outside the root is never read", async () => {
  await using repo = await tempRepo();
  await using outside = await tempDir();
  await writeFiles(outside.path, { "secret.md": "---\nstatus: secret\n---\n" });
  await Deno.symlink(`${outside.path}/secret.md`, `${repo.path}/link.md`);
  await writeFiles(repo.path, { "a.md": "[l](link.md)\n" });
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(artifact.shortlist, ["a.md"]);
  assert.doesNotMatch(run.stdout, /secret/);
  assert.deepEqual(of(artifact, "a.md", "broken_link"), []);
});

Deno.test("nothing is read through a symlinked directory: a tracked doc beneath one, links and paths into one", async () => {
  await using outside = await tempDir();
  await writeFiles(outside.path, { "secret.md": "---\nstatus: secret\n---\n- [ ] outside task\n" });
  const linking = "[a](ul/nothere.md) [b](ul/secret.md) `ul/x.md`\n";
  // In git: a tracked directory replaced by a symlink out of the root, and an untracked one.
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "docs/secret.md": "# inside\n", "a.md": linking }, OLD_DAY);
  await Deno.remove(join(repo.path, "docs"), { recursive: true });
  await Deno.symlink(outside.path, join(repo.path, "docs"));
  // Outside git: the walk never descends it; links into it are not judged either.
  await using dir = await tempDir();
  await writeFiles(dir.path, { "a.md": linking });
  for (const root of [repo.path, dir.path]) {
    await Deno.symlink(outside.path, join(root, "ul"));
    const run = await scan(root, ["--no-write"]);
    assert.equal(run.code, 0, run.stderr);
    const artifact: ScanArtifact = JSON.parse(run.stdout);
    assert.deepEqual(artifact.shortlist, ["a.md"], root);
    assert.doesNotMatch(run.stdout, /secret|outside task/);
    assert.deepEqual(of(artifact, "a.md", "broken_link"), [], root);
    assert.deepEqual(of(artifact, "a.md", "missing_path"), [], root);
  }
});

Deno.test("links into a gitignored symlinked directory are not judged (a pnpm node_modules)", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": "node_modules/\nbuild\n",
    "a.md": "[lib](node_modules/lib/README.md) [r](build/r.md) `build/r.md`\n",
  }, OLD_DAY);
  await writeFiles(repo.path, {
    "node_modules/.pnpm/lib@1/node_modules/lib/README.md": "# lib\n",
    "real/r.md": "# r\n",
  });
  await Deno.symlink(".pnpm/lib@1/node_modules/lib", join(repo.path, "node_modules/lib"));
  await Deno.symlink("real", join(repo.path, "build"));
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(of(artifact, "a.md", "broken_link"), []);
  assert.deepEqual(of(artifact, "a.md", "missing_path"), []);
});

Deno.test("a tracked doc this user may not read is warned about, not taken for deleted", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docs/a.md": "[l](locked/l.md)\n",
    "docs/locked/l.md": "# L\n",
  }, OLD_DAY);
  await giveToUnprivileged(repo.path);
  // Root's own directory, closed to others (the scan runs as nobody when the suite is root).
  await new Deno.Command("chown", { args: ["root:root", join(repo.path, "docs/locked")] }).output();
  await Deno.chmod(join(repo.path, "docs/locked"), 0o700);
  const run = await scanAsNobody(repo.path);
  await Deno.chmod(join(repo.path, "docs/locked"), 0o755);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.match(run.stderr, /"docs\/locked\/l\.md": cannot be read/);
  assert.deepEqual(of(artifact, "docs/a.md", "broken_link"), []);
});

Deno.test("links into directories this user may not list: passable ones are looked at, closed ones not judged", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": "xo/\npriv/\n",
    "a.md": "[y](xo/y.md) [g](xo/gone.md) [p](priv/x.md)\n",
  }, OLD_DAY);
  await writeFiles(repo.path, { "xo/y.md": "# y\n", "priv/x.md": "# x\n" });
  await giveToUnprivileged(repo.path);
  // Root's own directories: one others may pass through (--x), one closed to them.
  for (const [dir, mode] of [["xo", 0o711], ["priv", 0o700]] as const) {
    await new Deno.Command("chown", { args: ["root:root", join(repo.path, dir)] }).output();
    await Deno.chmod(join(repo.path, dir), mode);
  }
  const run = await scanAsNobody(repo.path);
  for (const dir of ["xo", "priv"]) await Deno.chmod(join(repo.path, dir), 0o755);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(
    of(artifact, "a.md", "broken_link").map((s) => (s as { target: string }).target),
    [
      "xo/gone.md",
    ],
  );
});

Deno.test("walk mode survives a symlink loop and an unreadable directory (a warning, not a failure)", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, { "a.md": "# A\n", "locked/b.md": "# B\n" });
  await Deno.symlink("..", `${dir.path}/locked-loop`);
  await Deno.symlink(".", `${dir.path}/self`);
  await Deno.chmod(`${dir.path}/locked`, 0o000);
  await Deno.chmod(dir.path, 0o777);
  // Root reads any directory: the scan runs as nobody then.
  const result = await scanAsNobody(dir.path);
  await Deno.chmod(`${dir.path}/locked`, 0o755);
  assert.equal(result.code, 0, result.stderr);
  const artifact: ScanArtifact = JSON.parse(result.stdout);
  assert.deepEqual(artifact.shortlist, ["a.md"]);
  assert.match(
    result.stderr,
    /warning: cannot read directory locked\/ \(permission denied\); it was skipped/,
  );
});

Deno.test("an invalid .dochygiene.yml is exit 2 with one line naming the key", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { ".dochygiene.yml": "threshold_days: -1\n", "a.md": "# A\n" });
  const run = await scan(repo.path);
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr,
    "dochygiene scan: .dochygiene.yml: threshold_days: must be a number >= 0\n",
  );
  assert.deepEqual(JSON.parse(run.stdout).error.code, "INVALID_CONFIG");
  await assert.rejects(() => Deno.lstat(`${repo.path}/.dochygiene`), Deno.errors.NotFound);
});

Deno.test("from a subdirectory: no write permission for the root's .dochygiene is exit 1 naming the root; --no-write works", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "docs/a.md": "# A\n" });
  const run = await scan(`${repo.path}/docs`);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    new RegExp(
      `^dochygiene scan: no write permission for ${repo.path}/\\.dochygiene: run from the project root`,
    ),
  );
  assert.equal(JSON.parse(run.stdout).error.code, "NO_WRITE_PERMISSION");
  const dry = await scan(`${repo.path}/docs`, ["--no-write"]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(JSON.parse(dry.stdout).shortlist, ["docs/a.md"]);
});

Deno.test("an unknown flag is exit 2", async () => {
  await using dir = await tempDir();
  const run = await scan(dir.path, ["--bogus"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^dochygiene scan: .*bogus.*; see --help\n$/);
});

Deno.test("scan ignores GIT_DIR, GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY inherited from the environment: the facts are this repository's", async () => {
  await using here = await tempRepo();
  await using other = await tempRepo();
  await commitFiles(here.path, { "a.md": "# A\n" }, OLD_DAY);
  await commitFiles(other.path, { "b.md": "# B\n" }, "2026-11-20T00:00:00Z");
  const head = (await git(here.path, ["rev-parse", "HEAD"])).trim();
  for (
    const env of [
      { GIT_DIR: join(other.path, ".git"), GIT_WORK_TREE: other.path },
      { GIT_INDEX_FILE: join(other.path, ".git", "index") },
      { GIT_OBJECT_DIRECTORY: join(other.path, ".git", "objects") },
    ] as Record<string, string>[]
  ) {
    const run = await scan(here.path, ["--no-write"], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "", Object.keys(env).join());
    const artifact: ScanArtifact = JSON.parse(run.stdout);
    assert.equal(artifact.git?.head, head);
    assert.deepEqual(artifact.shortlist, ["a.md"]);
    assert.deepEqual(of(artifact, "a.md", "age"), [
      { kind: "age", days: 60, last_commit: "2026-10-01T00:00:00.000Z", source: "git" },
    ]);
  }
});

Deno.test("scan: a .git that git cannot use, inside another repository, is GIT_FAILED naming the fix; the outer repository is not read", async () => {
  await using outer = await tempRepo();
  await commitFiles(outer.path, { "sub/s.md": "# S\n" }, OLD_DAY);
  await Deno.mkdir(join(outer.path, "sub", ".git"));
  const run = await scan(join(outer.path, "sub"), ["--no-write"]);
  assert.equal(run.code, 1);
  const error = JSON.parse(run.stdout).error;
  assert.equal(error.code, "GIT_FAILED");
  assert.match(
    error.message,
    /not a git repository.*\.git is not a repository git can use: repair it or remove it$/,
  );
  assert.equal(run.stderr.trim().split("\n").length, 1);
  // Named through a symlink, whose real parent is the outer repository: refused all the same.
  await using links = await tempDir();
  await Deno.symlink(join(outer.path, "sub"), join(links.path, "proj"));
  const linked = await scan(links.path, ["--no-write", "--root", "proj"]);
  assert.equal(linked.code, 1, linked.stdout);
  assert.equal(JSON.parse(linked.stdout).error.code, "GIT_FAILED");
});

Deno.test("scan: a directory where scan.json belongs is STATE_DIR_INVALID naming it, left as it is, no temp file left", async () => {
  await using repo = await tempRepo();
  await writeFiles(repo.path, { "a.md": "# A\n", ".dochygiene/scan.json/keep": "mine" });
  const run = await scan(repo.path);
  assert.equal(run.code, 1);
  const error = JSON.parse(run.stdout).error;
  assert.equal(error.code, "STATE_DIR_INVALID");
  assert.equal(
    error.message,
    `${repo.path}/.dochygiene/scan.json is a directory, not a file; remove it and run again`,
  );
  // No temp file; the scan cache, written first, is whole and of use to the next scan.
  assert.deepEqual(await entryNames(join(repo.path, ".dochygiene")), [
    ".gitignore",
    "scan-cache.json",
    "scan.json",
  ]);
  assert.equal(await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json/keep")), "mine");
});

Deno.test("scan --format text on a terminal: colour, but none with TERM=dumb or NO_COLOR", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "# A\n\n[gone](gone.md)\n" }, OLD_DAY);
  const command = [DENO, "run", "--quiet", `--config=${join(PACKAGE_DIR, "deno.json")}`]
    .concat(PERMISSION_FLAGS.scan, join(PACKAGE_DIR, "scan.ts"), "--format", "text", "--no-write")
    .map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
  // script(1) gives the scan a terminal for stdout and stderr.
  const onTerminal = (env: Record<string, string>) =>
    runCommand("script", ["-qec", command, "/dev/null"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW, CI: "", NO_COLOR: "", ...env },
    });
  const xterm = await onTerminal({ TERM: "xterm" });
  assert.equal(xterm.code, 0, xterm.stdout);
  assert.ok(xterm.stdout.includes("\x1b["), xterm.stdout);
  for (const env of [{ TERM: "dumb", NO_COLOR: "" }, { TERM: "xterm", NO_COLOR: "1" }]) {
    const plain = await onTerminal(env);
    assert.equal(plain.code, 0, plain.stdout);
    assert.ok(plain.stdout.includes("gone.md"), plain.stdout);
    assert.ok(!plain.stdout.includes("\x1b"), JSON.stringify(env));
  }
});

Deno.test("scan: hints for links to files only on disk (gitignored): case, in any segment, and extension", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": "out/\n*.local.md\n",
    "docs/a.md": "[a](../out/Generated.md) [b](../OUT/generated.md) [c](../out/generated)\n" +
      "[d](../notes.local) [e](../out/gone.md) [f](../out/generated.md)\n",
  }, OLD_DAY);
  await writeFiles(repo.path, { "out/generated.md": "# G\n", "notes.local.md": "# N\n" });
  const run = await scan(repo.path, ["--no-write"]);
  assert.equal(run.code, 0, run.stderr);
  const artifact: ScanArtifact = JSON.parse(run.stdout);
  assert.deepEqual(
    of(artifact, "docs/a.md", "broken_link").map((s) =>
      s.kind === "broken_link" ? [s.target, s.hint] : []
    ),
    [
      ["../out/Generated.md", "case"],
      ["../OUT/generated.md", "case"],
      ["../out/generated", "extension"],
      ["../notes.local", "extension"],
      ["../out/gone.md", null],
    ],
  );
});

import assert from "node:assert/strict";
import { MAX_PARSE_BYTES } from "../../lib/scan/read_doc.ts";
import { join } from "node:path";
import {
  commitFiles,
  git,
  giveToUnprivileged,
  prng,
  runCommand,
  runSeam,
  tempDir,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";
import type { ScanArtifact } from "../../lib/scan/scan_docs.ts";
import { defaultConfig } from "../../lib/config/load_config.ts";
import { fixedClock } from "../../lib/core/clock.ts";
import { scanRepository } from "../../lib/scan/scan_repository.ts";
import { cacheChecksum } from "../../lib/scan/scan_cache.ts";

const NOW = "2026-11-30T03:36:18.000Z";
const DAY = "2026-10-01T00:00:00Z";
const CACHE = ".dochygiene/scan-cache.json";

const scan = (cwd: string, args: string[] = []) =>
  runSeam("scan", ["--format", "json", ...args], { cwd, env: { DOCHYGIENE_NOW: NOW } });

/** The artifact of a scan that must succeed silently, without `generated_at`. */
async function facts(
  cwd: string,
  args: string[] = [],
): Promise<Omit<ScanArtifact, "generated_at">> {
  const run = await scan(cwd, args);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const { generated_at: _, ...rest } = JSON.parse(run.stdout) as ScanArtifact;
  return rest;
}

/**
 * Leaves the repository as git leaves one a while after its last write, with no waiting: every
 * tracked file dated two minutes back, git's stat records refreshed to match, then the index dated
 * one minute back — still newer than every entry, so none is racily clean. A scan keeps blob ids
 * only from an index written before the second the scan began. `runGit` runs git in `root` (as
 * the repository's owner).
 */
async function settleIndex(
  root: string,
  runGit: (args: string[]) => Promise<string> = (args) => git(root, args),
): Promise<number> {
  const now = Date.now() / 1000;
  for (const path of (await runGit(["ls-files", "-z"])).split("\0").filter(Boolean)) {
    await Deno.utime(join(root, path), now - 120, now - 120);
  }
  const stamped = Date.now();
  await runGit(["update-index", "-q", "--refresh"]);
  await Deno.utime(join(root, ".git", "index"), now - 60, now - 60);
  return stamped;
}

/**
 * Settles the index ({@linkcode settleIndex}), scans with the cache (`scan` runs it) and asserts
 * that the cache kept the blob id of each of `paths`; returns when the files' ctimes were stamped.
 */
async function scanVouched(
  root: string,
  paths: string[],
  scan: () => Promise<unknown> = () => facts(root),
  runGit?: (args: string[]) => Promise<string>,
): Promise<number> {
  const stamped = await settleIndex(root, runGit);
  await scan();
  const header = JSON.parse((await cacheBody(root)).split("\n")[0]);
  const oids = paths.map((path) => header.oids[header.paths.indexOf(path)]);
  assert.ok(oids.every((oid) => typeof oid === "string" && oid !== ""), `blob ids: ${oids}`);
  return stamped;
}

/** The scan with the cache, which must equal a scan that analyses every doc. */
async function assertCachedScanExact(cwd: string, step = ""): Promise<void> {
  const cached = await facts(cwd);
  const cold = await facts(cwd, ["--no-cache", "--no-write"]);
  assert.deepEqual(cached, cold, step);
}

/** The cache's text before its checksum line: the header line, then one line per doc. */
async function cacheBody(root: string): Promise<string> {
  const text = await Deno.readTextFile(join(root, CACHE));
  return text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1);
}

/** Writes `body` as the cache, with the checksum it needs to be read at all. */
async function writeCache(root: string, body: string): Promise<void> {
  const bytes = new TextEncoder().encode(body);
  await Deno.writeTextFile(join(root, CACHE), `${body}${cacheChecksum(bytes)}\n`);
}

/** A doc's cache line with its facts (the JSON before the tab) edited. */
function editLine(line: string, edit: (row: unknown[]) => void): string {
  const tab = line.indexOf("\t");
  const row = JSON.parse(line.slice(0, tab));
  edit(row);
  return JSON.stringify(row) + line.slice(tab);
}

/** Rewrites the cache's entry for `path` with `edit` (its key kept, the checksum made again). */
async function editEntry(root: string, path: string, edit: (row: unknown[]) => void) {
  const lines = (await cacheBody(root)).split("\n");
  // The header names the docs, in the order of their lines.
  const at = JSON.parse(lines[0]).paths.indexOf(path) + 1;
  assert.ok(at > 0, `no cache entry for ${path}`);
  lines[at] = editLine(lines[at], edit);
  await writeCache(root, lines.join("\n"));
}

const statusOf = (a: Omit<ScanArtifact, "generated_at">, path: string) =>
  a.signals[path]?.find((s) => s.kind === "status");

Deno.test("a second scan takes unchanged docs' facts from the cache and prints the same artifact", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "a.md": "Status: draft\n\n# A\n\n[b](b.md#two) [gone](gone.md) `src/x.ts`\n",
    "b.md": "# B\n\n## Two\n\n- [ ] open\n",
  }, DAY);
  const first = await facts(repo.path);
  assert.ok((await Deno.stat(join(repo.path, CACHE))).isFile);
  assert.deepEqual(await facts(repo.path), first);
  // The cached status stands in for the doc's own: the second scan did not analyse a.md.
  await editEntry(repo.path, "a.md", (row) => row[3] = "from the cache");
  assert.deepEqual(statusOf(await facts(repo.path), "a.md"), {
    kind: "status",
    value: "from the cache",
  });
  // Changed bytes are analysed again.
  await writeFiles(repo.path, { "a.md": "Status: done\n\n# A\n" });
  assert.deepEqual(statusOf(await facts(repo.path), "a.md"), { kind: "status", value: "done" });
});

Deno.test("a repeat scan of an unchanged repository with drift history leaves the cache file as it is", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "src/a.ts": "export function loadConfig() {}\n" }, DAY);
  await commitFiles(repo.path, {
    "src/a.ts": "export function readConfig() {}\n",
    "a.md": "# A\n\nCall `loadConfig()` in `src/a.ts`.\n",
    "b.md": "\0 a binary doc has no facts to cache\n",
    // Past the parse limit: never cached, its facts (and drift signals) made every scan.
    "c.md": "Call `loadConfig()`.\n" + "word ".repeat(MAX_PARSE_BYTES / 4),
  }, "2025-02-01T00:00:00Z");
  const first = await facts(repo.path);
  assert.ok(first.drift !== undefined, "the scan read the history");
  // Settled (git's racy-index rule keeps blob ids only from an index older than the scan), the
  // next scan writes the docs' blob ids; the one after has nothing new to write.
  await scanVouched(repo.path, ["a.md"]);
  const before = await Deno.stat(join(repo.path, CACHE));
  const body = await cacheBody(repo.path);
  assert.ok(JSON.parse(body.split("\n")[0]).drift !== null, "the cache keeps the drift history");
  assert.deepEqual(await facts(repo.path), first);
  const after = await Deno.stat(join(repo.path, CACHE));
  // Not written again: the same file (an atomic write renames a new one in).
  assert.equal(after.ino, before.ino);
});

Deno.test("under another listing, only docs whose links it touches are checked again", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "a.md": "[b](b.md)\n",
    "c.md": "Status: draft\n\n[a](a.md) `src/x.ts`\n",
    "docs/d.md": "[Guide](guide)\n",
  }, DAY);
  const before = await facts(repo.path);
  assert.equal(before.signals["a.md"].filter((s) => s.kind === "broken_link").length, 1);
  await editEntry(repo.path, "c.md", (row) => row[3] = "from the cache");
  await writeFiles(repo.path, { "b.md": "# B\n" });
  const after = await facts(repo.path);
  // a.md's link now resolves; c.md's links and paths are untouched by b.md: its facts are reused.
  assert.deepEqual(after.signals["a.md"].filter((s) => s.kind === "broken_link"), []);
  assert.equal(statusOf(after, "c.md")?.value, "from the cache");
  // A near miss appearing (docs/guide.md for `guide`), and a path an inline code names.
  await writeFiles(repo.path, { "docs/guide.md": "# G\n", "src/x.ts": "x\n" });
  const later = await facts(repo.path);
  assert.deepEqual(later.signals["docs/d.md"].find((s) => s.kind === "broken_link"), {
    kind: "broken_link",
    line: 1,
    target: "guide",
    hint: "extension",
  });
  assert.deepEqual(later.signals["c.md"].filter((s) => s.kind === "missing_path"), []);
  assert.equal(statusOf(later, "c.md")?.value, "draft"); // checked again: analysed again
  await Deno.remove(join(repo.path, "b.md"));
  await assertCachedScanExact(repo.path);
});

Deno.test("the cache is not trusted once the disk answers otherwise: a gitignored target appears", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    ".gitignore": "build/\n",
    "a.md": "[out](build/out.html) [Guide](guide)\n",
    "z.md": "Status: draft\n\n[a](a.md) [gone](gone.md)\n",
  }, DAY);
  const broken = (a: Omit<ScanArtifact, "generated_at">) =>
    a.signals["a.md"].filter((s) => s.kind === "broken_link").map((s) => "target" in s && s.target);
  assert.deepEqual(broken(await facts(repo.path)), ["build/out.html", "guide"]);
  await editEntry(repo.path, "z.md", (row) => row[3] = "from the cache");
  await writeFiles(repo.path, { "build/out.html": "<p>built</p>\n" });
  const built = await facts(repo.path);
  assert.deepEqual(broken(built), ["guide"]);
  // z.md's check asked the disk nothing about build/: its facts are kept.
  assert.equal(statusOf(built, "z.md")?.value, "from the cache");
  await editEntry(repo.path, "z.md", (row) => row[3] = "draft");
  // And gone again: the link is broken again (the doc probed it, though it was found).
  await Deno.remove(join(repo.path, "build/out.html"));
  assert.deepEqual(broken(await facts(repo.path)), ["build/out.html", "guide"]);
  // A near miss only the disk holds (an ignored guide.md) gives the other its hint.
  await writeFiles(repo.path, { ".gitignore": "build/\nguide.md\n" });
  await git(repo.path, ["commit", "-qam", "ignore"]);
  await facts(repo.path);
  await writeFiles(repo.path, { "guide.md": "# Guide\n" });
  await assertCachedScanExact(repo.path);
  const hinted = (await facts(repo.path)).signals["a.md"].find((s) =>
    s.kind === "broken_link" && s.target === "guide"
  );
  assert.deepEqual(hinted, { kind: "broken_link", line: 1, target: "guide", hint: "extension" });
});

Deno.test("a cache that is not well formed never fails the scan nor gives a wrong fact, and is rebuilt", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "Status: draft\n\n[b](b.md)\n", "b.md": "# B\n" }, DAY);
  const good = await facts(repo.path);
  const text = await Deno.readTextFile(join(repo.path, CACHE));
  const body = await cacheBody(repo.path);
  const [header, ...rows] = body.split("\n");
  const row = (i: number, edit: (row: unknown[]) => void) =>
    [header, editLine(rows[i], edit), ...rows.slice(1)].join("\n");
  const headed = (edit: (header: Record<string, unknown>) => void) => {
    const parsed = JSON.parse(header);
    edit(parsed);
    return [JSON.stringify(parsed), ...rows].join("\n");
  };
  // Bytes changed since the scan wrote them: the checksum no longer holds, nothing is used.
  const unsigned = [
    "",
    "not json\n",
    text.slice(0, text.length / 2),
    "\0\xff binary",
    text.replace(rows[0], rows[1]).replace(`${rows[1]}\n${rows[1]}`, `${rows[1]}\n${rows[0]}`),
    text.replace('"draft"', '"shipped"'),
  ];
  // Well formed as far as the checksum goes, and still not a cache to trust (in part or at all).
  const signed = [
    `${header}\n${rows[0].slice(0, 20)}\n`,
    `${header}\n${rows[0].slice(0, 20)}\n${rows[1]}\n`,
    // a.md's row: [3, null, false, "draft", -1, -1, 0, 0, 0, 0, 1, <b.md's index>]
    row(0, (r) => r[6] = 42), // more anchors than the row holds
    row(0, (r) => r[0] = -1), // lines
    row(0, (r) => r[0] = 1.5),
    row(0, (r) => r[4] = 2), // checkboxes done without open
    row(0, (r) => r.splice(7, 1, 1, 0, "b.md", null)), // a broken link on line 0
    row(0, (r) => r.splice(7, 1, 1, 2, "b.md", "near")), // a hint of no kind
    row(0, (r) => r[r.length - 1] = 99), // a target past the listing
    row(0, (r) => r[r.length - 2] = 0), // no targets, and a field left over
    [header, rows[0].replace(/\t.*/, "\t[{"), ...rows.slice(1)].join("\n"), // probed paths
    headed((h) => h.dochygiene_scan_cache = "dochygiene 0.0.0"),
    headed((h) => h.listing = "x"), // a listing not of three lists
    headed((h) => h.listing = "x\0\0\0\0\0\0y"),
    headed((h) => h.keys = []),
    headed((h) => h.disk = [["q", "exists"]]),
    headed((h) => delete h.history),
    headed((h) => h.history = { head: "HEAD", history: "", ages: [] }),
    headed((h) => (h.history as { ages: unknown[] }).ages.push([0, -1])), // a negative time
    headed((h) => (h.history as { ages: unknown[] }).ages.push([99, 1])), // a path past the listing
    `${JSON.stringify({ dochygiene_scan_cache: JSON.parse(header).dochygiene_scan_cache })}\n`,
  ];
  const cases = [
    ...unsigned.map((garbage) => () => Deno.writeTextFile(join(repo.path, CACHE), garbage)),
    ...signed.map((garbage) => () => writeCache(repo.path, garbage)),
  ];
  for (const [i, write] of cases.entries()) {
    await write();
    assert.deepEqual(await facts(repo.path), good, `case ${i}`);
    // An entry cut short is analysed on the spot, and written by the scan after.
    assert.deepEqual(await facts(repo.path), good);
    // Rebuilt: the next scan trusts it again.
    await editEntry(repo.path, "a.md", (row) => row[3] = "cached");
    assert.equal(statusOf(await facts(repo.path), "a.md")?.kind, "status");
    await Deno.writeTextFile(join(repo.path, CACHE), text);
  }
});

Deno.test("a symlinked cache is never read; a directory in its place leaves the scan whole, with a warning", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "Status: draft\n" }, DAY);
  await facts(repo.path);
  await editEntry(repo.path, "a.md", (row) => row[3] = "outside");
  const outside = join(repo.path, "..", `${repo.path.split("/").pop()}-outside.json`);
  await Deno.rename(join(repo.path, CACHE), outside);
  try {
    await Deno.symlink(outside, join(repo.path, CACHE));
    const run = await scan(repo.path);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(statusOf(JSON.parse(run.stdout), "a.md")?.value, "draft");
    // The symlink is replaced by the cache the scan made, the file it led to left alone.
    assert.ok((await Deno.lstat(join(repo.path, CACHE))).isFile);
    assert.match(await Deno.readTextFile(outside), /"outside"/);
  } finally {
    await Deno.remove(outside);
  }
  await Deno.remove(join(repo.path, CACHE));
  await Deno.mkdir(join(repo.path, CACHE));
  const run = await scan(repo.path);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^dochygiene scan: warning: \.dochygiene\/scan-cache\.json could not be written \(.*\); the next scan analyses every doc again\n$/,
  );
  assert.ok((await Deno.stat(join(repo.path, ".dochygiene/scan.json"))).isFile);
});

Deno.test("--no-write uses the cache but writes nothing; --no-cache neither uses nor writes it", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "Status: draft\n" }, DAY);
  await facts(repo.path, ["--no-cache"]);
  await assert.rejects(Deno.stat(join(repo.path, CACHE)), Deno.errors.NotFound);
  await facts(repo.path);
  await editEntry(repo.path, "a.md", (row) => row[3] = "cached");
  const cached = await Deno.readTextFile(join(repo.path, CACHE));
  await writeFiles(repo.path, { "b.md": "# B\n" }); // a new listing: the cache would be rewritten
  assert.equal(statusOf(await facts(repo.path, ["--no-write"]), "a.md")?.value, "cached");
  assert.equal(await Deno.readTextFile(join(repo.path, CACHE)), cached);
  assert.equal(statusOf(await facts(repo.path, ["--no-cache"]), "a.md")?.value, "draft");
  assert.equal(await Deno.readTextFile(join(repo.path, CACHE)), cached);
});

Deno.test("docs with hostile names keep their cache entries", async () => {
  await using repo = await tempRepo();
  const names = ["sp ace.md", "new\nline.md", 'quo"te.md', "back\\slash.md", "ünï.md", "-lead.md"];
  const files: Record<string, string> = {};
  for (const name of names) {
    files[name] = `Status: ${name.length}\n\n[all](${encodeURI(names[0])})\n`;
  }
  await commitFiles(repo.path, files, DAY);
  const first = await facts(repo.path);
  for (const name of names) await editEntry(repo.path, name, (row) => row[3] = "cached");
  const second = await facts(repo.path);
  for (const name of names) assert.equal(statusOf(second, name)?.value, "cached", name);
  assert.equal(Object.keys(second.signals).length, Object.keys(first.signals).length);
});

/** A random doc: headings, links (some broken, some into the ignored build/, some with fragments), tasks, code paths. */
function randomDoc(random: () => number, docs: number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const lines: string[] = [];
  if (random() < 0.1) {
    lines.push("---", `hygiene: ${pick(["frozen", "append-only", "none"])}`, "---");
  }
  if (random() < 0.3) lines.push(`Status: ${pick(["draft", "done", "shipped"])}`, "");
  for (let i = 0; i < 1 + Math.floor(random() * 4); i++) {
    lines.push(`## ${pick(["Setup", "Usage", "Notes", "Setup"])}`, "");
    const target = pick([
      `d${Math.floor(random() * docs)}.md`,
      `D${Math.floor(random() * docs)}.md`,
      `d${Math.floor(random() * docs)}`,
      `../build/out${Math.floor(random() * 3)}.html`,
      `x${Math.floor(random() * 3)}.log`,
      `missing${Math.floor(random() * 3)}.md`,
      "#setup",
      "#nope",
    ]);
    const fragment = random() < 0.3 ? pick(["#usage", "#setup-1", "#nope"]) : "";
    lines.push(`- [${pick([" ", "x"])}] see [it](${target}${fragment}) and \`docs/d${i}.md\``, "");
  }
  const text = lines.join("\n");
  return random() < 0.15 ? text.replaceAll("\n", "\r\n") : text;
}

for (const seed of [20261130, 3]) {
  Deno.test(`under random edits, the cached scan equals one that analyses every doc (seed ${seed})`, async () => {
    await using repo = await tempRepo();
    const random = prng(seed);
    const DOCS = 12;
    const files: Record<string, string> = { ".gitignore": ".dochygiene/\nbuild/\n*.log\n" };
    for (let i = 0; i < DOCS; i++) files[`docs/d${i}.md`] = randomDoc(random, DOCS);
    await commitFiles(repo.path, files, DAY);
    await assertCachedScanExact(repo.path, "first");
    const doc = () => `docs/d${Math.floor(random() * (DOCS + 3))}.md`;
    // Commits dated apart (and out of order), so that every age tells which commit it is of.
    const dated = () => {
      const date = new Date(Date.parse(DAY) + Math.floor(random() * 60) * 86_400_000).toISOString();
      return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    };
    const steps: [string, () => Promise<unknown>][] = [
      ["edit", () => writeFiles(repo.path, { [doc()]: randomDoc(random, DOCS) })],
      ["remove", () => Deno.remove(join(repo.path, doc())).catch(() => {})],
      [
        "build",
        () => writeFiles(repo.path, { [`build/out${Math.floor(random() * 3)}.html`]: "x" }),
      ],
      ["unbuild", () => Deno.remove(join(repo.path, "build"), { recursive: true }).catch(() => {})],
      ["log", () => writeFiles(repo.path, { [`docs/x${Math.floor(random() * 3)}.log`]: "x" })],
      ["unlog", () => Deno.remove(join(repo.path, "docs/x0.log")).catch(() => {})],
      [
        "case",
        () => writeFiles(repo.path, { [`docs/D${Math.floor(random() * DOCS)}.md`]: "# D\n" }),
      ],
      [
        "dir",
        () => writeFiles(repo.path, { [`docs/d${Math.floor(random() * DOCS)}/i.md`]: "# I\n" }),
      ],
      ["bare", () => writeFiles(repo.path, { [`docs/d${Math.floor(random() * DOCS)}`]: "x\n" })],
      ["code", () => writeFiles(repo.path, { [`docs/docs/d${Math.floor(random() * 4)}.md`]: "x" })],
      ["undir", () => Deno.remove(join(repo.path, "docs/docs"), { recursive: true })],
      ["buildlink", () => Deno.symlink("docs", join(repo.path, "build"))],
      ["buildfile", () => writeFiles(repo.path, { build: "not a directory" })],
      [
        "ignore",
        () =>
          writeFiles(repo.path, {
            ".dochygiene-ignore": `docs/d${Math.floor(random() * DOCS)}.md\n`,
          }),
      ],
      ["rename", () => Deno.rename(join(repo.path, doc()), join(repo.path, doc()))],
      [
        "link",
        () =>
          Deno.symlink("d1.md", join(repo.path, `docs/l${Math.floor(random() * 3)}.md`)).catch(
            () => {},
          ),
      ],
      [
        "commit",
        () =>
          git(repo.path, ["add", "-A"]).then(() =>
            git(repo.path, ["commit", "-qm", "s", "--allow-empty"], dated())
          ),
      ],
      // What git vouches for: staged, touched (same bytes), restored, mode changed.
      ["stage", () => git(repo.path, ["add", "-A"])],
      [
        "touch",
        () => Deno.utime(join(repo.path, doc()), new Date(), new Date(Date.now() + 5_000)),
      ],
      ["restore", () => git(repo.path, ["checkout", "-q", "--", doc()])],
      ["chmod", () => Deno.chmod(join(repo.path, doc()), random() < 0.5 ? 0o755 : 0o644)],
      // History the cached ages must follow: moved on, rewritten, rewound, merged.
      ["amend", () => git(repo.path, ["commit", "-qam", "a", "--amend", "--allow-empty"], dated())],
      ["rewind", () => git(repo.path, ["reset", "-q", "--soft", "HEAD~1"])],
      [
        "merge",
        async () => {
          await git(repo.path, ["switch", "-qc", "side"]);
          await writeFiles(repo.path, { [doc()]: randomDoc(random, DOCS) });
          await git(repo.path, ["add", "-A"]);
          await git(repo.path, ["commit", "-qm", "side", "--allow-empty"], dated());
          await git(repo.path, ["switch", "-q", "-"]);
          await git(repo.path, ["merge", "-q", "--no-ff", "side", "-m", "m"], dated());
          await git(repo.path, ["branch", "-qD", "side"]);
        },
      ],
      ["none", () => Promise.resolve()],
    ];
    for (let step = 0; step < 30; step++) {
      const [name, apply] = steps[Math.floor(random() * steps.length)];
      // A step the tree cannot take (a directory where a file is) is skipped.
      await apply().catch(() => {});
      await assertCachedScanExact(repo.path, `seed ${seed}, step ${step}: ${name}`);
    }
  });
}

Deno.test("with helper threads (2,000+ docs), the cached scan equals one that analyses every doc", async () => {
  await using repo = await tempRepo();
  const random = prng(7);
  const DOCS = 2100;
  const files: Record<string, string> = { ".gitignore": ".dochygiene/\nbuild/\n*.log\n" };
  for (let i = 0; i < DOCS; i++) files[`docs/d${i}.md`] = randomDoc(random, DOCS);
  await commitFiles(repo.path, files, DAY);
  await assertCachedScanExact(repo.path, "first");
  await assertCachedScanExact(repo.path, "unchanged");
  await writeFiles(repo.path, { "docs/d5.md": randomDoc(random, DOCS), "build/out1.html": "x" });
  await assertCachedScanExact(repo.path, "edited, built");
  await writeFiles(repo.path, { "docs/d6.md": randomDoc(random, DOCS) });
  await assertCachedScanExact(repo.path, "edited");
  await writeFiles(repo.path, { "docs/d2100.md": "# New\n", "docs/D7.md": "# Case\n" });
  await assertCachedScanExact(repo.path, "files added");
  await Deno.remove(join(repo.path, "docs/d8.md"));
  await writeFiles(repo.path, { "docs/x1.log": "ignored, in a directory with broken links" });
  await assertCachedScanExact(repo.path, "a file removed, an ignored one added");
});

Deno.test("outside git, the second scan takes unchanged docs' facts from the cache too", async () => {
  await using dir = await tempDir();
  await writeFiles(dir.path, { "a.md": "Status: draft\n\n[b](b.md)\n", "b.md": "# B\n" });
  const first = await facts(dir.path);
  await editEntry(dir.path, "a.md", (row) => row[3] = "from the cache");
  assert.equal(statusOf(await facts(dir.path), "a.md")?.value, "from the cache");
  await editEntry(dir.path, "a.md", (row) => row[3] = "draft");
  assert.deepEqual(await facts(dir.path), first);
});

Deno.test("a doc whose blob git vouches for changed since the cache kept its id is read again", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(root, { ".gitignore": ".dochygiene/\n", "a.md": "see `src/a.ts`\n" }, DAY);
  await scanVouched(root, ["a.md"]);
  // Same size, staged: git vouches for the file again, for another blob.
  await writeFiles(root, { "a.md": "see `src/b.ts`\n" });
  await git(root, ["add", "a.md"]);
  await assertCachedScanExact(root, "staged");
  await scanVouched(root, ["a.md"]);
  await commitFiles(root, { "a.md": "see `src/c.ts`\n" }, DAY);
  await assertCachedScanExact(root, "committed");
  const missing = (await facts(root)).signals["a.md"].filter((s) => s.kind === "missing_path");
  assert.deepEqual(missing.map((s) => s.kind === "missing_path" && s.path), ["src/c.ts"]);
});

Deno.test("a doc git finds unchanged only through a conversion (line endings, a filter) is read, not taken for its blob", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(
    root,
    { ".gitignore": ".dochygiene/\n", "a.md": "# A\n\nhello\n", "b.md": "# B\n" },
    DAY,
  );
  // Each case starts from a cache that keeps the doc's blob id (as git vouches for it).
  await scanVouched(root, ["a.md", "b.md"]);
  // core.autocrlf: a checkout writes CRLF, which git converts back to the blob.
  await git(root, ["config", "core.autocrlf", "true"]);
  await Deno.remove(join(root, "a.md"));
  await git(root, ["checkout", "--", "a.md"]);
  assert.match(await Deno.readTextFile(join(root, "a.md")), /\r\n/);
  await assertCachedScanExact(root, "autocrlf");
  await git(root, ["config", "core.autocrlf", "false"]);
  await git(root, ["checkout", "--", "a.md"]);
  await scanVouched(root, ["a.md"]);
  // An attribute in the tree: CRLF bytes staged, the blob unchanged.
  await writeFiles(root, { ".gitattributes": "*.md text\n", "a.md": "# A\r\n\r\nhello\r\n" });
  await git(root, ["add", ".gitattributes", "a.md"]);
  assert.equal(await git(root, ["status", "--porcelain", "--", "a.md"]), "");
  await assertCachedScanExact(root, "text attribute");
  // A clean filter, from .git/info/attributes: a line git never stores.
  await Deno.remove(join(root, ".gitattributes"));
  await writeFiles(root, { "a.md": "# A\n\nhello\n" });
  await git(root, ["add", "-A"]);
  await scanVouched(root, ["b.md"]);
  await git(root, ["config", "filter.strip.clean", "grep -v '^DRAFT' || true"]);
  await writeFiles(root, { ".git/info/attributes": "b.md filter=strip\n" });
  await writeFiles(root, { "b.md": "# B\nDRAFT see [x](missing.md)\n" });
  await git(root, ["add", "b.md"]);
  assert.equal(await git(root, ["status", "--porcelain", "--", "b.md"]), "");
  await assertCachedScanExact(root, "clean filter");
  const b = (await facts(root)).signals["b.md"];
  assert.ok(b.some((s) => s.kind === "broken_link" && s.target === "missing.md"));
});

Deno.test("a doc made unreadable is left out as without the cache, whatever core.trustctime says", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await git(root, ["config", "core.trustctime", "false"]);
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    "a.md": "[b](b.md)\n",
    "b.md": "# B\n",
  }, DAY);
  await giveToUnprivileged(root);
  // The index is the user's: git refreshes it as the user (settleIndex dates the files back so
  // that none is "racily clean", and then, ctime aside, a chmod changes none of their lstat).
  const asOwner = async (args: string[]) => {
    const out = await runCommand("git", args, { cwd: root, unprivileged: true });
    assert.equal(out.code, 0, out.stderr);
    return out.stdout;
  };
  const run = (args: string[] = []) =>
    runSeam("scan", ["--format", "json", ...args], {
      cwd: root,
      env: { DOCHYGIENE_NOW: NOW },
      unprivileged: true,
    });
  const stamped = await scanVouched(root, ["a.md", "b.md"], run, asOwner);
  // A chmod in the second that stamped the files' ctimes would be git's own blind spot (it
  // compares ctimes to the second): it is made once the kernel's clock is past that second.
  await new Promise((resolve) =>
    setTimeout(resolve, (Math.floor(stamped / 1000) + 1) * 1000 + 20 - Date.now())
  );
  await Deno.chmod(join(root, "b.md"), 0o000);
  try {
    const cached = await run();
    const cold = await run(["--no-cache", "--no-write"]);
    assert.equal(cached.code, 0);
    assert.equal(cached.stderr, cold.stderr);
    assert.match(cached.stderr, /b\.md.*cannot be read/);
    const { generated_at: _a, ...a } = JSON.parse(cached.stdout);
    const { generated_at: _b, ...b } = JSON.parse(cold.stdout);
    assert.deepEqual(a, b);
    assert.deepEqual(a.shortlist, ["a.md"]);
  } finally {
    await Deno.chmod(join(root, "b.md"), 0o644);
  }
});

Deno.test("a same-size rewrite that puts the mtime back, in the second git wrote its index, is seen", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const old = new Date("2017-07-14T02:40:00Z");
  const cacheFile = join(root, CACHE);
  let raced = false;
  // The rewrite must land in the second git wrote its index (as an agent's quick edit would), and
  // only the kernel's clock stamps a file's ctime: each attempt starts as a second begins, so the
  // whole (the scan between made in this process: a subprocess takes most of a second to start)
  // has that second to fit in. Another attempt is made only if the second ran out midway.
  for (let attempt = 0; attempt < 5 && !raced; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 - Date.now() % 1000));
    await writeFiles(root, { ".gitignore": ".dochygiene/\n", "a.md": "# A\nsee `src/a.ts`\n" });
    await Deno.utime(join(root, "a.md"), old, old);
    await git(root, ["add", "-A"]);
    const second = Math.floor(Date.now() / 1000);
    const { cachePieces } = await scanRepository({
      root,
      config: defaultConfig(),
      clock: fixedClock(new Date(NOW)),
      cacheFile,
    });
    await Deno.mkdir(join(root, ".dochygiene"), { recursive: true });
    if (cachePieces !== undefined) {
      await Deno.writeFile(cacheFile, ReadableStream.from(cachePieces()));
    }
    await writeFiles(root, { "a.md": "# A\nsee `src/b.ts`\n" });
    await Deno.utime(join(root, "a.md"), old, old);
    raced = Math.floor(Date.now() / 1000) === second;
    await assertCachedScanExact(root, `attempt ${attempt}`);
  }
  assert.ok(raced, "no attempt fit in one second");
});

Deno.test("a docs site's change of where site-root links lead is not hidden by cached facts", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "docs/.vitepress/config.ts": "export default { title: 'x' }\n",
    "docs/a.md": "[gone](/gone.md)\n",
  }, DAY);
  const broken = (artifact: Omit<ScanArtifact, "generated_at">) =>
    artifact.signals["docs/a.md"].filter((s) => s.kind === "broken_link").length;
  assert.equal(broken(await facts(repo.path)), 1);
  // With `rewrites`, routes differ from file paths: VitePress's site-root links are not checked.
  await commitFiles(repo.path, {
    "docs/.vitepress/config.ts": "export default { rewrites: { 'a.md': 'b.md' } }\n",
  }, DAY);
  const cached = await facts(repo.path);
  assert.equal(broken(cached), 0);
  assert.deepEqual(cached, await facts(repo.path, ["--no-cache"]));
});

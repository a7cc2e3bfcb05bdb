// The drift signals end to end over real temporary repositories (docs/signals.md): a history
// that renames and deletes functions, options and flags; elements never in the code; elements
// present today; code_drift counts and days; reviews; a shallow clone; the config switches; the
// scan cache.

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Config, defaultConfig } from "../../lib/config/load_config.ts";
import { fixedClock } from "../../lib/core/clock.ts";
import { loadYaml } from "../../lib/yaml/load_yaml.ts";
import { scanRepository } from "../../lib/scan/scan_repository.ts";
import type { ScanArtifact, Signal } from "../../lib/scan/scan_docs.ts";
import { ScanCache } from "../../lib/scan/scan_cache.ts";
import { scanDrift } from "../../lib/drift/scan_drift.ts";
import { readGitTip } from "../../lib/git/read_git_ages.ts";
import { commitFiles, git, joinPieces, tempDir, tempRepo } from "../support/helpers.ts";

await loadYaml();

const NOW = new Date("2025-06-01T00:00:00.000Z");

const GUIDE = [
  "# Guide",
  "",
  "Call `parseConfig()` first, then `loadConfig`.", // 3: renamed away; present
  "Set `server.hmr.cachedChecks` to skip checks.", // 4: option removed
  "Pass `--dry-run` to preview.", // 5: flag removed from the parser
  "Sizes stop at `MAX_SIZE`.", // 6: present
  "Like React's `useState`, it keeps state.", // 7: never in the code
  "The `HotBroadcaster` sends updates.", // 8: its file deleted
  "See [the config](../src/config.ts) and `src/cli.ts`.", // 9
  "",
  "```ts",
  "parseConfig(); // fenced: not inline code",
  "```",
  "",
].join("\n");

/** A repository whose history renames and deletes code elements, then documents them. */
async function driftRepo(root: string): Promise<{ c1: string; c2: string; c3: string }> {
  const c1 = await commitFiles(root, {
    "src/config.ts":
      "export function parseConfig() {}\nexport const defaults = { hmr: { cachedChecks: true } };\n",
    "src/cli.ts":
      'cli.option("--dry-run", "preview").option("--port");\nexport const MAX_SIZE = 10;\n',
    "src/hot.ts": "export class HotBroadcaster {}\n",
    "README.md": "Unlike `useState`, this is code-free.\n", // a doc: never counts as code
  }, "2025-01-01T00:00:00Z");
  const c2 = await commitFiles(root, {
    "src/config.ts": "export function loadConfig() {}\nexport const defaults = { hmr: {} };\n",
    "src/cli.ts": 'cli.option("--port");\nexport const MAX_SIZE = 10;\n',
  }, "2025-02-01T00:00:00Z");
  await git(root, ["rm", "-q", "src/hot.ts"]);
  await git(root, ["commit", "-q", "-m", "drop hot"], {
    GIT_AUTHOR_DATE: "2025-02-02T00:00:00Z",
    GIT_COMMITTER_DATE: "2025-02-02T00:00:00Z",
  });
  const c3 = await commitFiles(root, { "docs/guide.md": GUIDE }, "2025-03-01T00:00:00Z");
  return { c1, c2, c3 };
}

async function scan(root: string, config: Config = defaultConfig(), cacheFile?: string) {
  return await scanRepository({ root, config, clock: fixedClock(NOW), cacheFile });
}

function kinds<K extends Signal["kind"]>(artifact: ScanArtifact, path: string, kind: K) {
  return artifact.signals[path].filter((s) => s.kind === kind) as Extract<Signal, { kind: K }>[];
}

Deno.test("stale_reference names exactly the elements the code had once and has no more", async () => {
  await using repo = await tempRepo();
  const { c1 } = await driftRepo(repo.path);
  const hot = (await git(repo.path, ["rev-parse", "HEAD~1"])).trim();
  const { artifact } = await scan(repo.path);
  const stale = kinds(artifact, "docs/guide.md", "stale_reference");
  assert.deepEqual(stale.map((s) => [s.line, s.element]), [
    [3, "parseConfig()"],
    [4, "server.hmr.cachedChecks"],
    [5, "--dry-run"],
    [8, "HotBroadcaster"],
  ]);
  // Chain c1, c2, hot-drop, c3: the trees examined are c2's and hot-drop's parent… see sampleIndexes.
  for (const s of stale) {
    const tree = await git(repo.path, [
      "grep",
      "-c",
      "-F",
      "-w",
      s.element.replace(/^--|\(\)$/g, "").split(".").at(-1)!,
      s.last_seen.commit,
      "--",
      "src",
    ]).catch(() => "");
    assert.notEqual(tree, "", `${s.element} is in ${s.last_seen.commit}'s tree`);
    assert.ok(s.last_seen.date < s.gone_by.date);
  }
  assert.equal(stale.find((s) => s.element === "parseConfig()")?.last_seen.commit, c1);
  assert.equal(stale.find((s) => s.element === "HotBroadcaster")?.gone_by.commit, hot);
  assert.deepEqual(artifact.drift, { commits: 4, examined: 3, shallow: false });
});

Deno.test("elements never in the code, or in it today, are never stale_reference", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  const { artifact } = await scan(repo.path);
  const named = kinds(artifact, "docs/guide.md", "stale_reference").map((s) => s.element);
  for (const element of ["useState", "loadConfig", "MAX_SIZE"]) {
    assert.ok(!named.includes(element), element);
  }
  // README.md names useState and is a doc of the first commit: docs never count as code.
  assert.deepEqual(kinds(artifact, "README.md", "stale_reference"), []);
});

Deno.test("an element put back in the code is no longer stale", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  await commitFiles(
    repo.path,
    { "src/legacy.ts": "export const parseConfig = loadConfig;\n" },
    "2025-03-05T00:00:00Z",
  );
  const { artifact } = await scan(repo.path);
  const named = kinds(artifact, "docs/guide.md", "stale_reference").map((s) => s.element);
  assert.ok(!named.includes("parseConfig()"));
  assert.ok(named.includes("HotBroadcaster"));
});

Deno.test("code_drift counts the pointed-at files' commits after the doc's, and the days between", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  await commitFiles(
    repo.path,
    { "src/config.ts": "export function loadConfig(a) {}\n" },
    "2025-03-11T00:00:00Z",
  );
  await commitFiles(
    repo.path,
    { "src/config.ts": "export function loadConfig(a, b) {}\n" },
    "2025-04-01T00:00:00Z",
  );
  const { artifact } = await scan(repo.path);
  assert.deepEqual(kinds(artifact, "docs/guide.md", "code_drift"), [
    { kind: "code_drift", path: "src/config.ts", commits_after: 2, days_after: 31 },
  ]);
});

Deno.test("review: a valid date gives days since and due under its interval or the project default", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "due.md": "---\nlast_reviewed: 2025-01-01\nreview_interval: 30d\n---\n# Due\n",
    "fresh.md": "---\nreviewed: '2025-05-20'\nreview_after_days: 30\n---\n# Fresh\n",
    "bare.md": "---\nlast_reviewed: 2025-03-03\n---\n# Bare\n",
    "bad.md": "---\nlast_reviewed: 2025-02-30\n---\n# Bad\n",
  }, "2025-05-01T00:00:00Z");
  const { artifact } = await scan(repo.path);
  assert.deepEqual(kinds(artifact, "due.md", "review"), [
    { kind: "review", reviewed: "2025-01-01", days_since: 151, interval_days: 30, due: true },
  ]);
  assert.deepEqual(kinds(artifact, "fresh.md", "review"), [
    { kind: "review", reviewed: "2025-05-20", days_since: 12, interval_days: 30, due: false },
  ]);
  assert.deepEqual(kinds(artifact, "bare.md", "review")[0].due, null);
  assert.deepEqual(kinds(artifact, "bad.md", "review"), []);
  const config = defaultConfig();
  config.drift.review_interval_days = 60;
  const again = (await scan(repo.path, config)).artifact;
  assert.deepEqual(kinds(again, "bare.md", "review")[0], {
    kind: "review",
    reviewed: "2025-03-03",
    days_since: 90,
    interval_days: 60,
    due: true,
  });
  assert.equal(kinds(again, "fresh.md", "review")[0].interval_days, 30);
});

Deno.test("a shallow clone reports only what its history proves, and says it is shallow", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  await using clone = await tempDir();
  await git(clone.path, ["clone", "-q", "--depth", "1", `file://${repo.path}`, "c"]);
  const root = join(clone.path, "c");
  const { artifact } = await scan(root);
  assert.deepEqual(kinds(artifact, "docs/guide.md", "stale_reference"), []);
  assert.deepEqual(artifact.drift, { commits: 1, examined: 0, shallow: true });
  await git(root, ["fetch", "-q", "--deepen", "3"]);
  const deeper = (await scan(root)).artifact;
  assert.equal(kinds(deeper, "docs/guide.md", "stale_reference").length, 4);
  assert.equal(deeper.drift?.shallow, true);
});

Deno.test("drift: each signal can be switched off, and docs, code and elements excluded", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  await commitFiles(
    repo.path,
    { "src/config.ts": "export function loadConfig(a) {}\n" },
    "2025-03-11T00:00:00Z",
  );
  const off = defaultConfig();
  off.drift.stale_reference = false;
  off.drift.code_drift = false;
  const none = (await scan(repo.path, off)).artifact;
  assert.deepEqual(kinds(none, "docs/guide.md", "stale_reference"), []);
  assert.deepEqual(kinds(none, "docs/guide.md", "code_drift"), []);
  assert.equal(none.drift, undefined);
  const excluded = defaultConfig();
  excluded.drift.exclude_elements = ["parseConfig", "--dry-run"];
  excluded.drift.exclude_code = ["src/config.ts"];
  const some = (await scan(repo.path, excluded)).artifact;
  assert.deepEqual(kinds(some, "docs/guide.md", "stale_reference").map((s) => s.element), [
    "HotBroadcaster",
  ]);
  assert.deepEqual(kinds(some, "docs/guide.md", "code_drift"), []);
  const docs = defaultConfig();
  docs.drift.exclude_docs = ["docs/**"];
  const skipped = (await scan(repo.path, docs)).artifact;
  assert.ok(
    !skipped.signals["docs/guide.md"].some((s) =>
      s.kind === "stale_reference" || s.kind === "code_drift"
    ),
  );
});

Deno.test("words are searched in code only: never in docs, nor in files named as a binary format", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, {
    "src/widget.ts": "export function legacyWidget() {}\n",
    // Text, but named as an image: not read (docs/signals.md "What counts as code").
    "assets/logo.PNG": "export function pngWidget() {}\n",
    "notes/old.md": "Call docWidget() here.\n",
  }, "2025-01-01T00:00:00Z");
  await git(repo.path, ["rm", "-q", "assets/logo.PNG"]);
  await commitFiles(repo.path, {
    "src/widget.ts": "export function newWidget() {}\n",
    "notes/old.md": "Nothing here.\n",
  }, "2025-02-01T00:00:00Z");
  await commitFiles(repo.path, {
    "docs/guide.md": "Use `legacyWidget()`, `pngWidget()` and `docWidget()`.\n",
  }, "2025-03-01T00:00:00Z");
  const { artifact } = await scan(repo.path);
  assert.deepEqual(
    kinds(artifact, "docs/guide.md", "stale_reference").map((s) => s.element),
    ["legacyWidget()"],
  );
});

Deno.test("the scan cache keeps the history work: a repeat and a new commit give a cold scan's signals", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  const cacheFile = join(repo.path, ".git", "drift-cache.json");
  const first = await scan(repo.path, defaultConfig(), cacheFile);
  const firstCache = joinPieces(first.cachePieces!());
  await Deno.writeFile(cacheFile, firstCache);
  const repeat = await scan(repo.path, defaultConfig(), cacheFile);
  assert.deepEqual(repeat.artifact.signals, first.artifact.signals);
  // The history work is kept as it was (the cache may be rewritten for the docs' blob ids alone:
  // git's racy-index rule, see scan_cache.ts).
  const kept = ScanCache.parse(firstCache)!.drift()!;
  if (repeat.cachePieces !== undefined) {
    assert.deepEqual(ScanCache.parse(joinPieces(repeat.cachePieces()))!.drift(), kept);
  }
  await commitFiles(
    repo.path,
    { "src/config.ts": "export function loadConfig(a) {}\n" },
    "2025-03-11T00:00:00Z",
  );
  const warm = await scan(repo.path, defaultConfig(), cacheFile);
  const cold = await scan(repo.path);
  // Only the new commit was read: the chain grew by one, the trees examined before kept their answers.
  const after = ScanCache.parse(joinPieces(warm.cachePieces!()))!.drift()!;
  assert.deepEqual(after.chain.slice(0, -1), kept.chain);
  for (const [commit, answer] of Object.entries(kept.grep)) {
    if (commit !== kept.head && after.grep[commit]) assert.deepEqual(after.grep[commit], answer);
  }
  assert.deepEqual(warm.artifact.signals, cold.artifact.signals);
  assert.equal(kinds(warm.artifact, "docs/guide.md", "code_drift").length, 1);
});

Deno.test("the text summary has a section for each drift signal", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  await commitFiles(repo.path, {
    "src/config.ts": "export function loadConfig(a) {}\n",
    "due.md": "---\nlast_reviewed: 2025-01-01\nreview_interval: 30\n---\n# Due\n",
  }, "2025-03-11T00:00:00Z");
  const { renderScanText } = await import("../../lib/scan/render_scan_text.ts");
  const text = renderScanText((await scan(repo.path)).artifact, { written: undefined });
  assert.match(text, /stale references \(code elements the code no longer has\): 4 in 1 doc/);
  assert.match(text, /docs\/guide\.md:3 `parseConfig\(\)` last seen 2025-01-01/);
  assert.ok(text.includes(
    "code drift (files changed after the doc): 1 in 1 doc\n" +
      "  docs/guide.md → src/config.ts: 1 commit after, 10 days later\n",
  ));
  assert.ok(text.includes(
    "reviews due: 1 in 1 doc\n  due.md  reviewed 2025-01-01, 151 days ago (every 30 days)\n",
  ));
});

Deno.test("a failed history pass fails the drift signals once, never as an unhandled rejection", async () => {
  await using repo = await tempRepo();
  await driftRepo(repo.path);
  const cacheFile = join(repo.path, ".git", "drift-cache.json");
  const first = await scan(repo.path, defaultConfig(), cacheFile);
  const known = ScanCache.parse(joinPieces(first.cachePieces!()))!.drift()!;
  const tip = await readGitTip(repo.path);
  const failed = Promise.reject(new Error("git log failed"));
  // HEAD is the known one's: the chain needs no pass, but the signals need its ages.
  await assert.rejects(
    scanDrift({
      root: repo.path,
      config: defaultConfig(),
      now: NOW,
      docs: new Map([["docs/guide.md", {
        elements: [{ line: 3, element: "parseConfig()" }],
        paths: [],
      }]]),
      files: [{ path: "docs/guide.md", type: "file", tracked: true }],
      git: { ...tip, pass: failed },
      known,
    }),
    /git log failed/,
  );
});

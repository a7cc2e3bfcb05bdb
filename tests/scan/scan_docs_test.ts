import assert from "node:assert/strict";
import type { ListedFile } from "../../lib/git/list_candidates.ts";
import { defaultConfig } from "../../lib/config/load_config.ts";
import { parseConfig } from "../../lib/config/parse_config.ts";
import { ignoreMatcher } from "../../lib/config/ignore_matcher.ts";
import { contentFingerprint } from "../../lib/core/content_fingerprint.ts";
import type { DocSummary } from "../../lib/scan/summarize_doc.ts";
import {
  type FileRead,
  scanDocs,
  type ScanInput,
  selectReads,
  type Signal,
} from "../../lib/scan/scan_docs.ts";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const DAY = 86_400_000;

function text(body: string, extra: Partial<FileRead & { kind: "text" }> = {}): FileRead {
  const bytes = new TextEncoder().encode(body).length;
  const lines = body === "" ? 0 : body.split(/\r\n|\r|\n/).length - (/[\r\n]$/.test(body) ? 1 : 0);
  return {
    kind: "text",
    text: body,
    bytes,
    lines,
    truncated: false,
    mtimeMs: NOW.getTime() - 2 * DAY,
    ...extra,
  };
}

/** A scan input over `docs` (path → content or read); every path is a tracked file unless listed in `untracked`. */
function input(
  docs: Record<string, string | FileRead>,
  more: Partial<ScanInput> & { untracked?: string[]; others?: string[] } = {},
): ScanInput {
  const files: ListedFile[] = [...Object.keys(docs), ...(more.others ?? [])].map((path) => ({
    path,
    tracked: !(more.untracked ?? []).includes(path),
    type: "file" as const,
  }));
  const reads = new Map<string, FileRead>();
  for (const [path, doc] of Object.entries(docs)) {
    reads.set(path, typeof doc === "string" ? text(doc) : doc);
  }
  return {
    root: "/r",
    config: defaultConfig(),
    now: NOW,
    git: { head: "abc", shallow: false, ages: new Map() },
    files,
    opaque: [],
    ignored: () => false,
    reads,
    ...more,
  };
}

const of = (signals: Signal[] | undefined, kind: Signal["kind"]) =>
  (signals ?? []).filter((s) => s.kind === kind);

Deno.test("pipeline: scope, then dir-prune, then ignore, then frozen, then append-only, short-circuiting, with counts", () => {
  const frozen = "---\nhygiene: frozen\n---\n# F\n";
  const appendOnly = "---\nhygiene: append-only\n---\n# Log\n";
  const artifact = scanDocs(input({
    "a.md": "# A\n",
    "node_modules/pkg/frozen.md": frozen, // dir wins over frozen
    "notes/ignored-frozen.md": frozen, // ignore wins over frozen
    "frozen.md": frozen,
    "log.md": appendOnly,
    ".dochygiene/report-x.md": "# r\n", // always excluded dir
    "code.ts": "x", // out of scope: not a candidate at all
  }, { ignored: ignoreMatcher("notes/\n") }));
  assert.deepEqual(artifact.shortlist, ["a.md"]);
  assert.deepEqual(artifact.counts, {
    candidates: 6,
    shortlisted: 1,
    excluded: { dir: 2, ignore: 1, frozen: 1, append_only: 1 },
  });
  assert.deepEqual(artifact.excluded, [
    { path: "frozen.md", reason: "frozen" },
    { path: "log.md", reason: "append_only" },
    { path: "notes/ignored-frozen.md", reason: "ignore" },
  ]);
  assert.deepEqual(Object.keys(artifact.signals), ["a.md"]);
});

Deno.test("selectReads: dir-pruned, ignored, out-of-scope files, symlinks and submodules are never read", () => {
  const files: ListedFile[] = [
    { path: "a.md", tracked: true, type: "file" },
    { path: "vendor/b.md", tracked: true, type: "file" },
    { path: "skip/c.md", tracked: true, type: "file" },
    { path: "link.md", tracked: true, type: "symlink" },
    { path: "sub.md", tracked: true, type: "gitlink" },
    { path: "x.txt", tracked: true, type: "file" },
  ];
  assert.deepEqual(selectReads(files, defaultConfig(), ignoreMatcher("skip/\n")), ["a.md"]);
});

Deno.test("dir-prune: a whole directory name at any depth, not a name that only starts or ends like one", () => {
  const config = { ...defaultConfig(), excluded_dirs: ["out", "gen"] };
  const paths = [
    "out/a.md",
    "x/gen/b.md",
    "x/y/.git/c.md",
    ".dochygiene/d.md",
    "outx/e.md",
    "xout/f.md",
    "x/gener/g.md",
    "x/ge/h.md",
    "x/out.md",
    "build/i.md", // excluded by default only
  ];
  const files = paths.map((path) => ({ path, tracked: true, type: "file" as const }));
  assert.deepEqual(selectReads(files, config, () => false), [
    "outx/e.md",
    "xout/f.md",
    "x/gener/g.md",
    "x/ge/h.md",
    "x/out.md",
    "build/i.md",
  ]);
});

Deno.test("a file that could not be read is not a candidate (it cannot be proven not frozen)", () => {
  const doc = input({ "a.md": "# A\n" }, { others: ["unreadable.md"] });
  const artifact = scanDocs(doc);
  assert.deepEqual(artifact.shortlist, ["a.md"]);
  assert.equal(artifact.counts.candidates, 1);
});

Deno.test("age: newest first-parent commit for tracked files, mtime for untracked ones, days floored", () => {
  const commit = Math.floor((NOW.getTime() - 41.9 * DAY) / 1000);
  const artifact = scanDocs(input(
    { "t.md": "# T\n", "u.md": "# U\n", "staged.md": "# S\n" },
    {
      untracked: ["u.md"],
      // u.md has a git age from a deleted namesake: it is untracked now, so mtime rules.
      git: { head: "abc", shallow: false, ages: new Map([["t.md", commit], ["u.md", commit]]) },
    },
  ));
  assert.deepEqual(artifact.signals["t.md"][0], {
    kind: "age",
    days: 41,
    last_commit: new Date(commit * 1000).toISOString(),
    source: "git",
  });
  assert.deepEqual(artifact.signals["u.md"][0], {
    kind: "age",
    days: 2,
    last_commit: null,
    source: "mtime",
  });
  // Tracked but never committed (staged only): mtime too.
  assert.deepEqual(artifact.signals["staged.md"][0], {
    kind: "age",
    days: 2,
    last_commit: null,
    source: "mtime",
  });
});

Deno.test("size is always present; a binary doc is shortlisted with size only", () => {
  const artifact = scanDocs(input({
    "a.md": "one\r\ntwo\r\n",
    "bin.md": { kind: "binary", bytes: 10, lines: 1, mtimeMs: 0 },
  }));
  assert.deepEqual(of(artifact.signals["a.md"], "size"), [{ kind: "size", bytes: 10, lines: 2 }]);
  assert.deepEqual(artifact.signals["bin.md"].map((s) => s.kind), ["age", "size", "inbound_links"]);
});

Deno.test("broken_link: missing targets with hints case, extension, or null; existing files and directories are fine", () => {
  const artifact = scanDocs(input({
    "docs/a.md": [
      "[ok](b.md) [dir](../docs/) [img](../img/x.png) [up](../README.md)",
      "[case](B.md)",
      "[ext](b)",
      "[gone](nowhere.md)",
      "![pic](missing.png)",
      "[ext](https://example.com/x.md) [mail](mailto:a@b) [abs](/rooted/x) [root](/docs/b.md)",
    ].join("\n") + "\n",
    "docs/b.md": "# B\n",
    "README.md": "# R\n",
  }, { others: ["img/x.png"] }));
  assert.deepEqual(of(artifact.signals["docs/a.md"], "broken_link"), [
    { kind: "broken_link", line: 2, target: "B.md", hint: "case" },
    { kind: "broken_link", line: 3, target: "b", hint: "extension" },
    { kind: "broken_link", line: 4, target: "nowhere.md", hint: null },
    { kind: "broken_link", line: 5, target: "missing.png", hint: null },
  ]);
});

Deno.test("links into opaque directories (submodules, unwalked dirs, symlinks, .git) are not checked", () => {
  const artifact = scanDocs(input(
    { "a.md": "[s](sub/x.md) [v](vendor/x.md) [l](link/x.md) [g](.git/config)\n" },
    {
      opaque: ["sub", "vendor"],
      files: [
        { path: "a.md", tracked: true, type: "file" },
        { path: "link", tracked: true, type: "symlink" },
      ],
    },
  ));
  assert.deepEqual(of(artifact.signals["a.md"], "broken_link"), []);
});

Deno.test("a target that is not listed but exists on disk (gitignored) is not broken — unless a listed path differs only by case", () => {
  const asked: string[] = [];
  const onDisk = (p: string) => {
    asked.push(p);
    return p === "dist/out.js" || p === "Docs/B.md" ? "exists" : "missing";
  };
  const artifact = scanDocs(
    input({ "a.md": "[o](dist/out.js) [c](Docs/B.md)\n", "docs/b.md": "# B\n" }, { onDisk }),
  );
  assert.deepEqual(of(artifact.signals["a.md"], "broken_link"), [
    { kind: "broken_link", line: 1, target: "Docs/B.md", hint: "case" },
  ]);
  assert.deepEqual(asked, ["dist/out.js"]);
});

Deno.test("broken_anchor: own-file fragments and fragments of linked Markdown docs that were analysed", () => {
  const artifact = scanDocs(input({
    "a.md":
      "# Intro\n\n[ok](#intro) [bad](#nope)\n[ok](b.md#setup) [bad](b.md#missing)\n[skip](ignored.md#x) [img](b.png#x)\n",
    "b.md": "# B\n\n## Setup\n",
    "ignored.md": "# I\n",
  }, { ignored: (p) => p === "ignored.md", others: ["b.png"] }));
  assert.deepEqual(of(artifact.signals["a.md"], "broken_anchor"), [
    { kind: "broken_anchor", line: 3, target: "#nope" },
    { kind: "broken_anchor", line: 4, target: "b.md#missing" },
  ]);
});

Deno.test("broken_anchor: a truncated (over the parse limit) target's fragments are not checked", () => {
  const artifact = scanDocs(input({
    "a.md": "[x](big.md#late-heading)\n",
    "big.md": text("# Early\n", { truncated: true, bytes: 10_000_000 }),
  }));
  assert.deepEqual(of(artifact.signals["a.md"], "broken_anchor"), []);
});

Deno.test("link signals: a doc with hundreds of thousands of findings lists them all, each kind by line", () => {
  const n = 200_000; // more than a call takes as arguments
  const summary: DocSummary = {
    hygiene: undefined,
    appendOnly: false,
    status: undefined,
    checkboxes: undefined,
    anchors: new Set(),
    linkFacts: {
      broken: Array.from({ length: n }, (_, i) => ({
        kind: "broken_link" as const,
        line: i + 1,
        target: "x.md",
        hint: null,
      })),
      // Own fragments (all broken), in reverse line order: they are listed by line.
      fragments: Array.from({ length: n }, (_, i) => ({
        line: n - i,
        target: "#x",
        path: "a.md",
        fragment: "x",
      })),
      missing: Array.from({ length: n }, (_, i) => ({
        kind: "missing_path" as const,
        line: i + 1,
        path: "x.ts",
      })),
    },
  };
  const artifact = scanDocs(input({ "a.md": text("", { summary }) }));
  const signals = artifact.signals["a.md"].filter((s) => "line" in s);
  assert.equal(signals.length, 3 * n);
  const kinds = ["broken_link", "broken_anchor", "missing_path"];
  for (const [k, kind] of kinds.entries()) {
    const part = signals.slice(k * n, (k + 1) * n);
    assert.ok(part.every((s, i) => s.kind === kind && s.line === i + 1), kind);
  }
});

Deno.test("missing_path: inline-code paths that exist neither from the root nor from the doc's directory", () => {
  const artifact = scanDocs(input({
    "pkg/README.md":
      "Use `src/index.ts`, `lib/core.ts` and `src/gone.ts`; see `.dochygiene/state.json`.\n",
  }, { others: ["pkg/src/index.ts", "lib/core.ts"] }));
  assert.deepEqual(of(artifact.signals["pkg/README.md"], "missing_path"), [
    { kind: "missing_path", line: 1, path: "src/gone.ts" },
  ]);
});

Deno.test("missing_path: a path that is the tail of listed paths names the one, or counts several", () => {
  const artifact = scanDocs(input({
    "skills/check/SKILL.md": "Read `references/signals.md`, `x/util.ts` and `gone/none.md`.\n",
  }, {
    others: [
      "skills/clean/references/signals.md",
      "src/x/util.ts",
      "lib/x/util.ts",
      "x/util.tsx",
      "prefix-references/signals.md",
    ],
  }));
  assert.deepEqual(of(artifact.signals["skills/check/SKILL.md"], "missing_path"), [
    {
      kind: "missing_path",
      line: 1,
      path: "references/signals.md",
      hint: "skills/clean/references/signals.md",
    },
    { kind: "missing_path", line: 1, path: "x/util.ts", candidates: 2 },
    { kind: "missing_path", line: 1, path: "gone/none.md" },
  ]);
});

Deno.test("inbound_links counts other shortlisted docs linking in (once per doc; self and excluded docs do not count)", () => {
  const artifact = scanDocs(input({
    "a.md": "[t](t.md) [t again](t.md#x)\n",
    "b.md": "[t](./t.md)\n",
    "t.md": "# T\n[self](t.md)\n",
    "frozen.md": "---\nhygiene: frozen\n---\n[t](t.md)\n",
    "lonely.md": "# L\n",
  }));
  assert.deepEqual(of(artifact.signals["t.md"], "inbound_links"), [{
    kind: "inbound_links",
    count: 2,
  }]);
  assert.deepEqual(of(artifact.signals["lonely.md"], "inbound_links"), [{
    kind: "inbound_links",
    count: 0,
  }]);
});

Deno.test("duplicate: byte-identical after normalising line endings; others listed in code-point order", () => {
  const artifact = scanDocs(input({
    "z.md": "# Same\nbody\n",
    "a.md": "# Same\r\nbody\r\n",
    "m.md": "# Same\rbody\r",
    "diff.md": "# Same\nbody!\n",
    // Invalid UTF-8 decodes alike; the bytes differ, and so do their fingerprints.
    "lossy1.md": text("\uFFFD\n", {
      fingerprint: contentFingerprint(new Uint8Array([0xff, 0x0a])),
    }),
    "lossy2.md": text("\uFFFD\n", {
      fingerprint: contentFingerprint(new Uint8Array([0xfe, 0x0a])),
    }),
  }));
  assert.deepEqual(of(artifact.signals["a.md"], "duplicate"), [{
    kind: "duplicate",
    of: ["m.md", "z.md"],
  }]);
  assert.deepEqual(of(artifact.signals["z.md"], "duplicate"), [{
    kind: "duplicate",
    of: ["a.md", "m.md"],
  }]);
  assert.deepEqual(of(artifact.signals["diff.md"], "duplicate"), []);
  assert.deepEqual(of(artifact.signals["lossy1.md"], "duplicate"), []);
});

Deno.test("duplicate: equal fingerprints are confirmed on the contents when contentOf is given", () => {
  const contents: Record<string, string | undefined> = {
    "a.md": "one",
    "b.md": "two", // a fingerprint collision: not a duplicate
    "c.md": "one",
    "d.md": undefined, // unreadable by now: not a duplicate
  };
  const reads = Object.fromEntries(
    Object.keys(contents).map((path) => [path, text(`# ${path}\n`, { fingerprint: "same" })]),
  );
  const confirmed = scanDocs({ ...input(reads), contentOf: (path) => contents[path] });
  assert.deepEqual(of(confirmed.signals["a.md"], "duplicate"), [{
    kind: "duplicate",
    of: ["c.md"],
  }]);
  assert.deepEqual(of(confirmed.signals["b.md"], "duplicate"), []);
  assert.deepEqual(of(confirmed.signals["d.md"], "duplicate"), []);
  // Without contentOf, equal fingerprints are taken as duplicates.
  const trusted = scanDocs(input(reads));
  assert.deepEqual(of(trusted.signals["b.md"], "duplicate"), [{
    kind: "duplicate",
    of: ["a.md", "c.md", "d.md"],
  }]);
});

Deno.test("checkboxes, dated_name and status come from the doc", () => {
  const artifact = scanDocs(input({
    "plans/2026-08-03-rewrite.md":
      "---\nstatus: done\n---\n# P\n\n- [x] one\n- [ ] two\n- [x] three\n",
    "plain.md": "# Plain\n",
  }));
  const s = artifact.signals["plans/2026-08-03-rewrite.md"];
  assert.deepEqual(of(s, "checkboxes"), [{ kind: "checkboxes", done: 2, open: 1 }]);
  assert.deepEqual(of(s, "dated_name"), [{ kind: "dated_name", date: "2026-08-03" }]);
  assert.deepEqual(of(s, "status"), [{ kind: "status", value: "done" }]);
  assert.deepEqual(artifact.signals["plain.md"].map((x) => x.kind), [
    "age",
    "size",
    "inbound_links",
  ]);
});

Deno.test("lifecycle: the governing rule, with served proven on disk for served_when_path rules and null otherwise", () => {
  const config = parseConfig(`
rules:
  - match: "docs/adr/**"
    lifetime: keep
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
  - match: "plans/*.md"
    lifetime: delete-once-served
    served_when: "shipped"
`);
  const artifact = scanDocs(input({
    "docs/adr/0001.md": "# ADR\n",
    "openspec/changes/add-x/proposal.md": "# X\n",
    "openspec/changes/add-y/proposal.md": "# Y\n",
    "plans/p.md": "# P\n",
    "free.md": "# F\n",
  }, { config, others: ["openspec/changes/archive/2026-01-02-add-x/proposal.md"] }));
  const life = (p: string) => of(artifact.signals[p], "lifecycle");
  assert.deepEqual(life("docs/adr/0001.md"), [{
    kind: "lifecycle",
    rule: "docs/adr/**",
    lifetime: "keep",
    served: null,
  }]);
  assert.deepEqual(life("openspec/changes/add-x/proposal.md"), [
    {
      kind: "lifecycle",
      rule: "openspec/changes/*/",
      lifetime: "delete-once-served",
      served: true,
    },
  ]);
  assert.deepEqual(life("openspec/changes/add-y/proposal.md")[0], {
    kind: "lifecycle",
    rule: "openspec/changes/*/",
    lifetime: "delete-once-served",
    served: false,
  });
  assert.deepEqual(life("plans/p.md"), [
    { kind: "lifecycle", rule: "plans/*.md", lifetime: "delete-once-served", served: null },
  ]);
  assert.deepEqual(life("free.md"), []);
});

Deno.test("output is deterministic and ordered by code point whatever the input order", () => {
  const docs = { "\u{1F600}.md": "# e\n", "\uFFFD.md": "# r\n", "b.md": "# b\n", "a.md": "# a\n" };
  const one = scanDocs(input(docs));
  const reversed = Object.fromEntries(Object.entries(docs).reverse());
  const two = scanDocs(input(reversed));
  assert.deepEqual(one.shortlist, ["a.md", "b.md", "\uFFFD.md", "\u{1F600}.md"]);
  assert.equal(JSON.stringify(one), JSON.stringify(two));
});

Deno.test("artifact header: schema, generated_at, root, git facts (null outside git, head null before the first commit), config echo", () => {
  const outside = scanDocs(input({ "a.md": "# A\n" }, { git: undefined }));
  assert.equal(outside.git, null);
  assert.equal(outside.schema_version, 1);
  assert.equal(outside.generated_at, "2026-11-30T12:00:00.000Z");
  assert.equal(outside.root, "/r");
  assert.deepEqual(outside.scope_globs, ["**/*.md", "**/*.mdx", "**/*.markdown"]);
  assert.deepEqual(outside.excluded_dirs, [
    "build",
    "vendor",
    "archive",
    "graphify-out",
    "node_modules",
  ]);
  const empty = scanDocs(
    input({ "a.md": "# A\n" }, { git: { head: undefined, shallow: false, ages: new Map() } }),
  );
  assert.deepEqual(empty.git, { head: null, shallow: false });
  assert.deepEqual(Object.keys(outside), [
    "schema_version",
    "generated_at",
    "root",
    "git",
    "scope_globs",
    "excluded_dirs",
    "counts",
    "excluded",
    "shortlist",
    "signals",
  ]);
});

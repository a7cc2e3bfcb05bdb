import assert from "node:assert/strict";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import {
  entryPathProblem,
  MAX_REPORT_BYTES,
  parseReport,
  validateReport,
} from "../../lib/report/validate_report.ts";

const FIXTURES = new URL("../../fixtures/reports/", import.meta.url);
const read = (name: string) => Deno.readTextFile(new URL(name, FIXTURES));

Deno.test("the valid fixtures validate, and validation keeps every field", async () => {
  assert.deepEqual(parseReport(await read("valid/minimal.json")).entries, []);
  const raw = JSON.parse(await read("valid/full.json"));
  const report = parseReport(await read("valid/full.json"));
  assert.equal(report.entries.length, 7);
  const byPath = new Map(report.entries.map((e) => [e.path, e]));
  for (const entry of raw.entries) {
    assert.deepEqual(byPath.get(entry.path), { signals: [], ...entry }, entry.path);
  }
});

const expected: Record<string, string> = JSON.parse(
  await Deno.readTextFile(new URL("invalid/expected.json", FIXTURES)),
);

for (const [name, message] of Object.entries(expected)) {
  Deno.test(`invalid report fixture is refused with exit 2 naming the JSON path: ${name}`, async () => {
    const text = await read(`invalid/${name}.json`);
    assert.throws(() => parseReport(text), (err) => {
      assert.ok(err instanceof DochygieneError, String(err));
      assert.equal(err.code, "INVALID_REPORT");
      assert.equal(err.exitCode, 2);
      assert.ok(!err.message.includes("\n"), err.message);
      assert.ok(
        err.message.startsWith(message),
        `${err.message}\n  does not start with\n${message}`,
      );
      return true;
    });
  });
}

Deno.test("every invalid fixture has an expected message and vice versa", async () => {
  const files = (await Array.fromAsync(Deno.readDir(new URL("invalid/", FIXTURES))))
    .map((e) => e.name.replace(/\.json$/, ""))
    .filter((n) => n !== "expected")
    .sort();
  assert.deepEqual(files, Object.keys(expected).sort());
});

Deno.test("validateReport returns keys in schema order and defaults signals to []", () => {
  const report = validateReport({
    entries: [{
      rationale: "r",
      safety_tier: "auto",
      op: "Delete.",
      op_type: "delete",
      category: "bloat",
      path: "a.md",
    }],
    scan_generated_at: "2026-11-30T03:30:00.000Z",
    generated_at: "2026-11-30T03:36:18+01:00",
    schema_version: 1,
  });
  assert.deepEqual(Object.keys(report), [
    "schema_version",
    "generated_at",
    "scan_generated_at",
    "entries",
  ]);
  assert.deepEqual(Object.keys(report.entries[0]), [
    "path",
    "category",
    "op_type",
    "op",
    "safety_tier",
    "rationale",
    "signals",
  ]);
});

Deno.test("a report over the size cap is refused before parsing", () => {
  assert.throws(() => parseReport(" ".repeat(MAX_REPORT_BYTES + 1)), /larger than 16777216 bytes/);
});

Deno.test("entryPathProblem accepts root-relative files and directories", () => {
  for (
    const ok of ["a.md", "docs/x y.md", "runs/run-1/", "..hidden/a.md", "docs/café.md", "a/.b/c"]
  ) {
    assert.equal(entryPathProblem(ok), undefined, ok);
  }
  for (
    const bad of [
      "",
      "/a",
      "C:/a",
      "~/a",
      "a\\b",
      "a/../b",
      "..",
      "./a",
      "a//b",
      ".git/config",
      "a\nb",
    ]
  ) {
    assert.notEqual(entryPathProblem(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("extract_to is vault or a root-relative path inside the root, never outside nor into .git/", () => {
  const report = (extractTo: string) =>
    JSON.stringify({
      schema_version: 1,
      generated_at: "2026-11-30T03:36:18.000Z",
      scan_generated_at: "2026-11-30T03:36:18.000Z",
      entries: [{
        path: "docs/plan.md",
        category: "served",
        op_type: "extract-then-delete",
        op: "Distil the decision, then delete the plan.",
        safety_tier: "confirm",
        rationale: "shipped",
        extract_to: extractTo,
      }],
    });
  for (const ok of ["vault", "CLAUDE.md", "docs/adr/0002-x.md", "docs/reference/"]) {
    assert.equal(parseReport(report(ok)).entries[0].extract_to, ok);
  }
  for (const bad of ["/etc/cron.d/x", "../outside.md", "~/.bashrc", ".git/hooks/pre-commit", ""]) {
    assert.throws(
      () => parseReport(report(bad)),
      (err) =>
        err instanceof DochygieneError && err.exitCode === 2 &&
        /^invalid report: entries\[0\]\.extract_to: /.test(err.message),
      bad,
    );
  }
});

/** A one-entry report whose only signal is `signal` (JSON text). */
function withSignal(signal: string): string {
  const entry = {
    path: "docs/a.md",
    category: "stale",
    op_type: "update",
    op: "Fix it.",
    safety_tier: "confirm",
    rationale: "old",
    signals: ["SIGNAL"],
  };
  return JSON.stringify({
    schema_version: 1,
    generated_at: "2026-11-30T03:36:18.000Z",
    scan_generated_at: "2026-11-30T03:36:18.000Z",
    entries: [entry],
  }).replace('"SIGNAL"', signal);
}

Deno.test("a signal nested 100,000 levels deep is an invalid report naming its path, not a crash", () => {
  const deep = '{"kind": "age", "a": ' + "[".repeat(100_000) + "]".repeat(100_000) + "}";
  assert.throws(() => parseReport(withSignal(deep)), (err) => {
    assert.ok(err instanceof DochygieneError, String(err));
    assert.equal(err.code, "INVALID_REPORT");
    assert.equal(err.exitCode, 2);
    assert.equal(
      err.message,
      "invalid report: entries[0].signals[0]: must not nest objects or lists more than 64 levels deep in the report",
    );
    return true;
  });
});

Deno.test("nesting up to 64 levels in the whole report is valid, 65 is not", () => {
  // report, entries, entry, signals: a signal is level 5, so its own nesting may add 59.
  const signal = (extra: number) =>
    '{"kind": "age", "a": ' + "[".repeat(extra) + "]".repeat(extra) + "}";
  assert.equal(parseReport(withSignal(signal(59))).entries.length, 1);
  assert.throws(() => parseReport(withSignal(signal(60))), /more than 64 levels deep/);
});

Deno.test("an entry may carry the drift signals as the scan wrote them, kept as they are", async () => {
  const raw = JSON.parse(await read("valid/full.json"));
  const signals = [
    {
      kind: "stale_reference",
      line: 4,
      element: "fs.cachedChecks",
      last_seen: { commit: "a".repeat(40), date: "2024-03-02T10:00:00.000Z" },
      gone_by: { commit: "b".repeat(40), date: "2024-05-02T10:00:00.000Z" },
    },
    { kind: "code_drift", path: "src/config.ts", commits_after: 14, days_after: 210 },
    { kind: "review", reviewed: "2024-01-01", days_since: 400, interval_days: 90, due: true },
  ];
  raw.entries[0].signals = signals;
  const report = parseReport(JSON.stringify(raw));
  assert.deepEqual(report.entries.find((e) => e.path === raw.entries[0].path)?.signals, signals);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { fixedClock } from "../../lib/core/clock.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { loadJudgments } from "../../lib/prune/load_judgments.ts";
import { writeReportPair } from "../../lib/report/write_report_pair.ts";
import { MAX_REPORT_BYTES, parseReport } from "../../lib/report/validate_report.ts";
import { servedReport, tempDir } from "../support/helpers.ts";

const AT = "2026-11-29T10:00:00.000Z";

/** Asserts `promise` rejects with an exit-2 `code` whose message matches `message`. */
async function rejectsWith(promise: Promise<unknown>, code: string, message: RegExp) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.code, code);
    assert.equal(err.exitCode, 2);
    assert.match(err.message, message);
    return true;
  });
}

Deno.test("loadJudgments: --from-report's entries become judgments by path, dated by the report", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "r.json");
  await Deno.writeTextFile(file, JSON.stringify(servedReport(["plans/a.md", "plans/b.md"], AT)));
  const judgments = await loadJudgments({ file, stateDir: dir.path, judged: false });
  assert.deepEqual([...judgments!.keys()], ["plans/a.md", "plans/b.md"]);
  assert.deepEqual(judgments!.get("plans/a.md"), {
    op_type: "delete",
    rationale: "shipped",
    extract_to: undefined,
    judged_at: AT,
  });
});

Deno.test("loadJudgments: without --from-report, the current pair is read only when a rule uses served_when", async () => {
  await using dir = await tempDir();
  const report = parseReport(JSON.stringify(servedReport(["plans/a.md"], AT)));
  await writeReportPair(dir.path, report, { clock: fixedClock(new Date(AT)) });
  assert.equal(await loadJudgments({ stateDir: dir.path, judged: false }), undefined);
  const judgments = await loadJudgments({ stateDir: dir.path, judged: true });
  assert.deepEqual([...judgments!.keys()], ["plans/a.md"]);
});

Deno.test("loadJudgments: no report pair yet is no judgments (undefined), not an error", async () => {
  await using dir = await tempDir();
  assert.equal(await loadJudgments({ stateDir: dir.path, judged: true }), undefined);
});

Deno.test("loadJudgments: a report that cannot be read is an input error naming it and --from-report", async () => {
  await using dir = await tempDir();
  const stateDir = dir.path;
  const cases: [string, RegExp][] = [
    [join(dir.path, "gone.json"), /^cannot read the report .*gone\.json \(.*No such file.*\); /],
    [dir.path, /^cannot read the report .* \(it is not a regular file\); /],
    ["/dev/null", /^cannot read the report \/dev\/null \(it is not a regular file\); /],
  ];
  const big = join(dir.path, "big.json");
  await Deno.writeTextFile(big, "");
  await Deno.truncate(big, MAX_REPORT_BYTES + 1); // sparse: never read
  cases.push([
    big,
    new RegExp(`\\(${MAX_REPORT_BYTES + 1} bytes; a report is at most ${MAX_REPORT_BYTES}\\); `),
  ]);
  // Read as `state.ts report --file` reads it: strict UTF-8 (never a report with U+FFFD in it).
  const latin1 = join(dir.path, "latin1.json");
  await Deno.writeFile(latin1, new Uint8Array([0x7b, 0xe9, 0x7d]));
  cases.push([latin1, /^cannot read the report .*latin1\.json \(it is not UTF-8 text\); /]);
  for (const [file, message] of cases) {
    await rejectsWith(loadJudgments({ file, stateDir, judged: false }), "INVALID_REPORT", message);
    await rejectsWith(
      loadJudgments({ file, stateDir, judged: false }),
      "INVALID_REPORT",
      /name an existing report with --from-report$/,
    );
  }
});

Deno.test("loadJudgments: an invalid report keeps the validator's code and message, prefixed with its path", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "bad.json");
  await Deno.writeTextFile(file, "{not json");
  await rejectsWith(
    loadJudgments({ file, stateDir: dir.path, judged: true }),
    "INVALID_REPORT",
    new RegExp(
      `^${
        file.replaceAll(".", "\\.")
      }: the report is not valid JSON .*; fix it or name a valid report with --from-report$`,
    ),
  );
  await Deno.writeTextFile(file, JSON.stringify({ schema_version: 2 }));
  await assert.rejects(
    loadJudgments({ file, stateDir: dir.path, judged: true }),
    (err) => err instanceof DochygieneError && err.message.startsWith(`${file}: `),
  );
});

Deno.test("loadJudgments: a stored report with a duplicate key is refused, naming the key's JSON path", async () => {
  await using dir = await tempDir();
  const report = parseReport(JSON.stringify(servedReport(["plans/a.md"], AT)));
  const pair = await writeReportPair(dir.path, report, { clock: fixedClock(new Date(AT)) });
  // A hand edit that JSON.parse would take silently: the later path wins.
  const text = await Deno.readTextFile(pair.json);
  await Deno.writeTextFile(
    pair.json,
    text.replace('"path": "plans/a.md",', '"path": "plans/a.md", "path": "plans/b.md",'),
  );
  await rejectsWith(
    loadJudgments({ stateDir: dir.path, judged: true }),
    "INVALID_REPORT",
    /: invalid report: entries\[0\]\.path: duplicate key; JSON keeps only the last, so write each key once per object; fix it or name a valid report with --from-report$/,
  );
});

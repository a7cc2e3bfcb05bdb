import assert from "node:assert/strict";
import { atomicWrite } from "../../lib/fs/atomic_write.ts";
import { fixedClock } from "../../lib/core/clock.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { renderReport } from "../../lib/report/render_report.ts";
import type { Report } from "../../lib/report/validate_report.ts";
import { findReportPair } from "../../lib/report/find_report_pair.ts";
import { writeReportPair } from "../../lib/report/write_report_pair.ts";
import { entryNames, tempDir } from "../support/helpers.ts";

const REPORT: Report = {
  schema_version: 1,
  generated_at: "2026-11-30T03:36:18.000Z",
  scan_generated_at: "2026-11-30T03:30:00.000Z",
  entries: [{
    path: "a.md",
    category: "stale",
    op_type: "update",
    op: "Update.",
    safety_tier: "confirm",
    rationale: "old",
    signals: [],
  }],
};
const at = (iso: string) => ({ clock: fixedClock(new Date(iso)) });

Deno.test("writes report-<stamp>.json and .md: the JSON report and its rendering", async () => {
  await using dir = await tempDir();
  const w = await writeReportPair(dir.path, REPORT, at("2026-11-30T03:36:18.999Z"));
  assert.equal(w.stamp, "20261130T033618Z");
  assert.deepEqual(await entryNames(dir.path), [
    "report-20261130T033618Z.json",
    "report-20261130T033618Z.md",
  ]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(w.json)), REPORT);
  assert.equal(await Deno.readTextFile(w.md), renderReport(REPORT));
  assert.deepEqual(w.removed, []);
});

Deno.test("rollover leaves exactly one pair and removes strays and interrupted temp files", async () => {
  await using dir = await tempDir();
  await writeReportPair(dir.path, REPORT, at("2026-11-01T00:00:00Z"));
  await Deno.writeTextFile(
    `${dir.path}/report-20261102T000000Z.json`,
    "lone file of a killed writer",
  );
  await Deno.writeTextFile(`${dir.path}/.report-20261103T000000Z.md.tmp-1-1796046796262-0`, "temp");
  await Deno.writeTextFile(`${dir.path}/state.json`, "{}");
  await Deno.writeTextFile(`${dir.path}/scan.json`, "{}");
  const w = await writeReportPair(dir.path, REPORT, at("2026-11-30T03:36:18Z"));
  assert.deepEqual(await entryNames(dir.path), [
    "report-20261130T033618Z.json",
    "report-20261130T033618Z.md",
    "scan.json",
    "state.json",
  ]);
  assert.deepEqual(w.removed, [
    `${dir.path}/report-20261101T000000Z.json`,
    `${dir.path}/report-20261101T000000Z.md`,
    `${dir.path}/report-20261102T000000Z.json`,
  ]);
});

Deno.test("two reports in the same second never overwrite the previous pair in place", async () => {
  await using dir = await tempDir();
  await writeReportPair(dir.path, REPORT, at("2026-11-30T03:36:18.100Z"));
  const w = await writeReportPair(
    dir.path,
    { ...REPORT, entries: [] },
    at("2026-11-30T03:36:18.900Z"),
  );
  assert.equal(w.stamp, "20261130T033619Z");
  assert.deepEqual(await entryNames(dir.path), [
    "report-20261130T033619Z.json",
    "report-20261130T033619Z.md",
  ]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(w.json)).entries, []);
});

Deno.test("three reports in the same second get stamps that only move forward, and the last is the current pair", async () => {
  await using dir = await tempDir();
  const stamps: string[] = [];
  for (const [i, iso] of ["18.100", "18.500", "18.900"].entries()) {
    const entries = REPORT.entries.map((e) => ({ ...e, op: `Update ${i}.` }));
    const w = await writeReportPair(
      dir.path,
      { ...REPORT, entries },
      at(`2026-11-30T03:36:${iso}Z`),
    );
    stamps.push(w.stamp);
  }
  assert.deepEqual(stamps, ["20261130T033618Z", "20261130T033619Z", "20261130T033620Z"]);
  const current = await findReportPair(dir.path);
  assert.equal(current?.stamp, "20261130T033620Z");
  assert.equal(JSON.parse(await Deno.readTextFile(current!.json)).entries[0].op, "Update 2.");
});

Deno.test("a new pair is stamped after any pair left with a later stamp (a clock set back), so it is the current one", async () => {
  await using dir = await tempDir();
  // A lone .json (a killed writer) and a complete pair, both stamped ahead of the clock.
  await writeReportPair(dir.path, REPORT, at("2026-12-01T00:00:00Z"));
  await Deno.writeTextFile(`${dir.path}/report-20261201T000005Z.json`, "{}");
  const w = await writeReportPair(dir.path, { ...REPORT, entries: [] }, at("2026-11-30T03:36:18Z"));
  assert.equal(w.stamp, "20261201T000006Z");
  assert.equal((await findReportPair(dir.path))?.stamp, w.stamp);
  assert.deepEqual(await entryNames(dir.path), [
    "report-20261201T000006Z.json",
    "report-20261201T000006Z.md",
  ]);
});

for (const failing of [".json", ".md"]) {
  Deno.test(`a failed ${failing} write removes what it wrote and leaves the previous pair byte for byte`, async () => {
    await using dir = await tempDir();
    const old = await writeReportPair(dir.path, REPORT, at("2026-11-01T00:00:00Z"));
    const before = [await Deno.readFile(old.json), await Deno.readFile(old.md)];
    const write = (path: string, data: string) =>
      path.endsWith(failing)
        ? Promise.reject(new Error("No space left on device (os error 28)"))
        : atomicWrite(path, data);
    await assert.rejects(
      writeReportPair(dir.path, { ...REPORT, entries: [] }, {
        ...at("2026-11-30T03:36:18Z"),
        write,
      }),
      (err) => {
        assert.ok(err instanceof DochygieneError);
        assert.equal(err.code, "REPORT_WRITE_FAILED");
        assert.match(err.message, /No space left on device.*the previous pair is untouched/);
        return true;
      },
    );
    assert.deepEqual([await Deno.readFile(old.json), await Deno.readFile(old.md)], before);
    assert.deepEqual(await entryNames(dir.path), [
      "report-20261101T000000Z.json",
      "report-20261101T000000Z.md",
    ]);
  });
}

Deno.test("a real failed write (the .md path is a directory) leaves no temp file behind", async () => {
  await using dir = await tempDir();
  const old = await writeReportPair(dir.path, REPORT, at("2026-11-01T00:00:00Z"));
  await assert.rejects(
    writeReportPair(dir.path, REPORT, {
      ...at("2026-11-30T03:36:18Z"),
      // The real atomicWrite, aimed at a non-empty directory for the .md: its rename fails.
      write: async (path, data) => {
        if (path.endsWith(".md")) {
          await Deno.mkdir(path);
          await Deno.writeTextFile(`${path}/x`, "x");
        }
        await atomicWrite(path, data);
      },
    }),
    DochygieneError,
  );
  const left = (await entryNames(dir.path)).filter((n) => n !== "report-20261130T033618Z.md");
  assert.deepEqual(left, ["report-20261101T000000Z.json", "report-20261101T000000Z.md"]);
  assert.ok(await Deno.readTextFile(old.md));
});

Deno.test("the write is serialised with the state lock and leaves no lock file", async () => {
  await using dir = await tempDir();
  await Promise.all(
    ["2026-11-30T00:00:01Z", "2026-11-30T00:00:02Z", "2026-11-30T00:00:03Z", "2026-11-30T00:00:04Z"]
      .map((t) => writeReportPair(dir.path, REPORT, at(t))),
  );
  const left = await entryNames(dir.path);
  assert.equal(left.length, 2, left.join(", "));
  assert.equal(left[0].replace(".json", ""), left[1].replace(".md", ""));
});

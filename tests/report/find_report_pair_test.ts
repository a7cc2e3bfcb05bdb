import assert from "node:assert/strict";
import { findReportPair } from "../../lib/report/find_report_pair.ts";
import { tempDir } from "../support/helpers.ts";

Deno.test("findReportPair: no directory or no pair is undefined", async () => {
  await using dir = await tempDir();
  assert.equal(await findReportPair(`${dir.path}/missing`), undefined);
  assert.equal(await findReportPair(dir.path), undefined);
});

Deno.test("findReportPair picks the newest complete pair and ignores lone files and look-alikes", async () => {
  await using dir = await tempDir();
  for (
    const name of [
      "report-20261101T000000Z.json",
      "report-20261101T000000Z.md",
      "report-20261102T000000Z.json", // lone: a killed writer
      "report-2026.json",
      "report-2026.md",
      "report-20261103T000000Z.md.bak",
    ]
  ) await Deno.writeTextFile(`${dir.path}/${name}`, "x");
  await Deno.mkdir(`${dir.path}/report-20261104T000000Z.json`);
  await Deno.writeTextFile(`${dir.path}/report-20261104T000000Z.md`, "x");
  assert.deepEqual(await findReportPair(dir.path), {
    stamp: "20261101T000000Z",
    json: `${dir.path}/report-20261101T000000Z.json`,
    md: `${dir.path}/report-20261101T000000Z.md`,
  });
});

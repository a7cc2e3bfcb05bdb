import assert from "node:assert/strict";
import { datedName } from "../../lib/core/dated_name.ts";

Deno.test("datedName: a file name starting with a dashed or compact date", () => {
  assert.equal(datedName("notes/2026-08-03-standup.md"), "2026-08-03");
  assert.equal(datedName("notes/20260803-standup.md"), "2026-08-03");
  assert.equal(datedName("2026-08-03.md"), "2026-08-03");
  assert.equal(datedName("notes/2026-08-03_standup.md"), "2026-08-03");
});

Deno.test("datedName: else the parent directory's name", () => {
  assert.equal(datedName("runs/2026-08-03-sweep/README.md"), "2026-08-03");
  assert.equal(datedName("runs/20260803/summary.md"), "2026-08-03");
  assert.equal(datedName("2026-08-03-run/notes/x.md"), undefined);
  assert.equal(datedName("runs/2026-08-03-a/2026-09-01-b.md"), "2026-09-01");
});

Deno.test("datedName: only real calendar dates", () => {
  assert.equal(datedName("2026-02-29-x.md"), undefined);
  assert.equal(datedName("2024-02-29-x.md"), "2024-02-29");
  assert.equal(datedName("2026-13-01-x.md"), undefined);
  assert.equal(datedName("2026-00-10-x.md"), undefined);
  assert.equal(datedName("2026-04-31-x.md"), undefined);
  assert.equal(datedName("18991231-x.md"), undefined);
});

Deno.test("datedName: a date must be followed by a separator or the end of the name", () => {
  assert.equal(datedName("202608031200-x.md"), undefined);
  assert.equal(datedName("2026-08-031.md"), undefined);
  assert.equal(datedName("v2026-08-03.md"), undefined);
  assert.equal(datedName("docs/guide.md"), undefined);
  assert.equal(datedName(""), undefined);
});

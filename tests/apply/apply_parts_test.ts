// The parts of an apply that stand on their own (lib/prune/_*.ts): which unit holds a path, what
// changed in the index since the snapshot, the journal's file, and the removal of an apply's files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { unitFinder } from "../../lib/core/unit_finder.ts";
import { type Journal, readJournal, writeJournal } from "../../lib/apply/_journal.ts";
import { indexDrift, type IndexEntry } from "../../lib/apply/_read_index.ts";
import { cleanUp, tempFiles } from "../../lib/apply/_temp_files.ts";
import { entryNames, tempDir } from "../support/helpers.ts";

const entry = (path: string, unit: string, oid = "a".repeat(40)): IndexEntry => ({
  path,
  unit,
  tagged: new TextEncoder().encode(`H 100644 ${oid} 0\t${path}`),
});

Deno.test("a path belongs to the file unit it is, or to the directory unit above it", () => {
  const unitOf = unitFinder(["notes/a.md", "runs/r1/"]);
  assert.equal(unitOf("notes/a.md"), "notes/a.md");
  assert.equal(unitOf("runs/r1/deep/x.md"), "runs/r1/");
  assert.equal(unitOf("runs/r10/x.md"), undefined);
  assert.equal(unitOf("runs/r1"), undefined);
  assert.equal(unitOf("notes/a.md.bak"), undefined);
});

Deno.test("index drift names the first entry added, changed or removed under the units", () => {
  const before = [entry("runs/r1/a.md", "runs/r1/"), entry("runs/r1/b.md", "runs/r1/")];
  const now = (entries: IndexEntry[], unmerged = false) => ({
    entries,
    hidden: new Map(),
    unmerged,
  });
  assert.equal(indexDrift(before, now(before)), undefined);
  assert.equal(
    indexDrift(before, now([...before, entry("runs/r1/c.md", "runs/r1/")])),
    "runs/r1/c.md was added to the index in runs/r1/",
  );
  assert.equal(
    indexDrift(before, now([before[0], entry("runs/r1/b.md", "runs/r1/", "b".repeat(40))])),
    "runs/r1/b.md changed in the index",
  );
  assert.equal(indexDrift(before, now([before[1]])), "runs/r1/a.md was removed from the index");
  assert.equal(indexDrift(before, now(before, true)), "the index got unresolved conflicts");
});

Deno.test("the journal is one JSON line; none is undefined, one that is not a journal a PRUNE_JOURNAL error", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "prune-journal.json");
  assert.equal(await readJournal(path), undefined);
  const journal: Journal = {
    schema_version: 1,
    started_at: "2026-11-30T12:00:00.000Z",
    old_head: null,
    tree: null,
    backup: "prune-1-abcdef01.backup.index",
    objects: "prune-1-abcdef01.objects",
    snapshot: "",
    files: ["notes/a.md"],
    raw: ["notes/a.md"],
  };
  await writeJournal(path, journal);
  assert.equal(await Deno.readTextFile(path), `${JSON.stringify(journal)}\n`);
  assert.deepEqual(await readJournal(path), journal);
  await Deno.writeTextFile(path, '{"schema_version": 2}');
  await assert.rejects(
    readJournal(path),
    (err: unknown) =>
      err instanceof DochygieneError && err.code === "PRUNE_JOURNAL" &&
      /is not a readable prune journal/.test(err.message),
  );
});

Deno.test("an apply's files are removed after it, but a failed restore keeps its backup and journal", async () => {
  await using dir = await tempDir();
  const make = async () => {
    const { names, temp } = tempFiles(dir.path);
    assert.equal(temp.backup, join(dir.path, names.backup));
    assert.equal(temp.objects, join(dir.path, names.objects));
    for (const path of Object.values(temp)) await Deno.writeTextFile(path, "x");
    return { names, temp };
  };
  const kept = await make();
  await cleanUp(kept.temp, true);
  assert.deepEqual(
    await entryNames(dir.path),
    [kept.names.backup, kept.names.objects, "prune-journal.json"].sort(),
  );
  await cleanUp(kept.temp, false);
  assert.deepEqual(await entryNames(dir.path), []);
});

// `deno task compile` fails with one clear line when it cannot have a denort
// runtime, and never builds on the deno CLI (which would give binaries that
// only start a REPL). Building for real needs denort, which these machines
// cannot download; see docs/install.md, "Standalone binaries".

import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO, PACKAGE_DIR, runCommand, tempDir } from "../support/helpers.ts";

function compile(out: string, denort: string) {
  return runCommand(DENO, ["task", "--quiet", "compile", "--out", out], {
    cwd: PACKAGE_DIR,
    env: { DENORT_BIN: denort, NO_COLOR: "1" },
  });
}

Deno.test("compile names a missing DENORT_BIN in one line and builds nothing", async () => {
  await using tmp = await tempDir();
  const out = join(tmp.path, "dist");
  const run = await compile(out, join(tmp.path, "no-such-denort"));
  assert.equal(run.code, 1);
  const lines = run.stderr.trim().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], /^dochygiene compile: DENORT_BIN=.*no-such-denort does not exist/);
  await assert.rejects(Deno.stat(out));
});

Deno.test("compile refuses the deno CLI as DENORT_BIN", async () => {
  await using tmp = await tempDir();
  const run = await compile(join(tmp.path, "dist"), DENO);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr.trim(),
    /^dochygiene compile: DENORT_BIN=.* is the deno CLI, not the denort runtime/,
  );
  assert.equal(run.stderr.trim().split("\n").length, 1);
});

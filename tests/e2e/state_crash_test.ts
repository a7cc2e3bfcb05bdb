// Crash safety of the state store (docs/design.md "Invariants" 4 and 5): children that
// write state or report pairs in a loop, run with state.ts's exact permission
// flags, are killed with SIGKILL at random moments (seeded PRNG, so a failure
// reproduces); after every kill the files on disk must be one whole version.

import assert from "node:assert/strict";
import { join } from "node:path";
import { findReportPair } from "../../lib/report/find_report_pair.ts";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import { renderReport } from "../../lib/report/render_report.ts";
import { emptyState } from "../../lib/state/state_file.ts";
import { parseReport } from "../../lib/report/validate_report.ts";
import { DENO, PACKAGE_DIR, prng, tempRepo } from "../support/helpers.ts";

const BASE = Date.parse("2026-01-01T00:00:00.000Z");

/** Spawns `script` with state.ts's flags in `cwd`, waits for its first line, kills it after `delayMs`. */
async function killAfterFirstLine(script: string, args: string[], cwd: string, delayMs: number) {
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS.state,
      script,
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  // A random moment inside the write loop: the delay is the randomness, not a wait for a state.
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill("SIGKILL");
  const status = await child.status;
  await reader.cancel().catch(() => {});
  assert.ok(seen.includes("\n"), `the writer died before its first write (code ${status.code})`);
}

Deno.test("SIGKILL at 300 random moments never leaves a torn or corrupt state.json", async () => {
  await using repo = await tempRepo();
  const random = prng(20261130);
  const stateFile = `${repo.path}/.dochygiene/state.json`;
  const expected = (seq: number) =>
    JSON.stringify(
      { ...emptyState(), last_check: new Date(BASE + seq * 1000).toISOString(), seq },
      null,
      2,
    ) + "\n";
  let lastSeq = 0;
  for (let i = 0; i < 300; i++) {
    await killAfterFirstLine(
      join(PACKAGE_DIR, "tests/support/state_writer.ts"),
      [],
      repo.path,
      Math.floor(random() * 12),
    );
    const text = await Deno.readTextFile(stateFile);
    const seq = JSON.parse(text).seq;
    assert.ok(Number.isInteger(seq) && seq > lastSeq, `kill ${i}: seq ${seq} after ${lastSeq}`);
    assert.equal(text, expected(seq), `kill ${i}: state.json is not a whole version`);
    lastSeq = seq;
  }
  const names = (await Array.fromAsync(Deno.readDir(`${repo.path}/.dochygiene`))).map((e) =>
    e.name
  );
  assert.ok(!names.some((n) => n.includes("corrupt")), names.join(", "));
});

Deno.test("SIGKILL during report writes never leaves zero pairs, nor a torn one", async () => {
  await using repo = await tempRepo();
  const random = prng(4);
  const fixture = join(PACKAGE_DIR, "fixtures/reports/valid/full.json");
  const report = parseReport(await Deno.readTextFile(fixture));
  const json = JSON.stringify(report, null, 2) + "\n";
  const md = renderReport(report);
  const dir = `${repo.path}/.dochygiene`;
  let lastStamp = "";
  for (let i = 0; i < 60; i++) {
    await killAfterFirstLine(
      join(PACKAGE_DIR, "tests/support/report_writer.ts"),
      [fixture],
      repo.path,
      Math.floor(random() * 15),
    );
    const pair = await findReportPair(dir);
    assert.ok(pair, `kill ${i}: no complete report pair left`);
    assert.ok(pair.stamp > lastStamp, `kill ${i}: the pair went back in time`);
    assert.equal(await Deno.readTextFile(pair.json), json, `kill ${i}: torn JSON`);
    assert.equal(await Deno.readTextFile(pair.md), md, `kill ${i}: torn Markdown`);
    lastStamp = pair.stamp;
  }
});

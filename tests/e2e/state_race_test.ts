// Read-modify-write of state.json is serialised across processes: real
// `state.ts mark-checked` processes race reminder-like writers (remind.ts's
// exact flags), and nobody's update is lost.

import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import { DENO, PACKAGE_DIR, runSeam, tempRepo } from "../support/helpers.ts";

const at = (base: string, i: number) => new Date(Date.parse(base) + i * 1000).toISOString();

async function remindLike(cwd: string, id: number): Promise<number> {
  const { code } = await new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS.remind,
      join(PACKAGE_DIR, "tests/support/remind_like_writer.ts"),
      String(id),
    ],
    cwd,
    stdout: "null",
    stderr: "inherit",
  }).output();
  return code;
}

async function readState(root: string) {
  return JSON.parse(await Deno.readTextFile(`${root}/.dochygiene/state.json`));
}

Deno.test("20 mark-checked racing 20 other writers: no update lost, unknown keys kept", async () => {
  await using repo = await tempRepo();
  const checks = Array.from({ length: 20 }, (_, i) => at("2026-11-30T00:00:00Z", i));
  const codes = await Promise.all([
    ...checks.map((now) =>
      runSeam("state", ["mark-checked"], { cwd: repo.path, env: { DOCHYGIENE_NOW: now } }).then(
        (r) => {
          assert.equal(r.stderr, "");
          return r.code;
        },
      )
    ),
    ...Array.from({ length: 20 }, (_, i) => remindLike(repo.path, i)),
  ]);
  assert.deepEqual(codes, Array(40).fill(0));
  const state = await readState(repo.path);
  assert.deepEqual(state.writers.toSorted((a: number, b: number) => a - b), [...Array(20).keys()]);
  assert.ok(checks.includes(state.last_check), `last_check ${state.last_check}`);
  assert.equal(state.schema_version, 1);
  const left = (await Array.fromAsync(Deno.readDir(`${repo.path}/.dochygiene`))).map((e) => e.name);
  assert.deepEqual(
    left.sort(),
    [".gitignore", "state.json"],
    "no lock or temp file after clean exits",
  );
});

Deno.test("one mark-checked racing 20 reminder writes always keeps its last_check", async () => {
  await using repo = await tempRepo();
  const earlier = "2026-11-01T00:00:00.000Z";
  const mine = "2026-11-30T12:34:56.000Z";
  await runSeam("state", ["mark-checked"], { cwd: repo.path, env: { DOCHYGIENE_NOW: earlier } });
  const [check] = await Promise.all([
    runSeam("state", ["mark-checked"], { cwd: repo.path, env: { DOCHYGIENE_NOW: mine } }),
    ...Array.from({ length: 20 }, (_, i) => remindLike(repo.path, i)),
  ]);
  assert.equal(check.code, 0);
  const state = await readState(repo.path);
  assert.equal(state.last_check, mine);
  assert.equal(state.writers.length, 20);
});

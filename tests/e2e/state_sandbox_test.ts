// Writes are confined to <root>/.dochygiene at the runtime level
// (docs/design.md "Invariants" 7): under state.ts's exact flags, a write anywhere
// else fails with NotCapable, whatever the code tries.

import assert from "node:assert/strict";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import { DENO, git, PACKAGE_DIR, tempDir, writeFiles } from "../support/helpers.ts";

Deno.test("under state.ts's flags, writes outside .dochygiene fail with NotCapable", async () => {
  await using outer = await tempDir();
  await using elsewhere = await tempDir();
  const root = `${outer.path}/repo`;
  await Deno.mkdir(`${root}/.dochygiene`, { recursive: true });
  await git(root, ["init", "-q"]);
  await writeFiles(root, { "README.md": "original", "docs/a.md": "a" });
  const out = await new Deno.Command(DENO, {
    args: [
      "run",
      "--quiet",
      `--config=${PACKAGE_DIR}/deno.json`,
      ...PERMISSION_FLAGS.state,
      `${PACKAGE_DIR}/tests/support/escape_writer.ts`,
      elsewhere.path,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
    "../x": "NotCapable",
    "README.md": "NotCapable",
    "docs/new.md": "NotCapable",
    "mkdir docs2": "NotCapable",
    "remove README.md": "NotCapable",
    "outside": "NotCapable",
    ".dochygiene/ok": "ok",
  });
  assert.equal(await Deno.readTextFile(`${root}/README.md`), "original");
  assert.deepEqual((await Array.fromAsync(Deno.readDir(outer.path))).map((e) => e.name), ["repo"]);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(elsewhere.path)), []);
});

Deno.test("the documented flags have no network, FFI or unscoped write", () => {
  for (const flags of Object.values(PERMISSION_FLAGS)) {
    assert.ok(flags.includes("--no-prompt"));
    assert.ok(flags.includes("--allow-write=.dochygiene"));
    assert.ok(
      !flags.some((f) => /^--allow-(net|ffi|all|sys)|^-A$|^--allow-write$/.test(f)),
      flags.join(" "),
    );
    assert.ok(!flags.some((f) => f.startsWith("--allow-run") && f !== "--allow-run=git"));
  }
});

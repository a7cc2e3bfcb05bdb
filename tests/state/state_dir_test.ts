import assert from "node:assert/strict";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import {
  assertWritePermission,
  ensureStateDir,
  hasWritePermission,
  resolveStateDir,
  STATE_GITIGNORE_TEXT,
} from "../../lib/state/state_dir.ts";
import { tempDir } from "../support/helpers.ts";

function code(expected: string) {
  return (err: unknown) => {
    assert.ok(err instanceof DochygieneError, String(err));
    assert.equal(err.code, expected);
    assert.equal(err.exitCode, 1);
    assert.ok(!err.message.includes("\n"));
    return true;
  };
}

Deno.test("resolveStateDir accepts a missing directory and ensureStateDir creates it", async () => {
  await using root = await tempDir();
  assert.equal(await resolveStateDir(root.path), `${root.path}/.dochygiene`);
  await assert.rejects(Deno.lstat(`${root.path}/.dochygiene`));
  assert.equal(await ensureStateDir(root.path), `${root.path}/.dochygiene`);
  assert.ok((await Deno.lstat(`${root.path}/.dochygiene`)).isDirectory);
  assert.equal(await ensureStateDir(root.path), `${root.path}/.dochygiene`);
});

Deno.test("a symlinked .dochygiene is refused, even when it points inside the root", async () => {
  await using root = await tempDir();
  await Deno.mkdir(`${root.path}/real`);
  await Deno.symlink(`${root.path}/real`, `${root.path}/.dochygiene`);
  await assert.rejects(resolveStateDir(root.path), code("STATE_DIR_SYMLINK"));
  await assert.rejects(ensureStateDir(root.path), code("STATE_DIR_SYMLINK"));
});

Deno.test("a .dochygiene that is a regular file is refused with the fix", async () => {
  await using root = await tempDir();
  await Deno.writeTextFile(`${root.path}/.dochygiene`, "x");
  await assert.rejects(resolveStateDir(root.path), (err) => {
    code("STATE_DIR_INVALID")(err);
    assert.match((err as Error).message, /is not a directory; move it away/);
    return true;
  });
});

Deno.test("a root reached through a symlinked parent still resolves inside the root", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/real/.dochygiene`, { recursive: true });
  await Deno.symlink(`${dir.path}/real`, `${dir.path}/link`);
  assert.equal(await resolveStateDir(`${dir.path}/link`), `${dir.path}/link/.dochygiene`);
});

Deno.test("hasWritePermission follows Deno permissions, not file modes", {
  permissions: { read: true, write: ["/tmp/dochygiene-allowed"] },
}, () => {
  assert.equal(hasWritePermission("/tmp/dochygiene-allowed/.dochygiene"), true);
  assert.equal(hasWritePermission("/tmp/elsewhere/.dochygiene"), false);
  assert.throws(
    () => assertWritePermission("/tmp/elsewhere/.dochygiene", "/tmp/elsewhere"),
    (err) => {
      code("NO_WRITE_PERMISSION")(err);
      const message = (err as Error).message;
      assert.match(message, /cd \/tmp\/elsewhere/);
      assert.match(message, /--allow-write=\.dochygiene/);
      return true;
    },
  );
  assertWritePermission("/tmp/dochygiene-allowed/.dochygiene", "/tmp/dochygiene-allowed");
});

Deno.test("the state directory carries its own .gitignore (*) from its creation; an existing one gets it on the next write", async () => {
  await using root = await tempDir();
  const dir = await ensureStateDir(root.path);
  const ignore = `${dir}/.gitignore`;
  assert.equal(await Deno.readTextFile(ignore), STATE_GITIGNORE_TEXT);
  assert.deepEqual(STATE_GITIGNORE_TEXT.split("\n").filter((l) => !l.startsWith("#")), ["*", ""]);
  // A directory made before (an older version) gets it on its next write.
  await Deno.remove(ignore);
  await ensureStateDir(root.path);
  assert.equal(await Deno.readTextFile(ignore), STATE_GITIGNORE_TEXT);
  // One the user changed is theirs.
  await Deno.writeTextFile(ignore, "*\n!keep.md\n");
  await ensureStateDir(root.path);
  assert.equal(await Deno.readTextFile(ignore), "*\n!keep.md\n");
});

// The git work of `scan.ts` as users run it (subprocess, exact permission flags), counted through
// a PATH shim that logs each git call and what `cat-file` is asked: one first-parent history pass
// for the ages and the drift signals both, HEAD's code blobs read once, and no history work at
// all on a repeat scan of the same HEAD (docs/benchmarks.md "Drift").

import assert from "node:assert/strict";
import { join } from "node:path";
import { commitFiles, git, realGit, runSeam, tempDir, tempRepo } from "../support/helpers.ts";

const NOW = "2025-06-01T00:00:00.000Z";

/** Writes a logging `git` into `dir`; returns the PATH with it first and the logs' reader. */
async function gitLog(dir: string) {
  const calls = join(dir, "calls.log");
  const asked = join(dir, "cat-file.log");
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh
printf '%s\\n' "$*" >> '${calls}'
case " $* " in *" cat-file "*)
  tee -a '${asked}' | "${await realGit()}" "$@"; exit $?;;
esac
exec "${await realGit()}" "$@"
`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  const read = async (file: string) =>
    (await Deno.readTextFile(file).catch(() => "")).split("\n").filter(Boolean);
  return {
    path: `${dir}:${Deno.env.get("PATH") ?? ""}`,
    /** The git subcommands run since the last call (global options dropped), and the blobs asked. */
    async take(): Promise<{ commands: string[]; blobs: string[] }> {
      const commands = (await read(calls)).map((line) =>
        line.replace(/^(?:--literal-pathspecs |-c \S+ )*/, "")
      );
      const blobs = await read(asked);
      await Deno.writeTextFile(calls, "");
      await Deno.writeTextFile(asked, "");
      return { commands, blobs };
    },
  };
}

const count = (commands: string[], name: string) =>
  commands.filter((c) => c.split(" ")[0] === name).length;

/** Code renamed over a history with a merge, and a doc naming the old names and a code file. */
async function codeRepo(root: string): Promise<void> {
  await commitFiles(root, {
    "src/a.ts": "export function oldName() {}\nexport const KEEP = 1;\n",
    "src/b.ts": "export function gone() {}\n",
  }, "2025-01-01T00:00:00Z");
  await git(root, ["checkout", "-q", "-b", "side"]);
  await commitFiles(root, { "src/c.ts": "export const sideOnly = 1;\n" }, "2025-01-15T00:00:00Z");
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(
    root,
    { "src/a.ts": "export function newName() {}\nexport const KEEP = 1;\n" },
    "2025-02-01T00:00:00Z",
  );
  await git(root, ["merge", "-q", "--no-ff", "side", "-m", "merge side"], {
    GIT_AUTHOR_DATE: "2025-02-02T00:00:00Z",
    GIT_COMMITTER_DATE: "2025-02-02T00:00:00Z",
  });
  await commitFiles(root, { "src/b.ts": "export const other = 2;\n" }, "2025-03-01T00:00:00Z");
  await commitFiles(root, {
    ".gitignore": ".dochygiene/\n",
    "docs/guide.md": "Call `oldName()` or `gone()`; `KEEP` and `sideOnly` stay. See `src/a.ts`.\n",
  }, "2025-03-02T00:00:00Z");
}

Deno.test("a cold scan runs one first-parent git log and reads HEAD's code blobs once; a repeat of the same HEAD runs no history work", async () => {
  await using repo = await tempRepo();
  await codeRepo(repo.path);
  await using bin = await tempDir();
  const shim = await gitLog(bin.path);
  const scan = () =>
    runSeam("scan", ["--format", "json"], {
      cwd: repo.path,
      env: { DOCHYGIENE_NOW: NOW, PATH: shim.path },
    });

  const cold = await scan();
  assert.equal(cold.code, 0, cold.stderr);
  const stale = JSON.parse(cold.stdout).signals["docs/guide.md"]
    .filter((s: { kind: string }) => s.kind === "stale_reference")
    .map((s: { element: string }) => s.element);
  assert.deepEqual(stale, ["oldName()", "gone()"]);
  const first = await shim.take();
  assert.equal(count(first.commands, "log"), 1, first.commands.join("\n"));
  assert.match(first.commands.find((c) => c.startsWith("log "))!, /--first-parent .* HEAD --$/);
  assert.equal(count(first.commands, "ls-tree"), 1, first.commands.join("\n"));
  // Every blob asked of git once (HEAD's and the older trees' share theirs).
  assert.ok(first.blobs.length > 0);
  assert.equal(new Set(first.blobs).size, first.blobs.length, first.blobs.join("\n"));

  const repeat = await scan();
  assert.equal(repeat.code, 0, repeat.stderr);
  const again = await shim.take();
  for (const name of ["log", "ls-tree", "diff-tree", "cat-file"]) {
    assert.equal(count(again.commands, name), 0, `${name}: ${again.commands.join("\n")}`);
  }

  // HEAD moved on: one pass over the new commit only, for both.
  await commitFiles(
    repo.path,
    { "src/a.ts": "export function newName(x) {}\n" },
    "2025-04-01T00:00:00Z",
  );
  const moved = await scan();
  assert.equal(moved.code, 0, moved.stderr);
  const since = await shim.take();
  assert.equal(count(since.commands, "log"), 1, since.commands.join("\n"));
  assert.match(since.commands.find((c) => c.startsWith("log "))!, / [0-9a-f]{40}\.\.HEAD --$/);
});

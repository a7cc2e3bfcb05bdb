import assert from "node:assert/strict";
import { tempDir } from "../support/helpers.ts";
import { ignoreMatcher } from "../../lib/config/ignore_matcher.ts";
import { loadIgnore } from "../../lib/config/load_ignore.ts";

Deno.test("a pattern without a slash matches at any depth; a leading slash anchors it to the root", () => {
  const ignored = ignoreMatcher("scratch.md\n/top.md\n");
  assert.ok(ignored("scratch.md"));
  assert.ok(ignored("deep/down/scratch.md"));
  assert.ok(ignored("top.md"));
  assert.ok(!ignored("docs/top.md"));
});

Deno.test("an inner slash anchors too: docs/*.md does not match x/docs/a.md nor docs/sub/a.md", () => {
  const ignored = ignoreMatcher("docs/*.md\n");
  assert.ok(ignored("docs/a.md"));
  assert.ok(!ignored("x/docs/a.md"));
  assert.ok(!ignored("docs/sub/a.md"));
});

Deno.test("a directory pattern ignores every file below the directory, at any depth", () => {
  const ignored = ignoreMatcher("notes/\n");
  assert.ok(ignored("notes/a.md"));
  assert.ok(ignored("x/notes/deep/a.md"));
  assert.ok(!ignored("notes.md"));
});

Deno.test("negation re-includes a file, but not below an ignored directory (git's rule)", () => {
  const ignored = ignoreMatcher("*.md\n!keep.md\nplans/\n!plans/keep.md\n");
  assert.ok(ignored("a.md"));
  assert.ok(!ignored("keep.md"));
  assert.ok(!ignored("sub/keep.md"));
  assert.ok(ignored("plans/keep.md"));
});

Deno.test("** matches across directories; comments, blank lines and escaped # work", () => {
  const ignored = ignoreMatcher("# comment\n\nruns/**/out.md\n\\#hash.md\n");
  assert.ok(ignored("runs/out.md"));
  assert.ok(ignored("runs/a/b/out.md"));
  assert.ok(ignored("#hash.md"));
  assert.ok(!ignored("comment"));
});

Deno.test("CRLF ignore files behave like LF ones; hostile names are only themselves", () => {
  const ignored = ignoreMatcher("a.md\r\n\\[x\\].md\r\n");
  assert.ok(ignored("a.md"));
  assert.ok(ignored("[x].md"));
  assert.ok(!ignored("x.md"));
  assert.ok(!ignored(":(exclude)a.md"));
  assert.ok(!ignoreMatcher("")("a.md"));
});

Deno.test("patterns match case-sensitively, as git does (core.ignorecase false): docs/ leaves Docs/A.md", () => {
  const dir = ignoreMatcher("docs/\n");
  assert.equal(dir("docs/a.md"), true);
  assert.equal(dir("Docs/A.md"), false);
  const ext = ignoreMatcher("*.MD\n");
  assert.equal(ext("a.md"), false);
  assert.equal(ext("a.MD"), true);
});

Deno.test("loadIgnore: a missing file ignores nothing; a directory in its place is a clear exit-2 error", async () => {
  await using dir = await tempDir();
  assert.ok(!(await loadIgnore(dir.path))("a.md"));
  await Deno.mkdir(`${dir.path}/.dochygiene-ignore`);
  await assert.rejects(() => loadIgnore(dir.path), (err: Error & { exitCode?: number }) => {
    assert.match(err.message, /^\.dochygiene-ignore: is not a regular file/);
    assert.equal(err.exitCode, 2);
    return true;
  });
});

Deno.test("loadIgnore reads the root's file", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/.dochygiene-ignore`, "scratch/\n!scratch.md\n");
  const ignored = await loadIgnore(dir.path);
  assert.ok(ignored("scratch/a.md"));
  assert.ok(!ignored("scratch.md"));
});

Deno.test("a symlinked .dochygiene-ignore is followed inside the project; one leading outside is refused", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  const path = `${dir.path}/.dochygiene-ignore`;
  await Deno.writeTextFile(`${dir.path}/ignore.txt`, "scratch/\n");
  await Deno.symlink("ignore.txt", path);
  assert.ok((await loadIgnore(dir.path))("scratch/a.md"));
  await Deno.remove(path);
  await Deno.writeTextFile(`${outside.path}/ignore.txt`, "scratch/\n");
  await Deno.symlink(`${outside.path}/ignore.txt`, path);
  await assert.rejects(() => loadIgnore(dir.path), /leads outside the project/);
});

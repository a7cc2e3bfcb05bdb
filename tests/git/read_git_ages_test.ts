import assert from "node:assert/strict";
import {
  commitFiles,
  git,
  HOSTILE_NAMES,
  loseObject,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";
import {
  type GitAges,
  historyPass,
  type KnownAges,
  parseGitLog,
  readGitAges,
} from "../../lib/git/read_git_ages.ts";

const env = (date: string) => ({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });

/** Per-file truth: `git log -1 --first-parent --format=%ct -- PATH`. */
async function truth(root: string, path: string): Promise<number | undefined> {
  const out = (await git(root, [
    "--literal-pathspecs",
    "log",
    "-1",
    "--first-parent",
    "--format=%ct",
    "--",
    path,
  ])).trim();
  return out === "" ? undefined : Number(out);
}

/** Every path ever named on first-parent history, by an independent per-commit listing. */
async function everyPath(root: string): Promise<string[]> {
  const out = await git(root, ["log", "--first-parent", "-m", "--name-only", "--format=", "-z"]);
  return [...new Set(out.split("\0").map((p) => p.replace(/^\n/, "")).filter(Boolean))];
}

Deno.test("ages equal git log -1 --first-parent -- PATH for every path, across merges, renames, deletions and backdated commits", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(
    root,
    { "a.md": "1", "b.md": "1", "old.md": "x", "dir/c.md": "1" },
    "2024-01-01T00:00:00Z",
  );
  // A feature branch that changes b.md and adds f.md, merged later with --no-ff.
  await git(root, ["checkout", "-q", "-b", "feat"]);
  await commitFiles(root, { "b.md": "2", "f.md": "f" }, "2024-03-01T00:00:00Z");
  await commitFiles(root, { "dir/c.md": "feat" }, "2024-03-02T00:00:00Z");
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(root, { "a.md": "2" }, "2024-02-01T00:00:00Z");
  await git(
    root,
    ["merge", "-q", "--no-ff", "feat", "-m", "merge feat"],
    env("2024-04-01T00:00:00Z"),
  );
  // A rename (no rename detection: the new path is new, the old one deleted).
  await git(root, ["mv", "a.md", "renamed.md"]);
  await git(root, ["commit", "-qm", "rename"], env("2024-05-01T00:00:00Z"));
  // A deletion, then a BACKDATED commit after it (committer time older than its parent).
  await git(root, ["rm", "-q", "old.md"]);
  await git(root, ["commit", "-qm", "delete"], env("2024-06-01T00:00:00Z"));
  await commitFiles(root, { "late.md": "backdated", "b.md": "3" }, "2023-01-01T00:00:00Z");
  // A merge from main into a side branch and back (a second-parent-only change stays off first-parent).
  await git(root, ["checkout", "-q", "-b", "side"]);
  await commitFiles(root, { "side.md": "s" }, "2024-07-01T00:00:00Z");
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(root, { "dir/c.md": "main" }, "2024-07-02T00:00:00Z");
  await git(
    root,
    ["merge", "-q", "--no-ff", "side", "-m", "merge side"],
    env("2024-07-03T00:00:00Z"),
  );

  const facts = await readGitAges(root);
  const paths = await everyPath(root);
  assert.ok(paths.length >= 8);
  for (const path of paths) {
    assert.equal(facts.ages.get(path), await truth(root, path), path);
  }
  assert.deepEqual([...facts.ages.keys()].sort(), [...paths].sort());
  // The backdated commit is the newest on first-parent history for b.md, even though older.
  assert.equal(facts.ages.get("b.md"), Date.parse("2023-01-01T00:00:00Z") / 1000);
  // Deleted paths keep their last commit (prune computes directory ages from them).
  assert.equal(facts.ages.get("old.md"), Date.parse("2024-06-01T00:00:00Z") / 1000);
  // Files merged in from a branch are dated by the merge commit.
  assert.equal(facts.ages.get("f.md"), Date.parse("2024-04-01T00:00:00Z") / 1000);
  assert.equal(facts.ages.get("side.md"), Date.parse("2024-07-03T00:00:00Z") / 1000);
  assert.equal(facts.head, (await git(root, ["rev-parse", "HEAD"])).trim());
  assert.equal(facts.shallow, false);
  assert.deepEqual(facts.warnings, []);
});

Deno.test("hostile names survive the log pass byte for byte", async () => {
  await using repo = await tempRepo();
  const names = [...HOSTILE_NAMES, "ünï.md"];
  await writeFiles(repo.path, Object.fromEntries(names.map((n) => [n, n])));
  // The helper's `git add` would read `:(exclude)a.md` as pathspec magic; add literally.
  await git(repo.path, ["--literal-pathspecs", "add", "--", ...names]);
  await git(repo.path, ["commit", "-qm", "hostile"], env("2024-01-01T00:00:00Z"));
  const facts = await readGitAges(repo.path);
  for (const name of names) {
    assert.equal(facts.ages.get(name), Date.parse("2024-01-01T00:00:00Z") / 1000, name);
    assert.equal(facts.ages.get(name), await truth(repo.path, name), name);
  }
});

Deno.test("a repository without commits has no head and no ages", async () => {
  await using repo = await tempRepo();
  const facts = await readGitAges(repo.path);
  assert.equal(facts.head, undefined);
  assert.equal(facts.ages.size, 0);
  assert.deepEqual(facts.warnings, []);
});

Deno.test("a shallow clone is reported and still dated by its boundary commit", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1", "b.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "a.md": "2" }, "2024-02-01T00:00:00Z");
  await using clone = await tempRepo();
  await Deno.remove(clone.path, { recursive: true });
  await git("/", ["clone", "-q", "--depth", "1", `file://${repo.path}`, clone.path]);
  const facts = await readGitAges(clone.path);
  assert.equal(facts.shallow, true);
  assert.equal(facts.ages.get("a.md"), Date.parse("2024-02-01T00:00:00Z") / 1000);
  assert.equal(facts.ages.get("b.md"), await truth(clone.path, "b.md"));
});

Deno.test("a missing object in history does not abort: ages read so far are kept, with a warning", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "old.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "mid.md": "1" }, "2024-02-01T00:00:00Z");
  await commitFiles(repo.path, { "new.md": "1" }, "2024-03-01T00:00:00Z");
  // Delete the root commit's tree object: the diff of the oldest commit can no longer be made.
  await loseObject(repo.path, "HEAD~2^{tree}");
  const facts = await readGitAges(repo.path);
  assert.equal(facts.ages.get("new.md"), Date.parse("2024-03-01T00:00:00Z") / 1000);
  assert.equal(facts.ages.has("old.md"), false);
  assert.equal(facts.warnings.length, 1);
  assert.match(facts.warnings[0], /could not be read completely.*fall back to their mtime/);
});

Deno.test("a missing HEAD commit is not taken for a repository without commits: HEAD is given, with a warning", async () => {
  await using repo = await tempRepo();
  const head = await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  await Deno.remove(`${repo.path}/.git/objects/${head.slice(0, 2)}/${head.slice(2)}`);
  const facts = await readGitAges(repo.path);
  assert.equal(facts.head, head);
  assert.equal(facts.ages.size, 0);
  assert.match(facts.warnings.join("\n"), /could not be read completely \(fatal: bad object/);
});

/** What a reading gave, as the next one may start from it. */
function knownFrom(facts: GitAges): KnownAges {
  assert.ok(facts.head !== undefined && facts.history !== undefined, "ages not complete");
  return { head: facts.head, history: facts.history, ages: facts.ages };
}

/** readGitAges from `known`, with the passes it made (`since` each, "HEAD" for a full one). */
async function readFrom(root: string, known: KnownAges): Promise<[GitAges, string[]]> {
  const passes: string[] = [];
  const facts = await readGitAges(root, {
    known,
    pass: (since) => {
      passes.push(since ?? "HEAD");
      return historyPass(root, since);
    },
  });
  return [facts, passes];
}

/** The ages a reading from nothing gives now, which a reading from known ages must equal. */
async function assertAsFresh(root: string, facts: GitAges): Promise<void> {
  const fresh = await readGitAges(root);
  assert.deepEqual(new Map([...facts.ages].sort()), new Map([...fresh.ages].sort()));
  // (The log is that of the pass each made, if any.)
  assert.deepEqual({ ...facts, ages: undefined, log: undefined }, {
    ...fresh,
    ages: undefined,
    log: undefined,
  });
  for (const path of await everyPath(root)) {
    assert.equal(facts.ages.get(path), await truth(root, path), path);
  }
}

Deno.test("known ages of the same HEAD are taken as they are, without a pass", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1", "b.md": "1" }, "2024-01-01T00:00:00Z");
  const known = knownFrom(await readGitAges(repo.path));
  const [facts, passes] = await readFrom(repo.path, known);
  assert.deepEqual(passes, []);
  await assertAsFresh(repo.path, facts);
});

Deno.test("when HEAD moved on, only the commits since are read, merges and backdated ones included", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(root, { "a.md": "1", "b.md": "1", "c.md": "1" }, "2024-01-01T00:00:00Z");
  const known = knownFrom(await readGitAges(root));
  await git(root, ["checkout", "-q", "-b", "feat"]);
  await commitFiles(root, { "b.md": "2", "f.md": "f" }, "2024-03-01T00:00:00Z");
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(root, { "a.md": "2" }, "2024-02-01T00:00:00Z");
  await git(root, ["merge", "-q", "--no-ff", "feat", "-m", "m"], env("2024-04-01T00:00:00Z"));
  await commitFiles(root, { "c.md": "backdated" }, "2023-01-01T00:00:00Z");
  await git(root, ["rm", "-q", "a.md"]);
  await git(root, ["commit", "-qm", "delete"], env("2024-05-01T00:00:00Z"));
  const [facts, passes] = await readFrom(root, known);
  assert.deepEqual(passes, [known.head]);
  await assertAsFresh(root, facts);
});

Deno.test("a rewritten, rewound or merged-over history is read whole again, never added to", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  await commitFiles(root, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(root, { "b.md": "1" }, "2024-02-01T00:00:00Z");
  const cases: [string, () => Promise<unknown>][] = [
    // The known HEAD becomes a second parent: reachable, but not on the first-parent line.
    ["merged over", async () => {
      const known = (await git(root, ["rev-parse", "HEAD"])).trim();
      await git(root, ["checkout", "-q", "-b", "other", "HEAD~1"]);
      await commitFiles(root, { "o.md": "1" }, "2024-03-01T00:00:00Z");
      await git(root, ["merge", "-q", "--no-ff", known, "-m", "m"], env("2024-07-01T00:00:00Z"));
    }],
    ["amend", () => git(root, ["commit", "-q", "--amend", "-m", "x"], env("2024-06-01T00:00:00Z"))],
    ["rewind", () => git(root, ["reset", "-q", "--hard", "HEAD~1"])],
  ];
  for (const [name, change] of cases) {
    const known = knownFrom(await readGitAges(root));
    await change();
    const [facts, passes] = await readFrom(root, known);
    assert.equal(passes.at(-1), "HEAD", name);
    await assertAsFresh(root, facts);
  }
});

Deno.test("known ages of a HEAD git no longer has are not trusted: the history is read whole", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  const facts = await readGitAges(repo.path);
  const known = { ...knownFrom(facts), head: "0".repeat(40), ages: new Map([["a.md", 1]]) };
  const [again, passes] = await readFrom(repo.path, known);
  assert.deepEqual(passes, [known.head, "HEAD"]);
  await assertAsFresh(repo.path, again);
});

Deno.test("a deepened shallow clone or a replace ref changes the history under the same HEAD: read whole", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1", "b.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "a.md": "2" }, "2024-02-01T00:00:00Z");
  await commitFiles(repo.path, { "c.md": "1" }, "2024-03-01T00:00:00Z");
  await using clone = await tempRepo();
  await Deno.remove(clone.path, { recursive: true });
  await git("/", ["clone", "-q", "--depth", "1", `file://${repo.path}`, clone.path]);
  const shallow = knownFrom(await readGitAges(clone.path));
  await git(clone.path, ["fetch", "-q", "--deepen", "1"]);
  const [deeper, passes] = await readFrom(clone.path, shallow);
  assert.deepEqual(passes, ["HEAD"]);
  // The boundary moved: b.md and a.md are no longer dated by the cut commit.
  assert.notDeepEqual(deeper.ages, shallow.ages);
  await assertAsFresh(clone.path, deeper);
  const known = knownFrom(await readGitAges(repo.path));
  await git(repo.path, ["replace", "--graft", "HEAD"]);
  const [grafted, graftPasses] = await readFrom(repo.path, known);
  assert.deepEqual(graftPasses, ["HEAD"]);
  assert.equal(grafted.ages.get("a.md"), Date.parse("2024-03-01T00:00:00Z") / 1000);
  await assertAsFresh(repo.path, grafted);
});

Deno.test("ages read in part are not offered as known: the next reading reads them whole", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "old.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "new.md": "1" }, "2024-03-01T00:00:00Z");
  const tree = (await git(repo.path, ["rev-parse", "HEAD~1^{tree}"])).trim();
  await Deno.remove(`${repo.path}/.git/objects/${tree.slice(0, 2)}/${tree.slice(2)}`);
  const facts = await readGitAges(repo.path);
  assert.equal(facts.warnings.length, 1);
  assert.equal(facts.history, undefined);
});

Deno.test("parseGitLog keeps the first (newest) time per path and skips empty commits", () => {
  const out = new TextEncoder().encode("\x0030\x00\x0020\x00\na\x00b\x00\x0010\x00\nb\x00c\x00");
  assert.deepEqual([...parseGitLog(out)], [["a", 20], ["b", 20], ["c", 10]]);
});

Deno.test("parseGitLog ignores a truncated last record", () => {
  const out = new TextEncoder().encode("\x0030\x00\na\x00\x0020\x00\nb");
  assert.deepEqual([...parseGitLog(out)], [["a", 30]]);
});

Deno.test("ages a pass read at another HEAD than the one looked at (a commit in between) are not offered as known", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  const facts = await readGitAges(repo.path);
  const moved = "0".repeat(40);
  // The pass saw another HEAD than the tip read beside it.
  const raced = await readGitAges(repo.path, {
    pass: (since) => historyPass(repo.path, since).then((pass) => ({ ...pass, head: moved })),
  });
  assert.deepEqual(raced.ages, facts.ages);
  assert.equal(raced.history, undefined);
  // From known ages, a pass since them that did not start at the HEAD looked at is not added to
  // them: the history is read whole.
  await commitFiles(repo.path, { "b.md": "1" }, "2024-02-01T00:00:00Z");
  const passes: string[] = [];
  const again = await readGitAges(repo.path, {
    known: knownFrom(facts),
    pass: (since) => {
      passes.push(since ?? "HEAD");
      return historyPass(repo.path, since).then((pass) => since ? { ...pass, head: moved } : pass);
    },
  });
  assert.deepEqual(passes, [facts.head, "HEAD"]);
  await assertAsFresh(repo.path, again);
});

Deno.test("a replace ref moved to another commit, or replace refs turned off, changes the history under the same HEAD", async () => {
  await using repo = await tempRepo();
  const root = repo.path;
  const c1 = await commitFiles(root, { "a.md": "1" }, "2024-10-01T00:00:00Z");
  const c2 = await commitFiles(root, { "a.md": "2" }, "2024-11-01T00:00:00Z");
  const c3 = await commitFiles(root, { "b.md": "1" }, "2024-11-10T00:00:00Z");
  await git(root, ["replace", c2, c1]);
  const known = knownFrom(await readGitAges(root));
  await git(root, ["replace", "-d", c2]);
  await git(root, ["replace", c3, c1]);
  const [moved, passes] = await readFrom(root, known);
  assert.deepEqual(passes, ["HEAD"]);
  await assertAsFresh(root, moved);
  const replaced = knownFrom(moved);
  await git(root, ["config", "core.useReplaceRefs", "false"]);
  const [off, offPasses] = await readFrom(root, replaced);
  assert.deepEqual(offPasses, ["HEAD"]);
  await assertAsFresh(root, off);
});

Deno.test("the pass's log is handed on only when it read HEAD's history whole, or all of it since the known HEAD", async () => {
  await using repo = await tempRepo();
  const first = await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  const whole = await readGitAges(repo.path);
  assert.deepEqual(whole.log?.commits, [first]);
  assert.equal(whole.log?.since, undefined);
  // No pass, no log.
  assert.equal((await readGitAges(repo.path, { known: knownFrom(whole) })).log, undefined);
  const second = await commitFiles(repo.path, { "b.md": "1" }, "2024-02-01T00:00:00Z");
  const since = await readGitAges(repo.path, { known: knownFrom(whole) });
  assert.deepEqual(since.log?.commits, [second]);
  assert.equal(since.log?.since, first);
  // A pass that read another HEAD than the one looked at hands on nothing.
  const raced = await readGitAges(repo.path, {
    pass: (since) => historyPass(repo.path, since).then((pass) => ({ ...pass, head: "0" })),
  });
  assert.equal(raced.log, undefined);
});

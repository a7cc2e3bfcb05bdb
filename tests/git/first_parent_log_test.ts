import assert from "node:assert/strict";
import {
  commitFiles,
  git,
  HOSTILE_NAMES,
  loseObject,
  tempRepo,
  writeFiles,
} from "../support/helpers.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import {
  type FirstParentLog,
  logAges,
  readFirstParentLog,
} from "../../lib/git/first_parent_log.ts";

const env = (date: string) => ({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });

/** Commit `i` of `log` → the paths it changed, sorted. */
function changedBy(log: FirstParentLog, i: number): string[] {
  return [...log.changed.subarray(log.starts[i], log.starts[i + 1])].map((id) => log.paths[id])
    .sort();
}

/** A history with a merge whose second parent changed a file the first parent did not. */
async function mergedRepo(root: string): Promise<void> {
  await commitFiles(root, { "a.md": "1", "src/x.ts": "1" }, "2024-01-01T00:00:00Z");
  await git(root, ["checkout", "-q", "-b", "feat"]);
  await commitFiles(root, { "src/x.ts": "feat", "f.md": "f" }, "2024-03-01T00:00:00Z");
  await git(root, ["checkout", "-q", "main"]);
  await commitFiles(root, { "a.md": "2" }, "2024-02-01T00:00:00Z");
  await git(root, ["merge", "-q", "--no-ff", "feat", "-m", "merge"], env("2024-04-01T00:00:00Z"));
  await git(root, ["commit", "-q", "--allow-empty", "-m", "empty"], env("2024-05-01T00:00:00Z"));
}

Deno.test("the log is HEAD's first-parent commits newest first, their times, and what each changed against its first parent", async () => {
  await using repo = await tempRepo();
  await mergedRepo(repo.path);
  const { log, failed } = await readFirstParentLog(repo.path);
  assert.equal(failed, undefined);
  const chain = (await git(repo.path, ["rev-list", "--first-parent", "HEAD"])).trim().split("\n");
  assert.deepEqual(log.commits, chain);
  const times = await git(repo.path, ["log", "--first-parent", "--format=%ct"]);
  assert.deepEqual(log.seconds, times.trim().split("\n").map(Number));
  assert.deepEqual(log.commits.map((_, i) => changedBy(log, i)), [
    [], // the empty commit
    ["f.md", "src/x.ts"], // the merge, against its first parent
    ["a.md"],
    ["a.md", "src/x.ts"], // the root commit
  ]);
  assert.deepEqual(log.paths, ["f.md", "src/x.ts", "a.md"]);
  assert.equal(log.since, undefined);
  assert.deepEqual([...logAges(log)], [
    ["f.md", Date.parse("2024-04-01T00:00:00Z") / 1000],
    ["src/x.ts", Date.parse("2024-04-01T00:00:00Z") / 1000],
    ["a.md", Date.parse("2024-02-01T00:00:00Z") / 1000],
  ]);
});

Deno.test("since a commit, the log lists the commits after it, with the first parent of the oldest", async () => {
  await using repo = await tempRepo();
  const first = await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  const second = await commitFiles(repo.path, { "b.md": "1" }, "2024-02-01T00:00:00Z");
  const third = await commitFiles(repo.path, { "a.md": "3" }, "2024-03-01T00:00:00Z");
  const { log } = await readFirstParentLog(repo.path, { since: first });
  assert.deepEqual(log.commits, [third, second]);
  assert.equal(log.since, first);
  assert.equal(log.parent, first);
  assert.deepEqual(changedBy(log, 0), ["a.md"]);
  // Up to a tip given by id, not HEAD.
  const upTo = await readFirstParentLog(repo.path, { since: first, to: second });
  assert.deepEqual(upTo.log.commits, [second]);
});

Deno.test("hostile names are read byte for byte", async () => {
  await using repo = await tempRepo();
  const names = [...HOSTILE_NAMES, "ünï.md"];
  await writeFiles(repo.path, Object.fromEntries(names.map((n) => [n, n])));
  await git(repo.path, ["--literal-pathspecs", "add", "--", ...names]);
  await git(repo.path, ["commit", "-qm", "hostile"], env("2024-01-01T00:00:00Z"));
  const { log } = await readFirstParentLog(repo.path);
  assert.deepEqual([...log.paths].sort(), [...names].sort());
});

Deno.test("a missing object: partial keeps what was read and says why; otherwise it throws", async () => {
  await using repo = await tempRepo();
  await commitFiles(repo.path, { "a.md": "1" }, "2024-01-01T00:00:00Z");
  await commitFiles(repo.path, { "b.md": "1" }, "2024-02-01T00:00:00Z");
  await commitFiles(repo.path, { "c.md": "1" }, "2024-03-01T00:00:00Z");
  // HEAD's diff is read; its parent's needs the lost tree.
  await loseObject(repo.path, "HEAD~2^{tree}");
  const { log, failed } = await readFirstParentLog(repo.path, { partial: true });
  assert.match(failed ?? "", /fatal/);
  assert.deepEqual(log.paths, ["c.md"]);
  await assert.rejects(
    () => readFirstParentLog(repo.path),
    (err) => err instanceof DochygieneError && /^git log failed: fatal:/.test(err.message),
  );
});

/**
 * Ages of units a hygiene commit deleted and a later commit gave back exactly (its own undo,
 * `git revert`): age is when a unit got its current content (docs/prune.md "Ages"), so the
 * commit that restored it does not make it younger.
 *
 * @module
 */

import { decodeNulTerminated } from "../core/decode_path.ts";
import { parseGitLog } from "./read_git_ages.ts";
import { runGit } from "./run_git.ts";
import { unitFinder } from "../core/unit_finder.ts";

/** The subject every hygiene commit starts with (`lib/apply` writes it). */
export const HYGIENE_SUBJECT = "dochygiene: prune ";

/**
 * Of `units` (root-relative; a directory ends in `/`), those a hygiene commit on HEAD's
 * first-parent history deleted and whose content now (HEAD's blob or tree) is exactly what it
 * was just before that commit → their age then (committer time in epoch seconds: the newest
 * first-parent commit up to that point that touched them). A unit given back changed, or never
 * deleted, is not in the map.
 *
 * Git processes: one `git log` over the hygiene commits; only when a unit was deleted by one,
 * one `cat-file --batch-check`, and one `git log` per hygiene commit that deleted a unit now
 * given back — never one per unit.
 *
 * @example
 * ```ts
 * import { readRestoredAges } from "./read_restored_ages.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const git = (date: string, ...args: string[]) =>
 *   new Deno.Command("git", { args, cwd: root, stdout: "null", env: {
 *     GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t",
 *     GIT_COMMITTER_EMAIL: "t@t", GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date,
 *   } }).output();
 * await git("", "init", "-q");
 * await Deno.mkdir(`${root}/runs/r1`, { recursive: true });
 * await Deno.writeTextFile(`${root}/runs/r1/a.md`, "# A\n");
 * await git("", "add", ".");
 * await git("2026-01-01T00:00:00Z", "-c", "commit.gpgsign=false", "commit", "-qm", "run");
 * await git("", "rm", "-rq", "runs/r1");
 * await git("2026-02-01T00:00:00Z", "-c", "commit.gpgsign=false", "commit", "-qm", "dochygiene: prune 1 doc unit");
 * await git("2026-03-01T00:00:00Z", "-c", "commit.gpgsign=false", "revert", "--no-edit", "HEAD");
 * const ages = await readRestoredAges(root, ["runs/r1/"]);
 * assert.deepEqual([...ages], [["runs/r1/", Date.parse("2026-01-01T00:00:00Z") / 1000]]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readRestoredAges(
  root: string,
  units: readonly string[],
): Promise<Map<string, number>> {
  const ages = new Map<string, number>();
  if (units.length === 0) return ages;
  // Each hygiene commit on the first-parent line, newest first, with the paths it deleted.
  const log = await runGit(root, [
    "log",
    "--first-parent",
    "--no-renames",
    "--no-show-signature",
    "--fixed-strings",
    `--grep=${HYGIENE_SUBJECT}`,
    "--diff-filter=D",
    "--name-only",
    "-z",
    "--format=%x00%H %P%x00%s",
    "HEAD",
    "--",
  ], { okCodes: [0, 128] });
  // Unit → the parent of the newest hygiene commit that deleted a path of it.
  const deletedAt = new Map<string, string>();
  const unitOf = unitFinder(units);
  let parent: string | undefined;
  let state: "id" | "subject" | "paths" = "paths";
  for (const token of decodeNulTerminated(log.stdout)) {
    if (token === "" && state === "paths") state = "id";
    else if (state === "id") {
      const [id, first, more] = token.split(" ");
      parent = id !== undefined && first !== undefined && more === undefined ? first : undefined;
      state = "subject";
    } else if (state === "subject") {
      // --grep finds the words anywhere in the message: only a hygiene commit's subject counts.
      if (!token.startsWith(HYGIENE_SUBJECT)) parent = undefined;
      state = "paths";
    } else if (parent !== undefined && token !== "") {
      const unit = unitOf(token.replace(/^\n/, ""));
      if (unit !== undefined && !deletedAt.has(unit)) deletedAt.set(unit, parent);
    }
  }
  if (deletedAt.size === 0) return ages;
  // Its content now and just before the hygiene commit: one batch for all.
  const asked = [...deletedAt].filter(([unit]) => !unit.includes("\n"));
  const names = asked.flatMap(([unit, at]) => {
    const path = unit.replace(/\/$/, "");
    return [`HEAD:${path}`, `${at}:${path}`];
  });
  const check = await runGit(root, ["cat-file", "--batch-check=%(objectname)"], {
    stdin: names.map((n) => `${n}\n`).join(""),
  });
  const ids = new TextDecoder().decode(check.stdout).split("\n");
  const byParent = new Map<string, string[]>();
  asked.forEach(([unit, at], i) => {
    const [now, then] = [ids[2 * i], ids[2 * i + 1]];
    if (now === undefined || now !== then || now.endsWith(" missing")) return;
    byParent.set(at, [...(byParent.get(at) ?? []), unit]);
  });
  // Their ages then: the newest first-parent commit up to the parent touching each.
  for (const [at, restored] of byParent) {
    const then = parseGitLog(
      (await runGit(root, [
        "log",
        "--first-parent",
        "--no-renames",
        "--no-show-signature",
        "--name-only",
        "-z",
        "--format=%x00%ct",
        at,
        "--",
        ...restored.map((u) => u.replace(/\/$/, "")),
      ], { okCodes: [0, 128] })).stdout,
    );
    const own = unitFinder(restored);
    for (const [path, seconds] of then) {
      const unit = own(path);
      if (unit !== undefined && seconds > (ages.get(unit) ?? -Infinity)) ages.set(unit, seconds);
    }
  }
  return ages;
}

/**
 * `prune.ts` — lifecycle deletion. Applies the rulebook of `.dochygiene.yml`
 * (keep / temporary / delete-once-served) with the tier matrix (auto /
 * confirm / never). Dry run by default; `--yes` deletes through git and
 * records the tracked deletions in ONE commit. Run it from the project root:
 *
 * ```sh
 * deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git prune.ts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { applyPrune, PRUNE_JOURNAL_FILE, skipHiddenUnits } from "./lib/apply/apply_prune.ts";
import { DochygieneError } from "./lib/core/dochygiene_error.ts";
import type { DocLink } from "./lib/markdown/extract_links.ts";
import { findDangling } from "./lib/prune/find_dangling.ts";
import { checkToplevel } from "./lib/git/check_toplevel.ts";
import { gitBusy } from "./lib/git/git_busy.ts";
import { headDetached } from "./lib/git/head_detached.ts";
import { loadConfig } from "./lib/config/load_config.ts";
import { pathExists } from "./lib/fs/path_exists.ts";
import { planFromDisk } from "./lib/prune/plan_from_disk.ts";
import { loadJudgments } from "./lib/prune/load_judgments.ts";
import { type Plan, planPrune } from "./lib/prune/plan_prune.ts";
import { recordPrune } from "./lib/prune/record_prune.ts";
import { confirmQuestion, renderPruneText } from "./lib/prune/render_prune_text.ts";
import { resolveLink } from "./lib/links/resolve_link.ts";
import { runSeam, type SeamContext, type SeamResult } from "./lib/cli/run_seam.ts";
import { assertWritePermission, ensureStateDir, resolveStateDir } from "./lib/state/state_dir.ts";
import { readState, STATE_FILE_NAME } from "./lib/state/state_file.ts";

const USAGE = `usage: prune.ts [options]

Applies the lifecycle rules of .dochygiene.yml. Dry run by default: prints the plan
(what goes and why, what stays, what needs a confirmation) and changes nothing.
Run it from the project root with:
  deno run --no-prompt --allow-read --allow-write=.dochygiene --allow-env --allow-run=git prune.ts

options:
  --yes               apply: delete the auto tier and every confirmed entry through git,
                      tracked ones in ONE commit; on a terminal, asks y/N for each other
                      entry that needs a confirmation
  --confirm PATH      confirm one entry of the confirm tier (repeatable)
  --extracted PATH    acknowledge that an extract: true entry's durable content was
                      distilled (ADR, CLAUDE.md, docs/ or /os-vault:write) (repeatable)
  --from-report FILE  the check skill's report (served_when judgments); default: the
                      current report pair in .dochygiene/
  --root DIR          start directory for root resolution (default: the current directory)
  --format json|text  json: the plan/result JSON; text: a table (default: json when
                      stdout is not a terminal)
  -h, --help          print this help
  -V, --version       print the version

exit codes: 0 success, 1 could not do the job (git failed or busy, lock held, no
permission, a failed deletion was restored), 2 usage or input error (unknown flag,
invalid .dochygiene.yml or report)
`;

/**
 * Runs `prune.ts` with `args` and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./prune.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await main(["--version"]), 0);
 * ```
 */
export function main(args: string[]): Promise<number> {
  return runSeam(
    {
      name: "prune",
      usage: USAGE,
      options: {
        yes: { type: "boolean" },
        confirm: { type: "string", multiple: true },
        extracted: { type: "string", multiple: true },
        "from-report": { type: "string" },
      },
    },
    args,
    _run,
  );
}

async function _run(ctx: SeamContext): Promise<SeamResult> {
  const { root, clock } = ctx;
  const config = await loadConfig(root);
  const apply = ctx.values.yes === true;
  const paths = (key: string) =>
    new Set(
      ((ctx.values[key] as string[] | undefined) ?? []).map((p) => p.replace(/^(\.\/)+/, "")),
    );
  const confirm = paths("confirm");
  const extracted = paths("extracted");
  if (config.rules.length === 0) {
    const plan = planPrune({
      units: [],
      existing: { sorted: [] },
      judgments: new Map(),
      confirm: new Set(),
      extracted: new Set(),
      now: clock.now(),
      watermark: null,
      mode: apply ? "apply" : "dry-run",
    });
    plan.warnings.push("nothing is managed: .dochygiene.yml has no rules");
    return {
      json: plan,
      text: "nothing is managed: .dochygiene.yml has no rules (see docs/prune.md)",
    };
  }
  if (!(await _isRepository(root))) {
    throw new DochygieneError(
      "NOT_A_REPOSITORY",
      `${root} is not a git repository; prune only deletes what git can give back: run it inside one`,
    );
  }
  await checkToplevel(root);
  const stateDir = await resolveStateDir(root);
  if (apply) {
    assertWritePermission(stateDir, root);
    await ensureStateDir(root);
  }
  const judged = config.rules.some((r) => r.served_when !== undefined);
  const judgments = await loadJudgments({
    file: ctx.values["from-report"] as string | undefined,
    stateDir,
    judged,
  });
  const reportMissing = judged && judgments === undefined;
  // Before anything changes: a state file --yes could not update afterwards is refused now
  // (STATE_FILE_UNREADABLE), and a corrupt one, whose clock watermark is lost, is said.
  const state = await readState(stateDir);
  const watermark = state.state.clock_watermark;
  const facts = async (mode: "dry-run" | "apply") => {
    const fresh = await planFromDisk({
      root,
      config,
      clock,
      judgments: judgments ?? new Map(),
      reportMissing,
      confirm,
      extracted,
      watermark,
      mode,
    });
    if (state.status === "corrupt") {
      // With --yes, the state's update says where the file went instead.
      fresh.plan.warnings.push(
        `${STATE_FILE_NAME} is corrupt, so its clock watermark is unknown and a clock set back ` +
          `cannot be detected` + (mode === "apply" ? "" : `; --yes keeps it aside as ` +
            `${STATE_FILE_NAME}.corrupt-<stamp> and starts a fresh one`),
      );
    }
    return fresh;
  };

  let plan: Plan;
  let links: Map<string, DocLink[]>;
  if (!apply) {
    const dry = await facts("dry-run");
    ({ plan, links } = dry);
    const busy = await gitBusy(root);
    if (busy) plan.warnings.push(`${busy.state}: --yes refuses until you ${busy.fix}`);
    if (await headDetached(root)) {
      plan.warnings.push(
        "HEAD is detached: --yes would make the hygiene commit on no branch, and the next git " +
          "switch would leave it behind; switch to a branch first (git switch <branch>)",
      );
    }
    if (await pathExists(join(stateDir, PRUNE_JOURNAL_FILE))) {
      plan.warnings.push(
        "an earlier prune --yes was interrupted; the next prune --yes rolls it back first",
      );
    }
    skipHiddenUnits(plan, dry.collection.files);
    // Only what --yes will delete can leave a link dangling.
    const skipped = new Set(plan.skipped.map((s) => s.path));
    const going = plan.candidates.filter((c) => !skipped.has(c.path)).map((c) => c.path);
    plan.dangling = findDangling(links, going, resolveLink);
  } else {
    const declined = new Set<string>();
    if (Deno.stdin.isTerminal()) {
      const { plan: draft, collection } = await facts("dry-run");
      skipHiddenUnits(draft, collection.files);
      const skipped = new Set(draft.skipped.map((s) => s.path));
      for (const c of draft.candidates) {
        if (c.needs !== `--confirm ${c.path}` || skipped.has(c.path)) continue;
        if (await _ask(confirmQuestion(c))) confirm.add(c.path);
        else declined.add(c.path);
      }
    }
    links = new Map();
    plan = await applyPrune({
      root,
      stateDir,
      replan: async () => {
        const fresh = await facts("apply");
        links = fresh.links;
        return fresh;
      },
    });
    for (const skip of plan.skipped) {
      if (declined.has(skip.path)) skip.reason = `declined at the prompt (${skip.reason})`;
    }
    if (plan.commit !== null && await headDetached(root)) {
      plan.warnings.push(
        `HEAD is detached: the hygiene commit ${plan.commit} is on no branch, and the next git ` +
          `switch leaves it behind; keep it with git branch <name> ${plan.commit}`,
      );
    }
    // Links as planned, just before deletion: docs inside what went are skipped as sources.
    plan.dangling = findDangling(links, plan.applied.map((a) => a.path), resolveLink);
    await recordPrune(stateDir, clock, plan);
  }
  return { json: plan, text: renderPruneText(plan) };
}

function _isRepository(root: string): Promise<boolean> {
  return pathExists(join(root, ".git"));
}

/** Asks y/N on the terminal (stderr), reading one line from stdin. */
async function _ask(question: string): Promise<boolean> {
  await Deno.stderr.write(new TextEncoder().encode(`${question} [y/N] `));
  const buf = new Uint8Array(1);
  let answer = "";
  while ((await Deno.stdin.read(buf)) === 1 && buf[0] !== 0x0a) {
    answer += String.fromCharCode(buf[0]);
  }
  return /^y(es)?$/i.test(answer.trim());
}

if (import.meta.main) Deno.exit(await main(Deno.args));

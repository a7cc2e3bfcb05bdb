import assert from "node:assert/strict";
import { type Candidate, type Plan, planPrune } from "../../lib/prune/plan_prune.ts";
import { confirmQuestion, renderPruneText, shellWord } from "../../lib/prune/render_prune_text.ts";
import { dryRunInput } from "../support/helpers.ts";

const NOW = "2026-11-30T12:00:00.000Z";

/** A plan of nothing, as the planner makes it, with `extra` in place of its parts. */
function plan(extra: Partial<Plan> = {}): Plan {
  return { ...planPrune(dryRunInput([], new Date(NOW))), ...extra };
}

function candidate(path: string, extra: Partial<Candidate> = {}): Candidate {
  return {
    path,
    unit: "dir",
    rule: "runs/*/",
    lifetime: "temporary",
    reason: "rank 5 of 5, 9 days old > 3",
    tracked: true,
    dirty: false,
    tier: "auto",
    age_days: 9,
    age_source: "git",
    needs: null,
    ...extra,
  };
}

Deno.test("renderPruneText: a dry run lists what goes, what needs a confirmation (with pastable flags), what is skipped and what stays", () => {
  const text = renderPruneText(plan({
    candidates: [
      candidate("runs/a/"),
      candidate("runs/b/", { tier: "confirm", needs: "--confirm runs/b/" }),
      candidate("plans/p.md", {
        rule: "plans/*.md",
        reason: "served",
        needs: "--confirm plans/p.md and --extracted plans/p.md",
        extract_to: ["ADR", "docs/"],
      }),
      candidate("runs/hidden/"),
    ],
    skipped: [{ path: "runs/hidden/", reason: "needs --confirm runs/hidden/" }],
    kept: [{ path: "runs/c/", rule: "runs/*/", reason: "retain_recent: rank 1 of 5" }],
  }));
  assert.equal(
    text,
    [
      `dochygiene prune — dry run, nothing changed (now ${NOW})`,
      "",
      "Goes with --yes (1):",
      "  runs/a/      [auto] runs/*/: rank 5 of 5, 9 days old > 3",
      "",
      "Needs a confirmation (2):",
      "  runs/b/      runs/*/: rank 5 of 5, 9 days old > 3",
      "               → --confirm runs/b/",
      "  plans/p.md   plans/*.md: served",
      "               → --confirm plans/p.md --extracted plans/p.md",
      "               extract first to: ADR · docs/",
      "",
      "Skipped by --yes (1):",
      "  runs/hidden/ needs --confirm runs/hidden/",
      "",
      "Stays (1):",
      "  runs/c/      runs/*/: retain_recent: rank 1 of 5",
      "",
      "Run again with --yes to apply.",
    ].join("\n"),
  );
});

Deno.test("renderPruneText: a dry run where nothing goes does not say to run again with --yes", () => {
  const text = renderPruneText(plan({
    candidates: [candidate("runs/b/", { needs: "--confirm runs/b/" })],
  }));
  assert.doesNotMatch(text, /Run again/);
  assert.match(text, /Goes with --yes \(0\):\n\nNeeds a confirmation \(1\):/);
});

Deno.test("renderPruneText: apply lists what was deleted, what was not (flags pastable), and the commit to revert", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const text = renderPruneText(plan({
    mode: "apply",
    applied: [{ path: "runs/a/", how: "git rm" }],
    skipped: [
      { path: "-x/", reason: "needs --confirm -x/" },
      { path: "runs/b/", reason: "declined at the prompt (needs --confirm runs/b/)" },
    ],
    commit: sha,
  }));
  assert.equal(
    text,
    [
      `dochygiene prune — applied (now ${NOW})`,
      "",
      "Deleted (1):",
      "  runs/a/ git rm",
      "",
      "Not deleted (2):",
      "  -x/     needs --confirm=-x/",
      "  runs/b/ declined at the prompt (needs --confirm runs/b/)",
      "",
      `Commit: ${sha} — undo with: git revert ${sha}`,
      "",
      "Stays (0):",
    ].join("\n"),
  );
  assert.match(
    renderPruneText(plan({ mode: "apply" })),
    /^Commit: none \(nothing that was committed was deleted\)$/m,
  );
});

Deno.test("renderPruneText: the first column is as wide as the longest path up to 60; a longer path has its text on the next line", () => {
  const long = `runs/${"r".repeat(70)}/`;
  const mid = `runs/${"m".repeat(50)}/`;
  const lines = renderPruneText(plan({ candidates: [candidate(long), candidate(mid)] }))
    .split("\n");
  const at = lines.indexOf(`  ${long}`);
  assert.ok(at > 0);
  assert.equal(lines[at + 1], `  ${" ".repeat(60)} [auto] runs/*/: rank 5 of 5, 9 days old > 3`);
  assert.ok(lines.includes(`  ${mid.padEnd(60)} [auto] runs/*/: rank 5 of 5, 9 days old > 3`));
});

Deno.test("renderPruneText: a clock set back, deferred units, dangling links and warnings each get their section", () => {
  const text = renderPruneText(plan({
    clock: { now: NOW, watermark: "2026-12-01T00:00:00.000Z", backward: true },
    deferred: [{ path: "runs/a/", reason: "the clock went backwards" }],
    dangling: [{ from: "README.md", line: 3, to: "runs/a/" }],
    warnings: ["look\x1b[31m here"],
  }));
  assert.equal(
    text,
    [
      `dochygiene prune — dry run, nothing changed (now ${NOW})`,
      "clock reads earlier than the watermark 2026-12-01T00:00:00.000Z: age-based deletion deferred",
      "",
      "Goes with --yes (0):",
      "",
      "Needs a confirmation (0):",
      "",
      "Deferred (1):",
      "  runs/a/     the clock went backwards",
      "",
      "Stays (0):",
      "",
      "Links left dangling (1):",
      "  README.md:3 → runs/a/",
      "",
      "Warnings:",
      "  look\\u001b[31m here",
    ].join("\n"),
  );
});

Deno.test("renderPruneText: a path or reason a terminal would act on is shown quoted and escaped, its flag as a $'…' word", () => {
  const path = "runs/it's\u202eodd/";
  const text = renderPruneText(plan({
    candidates: [candidate(path, { reason: "bell\x07", needs: `--confirm ${path}` })],
  }));
  assert.ok(text.includes(`  "runs/it's\\u202eodd/" runs/*/: bell\\u0007`), text);
  assert.ok(text.includes(`→ --confirm $'runs/it\\'s\\xe2\\x80\\xaeodd/'`), text);
  assert.ok(!text.includes("\x07") && !text.includes("\u202e"));
});

Deno.test("shellWord: bare when nothing is special, single-quoted otherwise, $'…' with UTF-8 bytes for controls and bidi marks", () => {
  assert.equal(shellWord("docs/plans/a-b_c.md"), "docs/plans/a-b_c.md");
  assert.equal(shellWord("a=b/"), "a=b/");
  assert.equal(shellWord("=b/"), "'=b/'"); // zsh expands a word starting with `=`
  assert.equal(shellWord("sp ace/"), "'sp ace/'");
  assert.equal(shellWord("it's/"), `'it'\\''s/'`);
  assert.equal(shellWord("$HOME/"), "'$HOME/'");
  assert.equal(shellWord("tab\tx/"), "$'tab\\x09x/'");
  assert.equal(shellWord("a\\b'\u202e/"), "$'a\\\\b\\'\\xe2\\x80\\xae/'");
  // A byte that is not UTF-8 (decodePath's lone \udcXX) is written as that byte.
  assert.equal(shellWord("bad\udcff/"), "$'bad\\xff/'");
});

Deno.test("confirmQuestion: the prompt names the path and the reason, escaped for the terminal", () => {
  assert.equal(
    confirmQuestion({ path: "runs/b/", reason: "rank 4 of 5 (confirm: uncommitted changes)" }),
    "delete runs/b/ (rank 4 of 5 (confirm: uncommitted changes))?",
  );
  assert.equal(
    confirmQuestion({ path: "runs/\x1b[2J/", reason: "x\u202e" }),
    'delete "runs/\\u001b[2J/" (x\\u202e)?',
  );
});

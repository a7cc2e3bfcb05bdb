import assert from "node:assert/strict";
import type { Diagnosis } from "../../lib/state/diagnose.ts";
import { renderDoctorText } from "../../lib/state/render_doctor_text.ts";

function diagnosis(extra: Partial<Diagnosis> = {}): Diagnosis {
  return {
    healthy: true,
    root: "/p",
    git_repository: true,
    state_dir: { path: "/p/.dochygiene", status: "ok", writable: true },
    state_file: "ok",
    future_times: [],
    leftover_temps: [],
    report: null,
    gitignore: { ignored: true, tracked: false, line: ".dochygiene/", error: null },
    config: { path: "/p/.dochygiene.yml", present: true, valid: true },
    problems: [],
    ...extra,
  };
}

Deno.test("renderDoctorText: a healthy project, one fact a line, then 'healthy'", () => {
  assert.equal(
    renderDoctorText(diagnosis({
      report: {
        stamp: "20261130T120000Z",
        json: "/p/.dochygiene/report-20261130T120000Z.json",
        md: "/p/.dochygiene/report-20261130T120000Z.md",
      },
    })),
    [
      "root:        /p",
      "state dir:   /p/.dochygiene (ok, writable)",
      "state file:  ok",
      "report:      /p/.dochygiene/report-20261130T120000Z.json + .md",
      "git ignores .dochygiene/: yes",
      "config:      /p/.dochygiene.yml (valid)",
      "",
      "healthy",
    ].join("\n"),
  );
});

Deno.test("renderDoctorText: problems are listed, and the .gitignore line to add when git does not ignore the state", () => {
  const problem =
    '.dochygiene/ is not ignored by git: add the line ".dochygiene/" to /p/.gitignore';
  assert.equal(
    renderDoctorText(diagnosis({
      healthy: false,
      state_dir: { path: "/p/.dochygiene", status: "missing", writable: false },
      state_file: "missing",
      gitignore: { ignored: false, tracked: false, line: ".dochygiene/", error: null },
      config: { path: "/p/.dochygiene.yml", present: false, valid: true },
      problems: [problem, "another"],
    })),
    [
      "root:        /p",
      "state dir:   /p/.dochygiene (missing, NOT writable)",
      "state file:  missing",
      "report:      none",
      "git ignores .dochygiene/: NO",
      "config:      /p/.dochygiene.yml (absent: defaults)",
      "",
      "2 problem(s):",
      `- ${problem}`,
      "- another",
      "",
      "Add this line to /p/.gitignore:",
      "",
      ".dochygiene/",
    ].join("\n"),
  );
});

Deno.test("renderDoctorText: a failing git is told apart from no git repository; an invalid config says so", () => {
  const failed = renderDoctorText(diagnosis({
    healthy: false,
    gitignore: { ignored: null, tracked: null, line: ".dochygiene/", error: "git: bad index" },
    config: { path: "/p/.dochygiene.yml", present: true, valid: false },
    problems: ["x"],
  }));
  assert.match(failed, /^git ignores \.dochygiene\/: unknown: git failed \(git: bad index\)$/m);
  assert.match(failed, /^config: {6}\/p\/\.dochygiene\.yml \(INVALID\)$/m);
  assert.doesNotMatch(failed, /Add this line/);
  const none = renderDoctorText(diagnosis({
    git_repository: false,
    gitignore: { ignored: null, tracked: null, line: ".dochygiene/", error: null },
  }));
  assert.match(none, /^root: {8}\/p \(no \.git found: not a git repository\)$/m);
  assert.match(none, /^git ignores \.dochygiene\/: n\/a \(not a git repository\)$/m);
});

Deno.test("renderDoctorText escapes control characters in the paths and problems it shows", () => {
  const text = renderDoctorText(diagnosis({
    healthy: false,
    root: "/tmp/a\x1b]0;x\x07",
    problems: ["bad \u202e name"],
  }));
  for (const c of ["\x1b", "\x07", "\u202e"]) assert.ok(!text.includes(c));
  assert.match(text, /^root: {8}\/tmp\/a\\x1b\]0;x\\x07$/m);
  assert.match(text, /^- bad \\u202e name$/m);
});

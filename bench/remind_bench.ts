// Start-up cost of the SessionStart hook against an empty `deno run`, with the
// Deno binary running this script, in one interleaved run (a fixed shuffle per
// round): the banner path (state reset to stale before every run) and the
// silent path, each with and without a `.dochygiene.yml`. Two rows per path,
// each against its own baseline, so that like is compared with like:
//
// - `hook` (judged): the exact command of hooks/hooks.json run the way Claude
//   Code runs it (`sh -c "<command>"`, payload on stdin, cwd = the session
//   directory; it runs hooks/remind.js, the one-module bundle) against the
//   empty script launched the same way (`sh -c "exec deno run empty.ts"`):
//   both pay for the one shell, which is not the hook's cost;
// - `remind.ts` (for reference): `deno run <flags> remind.ts`, the source
//   modules as `deno task remind` and `dochygiene-remind` run them by hand,
//   against `deno run empty.ts`.
//
// Target: median <= 1.3x the baseline on every hook row.
//
//   deno run -A bench/remind_bench.ts [--runs 60]

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const DENO = Deno.execPath();
const TARGET = 1.3;
const NOW = "2026-11-30T09:00:00.000Z";
const runsFlag = Deno.args.indexOf("--runs");
const RUNS = runsFlag === -1 ? 60 : Number(Deno.args[runsFlag + 1]);
const CONFIG = [
  "threshold_days: 7",
  'scope_globs: ["**/*.md"]',
  "rules:",
  '  - match: "autoresearch/*/"',
  "    lifetime: temporary",
  "",
].join("\n");

interface Case {
  name: string;
  cmd: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  stdin?: string;
  prepare?: () => void;
  banner?: boolean;
}

const BASE_DIRECT = "empty script";
const BASE_SHELL = "empty script, sh -c exec";
const BASE_CONTRACT = "contract I/O only";

// The banner path's own I/O, which docs/design.md "The reminder" requires whatever the code around it: the state
// lock, the locked re-read, and the atomic write (temp file, fsync, rename, fsync of the
// directory). A script doing only that is the floor of the banner rows.
const CONTRACT_IO = `
const dir = ".dochygiene";
const lock = Deno.openSync(dir, { read: true });
lock.lockSync(true);
const text = Deno.readTextFileSync(dir + "/state.json");
const tmp = dir + "/.state.json.tmp";
const file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
file.writeSync(new TextEncoder().encode(text));
file.syncSync();
file.close();
Deno.renameSync(tmp, dir + "/state.json");
lock.syncSync();
lock.unlockSync();
lock.close();
`;
const PATH = `${dirname(DENO)}:${Deno.env.get("PATH")}`;
const HOOK_COMMAND: string = JSON.parse(
  Deno.readTextFileSync(join(PACKAGE_DIR, "hooks", "hooks.json")),
).hooks.SessionStart[0].hooks[0].command;

const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "dochygiene-bench-" }));
try {
  Deno.writeTextFileSync(join(work, "empty.ts"), "");
  Deno.writeTextFileSync(join(work, "contract_io.ts"), CONTRACT_IO);
  const repos = { plain: join(work, "plain"), config: join(work, "config") };
  for (const repo of Object.values(repos)) Deno.mkdirSync(join(repo, ".git"), { recursive: true });
  Deno.writeTextFileSync(join(repos.config, ".dochygiene.yml"), CONFIG);

  const day = 24 * 60 * 60 * 1000;
  const iso = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
  const state = (lastCheck: string, lastReminded: string | null) =>
    JSON.stringify({
      schema_version: 1,
      last_check: lastCheck,
      last_reminded: lastReminded,
      last_prune: null,
      clock_watermark: null,
    });
  const stale = state(iso(-30 * day), iso(-day));
  const fresh = state(iso(-day), null);
  // Written and flushed before the clock starts: at a real session start state.json was written
  // long ago, and an unflushed write here would ride on the hook's own fsync (ext4 flushes every
  // file's dirty data with the journal commit that fsync forces).
  const writeState = (repo: string, text: string) => () => {
    const dir = join(repo, ".dochygiene");
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(join(dir, "state.json"), text);
    for (const path of [join(dir, "state.json"), dir]) {
      using file = Deno.openSync(path, { read: true });
      file.syncSync();
    }
  };

  const cases: Case[] = [
    { name: BASE_DIRECT, cmd: DENO, args: ["run", "empty.ts"], cwd: work },
    // Claude Code runs every hook command through a shell: the hook rows' baseline.
    {
      name: BASE_SHELL,
      cmd: "sh",
      args: ["-c", "exec deno run empty.ts"],
      cwd: work,
      env: { PATH },
    },
  ];
  cases.push({
    name: BASE_CONTRACT,
    cmd: DENO,
    args: ["run", ...PERMISSION_FLAGS.remind, join(work, "contract_io.ts")],
    cwd: repos.plain,
    prepare: writeState(repos.plain, stale),
  });
  for (const [label, repo] of Object.entries(repos)) {
    for (const banner of [true, false]) {
      const prepare = writeState(repo, banner ? stale : fresh);
      const path = `${banner ? "banner" : "silent"}, ${label === "config" ? "with" : "no"} .yml`;
      const env = { DOCHYGIENE_NOW: NOW, CI: "" };
      const payload = JSON.stringify({
        cwd: repo,
        source: "startup",
        hook_event_name: "SessionStart",
      });
      cases.push({
        name: `remind.ts ${path}`,
        cmd: DENO,
        args: ["run", ...PERMISSION_FLAGS.remind, join(PACKAGE_DIR, "remind.ts")],
        cwd: repo,
        env,
        prepare,
        banner,
      }, {
        name: `hook      ${path}`,
        cmd: "sh",
        args: ["-c", HOOK_COMMAND],
        cwd: repo,
        env: { ...env, CLAUDE_PLUGIN_ROOT: PACKAGE_DIR, CLAUDE_PROJECT_DIR: repo, PATH },
        stdin: payload,
        prepare,
        banner,
      });
    }
  }

  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = -3; round < RUNS; round++) { // three warm-up rounds fill Deno's caches
    for (const c of _shuffled(cases, round)) {
      c.prepare?.();
      const started = performance.now();
      const child = new Deno.Command(c.cmd, {
        args: c.args,
        cwd: c.cwd,
        env: c.env,
        stdin: c.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      if (c.stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(c.stdin));
        await writer.close();
      }
      const out = await child.output();
      const elapsed = performance.now() - started;
      const stdout = new TextDecoder().decode(out.stdout);
      if (c.banner !== undefined && stdout.includes("systemMessage") !== c.banner) {
        throw new Error(`${c.name}: expected ${c.banner ? "a banner" : "silence"}, got ${stdout}`);
      }
      if (round >= 0) times.get(c.name)!.push(elapsed);
    }
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const direct = median(times.get(BASE_DIRECT)!);
  const shell = median(times.get(BASE_SHELL)!);
  // The contract's I/O, as time over the empty script: what no banner path can go below.
  const contract = median(times.get(BASE_CONTRACT)!) - direct;
  console.log(`deno ${Deno.version.deno} (${DENO}), ${RUNS} runs each, interleaved`);
  console.log(`load average ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
  console.log(
    `${"path".padEnd(34)} ${"median".padStart(8)}  ratio (hook rows: vs sh -c exec); ` +
      `banner rows also vs baseline + contract I/O`,
  );
  let over = 0;
  for (const c of cases) {
    const m = median(times.get(c.name)!);
    const base = c.cmd === "sh" ? shell : direct;
    const ratio = m / base;
    const verdict = c.banner === undefined
      ? ""
      : c.cmd !== "sh"
      ? "(reference)"
      : ratio <= TARGET
      ? "ok"
      : `over ${TARGET}x`;
    if (verdict.startsWith("over")) over++;
    const floor = c.banner ? `  (${(m / (base + contract)).toFixed(2)}x vs +contract I/O)` : "";
    console.log(
      `${c.name.padEnd(34)} ${m.toFixed(1).padStart(6)}ms  ${ratio.toFixed(2)}x ${verdict}${floor}`,
    );
  }
  console.log(
    over === 0 ? `every hook path within ${TARGET}x` : `${over} hook path(s) over ${TARGET}x`,
  );
} finally {
  await Deno.remove(work, { recursive: true });
}

/** A fixed permutation per round, so no row always runs right after another's fsync. */
function _shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let x = (seed + 4) * 2654435761 >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// The scan benchmark: on the generated repository (bench/generate_repo.ts),
// in one run, the FLOOR — `git ls-files`, one `git log --first-parent
// --no-renames --name-only` pass and reading every doc once, back to back —
// against the median wall time of `scan.ts` run as users run it (exact
// permission flags, a subprocess, writing .dochygiene/scan.json), and the
// scan's peak memory (max RSS from /usr/bin/time -v, else VmHWM polled from
// /proc). Targets: scan ≤ 1.5× floor, peak ≤ 400 MB.
//
// The scan is timed two ways, each run: COLD, the first scan of the
// repository (no .dochygiene/scan-cache.json: every doc analysed, the cache
// written), and AGAIN, a scan of the repository as that one left it (every
// doc read and fingerprinted, its facts taken from the cache).
//
// The floor is judged like for like: this script re-runs itself with
// `--floor-only` as a subprocess of the same Deno binary under exactly
// scan.ts's permission flags, so both sides pay process start-up and the
// per-call permission checks of `--allow-read` (which resolves every path
// component on every read). The in-process floor under `-A` that earlier
// versions judged against is printed too, for transparency.
//
//   deno run -A bench/scan_bench.ts [--docs 20000] [--commits 5000] [--runs 5]

import { join } from "node:path";
import { parseArgs } from "node:util";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";
import { pathExists } from "../lib/fs/path_exists.ts";
import { helperThreads } from "../lib/scan/read_docs.ts";

const PACKAGE_DIR = join(import.meta.dirname ?? ".", "..");
const RATIO_TARGET = 1.5;
const MEMORY_TARGET_MB = 400;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    docs: { type: "string" },
    commits: { type: "string" },
    runs: { type: "string" },
    "floor-only": { type: "boolean" },
  },
});

/** The floor in this process, from the repository as working directory. */
async function floor(): Promise<{ ms: number; docs: number }> {
  const started = performance.now();
  const ls = await _run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  await _run("git", [
    "log",
    "--first-parent",
    "--no-renames",
    "--name-only",
    "-z",
    "--format=%x00%ct",
    "HEAD",
  ]);
  const docs = new TextDecoder().decode(ls).split("\0").filter((p) => p.endsWith(".md"));
  // Synchronous reads: on one thread they beat 16 concurrent async reads
  // (measured ~200 vs ~450 ms under -A, ~380 vs ~640 ms under --allow-read).
  for (const doc of docs) Deno.readFileSync(doc);
  return { ms: performance.now() - started, docs: docs.length };
}

if (values["floor-only"]) {
  // Child mode (run under scan.ts's flags): the floor, as JSON.
  console.log(JSON.stringify(await floor()));
  Deno.exit(0);
}

const { FULL_SIZE, generateRepo } = await import("./generate_repo.ts");
const size = {
  docs: Number(values.docs ?? FULL_SIZE.docs),
  commits: Number(values.commits ?? FULL_SIZE.commits),
};
const runs = Number(values.runs ?? 5);
const root = await generateRepo(size);
Deno.chdir(root);

/** The floor as a subprocess under scan.ts's exact flags: wall time, and its in-process part. */
async function floorLikeForLike(): Promise<{ ms: number; inProcessMs: number; docs: number }> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS.scan,
      join(PACKAGE_DIR, "bench", "scan_bench.ts"),
      "--floor-only",
    ],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).output();
  const ms = performance.now() - started;
  if (out.code !== 0) throw new Error(`floor subprocess failed (${out.code})`);
  const child = JSON.parse(new TextDecoder().decode(out.stdout));
  return { ms, inProcessMs: child.ms, docs: child.docs };
}

const CACHE = join(root, ".dochygiene", "scan-cache.json");

/** One scan; `cold`: without the cache a scan before left (the first scan of the repository). */
async function scanOnce(cold: boolean): Promise<{ ms: number; peakMb: number | undefined }> {
  if (cold) await Deno.remove(CACHE).catch(() => {});
  const denoArgs = [
    "run",
    "--quiet",
    `--config=${join(PACKAGE_DIR, "deno.json")}`,
    ...PERMISSION_FLAGS.scan,
    join(PACKAGE_DIR, "scan.ts"),
    "--format",
    "json",
  ];
  const timeBin = await pathExists("/usr/bin/time");
  const started = performance.now();
  const child = new Deno.Command(timeBin ? "/usr/bin/time" : Deno.execPath(), {
    args: timeBin ? ["-v", Deno.execPath(), ...denoArgs] : denoArgs,
    cwd: root,
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  // Without /usr/bin/time, poll the child's high-water mark.
  let polled = 0;
  const poll = timeBin ? undefined : setInterval(() => {
    try {
      const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      polled = Math.max(polled, kb);
    } catch {
      // Exited.
    }
  }, 5);
  const out = await child.output();
  const ms = performance.now() - started;
  if (poll !== undefined) clearInterval(poll);
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`scan failed (${out.code}): ${stderr}`);
  const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
  const kb = maxRss ? Number(maxRss) : polled;
  return { ms, peakMb: kb > 0 ? kb / 1024 : undefined };
}

async function _run(cmd: string, args: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit" })
    .output();
  if (out.code !== 0) throw new Error(`${cmd} ${args[0]} failed`);
  return out.stdout;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The 1-minute load average (Linux), to tell a quiet run from a contended one. */
function _load(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  } catch {
    return "unknown";
  }
}

const loadBefore = _load();
// Warm caches (page cache, Deno's module cache) before measuring either side.
await floor();
await floorLikeForLike();
await scanOnce(true);
const floors: number[] = [];
const floorsInProcess: number[] = [];
const floorsAllowAll: number[] = [];
const colds: number[] = [];
const agains: number[] = [];
const peaks: number[] = [];
let docCount = 0;
for (let i = 0; i < runs; i++) {
  const f = await floorLikeForLike();
  floors.push(f.ms);
  floorsInProcess.push(f.inProcessMs);
  docCount = f.docs;
  floorsAllowAll.push((await floor()).ms);
  for (const [times, cold] of [[colds, true], [agains, false]] as const) {
    const s = await scanOnce(cold);
    times.push(s.ms);
    if (s.peakMb !== undefined) peaks.push(s.peakMb);
  }
}
const floorMs = median(floors);
const floorAllowAllMs = median(floorsAllowAll);
const coldMs = median(colds);
const scanMs = median(agains);
const ratio = scanMs / floorMs;
const peak = peaks.length > 0 ? Math.max(...peaks) : undefined;
console.log(`repository: ${root} (${docCount} docs, ${size.commits} commits)`);
console.log(
  `floor (ls-files + one git log pass + read every doc), medians of ${runs}:\n` +
    `  like for like (subprocess, same binary, scan.ts's exact flags): ${
      floorMs.toFixed(0)
    } ms wall, ${median(floorsInProcess).toFixed(0)} ms of it in-process\n` +
    `  in this process under -A (the old floor, for reference): ${floorAllowAllMs.toFixed(0)} ms`,
);
console.log(
  `scan.ts (subprocess, exact flags, writes scan.json), medians of ${runs}:\n` +
    `  again (the repository as the scan before left it; facts from .dochygiene/scan-cache.json): ${
      scanMs.toFixed(0)
    } ms\n` +
    `  cold (the first scan: no cache; every doc analysed, the cache written): ${
      coldMs.toFixed(0)
    } ms`,
);
console.log(
  `ratio: ${ratio.toFixed(2)}× like for like (target ≤ ${RATIO_TARGET}×); ${
    (scanMs / floorAllowAllMs).toFixed(2)
  }× against the -A in-process floor; cold: ${(coldMs / floorMs).toFixed(2)}×`,
);
console.log(
  `load average (1 min) before / after: ${loadBefore} / ${_load()} on ${navigator.hardwareConcurrency} cores`,
);
console.log(
  `reading threads in the scan: ${1 + helperThreads(docCount)} (the main one and helpers)`,
);
console.log(
  `peak memory: ${
    peak === undefined ? "unknown" : `${peak.toFixed(0)} MB`
  } (target ≤ ${MEMORY_TARGET_MB} MB)`,
);
const ok = ratio <= RATIO_TARGET && (peak === undefined || peak <= MEMORY_TARGET_MB);
console.log(ok ? "PASS" : "FAIL");
Deno.exit(ok ? 0 : 1);

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
//     [--repo PATH]     a real clone instead of the generated repository (scanned in a copy)
//     [--against DIR]   another checkout of dochygiene, timed in turns with this one

import { join, resolve } from "node:path";
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
    repo: { type: "string" },
    against: { type: "string" },
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

const runs = Number(values.runs ?? 5);
// The packages compared: this one, and with --against another checkout of dochygiene (e.g. a
// `git worktree` of an older commit), timed in turns in the same sitting.
const packages = [PACKAGE_DIR, ...(values.against ? [resolve(values.against)] : [])];
let source: string;
let commits: string;
if (values.repo) {
  source = resolve(values.repo);
  commits = new TextDecoder().decode(
    await _run("git", ["-C", source, "rev-list", "--count", "--first-parent", "HEAD"]),
  )
    .trim();
} else {
  const { FULL_SIZE, generateRepo } = await import("./generate_repo.ts");
  const size = {
    docs: Number(values.docs ?? FULL_SIZE.docs),
    commits: Number(values.commits ?? FULL_SIZE.commits),
  };
  source = await generateRepo(size);
  commits = String(size.commits);
}
// Each package scans its own copy (their scan caches differ by version); the source is left as is.
const roots = await Promise.all(packages.map(async (_, i) => {
  const copy = await Deno.makeTempDir({ prefix: `dochygiene-scan-bench-${i}-` });
  await _run("cp", ["-a", `${source}/.`, copy]);
  await Deno.remove(join(copy, ".dochygiene"), { recursive: true }).catch(() => {});
  // A copy's files have new inodes: git re-reads them once here, not in the first timed scan.
  await _run("git", ["-C", copy, "status", "--porcelain"]);
  return copy;
}));

/** The floor as a subprocess under scan.ts's exact flags: wall time, and its in-process part. */
async function floorLikeForLike(
  root: string,
): Promise<{ ms: number; inProcessMs: number; docs: number }> {
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

/** One scan by `pkg` in `root`; `cold`: without the cache a scan before left (the first scan). */
async function scanOnce(
  pkg: string,
  root: string,
  cold: boolean,
): Promise<{ ms: number; peakMb: number | undefined }> {
  if (cold) await Deno.remove(join(root, ".dochygiene", "scan-cache.json")).catch(() => {});
  const denoArgs = [
    "run",
    "--quiet",
    `--config=${join(pkg, "deno.json")}`,
    ...PERMISSION_FLAGS.scan,
    join(pkg, "scan.ts"),
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
Deno.chdir(roots[0]);
// Warm caches (page cache, Deno's module cache) before measuring either side.
await floor();
await floorLikeForLike(roots[0]);
for (const [i, pkg] of packages.entries()) await scanOnce(pkg, roots[i], true);
const floors: number[] = [];
const floorsInProcess: number[] = [];
const floorsAllowAll: number[] = [];
const sides = packages.map(() => ({
  colds: [] as number[],
  agains: [] as number[],
  peaks: [] as number[],
}));
let docCount = 0;
for (let i = 0; i < runs; i++) {
  const f = await floorLikeForLike(roots[0]);
  floors.push(f.ms);
  floorsInProcess.push(f.inProcessMs);
  docCount = f.docs;
  floorsAllowAll.push((await floor()).ms);
  for (const [k, pkg] of packages.entries()) {
    for (const cold of [true, false]) {
      const s = await scanOnce(pkg, roots[k], cold);
      (cold ? sides[k].colds : sides[k].agains).push(s.ms);
      if (s.peakMb !== undefined) sides[k].peaks.push(s.peakMb);
    }
  }
}
const floorMs = median(floors);
const floorAllowAllMs = median(floorsAllowAll);
console.log(`repository: ${source} (${docCount} docs, ${commits} commits)`);
console.log(
  `floor (ls-files + one git log pass + read every doc), medians of ${runs}:\n` +
    `  like for like (subprocess, same binary, scan.ts's exact flags): ${
      floorMs.toFixed(0)
    } ms wall, ${median(floorsInProcess).toFixed(0)} ms of it in-process\n` +
    `  in this process under -A (the old floor, for reference): ${floorAllowAllMs.toFixed(0)} ms`,
);
let ok = true;
for (const [k, pkg] of packages.entries()) {
  const { colds, agains, peaks } = sides[k];
  const coldMs = median(colds);
  const scanMs = median(agains);
  const ratio = scanMs / floorMs;
  const peak = peaks.length > 0 ? Math.max(...peaks) : undefined;
  console.log(
    `scan.ts of ${
      k === 0 ? "this package" : pkg
    } (subprocess, exact flags, writes scan.json), medians of ${runs}:\n` +
      `  again (the repository as the scan before left it; facts from .dochygiene/scan-cache.json): ${
        scanMs.toFixed(0)
      } ms\n` +
      `  cold (the first scan: no cache; every doc analysed, the cache written): ${
        coldMs.toFixed(0)
      } ms\n` +
      `  ratio: ${ratio.toFixed(2)}× like for like (target ≤ ${RATIO_TARGET}×); ${
        (scanMs / floorAllowAllMs).toFixed(2)
      }× against the -A in-process floor; cold: ${(coldMs / floorMs).toFixed(2)}×\n` +
      `  peak memory: ${
        peak === undefined ? "unknown" : `${peak.toFixed(0)} MB`
      } (target ≤ ${MEMORY_TARGET_MB} MB)`,
  );
  if (k === 0) ok = ratio <= RATIO_TARGET && (peak === undefined || peak <= MEMORY_TARGET_MB);
}
console.log(
  `load average (1 min) before / after: ${loadBefore} / ${_load()} on ${navigator.hardwareConcurrency} cores`,
);
console.log(
  `reading threads in the scan: ${1 + helperThreads(docCount)} (the main one and helpers)`,
);
console.log(ok ? "PASS" : "FAIL");
Deno.chdir(source);
for (const root of roots) await Deno.remove(root, { recursive: true });
Deno.exit(ok ? 0 : 1);

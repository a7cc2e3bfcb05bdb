// The scanner at scale: at 20,000, 50,000 and 100,000 generated docs (bench/generate_repo.ts,
// 5,000 commits each), in one run, side by side: the FLOOR (`git ls-files`, one history pass
// and reading every doc once, as a subprocess under scan.ts's exact flags: bench/scan_bench.ts
// --floor-only) and scan.ts run as users run it — COLD (no cache) and AGAIN (the cache the cold
// scan left) — with wall time, peak RSS (max RSS from /usr/bin/time -v), and the sizes of
// scan.json, scan-cache.json and the overview. Target: peak RSS ≤ 500 MB at 100,000 docs, time
// linear in the docs (the ms per 1,000 docs column stays flat).
//
//   deno run -A bench/scale_bench.ts [--sizes 20000,50000,100000] [--runs 1]

import { join } from "node:path";
import { parseArgs } from "node:util";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";
import { generateRepo } from "./generate_repo.ts";

const PACKAGE_DIR = join(import.meta.dirname ?? ".", "..");
const MEMORY_TARGET_MB = 500;
const { values } = parseArgs({
  args: Deno.args,
  options: { sizes: { type: "string" }, runs: { type: "string" } },
  strict: false,
});
const sizes = String(values.sizes ?? "20000,50000,100000").split(",").map(Number);
const runs = Number(values.runs ?? 1);

interface Measure {
  ms: number;
  peakMb: number;
}

/** Runs `deno <args>` under /usr/bin/time -v in `cwd`: wall time and max RSS. */
async function measured(args: string[], cwd: string): Promise<Measure & { stdout: Uint8Array }> {
  const started = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-v", Deno.execPath(), ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const ms = performance.now() - started;
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`deno ${args.join(" ")} failed (${out.code}): ${stderr}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0);
  return { ms, peakMb: kb / 1024, stdout: out.stdout };
}

const flags = [
  "run",
  "--quiet",
  `--config=${join(PACKAGE_DIR, "deno.json")}`,
  ...PERMISSION_FLAGS.scan,
];
const scanArgs = (format: string) => [...flags, join(PACKAGE_DIR, "scan.ts"), "--format", format];
const floorArgs = [...flags, join(PACKAGE_DIR, "bench", "scan_bench.ts"), "--floor-only"];

const best = (xs: Measure[]): Measure => ({
  ms: [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)].ms,
  peakMb: Math.max(...xs.map((x) => x.peakMb)),
});
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

console.log(`load average: ${Deno.readTextFileSync("/proc/loadavg").trim()}; ${runs} run(s) each`);
const rows: string[][] = [[
  "docs",
  "floor",
  "floor RSS",
  "cold scan",
  "cold RSS",
  "again",
  "again RSS",
  "cold ms / 1k docs",
  "scan.json",
  "scan-cache.json",
  "overview",
]];
let worstPeak = 0;
for (const docs of sizes) {
  const root = await generateRepo({ docs, commits: 5_000 });
  const cache = join(root, ".dochygiene", "scan-cache.json");
  await measured(floorArgs, root); // page cache and module cache warm on both sides
  const floors: Measure[] = [];
  const colds: Measure[] = [];
  const agains: Measure[] = [];
  for (let i = 0; i < runs; i++) {
    floors.push(await measured(floorArgs, root));
    await Deno.remove(cache).catch(() => {});
    colds.push(await measured(scanArgs("json"), root));
    agains.push(await measured(scanArgs("json"), root));
  }
  const overview = (await measured(scanArgs("overview"), root)).stdout.length;
  const [f, c, a] = [best(floors), best(colds), best(agains)];
  worstPeak = Math.max(worstPeak, c.peakMb, a.peakMb);
  rows.push([
    String(docs),
    `${(f.ms / 1000).toFixed(1)} s`,
    `${f.peakMb.toFixed(0)} MB`,
    `${(c.ms / 1000).toFixed(1)} s (${(c.ms / f.ms).toFixed(1)}×)`,
    `${c.peakMb.toFixed(0)} MB`,
    `${(a.ms / 1000).toFixed(1)} s (${(a.ms / f.ms).toFixed(1)}×)`,
    `${a.peakMb.toFixed(0)} MB`,
    (c.ms / (docs / 1000)).toFixed(0),
    mb(Deno.statSync(join(root, ".dochygiene", "scan.json")).size),
    mb(Deno.statSync(cache).size),
    `${(overview / 1024).toFixed(1)} KB`,
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(rows[0]));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const r of rows.slice(1)) console.log(line(r));
console.log(`load average after: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
console.log(
  `peak RSS ${worstPeak.toFixed(0)} MB (target ≤ ${MEMORY_TARGET_MB} MB): ${
    worstPeak <= MEMORY_TARGET_MB ? "PASS" : "FAIL"
  }`,
);
Deno.exit(worstPeak <= MEMORY_TARGET_MB ? 0 : 1);

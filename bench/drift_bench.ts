// The drift benchmark (docs/benchmarks.md "Drift"): `scan.ts` as users run it (subprocess,
// exact permission flags, writing scan.json and the cache) with the three drift signals on
// against the same scan with them off (`drift:` in .dochygiene.yml), in one run, on
//
// - CODE: a generated repository with code and history — source files whose functions,
//   options and flags are renamed commit after commit, and docs naming them in inline code;
// - DOCS: a docs-only repository (tldr-like: pages of commands, no code).
//
// Each side is timed COLD (no scan cache) and AGAIN (the cache the cold scan left). Targets: on
// CODE, AGAIN with drift ≤ 1.2× AGAIN without; on DOCS, no slower (≤ 1.2× either way, noise).
//
//   deno run -A bench/drift_bench.ts [--commits 3000] [--docs 400] [--runs 5] [--repo PATH]
//
// `--repo PATH` times an existing repository instead (e.g. a clone of vitejs/vite).

import { join } from "node:path";
import { parseArgs } from "node:util";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";

const PACKAGE_DIR = join(import.meta.dirname ?? ".", "..");
const { values } = parseArgs({
  args: Deno.args,
  options: {
    commits: { type: "string" },
    docs: { type: "string" },
    runs: { type: "string" },
    repo: { type: "string" },
  },
});
const COMMITS = Number(values.commits ?? 3000);
const DOCS = Number(values.docs ?? 400);
const RUNS = Number(values.runs ?? 5);

/** A repository with code and history, made with one `git fast-import`. */
async function codeRepo(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "drift-bench-code-" });
  await _git(root, ["init", "-q", "-b", "main"]);
  const files = 300;
  let stream = "";
  const blob = (text: string) => `data ${new TextEncoder().encode(text).length}\n${text}\n`;
  const source = (f: number, version: number) => {
    let text = "";
    for (let k = 0; k < 20; k++) {
      // Each file changes ~10 times over 3,000 commits: its functions are renamed every 2nd
      // change, its flags every 4th, its options every 8th (what the docs name goes stale).
      text += `export function fn${f}_${k}V${
        version >> 1
      }() { return cli.option("--flag-${f}-${k}-v${
        version >> 2
      }"); }\nexport const CONFIG_${f}_${k} = { server: { opt${f}x${k}v${version >> 3}: 1 } };\n`;
    }
    return text;
  };
  const version = new Array(files).fill(0);
  let time = 1_600_000_000;
  for (let c = 0; c < COMMITS; c++) {
    stream += `commit refs/heads/main\ncommitter B <b@b> ${time += 3600} +0000\n${blob(`c${c}`)}`;
    if (c === 0) {
      for (let f = 0; f < files; f++) {
        stream += `M 100644 inline src/m${f}.ts\n${blob(source(f, 0))}`;
      }
      for (let d = 0; d < DOCS; d++) {
        const f = d % files;
        const names = [`fn${f}_1V0()`, `CONFIG_${f}_2`, `server.opt${f}x3v0`, `--flag-${f}-4-v0`];
        const text = `# Doc ${d}\n\nSee [m](../src/m${f}.ts) and \`src/m${f}.ts\`.\n\n` +
          names.map((n) => `- \`${n}\` and \`useState${d}\`\n`).join("");
        stream += `M 100644 inline docs/d${d}.md\n${blob(text)}`;
      }
    } else {
      const f = (c * 7) % files;
      version[f]++;
      stream += `M 100644 inline src/m${f}.ts\n${blob(source(f, version[f]))}`;
    }
  }
  const p = new Deno.Command("git", { args: ["fast-import", "--quiet"], cwd: root, stdin: "piped" })
    .spawn();
  const w = p.stdin.getWriter();
  await w.write(new TextEncoder().encode(stream));
  await w.close();
  await p.status;
  await _git(root, ["reset", "-q", "--hard", "main"]);
  return root;
}

/** A docs-only repository: pages of commands in inline code (tldr-like), one commit each batch. */
async function docsRepo(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "drift-bench-docs-" });
  await _git(root, ["init", "-q", "-b", "main"]);
  for (let d = 0; d < 2000; d++) {
    await Deno.mkdir(join(root, "pages", `p${d % 20}`), { recursive: true });
    await Deno.writeTextFile(
      join(root, "pages", `p${d % 20}`, `cmd${d}.md`),
      `# cmd${d}\n\n> Does things.\n\n- Run it:\n\n\`cmd${d} --verbose {{path/to/file}}\`\n\n- Dry run: \`--dry-run\`\n`,
    );
  }
  await _git(root, ["add", "."]);
  await _git(root, ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "pages"]);
  return root;
}

async function _git(cwd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd }).output();
  if (out.code !== 0) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** One scan.ts run: wall milliseconds. */
async function scanOnce(root: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSION_FLAGS.scan, join(PACKAGE_DIR, "scan.ts")],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Medians of cold and again scans with drift on or off. */
async function time(root: string, drift: boolean): Promise<{ cold: number; again: number }> {
  const config = join(root, ".dochygiene.yml");
  if (drift) await Deno.remove(config).catch(() => {});
  else {
    await Deno.writeTextFile(
      config,
      "drift: {stale_reference: false, code_drift: false, review: false}\n",
    );
  }
  const cold: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await Deno.remove(join(root, ".dochygiene"), { recursive: true }).catch(() => {});
    cold.push(await scanOnce(root));
    again.push(await scanOnce(root));
  }
  return { cold: median(cold), again: median(again) };
}

async function report(name: string, root: string): Promise<void> {
  // Alternated so that neither side gets a warmer disk cache.
  const off = await time(root, false);
  const on = await time(root, true);
  const off2 = await time(root, false);
  const offCold = Math.min(off.cold, off2.cold);
  const offAgain = Math.min(off.again, off2.again);
  // What the drift signals found (from the last scan with them on), so that a reader knows the
  // history work had something to find.
  await time(root, true);
  const artifact = JSON.parse(await Deno.readTextFile(join(root, ".dochygiene", "scan.json")));
  const found = new Map<string, number>();
  for (const list of Object.values(artifact.signals) as { kind: string }[][]) {
    for (const { kind } of list) found.set(kind, (found.get(kind) ?? 0) + 1);
  }
  const findings = ["stale_reference", "code_drift", "review"]
    .map((kind) => `${found.get(kind) ?? 0} ${kind}`).join(", ");
  console.log(
    `${name}: drift off cold ${offCold.toFixed(0)} ms, again ${offAgain.toFixed(0)} ms; ` +
      `drift on cold ${on.cold.toFixed(0)} ms (+${(on.cold - offCold).toFixed(0)} ms), again ${
        on.again.toFixed(0)
      } ms — again ratio ${(on.again / offAgain).toFixed(2)}× (target ≤ 1.2×); found ${findings}`,
  );
}

if (values.repo !== undefined) {
  await report(values.repo, values.repo);
} else {
  const code = await codeRepo();
  const docs = await docsRepo();
  try {
    await report(`code repo (${COMMITS} commits, ${DOCS} docs, 300 source files)`, code);
    await report("docs-only repo (2,000 pages, no code)", docs);
  } finally {
    await Deno.remove(code, { recursive: true });
    await Deno.remove(docs, { recursive: true });
  }
}

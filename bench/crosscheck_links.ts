// Cross-checks the scanner's `broken_link` and `broken_anchor` findings against
// remark-validate-links (an established checker) on the same directory, and
// prints every difference. A dev tool: not run by the tests or `deno task bench`.
//
//   (cd /tmp/xcheck && npm install remark-validate-links remark remark-gfm \
//      remark-frontmatter unified-engine)
//   deno run -A bench/crosscheck_links.ts DIR [--xcheck /tmp/xcheck] [--generate]
//
// DIR is scanned with `scan.ts --no-write --format json` (the real seam, with its
// exact permission flags); a DIR without `.git` is copied to a temporary
// directory first so that it is its own project root. `--generate` uses the
// benchmark's generated repository (bench/generate_repo.ts, 2,000 docs) as DIR.
// remark-validate-links runs through unified-engine on the shortlisted docs (it
// adds the docs they link to), with remark-gfm and remark-frontmatter, and
// `repository: false` (no hosted-Git URL rewriting, like us). It runs under Node
// from the scratch install outside this repository (`--xcheck`), so neither
// `deno check` nor the lock file ever sees its packages.
//
// Exit code: 0 when there are no differences, 1 when there are.

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";

interface Finding {
  file: string;
  line: number;
  kind: "file" | "anchor";
  detail: string;
}

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** Runs both checkers on `dir`, prints the differences, returns the exit code. */
export async function crosscheck(dir: string, xcheck: string): Promise<number> {
  const root = await _ownRoot(dir);
  const artifact = await _scan(root);
  const shortlist: string[] = artifact.shortlist;
  const ours: Finding[] = [];
  for (const [file, signals] of Object.entries(artifact.signals)) {
    for (const s of signals as { kind: string; line: number; target: string; hint?: string }[]) {
      if (s.kind === "broken_link") {
        ours.push({ file, line: s.line, kind: "file", detail: `${s.target} (hint ${s.hint})` });
      }
      if (s.kind === "broken_anchor") {
        ours.push({ file, line: s.line, kind: "anchor", detail: s.target });
      }
    }
  }
  const theirs = (await _remark(root, shortlist, xcheck)).filter((f) => shortlist.includes(f.file));
  const key = (f: Finding) => `${f.file}:${f.line}:${f.kind}`;
  const count = (list: Finding[]) => {
    const m = new Map<string, Finding[]>();
    for (const f of list) m.set(key(f), [...(m.get(key(f)) ?? []), f]);
    return m;
  };
  const a = count(ours);
  const b = count(theirs);
  let differences = 0;
  for (const k of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(k) ?? [];
    const y = b.get(k) ?? [];
    if (x.length === y.length) continue;
    differences++;
    console.log(`${k}  dochygiene: ${x.length}  remark-validate-links: ${y.length}`);
    for (const f of x) console.log(`    ours:   ${f.detail}`);
    for (const f of y) console.log(`    remark: ${f.detail}`);
  }
  console.log(
    `${shortlist.length} docs; dochygiene ${ours.length} findings, remark-validate-links ` +
      `${theirs.length}; ${differences} differing (file, line, kind) groups`,
  );
  if (root !== dir) await Deno.remove(root, { recursive: true });
  return differences === 0 ? 0 : 1;
}

// A directory that is its own project root: DIR itself when it holds `.git`, else a copy.
async function _ownRoot(dir: string): Promise<string> {
  try {
    await Deno.lstat(join(dir, ".git"));
    return dir;
  } catch {
    const copy = await Deno.realPath(await Deno.makeTempDir({ prefix: "crosscheck-" }));
    const cp = await new Deno.Command("cp", { args: ["-R", `${dir}/.`, copy] }).output();
    if (!cp.success) throw new Error(`cp failed: ${new TextDecoder().decode(cp.stderr)}`);
    return copy;
  }
}

async function _scan(root: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...PERMISSION_FLAGS.scan,
      "--config",
      join(PACKAGE_DIR, "deno.json"),
      join(PACKAGE_DIR, "scan.ts"),
      "--no-write",
      "--format",
      "json",
    ],
    cwd: root,
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`scan.ts failed with exit code ${out.code}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

interface _VFileMessage {
  ruleId?: string;
  reason: string;
  line?: number;
  source?: string;
}

// remark-validate-links runs under Node, from the scratch install (Node resolves its
// packages there; Deno would resolve them against this package's import map).
const _REMARK_SCRIPT = `
import { engine } from "unified-engine";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
import remarkFrontmatter from "remark-frontmatter";
import remarkValidateLinks from "remark-validate-links";
import { readFileSync } from "node:fs";
const { root, files } = JSON.parse(readFileSync(process.argv[2], "utf8"));
engine({
  processor: remark(), cwd: root, files, extensions: ["md", "markdown", "mdx"],
  plugins: [remarkGfm, [remarkFrontmatter, ["yaml"]], [remarkValidateLinks, { repository: false }]],
  silent: true, quiet: true, output: false, out: false, detectConfig: false, detectIgnore: false,
  streamError: { write: () => true },
}, (error, code, context) => {
  if (error) throw error;
  const out = context.files.map((f) => ({ path: f.path, messages: f.messages.map((m) => ({
    ruleId: m.ruleId, reason: m.reason, line: m.line, source: m.source })) }));
  process.stdout.write(JSON.stringify(out));
});
`;

async function _remark(root: string, files: string[], xcheck: string): Promise<Finding[]> {
  const script = join(xcheck, "crosscheck_remark.mjs");
  await Deno.writeTextFile(script, _REMARK_SCRIPT);
  // In a file: thousands of paths overflow a command line.
  const input = join(xcheck, "crosscheck_files.json");
  await Deno.writeTextFile(input, JSON.stringify({ root, files }));
  const out = await new Deno.Command("node", {
    args: [script, input],
    cwd: xcheck,
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`remark-validate-links failed (exit ${out.code})`);
  const vfiles: { path: string; messages: _VFileMessage[] }[] = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  const findings: Finding[] = [];
  for (const file of vfiles) {
    for (const m of file.messages) {
      if (!m.source?.startsWith("remark-validate-links") || m.line === undefined) continue;
      findings.push({
        file: relative(root, resolve(root, file.path)),
        line: m.line,
        kind: m.ruleId === "missing-file" ? "file" : "anchor",
        detail: m.reason,
      });
    }
  }
  return findings;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      xcheck: { type: "string", default: "/tmp/xcheck" },
      generate: { type: "boolean", default: false },
      docs: { type: "string", default: "2000" },
      commits: { type: "string", default: "200" },
    },
  });
  let dir = positionals[0];
  if (values.generate) {
    const { generateRepo } = await import("./generate_repo.ts");
    dir = await generateRepo({ docs: Number(values.docs), commits: Number(values.commits) });
  }
  if (!dir) {
    console.error("usage: deno run -A bench/crosscheck_links.ts DIR [--xcheck DIR] [--generate]");
    Deno.exit(2);
  }
  Deno.exit(await crosscheck(resolve(dir), resolve(values.xcheck)));
}

// prune.ts at scale: a dry-run plan over 2,000 directory units, then an apply
// that deletes 500 of them in one commit. Reports wall time and the number of
// git processes (counted through a PATH shim that logs each call and execs
// the real git). Run: deno run -A bench/prune_bench.ts

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PERMISSION_FLAGS } from "../lib/cli/permission_flags.ts";

const PACKAGE = dirname(dirname(fileURLToPath(import.meta.url)));
const UNITS = 2000;
const OLD_UNITS = 500;
const NOW = "2026-11-30T12:00:00.000Z";

async function sh(cwd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command("git", { args, cwd, env, stdout: "null", stderr: "piped" })
    .output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
}

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "dochygiene-prune-bench-" }));
const shim = await Deno.makeTempDir({ prefix: "dochygiene-git-shim-" });
try {
  await sh(root, ["init", "-q", "-b", "main"]);
  await sh(root, ["config", "user.email", "bench@example.com"]);
  await sh(root, ["config", "user.name", "Bench"]);
  await Deno.writeTextFile(join(root, ".gitignore"), ".dochygiene/\n");
  await Deno.writeTextFile(
    join(root, ".dochygiene.yml"),
    'rules:\n  - match: "autoresearch/*/"\n    lifetime: temporary\n    retain_recent: 3\n    max_age_days: 3\n',
  );
  const write = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const dir = join(root, "autoresearch", `run-${String(i).padStart(4, "0")}`);
      await Deno.mkdir(join(dir, "data"), { recursive: true });
      await Deno.writeTextFile(join(dir, "notes.md"), `# run ${i}\n\nSee [data](data/m.csv).\n`);
      await Deno.writeTextFile(join(dir, "data", "m.csv"), `a,b\n${i},${i * 2}\n`);
    }
  };
  await write(0, OLD_UNITS);
  await sh(root, ["add", "-A"]);
  const old = {
    GIT_AUTHOR_DATE: "2026-11-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-01T00:00:00Z",
  };
  await sh(root, ["commit", "-q", "-m", "old runs"], old);
  await write(OLD_UNITS, UNITS);
  await sh(root, ["add", "-A"]);
  const recent = {
    GIT_AUTHOR_DATE: "2026-11-29T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-29T00:00:00Z",
  };
  await sh(root, ["commit", "-q", "-m", "recent runs"], recent);

  const realGit = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" }).output())
      .stdout,
  ).trim();
  const log = join(shim, "calls.log");
  await Deno.writeTextFile(
    join(shim, "git"),
    `#!/bin/sh\necho "$1" >> '${log}'\nexec '${realGit}' "$@"\n`,
  );
  await Deno.chmod(join(shim, "git"), 0o755);

  const run = async (label: string, args: string[]) => {
    await Deno.writeTextFile(log, "");
    const start = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        `--config=${join(PACKAGE, "deno.json")}`,
        ...PERMISSION_FLAGS.prune,
        join(PACKAGE, "prune.ts"),
        "--format",
        "json",
        ...args,
      ],
      cwd: root,
      env: { DOCHYGIENE_NOW: NOW, PATH: `${shim}:${Deno.env.get("PATH")}` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const ms = performance.now() - start;
    if (out.code !== 0) throw new Error(`${label}: ${new TextDecoder().decode(out.stderr)}`);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    const calls = (await Deno.readTextFile(log)).split("\n").filter(Boolean);
    console.log(
      `${label.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  ${
        String(calls.length).padStart(3)
      } git processes  candidates ${result.candidates.length}, kept ${result.kept.length}, applied ${result.applied.length}`,
    );
    return result;
  };

  console.log(
    `prune over ${UNITS} directory units (${UNITS * 2} files), ${OLD_UNITS} past max_age_days`,
  );
  await run("dry run (plan)", []);
  const applied = await run(`apply (--yes)`, ["--yes"]);
  if (applied.applied.length !== OLD_UNITS) {
    throw new Error("apply did not delete the 500 old units");
  }
} finally {
  await Deno.remove(root, { recursive: true });
  await Deno.remove(shim, { recursive: true });
}

// Builds (once, cached under /tmp by its parameters) a git repository of many
// Markdown docs with a long first-parent history, for the scan benchmark:
// frontmatter, headings, relative links (some broken, some with fragments),
// checkboxes, inline-code paths, side branches merged with --no-ff. History is
// written with ONE `git fast-import` stream, not one `git commit` per commit.
//
//   deno run -A bench/generate_repo.ts [--docs 20000] [--commits 5000]

import { parseArgs } from "node:util";

/** Parameters of a generated repository. */
export interface RepoSize {
  /** Number of docs in the final tree. */
  docs: number;
  /** Number of commits on the first-parent history (merges included). */
  commits: number;
}

/** Default size: 20,000 docs, 5,000 commits. */
export const FULL_SIZE: RepoSize = { docs: 20_000, commits: 5_000 };

const VERSION = 1;

/** Returns the path of the generated repository, building it when not cached. */
export async function generateRepo(size: RepoSize = FULL_SIZE): Promise<string> {
  const root = `/tmp/dochygiene-bench-v${VERSION}-${size.docs}docs-${size.commits}commits`;
  try {
    await Deno.lstat(`${root}/.git/bench-complete`);
    return root;
  } catch {
    // Not cached (or a half-built one): build from scratch.
  }
  await Deno.remove(root, { recursive: true }).catch(() => {});
  await Deno.mkdir(root, { recursive: true });
  await _git(root, ["init", "-q", "-b", "main"]);
  const child = new Deno.Command("git", {
    args: ["fast-import", "--quiet", "--done"],
    cwd: root,
    stdin: "piped",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const emit = async (text: string) => {
    const bytes = enc.encode(text);
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes > 1 << 20) await flush();
  };
  const flush = async () => {
    const all = new Uint8Array(pendingBytes);
    let at = 0;
    for (const p of pending) {
      all.set(p, at);
      at += p.length;
    }
    pending = [];
    pendingBytes = 0;
    await writer.write(all);
  };
  const rand = _prng(42);
  const paths = Array.from({ length: size.docs }, (_, i) => _docPath(i));
  const revision = new Array<number>(size.docs).fill(0);
  let time = Date.parse("2023-01-01T00:00:00Z") / 1000;
  let mark = 0;
  const file = async (i: number) => {
    const body = _doc(i, revision[i], paths, rand);
    await emit(`M 100644 inline ${paths[i]}\ndata ${enc.encode(body).length}\n${body}\n`);
  };
  const commit = async (ref: string, message: string, from?: string, merge?: string) => {
    time += 600 + Math.floor(rand() * 3600);
    mark++;
    await emit(
      `commit ${ref}\nmark :${mark}\nauthor Bench <bench@example.com> ${time} +0000\n` +
        `committer Bench <bench@example.com> ${time} +0000\ndata ${message.length}\n${message}\n` +
        (from ? `from ${from}\n` : "") + (merge ? `merge ${merge}\n` : ""),
    );
    return `:${mark}`;
  };
  // Commit 1 adds every doc; the rest change a few docs each, every 50th is a merge.
  let head = await commit("refs/heads/main", "initial docs");
  await emit(`M 100644 inline .gitignore\ndata 13\n.dochygiene/\n\n`);
  for (let i = 0; i < size.docs; i++) await file(i);
  for (let c = 2; c <= size.commits; c++) {
    if (c % 50 === 0) {
      const side = await commit("refs/heads/side", `side work ${c}`, head);
      for (let k = 0; k < 3; k++) {
        const i = Math.floor(rand() * size.docs);
        revision[i]++;
        await file(i);
      }
      head = await commit("refs/heads/main", `merge side ${c}`, head, side);
      continue;
    }
    head = await commit("refs/heads/main", `edit ${c}`, head);
    for (let k = 0; k < 4; k++) {
      const i = Math.floor(rand() * size.docs);
      revision[i]++;
      await file(i);
    }
  }
  await emit("done\n");
  await flush();
  await writer.close();
  const { code } = await child.status;
  if (code !== 0) throw new Error(`git fast-import failed (${code})`);
  await _git(root, ["checkout", "-q", "-f", "main"]);
  await Deno.writeTextFile(`${root}/.git/bench-complete`, `${JSON.stringify(size)}\n`);
  await _git(root, ["update-index", "-q", "--refresh"]).catch(() => {});
  return root;
}

function _docPath(i: number): string {
  const area = i % 40;
  const sub = Math.floor(i / 40) % 25;
  return `docs/area-${area}/topic-${sub}/doc-${i}.md`;
}

function _doc(i: number, rev: number, paths: string[], rand: () => number): string {
  const here = paths[i].split("/");
  const rel = (j: number) => {
    const there = paths[j].split("/");
    let common = 0;
    while (common < here.length - 1 && here[common] === there[common]) common++;
    return "../".repeat(here.length - 1 - common) + there.slice(common).join("/");
  };
  const lines = [
    "---",
    `title: Doc ${i}`,
    `status: ${["draft", "in progress", "done", "accepted"][i % 4]}`,
    ...(i % 97 === 0 ? ["hygiene: frozen"] : []),
    "---",
    `# Doc ${i} revision ${rev}`,
    "",
    `Intro for doc ${i}. See [the next doc](${rel((i + 1) % paths.length)}) and`,
    `[its setup](${rel((i + 7) % paths.length)}#setup), or [a missing one](missing-${i}.md).`,
    "",
    "## Setup",
    "",
    `Run \`src/module-${i % 300}/index.ts\` with [details](#details) and [gone](#nope-${i}).`,
    "",
  ];
  for (let k = 0; k < 6; k++) {
    lines.push(
      `- [${rand() < 0.5 ? "x" : " "}] task ${k} for [doc](${
        rel(Math.floor(rand() * paths.length))
      })`,
    );
  }
  lines.push("", "## Details", "");
  for (let p = 0; p < 8; p++) {
    lines.push(
      `Paragraph ${p}: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod ` +
        `tempor incididunt ut labore et dolore magna aliqua. \`code ${p}\` and *emphasis*.`,
    );
  }
  lines.push("", "```ts", `const x = "[not a link](nowhere.md)";`, "```", "");
  return lines.join("\n");
}

function _prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function _git(cwd: string, args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command("git", {
    args,
    cwd,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (code !== 0) throw new Error(`git ${args[0]} failed: ${new TextDecoder().decode(stderr)}`);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { docs: { type: "string" }, commits: { type: "string" } },
  });
  const started = performance.now();
  const root = await generateRepo({
    docs: Number(values.docs ?? FULL_SIZE.docs),
    commits: Number(values.commits ?? FULL_SIZE.commits),
  });
  console.log(`${root} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

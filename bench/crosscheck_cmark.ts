// Cross-checks the Markdown parser's headings and task items against cmark-gfm,
// GitHub's own parser, on random documents built from container-heavy
// fragments (lists, quotes, setext underlines, breaks, fences, definitions),
// and prints each document that differs. A dev tool: not run by the tests or
// `deno task bench`.
//
//   apt-get install cmark-gfm
//   deno run -A bench/crosscheck_cmark.ts [--seed 7] [--docs 1500]
//
// Compared per document: headings (level and first line) and task items
// (state and line), from `cmark-gfm -e tasklist --sourcepos`. Known and kept:
// a setext heading after a link reference definition starts on the
// definition's line for cmark (its source position), on its text's for us;
// Debian's cmark-gfm 0.29.0.gfm.6 renders no task box inside a block quote
// (github.com and remark do: we count them), so no fragment puts one there.
//
// Exit code: 0 when nothing differs, 1 otherwise.

import { parseArgs } from "node:util";
import { loadYaml } from "../lib/yaml/load_yaml.ts";
import { parseMarkdown } from "../lib/markdown/parse_markdown.ts";
import { prng } from "../tests/support/helpers.ts";

const FRAGMENTS = [
  "- a",
  "- [ ] t",
  "- [x] t",
  "* b",
  "1. c",
  "2) d",
  "  - e",
  "    - f",
  "   g",
  "  h",
  "> q",
  "> > qq",
  ">",
  "",
  "",
  "---",
  "===",
  "  ---",
  "   ===",
  "- - -",
  "***",
  "# H",
  "## H2",
  "Text",
  "more text",
  "```",
  "~~~",
  "    code",
  "<div>",
  "</div>",
  "[r]: /x",
  "- ",
  "-",
  "1.",
  "- [ ]",
  "- [ ] ",
  "  [x] n",
  "\t- tab",
  "> ---",
  "> ===",
  "para",
  "  > nested q",
];

/** Headings and task items as both sides give them, one string each for comparison. */
interface Facts {
  headings: string[];
  tasks: string[];
}

/** What cmark-gfm makes of `md`. */
async function github(md: string): Promise<Facts> {
  const child = new Deno.Command("cmark-gfm", {
    args: ["-e", "tasklist", "--sourcepos"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(md));
  await writer.close();
  const html = new TextDecoder().decode((await child.output()).stdout);
  return {
    headings: [...html.matchAll(/<h(\d) data-sourcepos="(\d+):/g)].map((m) => `h${m[1]}@${m[2]}`),
    tasks: [
      ...html.matchAll(/<li data-sourcepos="(\d+):[^"]*"><input type="checkbox"( checked="")?/g),
    ]
      .map((m) => `${m[2] ? "done" : "open"}@${m[1]}`),
  };
}

/** What the scanner's parser makes of `md`. */
function ours(md: string): Facts {
  const { blocks } = parseMarkdown(md);
  return {
    headings: blocks.filter((b) => b.kind === "heading").map((b) => `h${b.level}@${b.line}`),
    tasks: blocks.filter((b) => b.task).map((b) => `${b.task}@${b.line}`),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { seed: { type: "string" }, docs: { type: "string" } },
  });
  await loadYaml(); // documents that start with `---` have frontmatter
  const random = prng(Number(values.seed ?? 7));
  const docs = Number(values.docs ?? 1500);
  let differ = 0;
  for (let i = 0; i < docs; i++) {
    const lines = Array.from(
      { length: 2 + Math.floor(random() * 6) },
      () => FRAGMENTS[Math.floor(random() * FRAGMENTS.length)],
    );
    const md = lines.join("\n") + "\n";
    const [a, b] = [JSON.stringify(ours(md)), JSON.stringify(await github(md))];
    if (a === b) continue;
    differ++;
    console.log(`${JSON.stringify(md)}\n  ours   ${a}\n  github ${b}`);
  }
  console.log(`${differ} of ${docs} documents differ`);
  Deno.exit(differ === 0 ? 0 : 1);
}

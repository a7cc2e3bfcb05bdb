// The check skill at scale: runs tests/e2e/skill_scale_test.ts (the skill's scan commands,
// verbatim, on a generated repository: the overview, a row's overview, one batch) at 50,000
// docs, the size the suite cannot afford (it runs 20,000), and prints its wall time.
//
//   deno run -A bench/skill_bench.ts [--docs 50000]

import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: { docs: { type: "string" } },
  strict: false,
});
const docs = String(values.docs ?? 50_000);
const here = import.meta.dirname ?? ".";
// The repository is generated (and cached) first, so that the time below is the skill's alone.
const { generateRepo } = await import("./generate_repo.ts");
await generateRepo({ docs: Number(docs), commits: 5_000 });
const started = performance.now();
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", join(here, "..", "tests/e2e/skill_scale_test.ts")],
  env: { DOCHYGIENE_SKILL_DOCS: docs },
  stdout: "inherit",
  stderr: "inherit",
}).output();
const seconds = (performance.now() - started) / 1000;
console.log(
  `check skill, ${docs} docs: ${code === 0 ? "passed" : "FAILED"} in ${seconds.toFixed(1)} s`,
);
Deno.exit(code);

// Runs every `bench/*_bench.ts` in turn with the Deno binary running this
// script (the real binary, never the npm wrapper), so `deno task bench`
// prints every ratio in one go.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const benches = [...Deno.readDirSync(here)]
  .map((e) => e.name)
  .filter((n) => n.endsWith("_bench.ts"))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      join(here, name),
      ...Deno.args,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
Deno.exit(failed === 0 ? 0 : 1);

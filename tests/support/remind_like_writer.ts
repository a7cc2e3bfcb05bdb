// Test helper (run by state_race_test.ts with remind.ts's exact flags): one
// read-modify-write like the reminder's, setting last_reminded and appending
// its id (argv[0]) to the `writers` list.

import { ensureStateDir } from "../../lib/state/state_dir.ts";
import { updateState } from "../../lib/state/state_file.ts";

const id = Number(Deno.args[0]);
const dir = await ensureStateDir(Deno.cwd());
await updateState(dir, (s) => ({
  ...s,
  last_reminded: new Date(Date.parse("2026-06-01T00:00:00Z") + id * 1000).toISOString(),
  writers: [...(Array.isArray(s.writers) ? s.writers : []), id],
}), { timeoutMs: 30_000 });

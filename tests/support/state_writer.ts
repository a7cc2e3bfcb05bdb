// Test helper (run by state_crash_test.ts with state.ts's exact flags): bumps
// `seq` and `last_check` in a loop through updateState, printing each seq, until
// killed. The parent checks the file is always one whole version.

import { ensureStateDir } from "../../lib/state/state_dir.ts";
import { updateState } from "../../lib/state/state_file.ts";

const BASE = Date.parse("2026-01-01T00:00:00.000Z");
const dir = await ensureStateDir(Deno.cwd());
while (true) {
  const state = await updateState(dir, (s) => {
    const seq = (typeof s.seq === "number" ? s.seq : 0) + 1;
    return { ...s, seq, last_check: new Date(BASE + seq * 1000).toISOString() };
  });
  console.log(state.seq);
}

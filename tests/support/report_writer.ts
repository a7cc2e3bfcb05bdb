// Test helper (run by state_crash_test.ts with state.ts's exact flags): writes
// report pairs in a loop, one second apart on an injected clock, printing each
// stamp, until killed.

import { fixedClock } from "../../lib/core/clock.ts";
import { findReportPair } from "../../lib/report/find_report_pair.ts";
import { ensureStateDir } from "../../lib/state/state_dir.ts";
import { parseReport } from "../../lib/report/validate_report.ts";
import { writeReportPair } from "../../lib/report/write_report_pair.ts";

const dir = await ensureStateDir(Deno.cwd());
const report = parseReport(await Deno.readTextFile(Deno.args[0]));
const current = await findReportPair(dir);
let ms = current
  ? Date.parse(
    current.stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z"),
  ) + 1000
  : Date.parse("2026-01-01T00:00:00Z");
while (true) {
  const written = await writeReportPair(dir, report, { clock: fixedClock(new Date(ms)) });
  console.log(written.stamp);
  ms += 1000;
}

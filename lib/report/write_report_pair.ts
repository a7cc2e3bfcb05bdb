/**
 * The report rollover: write the new pair, then remove every older one, so
 * exactly one pair survives and a failed write leaves the previous pair intact
 * (docs/design.md "Invariants" 4).
 *
 * @module
 */

import { basename, join } from "node:path";
import { atomicWrite, syncDir, tempFileOf } from "../fs/atomic_write.ts";
import { type Clock, fileStamp, systemClock } from "../core/clock.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { REPORT_FILE_PATTERN, type ReportPair } from "./find_report_pair.ts";
import { renderReport } from "./render_report.ts";
import type { Report } from "./validate_report.ts";
import { type LockOptions, withLock } from "../fs/with_lock.ts";

/** Options of {@linkcode writeReportPair}. */
export interface WriteReportOptions extends LockOptions {
  /** Names the pair (default: the system clock). */
  clock?: Clock;
  /** Writes one file atomically (default {@linkcode atomicWrite}); tests inject failures here. */
  write?: (path: string, data: string) => Promise<void>;
}

/** What {@linkcode writeReportPair} did. */
export interface WrittenReport extends ReportPair {
  /** Absolute paths of the older report files it removed, sorted. */
  removed: string[];
}

/**
 * Under the state lock: writes `report-<stamp>.json` (the validated report)
 * and `report-<stamp>.md` (its rendering) atomically, then removes every other
 * `report-*.json`/`.md` and the temp files of interrupted report writes. If a
 * write fails, what was newly written is removed and the previous pair stays
 * as it was. `<stamp>` is `fileStamp(now)`, or one second past the latest
 * existing report file's stamp when that is not earlier (several reports in one
 * second, a clock set back): stamps never step backwards, so the pair written
 * last is the newest, and an older pair is never overwritten in place.
 *
 * @throws {DochygieneError} `REPORT_WRITE_FAILED` (exit 1).
 *
 * @example
 * ```ts
 * import { writeReportPair } from "./write_report_pair.ts";
 * import { fixedClock } from "../core/clock.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const report = {
 *   schema_version: 1 as const,
 *   generated_at: "2026-11-30T03:36:18.000Z",
 *   scan_generated_at: "2026-11-30T03:30:00.000Z",
 *   entries: [],
 * };
 * await writeReportPair(dir, report, { clock: fixedClock(new Date("2026-11-29T00:00:00Z")) });
 * const written = await writeReportPair(dir, report, {
 *   clock: fixedClock(new Date("2026-11-30T03:36:18Z")),
 * });
 * assert.equal(written.json, `${dir}/report-20261130T033618Z.json`);
 * assert.equal(written.removed.length, 2);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeReportPair(
  stateDir: string,
  report: Report,
  options: WriteReportOptions = {},
): Promise<WrittenReport> {
  const clock = options.clock ?? systemClock;
  const write = options.write ?? atomicWrite;
  return withLock(stateDir, async () => {
    const names: string[] = [];
    for await (const entry of Deno.readDir(stateDir)) names.push(entry.name);
    const stamp = fileStamp(new Date(_nextStampMs(clock.now(), names)));
    const json = join(stateDir, `report-${stamp}.json`);
    const md = join(stateDir, `report-${stamp}.md`);
    const written: string[] = [];
    try {
      await write(json, JSON.stringify(report, null, 2) + "\n");
      written.push(json);
      await write(md, renderReport(report));
      written.push(md);
    } catch (err) {
      for (const path of written) await Deno.remove(path).catch(() => {});
      throw new DochygieneError(
        "REPORT_WRITE_FAILED",
        `could not write the report pair in ${stateDir} (${
          _reason(err)
        }); the previous pair is untouched: fix the cause and run again`,
      );
    }
    const stale = names
      // Older pairs, and the temp files of interrupted report writes.
      .filter((n) =>
        REPORT_FILE_PATTERN.test(n) || REPORT_FILE_PATTERN.test(tempFileOf(n)?.target ?? "")
      )
      .map((n) => join(stateDir, n))
      .filter((p) => p !== json && p !== md)
      .sort();
    const failed: string[] = [];
    for (const path of stale) {
      await Deno.remove(path).catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) failed.push(`${path} (${_reason(err)})`);
      });
    }
    await syncDir(stateDir);
    if (failed.length > 0) {
      throw new DochygieneError(
        "REPORT_WRITE_FAILED",
        `wrote ${json} and ${md} but could not remove the older ${
          failed.join(", ")
        }: remove them by hand`,
      );
    }
    return { stamp, json, md, removed: stale.filter((p) => REPORT_FILE_PATTERN.test(basename(p))) };
  }, options);
}

/**
 * The current second, or one second past the latest report file's stamp when
 * that is not earlier: stamps only move forward, so the pair written last is
 * the newest stamp, the one readers take (three reports in one second, or a
 * clock set back, would otherwise reuse a freed earlier second).
 */
function _nextStampMs(now: Date, names: string[]): number {
  let ms = Math.floor(now.getTime() / 1000) * 1000;
  for (const name of names) {
    const m = REPORT_FILE_PATTERN.exec(name)?.[1];
    if (m === undefined) continue;
    const at = Date.UTC(
      +m.slice(0, 4),
      +m.slice(4, 6) - 1,
      +m.slice(6, 8),
      +m.slice(9, 11),
      +m.slice(11, 13),
      +m.slice(13, 15),
    );
    if (at >= ms) ms = at + 1000;
  }
  return ms;
}

function _reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

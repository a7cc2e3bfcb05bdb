import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import {
  clockFromEnv,
  fileStamp,
  fixedClock,
  localDay,
  systemClock,
} from "../../lib/core/clock.ts";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";

Deno.test("systemClock follows fake timers that replace Date", () => {
  const fake = FakeTimers.withGlobal(globalThis).install({
    now: Date.parse("2026-11-30T03:36:18Z"),
  });
  try {
    assert.equal(systemClock.now().toISOString(), "2026-11-30T03:36:18.000Z");
    fake.tick(86_400_000);
    assert.equal(systemClock.now().toISOString(), "2026-12-01T03:36:18.000Z");
  } finally {
    fake.uninstall();
  }
});

Deno.test("fixedClock returns a fresh Date each time, so callers cannot mutate it", () => {
  const clock = fixedClock(new Date("2026-01-02T03:04:05.006Z"));
  clock.now().setFullYear(1999);
  assert.equal(clock.now().toISOString(), "2026-01-02T03:04:05.006Z");
});

Deno.test("clockFromEnv: unset or empty is the system clock, an ISO instant pins the clock", () => {
  assert.equal(clockFromEnv(undefined), systemClock);
  assert.equal(clockFromEnv(""), systemClock);
  assert.equal(
    clockFromEnv("2026-11-30T03:36:18+02:00").now().toISOString(),
    "2026-11-30T01:36:18.000Z",
  );
});

Deno.test("clockFromEnv rejects a non-date with BAD_CLOCK, exit 2, naming the variable", () => {
  assert.throws(() => clockFromEnv("yesterday"), (err) => {
    assert.ok(err instanceof DochygieneError);
    assert.equal(err.code, "BAD_CLOCK");
    assert.equal(err.exitCode, 2);
    assert.match(err.message, /DOCHYGIENE_NOW="yesterday"/);
    return true;
  });
});

Deno.test("clockFromEnv rejects what is no ISO-8601 instant with a zone, or lies outside the years 0000-9999", () => {
  for (
    const value of [
      "+275760-09-13T00:00:00.000Z",
      "+010000-01-01T00:00:00.000Z",
      "-000001-12-31T00:00:00.000Z",
      // Not an instant: a day that does not exist, no zone (local time), a date alone.
      "2026-02-30T00:00:00Z",
      "2026-12-01T00:00:00",
      "2026-12-01",
    ]
  ) {
    assert.throws(() => clockFromEnv(value), (err) => {
      assert.ok(err instanceof DochygieneError);
      assert.equal(err.code, "BAD_CLOCK");
      assert.match(err.message, /in the years 0000–9999/);
      return true;
    }, value);
  }
  assert.equal(
    clockFromEnv("9999-12-31T23:59:59.999Z").now().toISOString(),
    "9999-12-31T23:59:59.999Z",
  );
  assert.equal(
    clockFromEnv("0000-01-01T00:00:00.000Z").now().toISOString(),
    "0000-01-01T00:00:00.000Z",
  );
});

Deno.test("localDay uses the process's local timezone (TZ honoured) in a subprocess", async () => {
  // TZ is read at process start, so run the conversion in a child per zone.
  const code = `import { localDay } from ${
    JSON.stringify(new URL("../../lib/core/clock.ts", import.meta.url).href)
  };
console.log(localDay(new Date("2026-11-30T23:30:00Z")));`;
  const day = async (tz: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: { TZ: tz },
      stdout: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  assert.equal(await day("UTC"), "2026-11-30");
  assert.equal(await day("Asia/Tokyo"), "2026-12-01");
  assert.equal(await day("America/Los_Angeles"), "2026-11-30");
});

Deno.test("localDay pads years, months and days", () => {
  assert.equal(localDay(new Date(2026, 0, 5, 12)), "2026-01-05");
});

Deno.test("fileStamp is the compact UTC stamp without milliseconds", () => {
  assert.equal(fileStamp(new Date("2026-01-02T03:04:05.999Z")), "20260102T030405Z");
});

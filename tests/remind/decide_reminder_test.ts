import assert from "node:assert/strict";
import { join } from "node:path";
import FakeTimers from "@sinonjs/fake-timers";
import { systemClock } from "../../lib/core/clock.ts";
import { decideReminder, type ReminderState } from "../../lib/remind/decide_reminder.ts";
import { DENO, PACKAGE_DIR } from "../support/helpers.ts";

const DAY = 24 * 60 * 60 * 1000;

/** Runs `fn` with `Date` faked at `start` (a local-time Date), then restores it. */
function at<T>(start: Date, fn: (clock: ReturnType<typeof FakeTimers.install>) => T): T {
  const clock = FakeTimers.install({ now: start.getTime(), toFake: ["Date"] });
  try {
    return fn(clock);
  } finally {
    clock.uninstall();
  }
}

/** The decision at the faked current instant. */
function decide(state: ReminderState, thresholdDays = 7) {
  return decideReminder(state, systemClock.now(), thresholdDays);
}

const iso = (d: Date) => d.toISOString();

Deno.test("never checked and never reminded: banner, days unknown", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const d = decide({ last_check: null, last_reminded: null });
    assert.deepEqual(d, {
      show: true,
      reason: "never_reminded",
      days_since_check: null,
      threshold_days: 7,
    });
  });
});

Deno.test("never checked but reminded earlier today: silent", () => {
  at(new Date(2026, 10, 30, 8, 0), (clock) => {
    const reminded = iso(systemClock.now());
    clock.tick(9 * 60 * 60 * 1000);
    const d = decide({ last_check: null, last_reminded: reminded });
    assert.equal(d.show, false);
    assert.equal(d.reason, "reminded_today");
  });
});

Deno.test("fresh: checked within the threshold is silent whatever last_reminded says", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const checked = iso(new Date(Date.now() - 3 * DAY));
    for (const reminded of [null, iso(new Date(Date.now() - 40 * DAY))]) {
      const d = decide({ last_check: checked, last_reminded: reminded });
      assert.equal(d.show, false);
      assert.equal(d.reason, "fresh");
      assert.equal(d.days_since_check, 3);
    }
  });
});

Deno.test("stale and never reminded: banner with whole days since the check", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const checked = iso(new Date(Date.now() - 12 * DAY - 5 * 60 * 60 * 1000));
    const d = decide({ last_check: checked, last_reminded: null });
    assert.equal(d.show, true);
    assert.equal(d.reason, "never_reminded");
    assert.equal(d.days_since_check, 12);
  });
});

Deno.test("stale and reminded earlier the same calendar day: silent", () => {
  at(new Date(2026, 10, 30, 0, 0, 0, 1), (clock) => {
    const state = {
      last_check: iso(new Date(Date.now() - 30 * DAY)),
      last_reminded: iso(new Date()),
    };
    clock.tick(23 * 60 * 60 * 1000 + 59 * 60 * 1000); // 23:59:00.001 the same day
    assert.equal(decide(state).reason, "reminded_today");
  });
});

Deno.test("reminded yesterday at 23:59, now 00:01: a new calendar day shows the banner", () => {
  at(new Date(2026, 10, 29, 23, 59), (clock) => {
    const state = {
      last_check: iso(new Date(Date.now() - 30 * DAY)),
      last_reminded: iso(new Date()),
    };
    assert.equal(decide(state).show, false);
    clock.tick(2 * 60 * 1000);
    const d = decide(state);
    assert.equal(new Date().getDate(), 30);
    assert.equal(d.show, true);
    assert.equal(d.reason, "reminded_other_day");
  });
});

Deno.test("threshold boundary: exactly threshold_days is not stale, one millisecond more is", () => {
  at(new Date(2026, 10, 30, 9, 0), (clock) => {
    const state = { last_check: iso(new Date(Date.now() - 7 * DAY)), last_reminded: null };
    assert.equal(decide(state, 7).reason, "fresh");
    clock.tick(1);
    const d = decide(state, 7);
    assert.equal(d.show, true);
    assert.equal(d.days_since_check, 7);
  });
});

Deno.test("threshold 0: any check in the past is stale; fractional thresholds count in ms", () => {
  at(new Date(2026, 10, 30, 9, 0), (clock) => {
    const state = { last_check: iso(new Date()), last_reminded: null };
    assert.equal(decide(state, 0).show, false);
    clock.tick(1);
    assert.equal(decide(state, 0).show, true);
    clock.tick(DAY / 2 - 1);
    assert.equal(decide(state, 0.5).show, false);
    clock.tick(1);
    assert.equal(decide(state, 0.5).show, true);
  });
});

Deno.test("last_check in the future counts as just checked: silent, 0 days", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const state = { last_check: iso(new Date(Date.now() + 400 * DAY)), last_reminded: null };
    const d = decide(state);
    assert.equal(d.show, false);
    assert.equal(d.reason, "check_in_future");
    assert.equal(d.days_since_check, 0);
  });
});

Deno.test("last_reminded on a later calendar day (clock went back): banner once, then silent", () => {
  at(new Date(2026, 10, 30, 9, 0), (clock) => {
    const stale = iso(new Date(Date.now() - 30 * DAY));
    const future = { last_check: stale, last_reminded: iso(new Date(Date.now() + 3 * DAY)) };
    assert.equal(decide(future).reason, "reminded_other_day");
    // The hook then records now; later the same day stays silent.
    const recorded = { last_check: stale, last_reminded: iso(new Date()) };
    clock.tick(60 * 60 * 1000);
    assert.equal(decide(recorded).reason, "reminded_today");
  });
});

Deno.test("last_reminded later the same calendar day is the same day: silent", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const state = {
      last_check: iso(new Date(Date.now() - 30 * DAY)),
      last_reminded: iso(new Date(2026, 10, 30, 18, 0)),
    };
    assert.equal(decide(state).reason, "reminded_today");
  });
});

Deno.test("unparsable timestamps count as null", () => {
  at(new Date(2026, 10, 30, 9, 0), () => {
    const d = decide({ last_check: "not a date", last_reminded: "nor this" });
    assert.equal(d.reason, "never_reminded");
    assert.equal(d.days_since_check, null);
  });
});

Deno.test("a week of sessions with fake time: one banner per calendar day while stale", () => {
  at(new Date(2026, 10, 23, 7, 0), (clock) => {
    const state: ReminderState = {
      last_check: iso(new Date(Date.now() - 6 * DAY)),
      last_reminded: null,
    };
    const shownOn: string[] = [];
    for (let hour = 0; hour < 7 * 24; hour += 3) {
      const d = decide(state);
      if (d.show) {
        state.last_reminded = iso(new Date());
        shownOn.push(`${new Date().getDate()}`);
      }
      clock.tick(3 * 60 * 60 * 1000);
    }
    // Stale once 7 days have passed since the check (from 24 Nov, 07:00 + 1 ms): one banner
    // on each calendar day 24..30.
    assert.deepEqual(shownOn, ["24", "25", "26", "27", "28", "29", "30"]);
  });
});

// Calendar days follow the process's TZ: run the decision in child processes
// with named timezones across both 2026 DST changes of America/New_York.
const DST_CASES = [
  {
    name: "spring forward: 23:30 EST to 22:45 EDT next day (22 h 15 m) is another day",
    now: "2026-03-09T02:45:00.000Z",
    reminded: "2026-03-08T04:30:00.000Z",
    newYork: true,
    utc: true,
  },
  {
    name: "spring forward: 00:10 EST to 23:50 EDT on the 23-hour day is the same day",
    now: "2026-03-09T03:50:00.000Z",
    reminded: "2026-03-08T05:10:00.000Z",
    newYork: false,
    utc: true,
  },
  {
    name: "fall back: 00:05 EDT to 23:55 EST on the 25-hour day (24 h 50 m) is the same day",
    now: "2026-11-02T04:55:00.000Z",
    reminded: "2026-11-01T04:05:00.000Z",
    newYork: false,
    utc: true,
  },
  {
    name: "fall back: 01:30 EDT and the repeated 01:30 EST are the same day",
    now: "2026-11-01T06:30:00.000Z",
    reminded: "2026-11-01T05:30:00.000Z",
    newYork: false,
    utc: false,
  },
];

async function decideInTimezone(tz: string): Promise<boolean[]> {
  const lib = (path: string) => new URL(`file://${join(PACKAGE_DIR, path)}`).href;
  const code = `
    import FakeTimers from "@sinonjs/fake-timers";
    import { systemClock } from "${lib("lib/core/clock.ts")}";
    import { decideReminder } from "${lib("lib/remind/decide_reminder.ts")}";
    const cases = JSON.parse(Deno.env.get("CASES"));
    const out = cases.map((c) => {
      const clock = FakeTimers.install({ now: Date.parse(c.now), toFake: ["Date"] });
      try {
        const state = { last_check: "2026-01-01T00:00:00.000Z", last_reminded: c.reminded };
        return decideReminder(state, systemClock.now(), 7).show;
      } finally {
        clock.uninstall();
      }
    });
    console.log(JSON.stringify(out));
  `;
  const out = await new Deno.Command(DENO, {
    args: ["eval", "--quiet", `--config=${join(PACKAGE_DIR, "deno.json")}`, code],
    env: { TZ: tz, CASES: JSON.stringify(DST_CASES) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("DST in America/New_York: calendar days, not 24-hour windows; UTC differs", async () => {
  const [newYork, utc] = await Promise.all([
    decideInTimezone("America/New_York"),
    decideInTimezone("UTC"),
  ]);
  DST_CASES.forEach((c, i) => {
    assert.equal(newYork[i], c.newYork, `America/New_York: ${c.name}`);
    assert.equal(utc[i], c.utc, `UTC: ${c.name}`);
  });
});

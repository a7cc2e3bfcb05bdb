/**
 * A doc's declared review (docs/signals.md "review"): when it was last
 * reviewed, and how often it should be, from its frontmatter.
 *
 * @module
 */

/** What a doc's frontmatter declares about its review. */
export interface ReviewFacts {
  /** The valid `last_reviewed` (or `reviewed`) date, `YYYY-MM-DD`. */
  reviewed: string;
  /** A valid `review_interval` (or `review_after_days`) in days, when there is one. */
  interval?: number;
}

const _DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const _DAYS = /^(\d{1,5})\s*(d|days?|w|weeks?)?$/;

/**
 * The review a frontmatter mapping declares, or `undefined` when it declares
 * none or its date is not a valid calendar date. The date is `last_reviewed`
 * (else `reviewed`): `YYYY-MM-DD`, optionally with a time (only the date is
 * kept). The interval is `review_interval` (else `review_after_days`): a
 * whole number of days ≥ 1, or a string such as `90d`, `90 days`, `12w`; an
 * invalid one is left out (the project default applies).
 *
 * @example
 * ```ts
 * import { reviewFacts } from "./review_facts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(reviewFacts({ last_reviewed: "2026-01-31", review_interval: "12w" }), {
 *   reviewed: "2026-01-31",
 *   interval: 84,
 * });
 * assert.deepEqual(reviewFacts({ reviewed: "2026-02-01T10:00:00Z" }), { reviewed: "2026-02-01" });
 * assert.equal(reviewFacts({ last_reviewed: "2026-02-30" }), undefined);
 * assert.equal(reviewFacts({ title: "x" }), undefined);
 * ```
 */
export function reviewFacts(
  frontmatter: Record<string, unknown> | undefined,
): ReviewFacts | undefined {
  if (frontmatter === undefined) return undefined;
  const raw = frontmatter.last_reviewed ?? frontmatter.reviewed;
  const reviewed = _date(raw);
  if (reviewed === undefined) return undefined;
  const interval = reviewInterval(frontmatter.review_interval ?? frontmatter.review_after_days);
  return interval === undefined ? { reviewed } : { reviewed, interval };
}

/**
 * An interval in days: a whole number ≥ 1, or a string of one followed by
 * `d`/`days` or `w`/`weeks`; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { reviewInterval } from "./review_facts.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(reviewInterval(30), 30);
 * assert.equal(reviewInterval("2w"), 14);
 * assert.equal(reviewInterval("soon"), undefined);
 * assert.equal(reviewInterval(0), undefined);
 * ```
 */
export function reviewInterval(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  }
  if (typeof value !== "string") return undefined;
  const m = _DAYS.exec(value.trim());
  if (m === null) return undefined;
  const n = Number(m[1]) * (m[2]?.startsWith("w") ? 7 : 1);
  return n >= 1 ? n : undefined;
}

function _date(value: unknown): string | undefined {
  // A YAML timestamp (when a parser makes one) is a Date; this one keeps strings.
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  }
  if (typeof value !== "string") return undefined;
  const m = _DATE.exec(value.trim());
  if (m === null) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return undefined;
  }
  return `${m[1]}-${m[2]}-${m[3]}`;
}

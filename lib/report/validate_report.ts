/**
 * Schema-v1 validation of the report the `check` skill produces: every field,
 * the enums, `extract_to` only on `extract-then-delete`, root-relative entry
 * paths, ISO timestamps, no unknown keys. Errors name the JSON path.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { exceedsDepth, MAX_JSON_DEPTH } from "../core/exceeds_depth.ts";
import { isIsoTimestamp } from "../core/is_iso_timestamp.ts";
import { findDuplicateKey } from "./find_duplicate_key.ts";

/** Largest report accepted, in bytes: a bigger input fails before it is parsed. */
export const MAX_REPORT_BYTES = 16 * 1024 * 1024;

/** What the check skill concluded about a doc. */
export const CATEGORIES = [
  "stale",
  "superseded",
  "duplicate",
  "served",
  "orphan",
  "bloat",
  "ok",
] as const;
/** The operation the report proposes. */
export const OP_TYPES = ["keep", "update", "merge", "delete", "extract-then-delete"] as const;
/** How much confirmation the operation needs. */
export const SAFETY_TIERS = ["auto", "confirm", "never"] as const;

/** A category of {@linkcode CATEGORIES}. */
export type Category = typeof CATEGORIES[number];
/** An operation type of {@linkcode OP_TYPES}. */
export type OpType = typeof OP_TYPES[number];
/** A safety tier of {@linkcode SAFETY_TIERS}. */
export type SafetyTier = typeof SAFETY_TIERS[number];

/** One judged doc of a report. */
export interface ReportEntry {
  /** Root-relative path with `/` (a trailing `/` names a directory). */
  path: string;
  /** What the doc is. */
  category: Category;
  /** What to do with it. */
  op_type: OpType;
  /** One imperative sentence. */
  op: string;
  /** How much confirmation the operation needs. */
  safety_tier: SafetyTier;
  /** Why. */
  rationale: string;
  /** The scanner's signals the judgment rests on (objects with a `kind`). */
  signals: Record<string, unknown>[];
  /** Where durable content goes first; present exactly when `op_type` is `extract-then-delete`. */
  extract_to?: string;
  /** Approximate tokens the doc costs a reader, when known. */
  token_estimate?: number;
}

/** A schema-v1 report. */
export interface Report {
  /** Always `1`. */
  schema_version: 1;
  /** When the report was produced (ISO-8601). */
  generated_at: string;
  /** `generated_at` of the scan it judged (ISO-8601). */
  scan_generated_at: string;
  /** The judged docs. */
  entries: ReportEntry[];
}

const _TOP_KEYS = ["schema_version", "generated_at", "scan_generated_at", "entries"];
const _ENTRY_KEYS = [
  "path",
  "category",
  "op_type",
  "op",
  "safety_tier",
  "rationale",
  "signals",
  "extract_to",
  "token_estimate",
];
/** Levels above a signal's own in a report: the report, `entries`, an entry, `signals`. */
const _SIGNAL_LEVEL = 4;

/**
 * Parses and validates report text (JSON).
 *
 * @throws {DochygieneError} `INVALID_REPORT` (exit 2) naming the JSON path and the rule broken.
 *
 * @example
 * ```ts
 * import { parseReport } from "./validate_report.ts";
 * import assert from "node:assert/strict";
 *
 * const report = parseReport(JSON.stringify({
 *   schema_version: 1,
 *   generated_at: "2026-11-30T03:36:18.000Z",
 *   scan_generated_at: "2026-11-30T03:30:00.000Z",
 *   entries: [],
 * }));
 * assert.equal(report.entries.length, 0);
 * assert.throws(() => parseReport("{"), /not valid JSON/);
 * ```
 */
export function parseReport(text: string, options: ValidateReportOptions = {}): Report {
  if (text.length > MAX_REPORT_BYTES) {
    throw _invalid(`is larger than ${MAX_REPORT_BYTES} bytes; split or shorten it`);
  }
  if (text.trim() === "") throw _invalid("is empty; pass the report JSON on stdin or with --file");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw _invalid(`is not valid JSON (${err instanceof Error ? err.message : err})`);
  }
  // JSON.parse keeps the last of two equal keys: a repeated safety_tier would pass unseen.
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    throw _at(
      duplicate,
      "duplicate key; JSON keeps only the last, so write each key once per object",
    );
  }
  return validateReport(value, options);
}

/** Options of {@linkcode validateReport} and {@linkcode parseReport}. */
export interface ValidateReportOptions {
  /**
   * The time the report is stored at: `generated_at` and `scan_generated_at` may not be later
   * (a report dated in the future would make prune take a unit changed after the check for
   * one the check judged).
   */
  now?: Date;
}

/**
 * Validates a parsed report and returns it with keys in schema order (so
 * its serialisation is deterministic). `signals` defaults to `[]`.
 *
 * @throws {DochygieneError} `INVALID_REPORT` (exit 2), e.g.
 * `entries[3].safety_tier: must be one of auto, confirm, never`.
 *
 * @example
 * ```ts
 * import { validateReport } from "./validate_report.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = {
 *   path: "docs/old.md", category: "stale", op_type: "delete", op: "Delete it.",
 *   safety_tier: "maybe", rationale: "41 days old",
 * };
 * assert.throws(
 *   () => validateReport({
 *     schema_version: 1, generated_at: "2026-11-30T03:36:18.000Z",
 *     scan_generated_at: "2026-11-30T03:36:18.000Z", entries: [entry],
 *   }),
 *   /entries\[0\]\.safety_tier: must be one of auto, confirm, never/,
 * );
 * ```
 */
export function validateReport(value: unknown, options: ValidateReportOptions = {}): Report {
  if (!_isRecord(value)) throw _invalid("must be a JSON object with schema_version 1");
  _noUnknownKeys(value, _TOP_KEYS, "");
  if (value.schema_version !== 1) throw _at("schema_version", "must be 1");
  const generatedAt = _iso(value.generated_at, "generated_at");
  const scanGeneratedAt = _iso(value.scan_generated_at, "scan_generated_at");
  if (options.now !== undefined) {
    for (
      const [key, at] of [["generated_at", generatedAt], ["scan_generated_at", scanGeneratedAt]]
    ) {
      if (Date.parse(at) <= options.now.getTime()) continue;
      throw _at(
        key,
        `${at} is later than now (${options.now.toISOString()}); ` +
          (key === "generated_at"
            ? "give the time the report was made (date -u +%Y-%m-%dT%H:%M:%SZ)"
            : "copy the generated_at of the scan the report judged"),
      );
    }
  }
  if (!Array.isArray(value.entries)) throw _at("entries", "must be a list (may be empty)");
  const seen = new Map<string, number>();
  const entries = value.entries.map((raw, i) => {
    const entry = _entry(raw, `entries[${i}]`);
    const first = seen.get(entry.path);
    if (first !== undefined) {
      throw _at(`entries[${i}].path`, `duplicate of entries[${first}] ("${entry.path}")`);
    }
    seen.set(entry.path, i);
    return entry;
  });
  return {
    schema_version: 1,
    generated_at: generatedAt,
    scan_generated_at: scanGeneratedAt,
    entries,
  };
}

/**
 * Why `path` is not a root-relative path inside the root, or `undefined`
 * when it is one.
 *
 * @example
 * ```ts
 * import { entryPathProblem } from "./validate_report.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(entryPathProblem("docs/a.md"), undefined);
 * assert.equal(entryPathProblem("runs/run-1/"), undefined);
 * assert.equal(entryPathProblem("../a.md"), "must stay inside the root (no '..' segments)");
 * ```
 */
export function entryPathProblem(path: string): string | undefined {
  if (path === "") return "must not be empty";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.startsWith("~")) {
    return "must be relative to the project root, not absolute";
  }
  if (path.includes("\\")) return "must use '/' as the separator (no '\\')";
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return "must not contain control characters";
  const segments = path.replace(/\/$/, "").split("/");
  if (segments.includes("..")) return "must stay inside the root (no '..' segments)";
  if (segments.includes(".")) return "must not contain '.' segments";
  if (segments.includes("")) return "must not contain empty segments ('//')";
  if (segments[0] === ".git" || segments[0] === ".dochygiene") {
    return `must not point into ${segments[0]}/`;
  }
  return undefined;
}

function _entry(raw: unknown, at: string): ReportEntry {
  if (!_isRecord(raw)) throw _at(at, "must be an object");
  _noUnknownKeys(raw, _ENTRY_KEYS, `${at}.`);
  const path = _string(raw.path, `${at}.path`);
  const problem = entryPathProblem(path);
  if (problem) throw _at(`${at}.path`, `${problem} (got ${JSON.stringify(path)})`);
  const category = _oneOf(raw.category, CATEGORIES, `${at}.category`);
  const opType = _oneOf(raw.op_type, OP_TYPES, `${at}.op_type`);
  const op = _string(raw.op, `${at}.op`);
  const safetyTier = _oneOf(raw.safety_tier, SAFETY_TIERS, `${at}.safety_tier`);
  const rationale = _string(raw.rationale, `${at}.rationale`);
  let signals: Record<string, unknown>[] = [];
  if (raw.signals !== undefined) {
    if (!Array.isArray(raw.signals)) throw _at(`${at}.signals`, "must be a list of signal objects");
    raw.signals.forEach((s, j) => {
      if (!_isRecord(s) || typeof s.kind !== "string" || s.kind === "") {
        throw _at(`${at}.signals[${j}]`, 'must be an object with a string "kind"');
      }
      // Signals are the one free-form part of a report: the only place deep nesting can hide.
      if (exceedsDepth(s, MAX_JSON_DEPTH - _SIGNAL_LEVEL)) {
        throw _at(
          `${at}.signals[${j}]`,
          `must not nest objects or lists more than ${MAX_JSON_DEPTH} levels deep in the report`,
        );
      }
    });
    signals = raw.signals as Record<string, unknown>[];
  }
  const entry: ReportEntry = {
    path,
    category,
    op_type: opType,
    op,
    safety_tier: safetyTier,
    rationale,
    signals,
  };
  if (opType === "extract-then-delete") {
    if (raw.extract_to === undefined) {
      throw _at(`${at}.extract_to`, "required when op_type is extract-then-delete");
    }
    const extractTo = _string(raw.extract_to, `${at}.extract_to`);
    // The clean skill writes there: "vault" or a path held to the entry-path rules.
    const where = extractTo === "vault" ? undefined : entryPathProblem(extractTo);
    if (where) {
      throw _at(
        `${at}.extract_to`,
        `${where}; use "vault" or a path inside the root (got ${JSON.stringify(extractTo)})`,
      );
    }
    entry.extract_to = extractTo;
  } else if (raw.extract_to !== undefined) {
    throw _at(
      `${at}.extract_to`,
      `only allowed when op_type is extract-then-delete (op_type is ${opType})`,
    );
  }
  if (raw.token_estimate !== undefined) {
    const n = raw.token_estimate;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      throw _at(`${at}.token_estimate`, "must be a whole number >= 0");
    }
    entry.token_estimate = n;
  }
  return entry;
}

function _noUnknownKeys(record: Record<string, unknown>, allowed: string[], prefix: string): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      throw _at(`${prefix}${key}`, `unknown key; allowed keys are ${allowed.join(", ")}`);
    }
  }
}

function _string(value: unknown, at: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw _at(at, "required, must be a non-empty string");
  }
  return value;
}

function _oneOf<T extends string>(value: unknown, allowed: readonly T[], at: string): T {
  if (typeof value !== "string" || !allowed.includes(value as T)) {
    throw _at(at, `must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function _iso(value: unknown, at: string): string {
  if (isIsoTimestamp(value)) return value;
  throw _at(at, "must be an ISO-8601 timestamp like 2026-11-30T03:36:18.000Z");
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function _at(path: string, rule: string): DochygieneError {
  return _invalid(`${path}: ${rule}`);
}

function _invalid(detail: string): DochygieneError {
  const message = detail.startsWith("is ") || detail.startsWith("must ")
    ? `the report ${detail}`
    : `invalid report: ${detail}`;
  return new DochygieneError("INVALID_REPORT", message, 2);
}

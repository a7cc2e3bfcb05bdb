/**
 * The one error type every seam reports: an `UPPER_SNAKE` code, a one-line
 * message that names the problem and the fix, and the exit code of the
 * contract (`1` could not do the job, `2` usage or input error).
 *
 * @example Throw and inspect
 * ```ts
 * import { DochygieneError } from "./dochygiene_error.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new DochygieneError("INVALID_CONFIG", "threshold_days: must be a number >= 0", 2);
 * assert.equal(err.name, "DochygieneError");
 * assert.equal(err.exitCode, 2);
 * ```
 *
 * @module
 */

/** Exit codes of the contract: `1` could not do the job, `2` usage or input error. */
export type ExitCode = 1 | 2;

/**
 * An expected failure with a machine-readable code and a human one-liner.
 *
 * @example
 * ```ts
 * import { DochygieneError } from "./dochygiene_error.ts";
 * import assert from "node:assert/strict";
 *
 * const err = new DochygieneError("LOCK_HELD", "state lock is busy; try again");
 * assert.equal(err.exitCode, 1);
 * assert.equal(err.code, "LOCK_HELD");
 * ```
 */
export class DochygieneError extends Error {
  /** Always `"DochygieneError"`. */
  override name = "DochygieneError";
  /** `UPPER_SNAKE` code, as printed in `{"ok": false, "error": {"code": …}}`. */
  readonly code: string;
  /** Process exit code for this failure. */
  readonly exitCode: ExitCode;

  /** Creates an error; `exitCode` defaults to `1` (could not do the job). */
  constructor(code: string, message: string, exitCode: ExitCode = 1) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

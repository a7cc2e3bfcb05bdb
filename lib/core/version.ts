/**
 * The package version, printed by every seam's `--version` (a test keeps it
 * equal to `deno.json`).
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(VERSION, /^\d+\.\d+\.\d+/);
 * ```
 *
 * @module
 */

/** Semantic version of dochygiene. */
export const VERSION = "0.1.0";

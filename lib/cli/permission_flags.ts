/**
 * The exact Deno permission flags of each seam (docs/design.md "Running the
 * seams"). Tasks, the hook, install recipes and tests all use these.
 *
 * @example
 * ```ts
 * import { PERMISSION_FLAGS } from "./permission_flags.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(PERMISSION_FLAGS.remind.includes("--allow-write=.dochygiene"));
 * assert.ok(!PERMISSION_FLAGS.remind.includes("--allow-run=git"));
 * ```
 *
 * @module
 */

/** The four seams. */
export type SeamName = "remind" | "state" | "scan" | "prune";

/** Permission flags per seam, in the order docs/design.md "Running the seams" lists them. */
export const PERMISSION_FLAGS: Readonly<Record<SeamName, readonly string[]>> = {
  remind: ["--no-prompt", "--allow-read", "--allow-write=.dochygiene", "--allow-env"],
  state: [
    "--no-prompt",
    "--allow-read",
    "--allow-write=.dochygiene",
    "--allow-env",
    "--allow-run=git",
  ],
  scan: [
    "--no-prompt",
    "--allow-read",
    "--allow-write=.dochygiene",
    "--allow-env",
    "--allow-run=git",
  ],
  prune: [
    "--no-prompt",
    "--allow-read",
    "--allow-write=.dochygiene",
    "--allow-env",
    "--allow-run=git",
  ],
};

/**
 * `scan.ts` — not implemented yet.
 *
 * @module
 */

if (import.meta.main) {
  console.error("dochygiene scan: not implemented yet");
  Deno.exit(1);
}

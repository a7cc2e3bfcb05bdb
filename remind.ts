/**
 * `remind.ts` — not implemented yet.
 *
 * @module
 */

if (import.meta.main) {
  console.error("dochygiene remind: not implemented yet");
  Deno.exit(1);
}

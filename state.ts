/**
 * `state.ts` — not implemented yet.
 *
 * @module
 */

if (import.meta.main) {
  console.error("dochygiene state: not implemented yet");
  Deno.exit(1);
}

/**
 * `prune.ts` — not implemented yet.
 *
 * @module
 */

if (import.meta.main) {
  console.error("dochygiene prune: not implemented yet");
  Deno.exit(1);
}

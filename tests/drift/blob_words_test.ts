import assert from "node:assert/strict";
import { blobWords } from "../../lib/drift/_blob_words.ts";
import { prng } from "../support/helpers.ts";

/** The words as the regular expressions the one pass stands for find them (the reference). */
function byRegExp(text: string, wanted: ReadonlySet<string>): Set<string> {
  const has = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) if (wanted.has(m[0])) has.add(m[0]);
  for (const m of text.matchAll(/[A-Za-z0-9_$]+(?:-[A-Za-z0-9_$]+)*/g)) {
    const run = m[0];
    if (wanted.has(run)) has.add(run);
    const parts = run.split("-");
    if (parts.length < 2 || parts.length > 8) continue;
    for (let a = 0; a < parts.length; a++) {
      for (let b = a + 2; b <= parts.length; b++) {
        const sub = parts.slice(a, b).join("-");
        if (wanted.has(sub)) has.add(sub);
      }
    }
  }
  return has;
}

const sorted = (words: Iterable<string>) => [...words].sort();

Deno.test("a blob's words: flags, $ names, snake_case and hyphen runs, as git grep -w finds them or more", () => {
  const code = 'run("--dry-run", $el, a--b, -x-, load_config(); x-y-z; é-a "a-b-c-d-e-f-g-h-i"';
  const wanted = new Set([
    "dry-run",
    "run",
    "--dry-run",
    "$el",
    "el",
    "a",
    "b",
    "x",
    "y-z",
    "x-y-z",
    "x-y",
    "load_config",
    "é-a",
    "a-b-c",
    "i",
    "h-i",
    "a-b-c-d-e-f-g-h-i",
  ]); // deno-fmt-ignore
  const found = blobWords(new TextEncoder().encode(code), wanted);
  assert.deepEqual(sorted(found), sorted(byRegExp(code, wanted)));
  // A run of 9 parts gives its parts and itself, not its joins (as before).
  assert.ok(found.has("i") && !found.has("h-i") && !found.has("a-b-c"));
  assert.ok(found.has("x-y-z") && found.has("y-z") && !found.has("--dry-run"));
});

Deno.test("a blob's words equal the regular expressions' on random text (seed 20261202)", () => {
  const random = prng(20261202);
  const alphabet = "ab_$-- .\n9é";
  for (let round = 0; round < 2000; round++) {
    let text = "";
    const length = Math.floor(random() * 40);
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    // Wanted: pieces of the text itself (most are words, some are not) and a few others.
    const wanted = new Set<string>(["a", "b-a", "$a", "a-b"]);
    for (let k = 0; k < 6; k++) {
      const from = Math.floor(random() * (text.length + 1));
      wanted.add(text.slice(from, from + 1 + Math.floor(random() * 6)));
    }
    const found = blobWords(new TextEncoder().encode(text), wanted);
    assert.deepEqual(sorted(found), sorted(byRegExp(text, wanted)), JSON.stringify(text));
  }
});

Deno.test("a binary blob (a NUL in its first 8,000 bytes) has no words", () => {
  const bytes = new TextEncoder().encode("load_config\0");
  assert.equal(blobWords(bytes, new Set(["load_config"])).size, 0);
});

Deno.test("a blob's word longer than any term wanted is passed over, however long", () => {
  const run = "a".repeat(500_000) + "b";
  const wanted = new Set(["a".repeat(40) + "b", "ab"]);
  assert.deepEqual(sorted(blobWords(new TextEncoder().encode(`x ${run} ab`), wanted)), ["ab"]);
});

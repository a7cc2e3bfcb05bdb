import assert from "node:assert/strict";
import { isGitBlob } from "../../lib/git/is_git_blob.ts";
import { prng } from "../support/helpers.ts";

/** `git hash-object --stdin` of `bytes`. */
async function hashObject(bytes: Uint8Array): Promise<string> {
  const child = new Deno.Command("git", {
    args: ["hash-object", "--stdin"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout).trim();
}

Deno.test("isGitBlob agrees with git hash-object across every padding case and on binary bytes", async () => {
  const random = prng(11);
  // Around each block edge (the header takes 7 to 16 bytes), and large.
  const sizes = [0, 1, 2, 46, 47, 48, 49, 53, 54, 55, 56, 57, 63, 64, 65, 110, 119, 120, 128];
  sizes.push(1000, 4096, 100_000, 1_234_567);
  for (const size of sizes) {
    const bytes = Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
    const oid = await hashObject(bytes);
    assert.ok(isGitBlob(bytes, oid), `size ${size}`);
    const other = oid.slice(0, 39) + (oid[39] === "0" ? "1" : "0");
    assert.ok(!isGitBlob(bytes, other), `size ${size}, another id`);
    assert.ok(!isGitBlob(bytes.subarray(1), oid) || size === 0, `size ${size}, a byte less`);
  }
});

Deno.test("isGitBlob is false for an id that is not 40 hex digits (a SHA-256 repository's, upper case)", () => {
  const bytes = new TextEncoder().encode("a\n");
  const oid = "78981922613b2afb6025042ff6bd878ac1994e85";
  assert.ok(isGitBlob(bytes, oid));
  assert.ok(!isGitBlob(bytes, oid.toUpperCase()));
  assert.ok(!isGitBlob(bytes, oid + "0".repeat(24)));
  assert.ok(!isGitBlob(bytes, ""));
});

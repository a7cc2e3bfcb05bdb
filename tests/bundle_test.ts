import assert from "node:assert/strict";
import { join } from "node:path";
import { BUNDLE_PATH, bundleHook } from "../bundle.ts";
import { PACKAGE_DIR } from "./_helpers.ts";

Deno.test("hooks/remind.js is the bundle of the current sources (else: deno task bundle)", async () => {
  const committed = await Deno.readTextFile(join(PACKAGE_DIR, BUNDLE_PATH));
  assert.ok(
    committed === await bundleHook(),
    `${BUNDLE_PATH} is stale: run \`deno task bundle\` and commit it`,
  );
});

Deno.test("the hook's bundle imports nothing at start-up: no npm, no node:, no other module", async () => {
  const text = await Deno.readTextFile(join(PACKAGE_DIR, BUNDLE_PATH));
  assert.doesNotMatch(text, /^\s*(import|export \*|export \{[^}]*\} from)\b.*from\s/m);
  assert.doesNotMatch(text, /["'](npm|node|jsr):/);
  // The one dynamic import, the rare full-config path, names the package's loader.
  assert.deepEqual([...text.matchAll(/await import\(/g)].length, 1);
  assert.match(text, /"\.\.\/lib\/load_config\.ts"/);
});

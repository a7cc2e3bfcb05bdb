import assert from "node:assert/strict";
import { join } from "node:path";
import { BUNDLE_PATH, bundleHook } from "../../tools/bundle.ts";
import { DENO, PACKAGE_DIR } from "../support/helpers.ts";

Deno.test("hooks/remind.js is the bundle of the current sources (else: deno task bundle)", async () => {
  const committed = await Deno.readTextFile(join(PACKAGE_DIR, BUNDLE_PATH));
  assert.ok(
    committed === await bundleHook(),
    `${BUNDLE_PATH} differs from what deno ${Deno.version.deno} bundles from the sources: ` +
      "run `deno task bundle` and commit it (CI pins the Deno version that made it)",
  );
});

Deno.test("the hook's bundle imports nothing at start-up: no npm, no node:, no other module", async () => {
  const info = await new Deno.Command(DENO, {
    args: ["info", "--json", "--no-config", join(PACKAGE_DIR, BUNDLE_PATH)],
    stdout: "piped",
  }).output();
  const { modules } = JSON.parse(new TextDecoder().decode(info.stdout));
  assert.deepEqual(modules.map((m: { specifier: string }) => m.specifier), [
    new URL(`file://${join(PACKAGE_DIR, BUNDLE_PATH)}`).href,
  ]);
  assert.equal(modules[0].dependencies, undefined);
  // The one dynamic import, the rare full-config path, names the package's loader.
  const text = await Deno.readTextFile(join(PACKAGE_DIR, BUNDLE_PATH));
  assert.equal([...text.matchAll(/await import\(/g)].length, 1);
  assert.match(text, /"\.\.\/lib\/load_config\.ts"/);
});

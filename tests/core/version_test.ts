import assert from "node:assert/strict";
import { VERSION } from "../../lib/core/version.ts";

Deno.test("VERSION equals the version in deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.equal(VERSION, config.version);
});

Deno.test("VERSION matches the plugin manifest version", async () => {
  const url = new URL("../../.claude-plugin/plugin.json", import.meta.url);
  const manifest = JSON.parse(await Deno.readTextFile(url));
  assert.equal(manifest.version, VERSION);
});

import assert from "node:assert/strict";
import { formatScanJson, scanJsonChunks } from "../../lib/scan/format_scan_json.ts";
import { randomArtifact } from "../overview/recompute_overview.ts";

Deno.test("the artifact in pieces joins to exactly the whole text, whatever the size of the pieces", () => {
  const artifact = randomArtifact(700, 31);
  // Names that hold line separators some splitters break at: escaped in every piece.
  artifact.shortlist.push("odd\u2028name.md");
  artifact.signals["odd\u2028name.md"] = [{ kind: "status", value: "x\u2029\u0085" }];
  artifact.excluded = [{ path: "ig\u2028.md", reason: "ignore" }];
  const whole = formatScanJson(artifact);
  assert.deepEqual(JSON.parse(whole), artifact);
  assert.ok(!/[\u0085\u2028\u2029]/.test(whole.slice(whole.indexOf('"excluded"'))));
  for (const size of [1, 50, 4096, 1 << 20]) {
    const pieces = scanJsonChunks(artifact, size).toArray();
    assert.equal(pieces.join(""), whole, `size ${size}`);
    if (size <= 4096) assert.ok(pieces.length > 3);
  }
});

Deno.test("an empty artifact's lists are written as empty pairs", () => {
  const artifact = randomArtifact(0, 1);
  assert.equal(scanJsonChunks(artifact, 1).toArray().join(""), formatScanJson(artifact));
  assert.match(
    formatScanJson(artifact),
    /"excluded": \[\],\n {2}"shortlist": \[\],\n {2}"signals": \{\}\n\}\n$/,
  );
});

import assert from "node:assert/strict";
import { gateFindings, gateLine } from "../../lib/findings/gate_findings.ts";
import type { Finding } from "../../lib/findings/collect_findings.ts";

const finding = (kind: string): Finding => ({
  path: "a.md",
  line: 1,
  column: 1,
  kind,
  message: "",
  fingerprint: "",
});

Deno.test("gateFindings fails only on findings of the named kinds", () => {
  const findings = [finding("missing_path"), finding("broken_anchor"), finding("broken_anchor")];
  assert.deepEqual(gateFindings(findings, ["broken_link"]), {
    kinds: ["broken_link"],
    failed: false,
    counts: { broken_link: 0 },
  });
  const gate = gateFindings(findings, ["broken_link", "broken_anchor"]);
  assert.equal(gate.failed, true);
  assert.equal(gateLine(gate), "--fail-on: 2 findings (2 broken_anchor); exit 1");
});

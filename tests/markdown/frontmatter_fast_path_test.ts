// This file never loads the full YAML parser (each test file runs in its own isolate): what
// parses here took the fast path, which needs none.
import assert from "node:assert/strict";
import { parseFrontmatter } from "../../lib/markdown/parse_frontmatter.ts";
import { YamlNotLoadedError } from "../../lib/yaml/load_yaml.ts";

Deno.test("flat frontmatter of named words, URLs, slashed dates and versions needs no YAML parser", () => {
  const fm = parseFrontmatter(
    [
      "---",
      "external help file: System.Management.Automation.dll-Help.xml",
      "Module Name: Microsoft.PowerShell.Core",
      "ms.date: 12/15/2025",
      "online version: https://learn.microsoft.com/a?view=powershell-7.5&WT.mc_id=ps-gethelp",
      "schema: 2.0.0",
      "title: Get-Help",
      "---",
      "# Get-Help",
    ].join("\n"),
  );
  assert.deepEqual(fm.data, {
    "external help file": "System.Management.Automation.dll-Help.xml",
    "Module Name": "Microsoft.PowerShell.Core",
    "ms.date": "12/15/2025",
    "online version": "https://learn.microsoft.com/a?view=powershell-7.5&WT.mc_id=ps-gethelp",
    schema: "2.0.0",
    title: "Get-Help",
  });
});

Deno.test("what the fast path cannot be sure of is left to the YAML parser", () => {
  for (const yaml of ["a: b: c", "v: 2.0", "a  b: x", "u: http://x:", "n: @x"]) {
    assert.throws(() => parseFrontmatter(`---\n${yaml}\n---\n`), YamlNotLoadedError, yaml);
  }
});

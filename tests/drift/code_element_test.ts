import assert from "node:assert/strict";
import { codeElement, elementTerms } from "../../lib/drift/code_element.ts";
import { reviewFacts } from "../../lib/drift/review_facts.ts";

Deno.test("code elements: identifiers, dotted paths, calls and long flags that are code-shaped", () => {
  for (
    const code of [
      "parseConfig",
      "parseConfig()",
      "server.hmr.port",
      "MAX_SIZE",
      "__init__",
      "$store",
      "import.meta.hot",
      "--dry-run",
      "--no-hmr",
      "HotBroadcaster",
    ]
  ) {
    assert.equal(codeElement(code), code, code);
  }
  assert.equal(codeElement(" parseConfig "), "parseConfig");
});

Deno.test("not code elements: words, file and host names, paths, commands, short or odd flags", () => {
  for (
    const code of [
      "config",
      "README",
      "JSON",
      "package.json",
      "vite.config.ts",
      "example.com",
      "src/a.ts",
      "npm run build",
      "-v",
      "--",
      "--flag=value",
      "v1.2.3",

      "x()y",
      "useState()extra",
    ]
  ) {
    assert.equal(codeElement(code), undefined, code);
  }
});

Deno.test("an element's words: the last segment of a path, a flag's spellings and its negation", () => {
  assert.deepEqual(elementTerms("server.hmr.port"), ["port"]);
  assert.deepEqual(elementTerms("fn()"), ["fn"]);
  assert.deepEqual(elementTerms("--dry-run"), ["dry-run", "dryRun", "dry_run"]);
  assert.deepEqual(elementTerms("--no-open"), ["no-open", "noOpen", "no_open", "open"]);
});

Deno.test("review dates: valid dates and intervals only; anything else is no review, never an error", () => {
  assert.deepEqual(reviewFacts({ last_reviewed: "2024-02-29", review_interval: 90 }), {
    reviewed: "2024-02-29",
    interval: 90,
  });
  assert.deepEqual(reviewFacts({ reviewed: "2025-01-01", review_interval: "soon" }), {
    reviewed: "2025-01-01",
  });
  for (
    const value of ["2025-02-29", "2025-13-01", "yesterday", 20250101, null, "", ["2025-01-01"]]
  ) {
    assert.equal(reviewFacts({ last_reviewed: value }), undefined, String(value));
  }
  assert.deepEqual(reviewFacts({ last_reviewed: new Date("2025-03-04T00:00:00Z") }), {
    reviewed: "2025-03-04",
  });
});

import assert from "node:assert/strict";
import {
  MAX_YAML_ALIASES,
  MAX_YAML_BYTES,
  parseYaml,
  YamlError,
} from "../../lib/yaml/parse_yaml.ts";
import { aliasBomb } from "../support/helpers.ts";

Deno.test("parseYaml uses the YAML 1.2 core schema: no yes/no booleans, no sexagesimal", () => {
  assert.deepEqual(parseYaml("a: yes\nb: no\nc: true\nd: 1:20\ne: ~\n"), {
    a: "yes",
    b: "no",
    c: true,
    d: "1:20",
    e: null,
  });
});

Deno.test("parseYaml rejects duplicate keys with the line", () => {
  assert.throws(() => parseYaml("a: 1\nb: 2\na: 3\n"), (err) => {
    assert.ok(err instanceof YamlError);
    assert.match(err.message, /unique|duplicate/i);
    assert.equal(err.line, 3);
    return true;
  });
});

Deno.test("parseYaml reports syntax errors on one line with a line number", () => {
  assert.throws(() => parseYaml("a:\n  - [1, 2\nb: 3\n"), (err) => {
    assert.ok(err instanceof YamlError);
    assert.ok(!err.message.includes("\n"));
    assert.equal(typeof err.line, "number");
    return true;
  });
});

Deno.test("an alias bomb fails fast with YamlError", () => {
  assert.throws(() => parseYaml(aliasBomb()), (err) => {
    assert.ok(err instanceof YamlError);
    assert.match(err.message, new RegExp(`too many aliases \\(limit ${MAX_YAML_ALIASES}\\)`));
    return true;
  });
});

Deno.test("a few aliases are fine", () => {
  assert.deepEqual(parseYaml("a: &x [1]\nb: *x\n"), { a: [1], b: [1] });
});

Deno.test("text over the size cap is refused before parsing", () => {
  assert.throws(() => parseYaml("#".repeat(MAX_YAML_BYTES + 1)), /too large/);
});

Deno.test("an empty document is null", () => {
  assert.equal(parseYaml(""), null);
});

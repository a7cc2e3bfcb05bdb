import assert from "node:assert/strict";
import { findDuplicateKey } from "../../lib/report/find_duplicate_key.ts";

Deno.test("findDuplicateKey names the first repeated key by its JSON path", () => {
  assert.equal(findDuplicateKey('{"a": 1, "a": 2}'), "a");
  assert.equal(findDuplicateKey('{"a": {"b": [{"c": 1}, {"c": 1, "d": 2, "c": 3}]}}'), "a.b[1].c");
  assert.equal(findDuplicateKey('[{"x": 1}, [{"y": 1, "y": 1}]]'), "[1][0].y");
  // Only the first duplicate in text order is named.
  assert.equal(findDuplicateKey('{"p": {"q": 1, "q": 2}, "p": 3}'), "p.q");
});

Deno.test("findDuplicateKey: the same key in sibling or nested objects is not a duplicate", () => {
  assert.equal(
    findDuplicateKey('{"kind": {"kind": {"kind": 1}}, "k": [{"kind": 1}, {"kind": 2}]}'),
    undefined,
  );
  assert.equal(findDuplicateKey("[]"), undefined);
  assert.equal(findDuplicateKey('"a"'), undefined);
  assert.equal(findDuplicateKey("{}"), undefined);
});

Deno.test("findDuplicateKey compares keys as JSON decodes them, not as written", () => {
  assert.equal(findDuplicateKey('{"path": 1, "p\\u0061th": 2}'), "path");
  assert.equal(findDuplicateKey('{"\\/": 1, "/": 2}'), '["/"]');
  assert.equal(findDuplicateKey('{"A": 1, "a": 2}'), undefined);
});

Deno.test("findDuplicateKey reads through strings holding quotes, braces and escapes", () => {
  const text = JSON.stringify({
    a: 'he said "{\\"a\\": 1, \\"a\\": 2}"',
    b: "}]",
    c: ["{", '"'],
    d: { e: "\\" },
  });
  assert.equal(findDuplicateKey(text), undefined);
  assert.equal(findDuplicateKey(text.slice(0, -1) + ', "d": null}'), "d");
});

Deno.test("findDuplicateKey writes a key that is not a plain name as a quoted, escaped index", () => {
  assert.equal(findDuplicateKey('{"a.b": 1, "a.b": 2}'), '["a.b"]');
  assert.equal(findDuplicateKey('{"x": {"\\n": 1, "\\n": 2}}'), 'x["\\n"]');
  assert.equal(findDuplicateKey('{"": 1, "": 2}'), '[""]');
});

Deno.test("findDuplicateKey walks 100,000 levels of nesting without a stack overflow", () => {
  const deep = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
  assert.equal(findDuplicateKey(deep), undefined);
  const dup = '{"a":'.repeat(100_000) + '{"z": 1, "z": 2}' + "}".repeat(100_000);
  assert.equal(findDuplicateKey(dup), "a.".repeat(100_000) + "z");
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { generateEntities } from "../../lib/markdown/vendor/generate_entities.ts";
import { ENTITIES } from "../../lib/markdown/vendor/entities.ts";
import { PACKAGE_DIR } from "../support/helpers.ts";

// The committed table, as text: what the generator must write back.
const COMMITTED = await Deno.readTextFile(join(PACKAGE_DIR, "lib/markdown/vendor/entities.ts"));

// The committed table in WHATWG's shape, with a legacy (no `;`) entry beside each of a few names.
function whatwgShape(): Record<string, { codepoints: number[]; characters: string }> {
  const json: Record<string, { codepoints: number[]; characters: string }> = {};
  for (const [name, characters] of Object.entries(ENTITIES)) {
    const entry = { codepoints: [...characters].map((c) => c.codePointAt(0)!), characters };
    if (name === "amp" || name === "copy" || name === "AElig") json[`&${name}`] = entry;
    json[`&${name};`] = entry;
  }
  return json;
}

Deno.test("the entity generator writes the committed table back byte for byte from the name-keyed shape", () => {
  // The shape of `entities` 2.2.0's lib/maps/entities.json, whose names are not sorted.
  const reversed = Object.fromEntries(Object.entries(ENTITIES).reverse());
  assert.equal(generateEntities(reversed), COMMITTED);
});

Deno.test("the entity generator writes the committed table back byte for byte from WHATWG's shape", () => {
  assert.equal(generateEntities(whatwgShape()), COMMITTED);
});

Deno.test("the entity generator keeps only names with `;` from WHATWG's shape", () => {
  const text = generateEntities({
    "&amp": { codepoints: [38], characters: "&" },
    "&amp;": { codepoints: [38], characters: "&" },
    "&nbsp;": { codepoints: [160], characters: "\u00a0" },
  });
  assert.match(text, /HTML's 2 named character references/);
  assert.match(text, /\{\n {2}"amp": "&",\n {2}"nbsp": "\\u00a0",\n\};\n$/);
});

Deno.test("the entity generator writes invisible and combining characters as escapes, quotes as deno fmt does", () => {
  const text = generateEntities({
    quot: '"',
    bsol: "\\",
    NewLine: "\n",
    zwj: "\u200d",
    nvlt: "<\u20d2",
    Afr: "\u{1d504}",
  });
  assert.match(text, /\n {2}"Afr": "\u{1d504}",\n/u);
  assert.match(text, /\n {2}"NewLine": "\\n",\n/);
  assert.match(text, /\n {2}"bsol": "\\\\",\n/);
  assert.match(text, /\n {2}"nvlt": "<\\u20d2",\n/);
  assert.match(text, /\n {2}"quot": '"',\n/);
  assert.match(text, /\n {2}"zwj": "\\u200d",\n/);
});

Deno.test("the entity generator rejects an entry the decoder could never match", () => {
  assert.throws(() => generateEntities({ "a-b": "x" }), /unexpected entry "a-b"/);
  assert.throws(() => generateEntities({ "&amp;": { codepoints: [38] } }), /unexpected entry/);
  assert.throws(() => generateEntities([]), /expected an object/);
});

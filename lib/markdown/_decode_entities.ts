/**
 * Character references as CommonMark decodes them: numeric ones (`&#x41;`,
 * `&#66;`) and HTML's named ones, looked up in the vendored table
 * (`vendor/entities.ts`, data with its licence beside it).
 *
 * @module
 */

import { ENTITIES } from "./vendor/entities.ts";

const ENTITY = /&(?:#[xX]([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/y;
const ENTITIES_G = new RegExp(ENTITY.source, "g");

/**
 * The character(s) the named reference `&name;` stands for, or `undefined`
 * when there is no such name (the text then stays as written).
 *
 * @example
 * ```ts
 * import { htmlEntity } from "./_decode_entities.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(htmlEntity("middot"), "·");
 * assert.equal(htmlEntity("eacute"), "é");
 * assert.equal(htmlEntity("nosuch"), undefined);
 * assert.equal(htmlEntity("toString"), undefined);
 * ```
 */
export function htmlEntity(name: string): string | undefined {
  // Own names only: `toString` and `__proto__` are no references.
  return Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : undefined;
}

/**
 * Decodes numeric character references and HTML's named ones (`&amp;`,
 * `&middot;`, `&eacute;`, … all of them); unknown names stay as written.
 *
 * @example
 * ```ts
 * import { decodeEntities } from "./scan_inline.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodeEntities("a&amp;b &#x41;&#66; &middot; &bogus;"), "a&b AB · &bogus;");
 * ```
 */
export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(ENTITIES_G, (whole, hex, dec, name) => _decode(whole, hex, dec, name));
}

/**
 * The character reference that starts at `i`: the text it decodes to and its
 * length, or `undefined` when none starts there (an unknown name decodes to
 * itself).
 *
 * @example
 * ```ts
 * import { referenceAt } from "./_decode_entities.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(referenceAt("a &amp; b", 2), ["&", 5]);
 * assert.deepEqual(referenceAt("&#0;", 0), ["\ufffd", 4]);
 * assert.equal(referenceAt("a & b", 2), undefined);
 * ```
 */
export function referenceAt(src: string, i: number): [text: string, length: number] | undefined {
  ENTITY.lastIndex = i;
  const m = ENTITY.exec(src);
  return m ? [_decode(m[0], m[1], m[2], m[3]), m[0].length] : undefined;
}

function _decode(whole: string, hex?: string, dec?: string, name?: string): string {
  if (name !== undefined) return htmlEntity(name) ?? whole;
  const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
  // NUL, surrogates and code points past Unicode decode to U+FFFD, as CommonMark says.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(code);
}

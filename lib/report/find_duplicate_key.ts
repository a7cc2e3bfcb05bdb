/**
 * The first key written twice in one JSON object, found by one pass over the
 * text: `JSON.parse` keeps the last of two equal keys without a word, so a
 * report could say `"safety_tier": "never"` and be read as `"auto"`.
 *
 * @module
 */

const _QUOTE = 0x22;
const _BACKSLASH = 0x5c;
const _OPEN_OBJECT = 0x7b;
const _CLOSE_OBJECT = 0x7d;
const _OPEN_LIST = 0x5b;
const _CLOSE_LIST = 0x5d;
const _COMMA = 0x2c;

/** An open object (with the keys read so far) or list (with the current index). */
interface _Frame {
  keys?: Set<string>;
  key: string;
  index: number;
}

/**
 * The JSON path (as the report validator writes it: `entries[1].path`) of
 * the first key that repeats a key of the same object, or `undefined` when
 * every object's keys are distinct. Keys compare as JSON decodes them
 * (`"p\u0061th"` is `"path"`). `text` must be valid JSON (parse it first);
 * the pass is linear in its length and keeps its own stack, so any nesting
 * depth is safe.
 *
 * @example
 * ```ts
 * import { findDuplicateKey } from "./find_duplicate_key.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(findDuplicateKey('{"entries": [{"op": "a", "op": "b"}]}'), "entries[0].op");
 * assert.equal(findDuplicateKey('{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}'), undefined);
 * ```
 */
export function findDuplicateKey(text: string): string | undefined {
  const frames: _Frame[] = [];
  let atKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === _QUOTE) {
      const end = _stringEnd(text, i);
      const top = frames.at(-1);
      if (atKey && top?.keys) {
        const raw = text.slice(i, end);
        const key: string = raw.includes("\\") ? JSON.parse(raw) : raw.slice(1, -1);
        if (top.keys.has(key)) return _path(frames, key);
        top.keys.add(key);
        top.key = key;
        atKey = false;
      }
      i = end;
      continue;
    }
    if (c === _OPEN_OBJECT) {
      frames.push({ keys: new Set(), key: "", index: 0 });
      atKey = true;
    } else if (c === _OPEN_LIST) {
      frames.push({ key: "", index: 0 });
      atKey = false;
    } else if (c === _CLOSE_OBJECT || c === _CLOSE_LIST) {
      frames.pop();
      atKey = false;
    } else if (c === _COMMA) {
      const top = frames.at(-1);
      if (top?.keys) atKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return undefined;
}

/** The index just past the string literal that opens at `start`. */
function _stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === _BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The path of `key` in the innermost frame, through the open frames. */
function _path(frames: _Frame[], key: string): string {
  const parts: string[] = [];
  for (let j = 0; j < frames.length - 1; j++) {
    const frame = frames[j];
    parts.push(frame.keys ? _segment(frame.key, parts.length === 0) : `[${frame.index}]`);
  }
  parts.push(_segment(key, parts.length === 0));
  return parts.join("");
}

/** A key as a path segment: `.name` for a plain name, else a quoted index. */
function _segment(key: string, first: boolean): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `[${JSON.stringify(key)}]`;
  return first ? key : `.${key}`;
}

/**
 * Dated file and directory names (`2026-08-03-notes.md`, `20260803-run/`).
 *
 * @module
 */

// A date at the start of a name, then a separator or the end of the name (so
// `202608031200-x` and `2026-08-031.md` are not dates).
const DASHED = /^(\d{4})-(\d{2})-(\d{2})(?=$|[-_. ])/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?=$|[-_. ])/;

/**
 * The `YYYY-MM-DD` date that the file's name, or else its parent directory's
 * name, starts with (`2026-08-03…` or `20260803…`, followed by `-`, `_`, `.`,
 * a space or the end of the name). Only real calendar dates between the years
 * 1900 and 2999 count.
 *
 * @example
 * ```ts
 * import { datedName } from "./dated_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(datedName("notes/2026-08-03-standup.md"), "2026-08-03");
 * assert.equal(datedName("runs/20260803-sweep/README.md"), "2026-08-03");
 * assert.equal(datedName("notes/2026-02-30-x.md"), undefined);
 * assert.equal(datedName("docs/guide.md"), undefined);
 * ```
 */
export function datedName(path: string): string | undefined {
  // Most names start with no digit: no date, without splitting the path.
  const slash = path.lastIndexOf("/");
  if (slash < path.length - 1 && !_digitAt(path, slash + 1)) {
    const parentSlash = slash < 0 ? -1 : path.lastIndexOf("/", slash - 1);
    if (slash < 0 || (parentSlash < slash - 1 && !_digitAt(path, parentSlash + 1))) {
      return undefined;
    }
  }
  const parts = path.split("/").filter((p) => p !== "");
  const file = parts.at(-1);
  const parent = parts.at(-2);
  return (file === undefined ? undefined : _leadingDate(file)) ??
    (parent === undefined ? undefined : _leadingDate(parent));
}

function _digitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function _leadingDate(name: string): string | undefined {
  const m = DASHED.exec(name) ?? COMPACT.exec(name);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return undefined;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/**
 * YAML frontmatter: the block between a first line `---` and the next `---`
 * or `...` line, parsed with the capped safe YAML parser.
 *
 * @module
 */

import { parseYaml } from "./parse_yaml.ts";

/** What {@linkcode parseFrontmatter} found. */
export interface Frontmatter {
  /** The mapping, or `undefined` when there is no frontmatter or it is malformed. */
  data: Record<string, unknown> | undefined;
  /** 0-based index of the first body line (0 when there is no frontmatter). */
  bodyStart: number;
  /** Why the frontmatter could not be used (malformed YAML, not a mapping). */
  error?: string;
}

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits off and parses YAML frontmatter. Never throws: malformed YAML, an
 * alias bomb or an oversized block give `data: undefined` and an `error`, with
 * `bodyStart` still after the closing delimiter. An unclosed opening `---` is
 * not frontmatter (GitHub renders it as a rule). A leading BOM and CRLF line
 * endings are accepted.
 *
 * @example
 * ```ts
 * import { parseFrontmatter } from "./parse_frontmatter.ts";
 * import assert from "node:assert/strict";
 *
 * const fm = parseFrontmatter("---\nhygiene: frozen\n---\n# Title\n");
 * assert.deepEqual(fm.data, { hygiene: "frozen" });
 * assert.equal(fm.bodyStart, 3);
 * assert.equal(parseFrontmatter("# No frontmatter\n").data, undefined);
 * assert.match(parseFrontmatter("---\na: [1\n---\n").error ?? "", /frontmatter/);
 * ```
 */
export function parseFrontmatter(text: string): Frontmatter {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith("---")) return { data: undefined, bodyStart: 0 };
  const lineBreak = /\r\n|\r|\n/g;
  let start = 0;
  let index = 0;
  let yamlStart = 0;
  while (true) {
    const match = lineBreak.exec(text);
    const end = match ? match.index : text.length;
    const line = text.slice(start, end);
    if (index === 0) {
      if (!OPEN.test(line)) return { data: undefined, bodyStart: 0 };
      yamlStart = lineBreak.lastIndex;
    } else if (CLOSE.test(line)) {
      return _parse(text.slice(yamlStart, start), index + 1);
    }
    if (!match) return { data: undefined, bodyStart: 0 };
    start = lineBreak.lastIndex;
    index++;
  }
}

function _parse(yaml: string, bodyStart: number): Frontmatter {
  yaml = yaml.replace(/\r\n?/g, "\n");
  const simple = _simpleMapping(yaml);
  if (simple) return { data: simple, bodyStart };
  let value: unknown;
  try {
    value = parseYaml(yaml);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { data: undefined, bodyStart, error: `malformed YAML frontmatter: ${why}` };
  }
  if (value === null || value === undefined) return { data: {}, bodyStart };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { data: undefined, bodyStart, error: "YAML frontmatter is not a mapping" };
  }
  return { data: value as Record<string, unknown>, bodyStart };
}

const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,63}):(?:[ \t]+(.*))?$/;
// Plain scalars that YAML 1.2's core schema reads as strings: a letter first, then only
// letters, digits, spaces and `_ . / -` (no `:`, `#`, quotes, flow or block indicators), or an
// ISO date (the core schema has no timestamps).
const SIMPLE_STRING = /^(?:[A-Za-z][A-Za-z0-9 _./-]{0,199}|\d{4}-\d{2}-\d{2})$/;
const RESERVED = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

// The fast path for the common frontmatter of flat `key: word words` lines, which gives
// exactly what `parseYaml` gives (pinned by a test) at a fraction of its cost — the full
// parser costs ~30 µs per document. Anything else returns undefined: the full parser decides.
function _simpleMapping(yaml: string): Record<string, unknown> | undefined {
  const lines = yaml.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0 || lines.length > 64) return undefined;
  const data: Record<string, unknown> = {};
  for (const line of lines) {
    const m = SIMPLE_LINE.exec(line);
    if (!m || RESERVED.test(m[1]) || m[1] === "__proto__" || Object.hasOwn(data, m[1])) {
      return undefined;
    }
    const raw = (m[2] ?? "").trim();
    if (raw === "" || RESERVED.test(raw)) {
      data[m[1]] = raw === "" || raw[0] === "n" || raw[0] === "N"
        ? null
        : raw[0] === "t" || raw[0] === "T";
    } else if (SIMPLE_STRING.test(raw)) data[m[1]] = raw;
    else return undefined;
  }
  return data;
}

/**
 * Safe YAML parsing for configs and frontmatter: YAML 1.2 core schema, unique
 * keys, capped aliases and size, so hostile input fails fast.
 *
 * @module
 */

import { parseDocument } from "npm:yaml@^2";
import { MAX_YAML_BYTES } from "./load_yaml.ts";

export { MAX_YAML_BYTES };
/** Most alias dereferences accepted: an alias bomb stops here. */
export const MAX_YAML_ALIASES = 100;

/** Thrown for YAML that cannot be used; `line` is 1-based when known. */
export class YamlError extends Error {
  override name = "YamlError";
  /** 1-based line of the problem, when known. */
  readonly line: number | undefined;

  /** Creates the error. */
  constructor(message: string, line?: number) {
    super(message);
    this.line = line;
  }
}

/**
 * Parses one YAML document into plain JavaScript values.
 *
 * @throws {YamlError} for syntax errors, duplicate keys, more than one document, too many aliases, or text over {@linkcode MAX_YAML_BYTES}.
 *
 * @example
 * ```ts
 * import { parseYaml } from "./parse_yaml.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseYaml("a: [1, 2]"), { a: [1, 2] });
 * assert.throws(() => parseYaml("a: [1"));
 * ```
 */
export function parseYaml(text: string): unknown {
  if (text.length > MAX_YAML_BYTES) {
    throw new YamlError(`too large (${text.length} bytes, limit ${MAX_YAML_BYTES})`);
  }
  const doc = parseDocument(text, {
    schema: "core",
    uniqueKeys: true,
    prettyErrors: true,
  });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line;
    // The library's own text advises an API call ("use YAML.parseAllDocuments()").
    const message = first.code === "MULTIPLE_DOCS"
      ? `holds more than one YAML document (a second one starts at line ${line}); keep one`
      : first.message.split("\n")[0];
    throw new YamlError(message, line);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    // `yaml` throws a ReferenceError for excessive aliases (a "billion laughs" bomb).
    throw new YamlError(
      `too many aliases (limit ${MAX_YAML_ALIASES}): ${err instanceof Error ? err.message : err}`,
    );
  }
}

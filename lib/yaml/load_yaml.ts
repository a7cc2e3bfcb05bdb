/**
 * The full YAML parser for frontmatter, loaded on demand: the `yaml` npm
 * package costs a Deno thread ~50 ms to load, more than most scans spend on
 * YAML — common frontmatter (flat `key: words` lines) is read without it.
 *
 * @module
 */

/**
 * Largest YAML text accepted, in bytes (UTF-16 code units, near enough): by
 * the parser, and for `.dochygiene.yml` before it is read (kept here, where
 * no npm package is loaded).
 */
export const MAX_YAML_BYTES = 1024 * 1024;

/** Parses YAML text (see `parse_yaml.ts`). */
export type YamlParser = (text: string) => unknown;

/**
 * Thrown by synchronous code that needs the full YAML parser before anyone
 * awaited {@linkcode loadYaml}: the caller awaits it and tries again.
 *
 * @example
 * ```ts
 * import { YamlNotLoadedError } from "./load_yaml.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new YamlNotLoadedError().name, "YamlNotLoadedError");
 * ```
 */
export class YamlNotLoadedError extends Error {
  override name = "YamlNotLoadedError";

  /** Creates the error. */
  constructor() {
    super("the YAML parser is not loaded: await loadYaml() and try again");
  }
}

let _parse: YamlParser | undefined;

/**
 * Loads the full YAML parser (once) and returns it.
 *
 * @example
 * ```ts
 * import { loadedYaml, loadYaml } from "./load_yaml.ts";
 * import assert from "node:assert/strict";
 *
 * const parse = await loadYaml();
 * assert.deepEqual(parse("a: [1, 2]"), { a: [1, 2] });
 * assert.equal(loadedYaml(), parse);
 * ```
 */
export async function loadYaml(): Promise<YamlParser> {
  return _parse ??= (await import("./parse_yaml.ts")).parseYaml;
}

/**
 * The full YAML parser when {@linkcode loadYaml} has loaded it, else
 * `undefined`.
 *
 * @example
 * ```ts
 * import { loadedYaml, loadYaml } from "./load_yaml.ts";
 * import assert from "node:assert/strict";
 *
 * await loadYaml();
 * assert.equal(typeof loadedYaml(), "function");
 * ```
 */
export function loadedYaml(): YamlParser | undefined {
  return _parse;
}

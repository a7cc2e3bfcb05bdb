/**
 * The committed config's file name, in a module of its own: the hook reads
 * the config without loading the YAML parser `load_config.ts` brings.
 *
 * @module
 */

/**
 * File name of the committed config in the root.
 *
 * @example
 * ```ts
 * import { CONFIG_FILE_NAME } from "./config_file_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CONFIG_FILE_NAME, ".dochygiene.yml");
 * ```
 */
export const CONFIG_FILE_NAME = ".dochygiene.yml";

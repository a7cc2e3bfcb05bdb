/**
 * The reminder's one config value, `threshold_days`, read without loading a
 * YAML parser on the common path.
 *
 * @module
 */

import { CONFIG_FILE_NAME } from "../config/config_file_name.ts";
import { findEntry } from "../fs/find_entry.ts";
import { join } from "../fs/path.ts";
import { linkState } from "../fs/link_state.ts";

/** The threshold when the config does not set one (the default of docs/design.md "Defaults"). */
export const DEFAULT_THRESHOLD_DAYS = 7;

/** Larger configs are refused by `loadConfig` too (`MAX_YAML_BYTES`). */
const _MAX_BYTES = 1024 * 1024;
/** `threshold_days: <number>` at column 0, with an optional trailing comment. */
const _LINE = /^threshold_days[ \t]*:[ \t]+(\d+(?:\.\d+)?)(?:[ \t]+#.*)?[ \t]*$/;

/**
 * Reads `threshold_days` from `<root>/.dochygiene.yml` for the reminder, which
 * must start fast and never fail:
 *
 * - no file, or no `threshold_days` anywhere in it: the default, 7;
 * - `threshold_days` appears once, on a top-level line `threshold_days: <number>`
 *   (digits, optional decimals, optional `# comment`): that number, read by a
 *   line scanner — no YAML parser, no npm package;
 * - `threshold_days` appears in any other form (quoted key, flow mapping, tag,
 *   exponent, more than once, inside a comment …): the full validating loader
 *   (`load_config.ts`, which uses `npm:yaml`) is imported dynamically, so only
 *   this rare path loads npm;
 * - any error (unreadable file, invalid config): the default, 7.
 *
 * The rest of the config is not validated here (`state.ts doctor` does that).
 *
 * @example
 * ```ts
 * import { readThreshold } from "./read_threshold.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * assert.equal(await readThreshold(root), 7);
 * await Deno.writeTextFile(`${root}/.dochygiene.yml`, "threshold_days: 3 # snooze\n");
 * assert.equal(await readThreshold(root), 3);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function readThreshold(root: string): Promise<number> {
  try {
    // Looked up first: most projects have no config.
    const entry = findEntry(root, CONFIG_FILE_NAME);
    if (entry === undefined) return DEFAULT_THRESHOLD_DAYS;
    const path = join(root, CONFIG_FILE_NAME);
    // Synchronous calls: cheaper than async ones on the hook's start-up path.
    // A FIFO or device would block the read; loadConfig refuses both anyway. The
    // lookup's lstat tells a regular file and its size apart without an open;
    // only a symlink is followed by a stat, and only one that stays inside the project. Nothing
    // over the cap is read.
    if (
      entry.isFile
        ? entry.size > _MAX_BYTES
        : !(entry.isSymlink && linkState(root, path) === "inside" && _isSmallFile(path))
    ) {
      return DEFAULT_THRESHOLD_DAYS;
    }
    const text = Deno.readTextFileSync(path);
    if (text.length > _MAX_BYTES) return DEFAULT_THRESHOLD_DAYS;
    const scanned = _scan(text);
    if (scanned !== undefined) return scanned;
    // A non-literal specifier: Deno then leaves this module (and its npm packages)
    // out of the start-up module graph instead of loading and resolving it on
    // every run; only this rare path pays for it. Written from the package root
    // so that it names lib/config/load_config.ts both from here and from the hook's
    // bundle (hooks/remind.js, one directory down from the root as well).
    const loader: string = "../config/load_config.ts";
    const { loadConfig }: typeof import("../config/load_config.ts") = await import(loader);
    return (await loadConfig(root)).threshold_days;
  } catch {
    return DEFAULT_THRESHOLD_DAYS;
  }
}

/** Whether a symlink leads to a regular file of at most the cap. */
function _isSmallFile(path: string): boolean {
  const info = Deno.statSync(path);
  return info.isFile && info.size <= _MAX_BYTES;
}

/** The threshold when the scanner can read it with certainty, else `undefined`. */
function _scan(text: string): number | undefined {
  const first = text.indexOf("threshold_days");
  if (first === -1) return DEFAULT_THRESHOLD_DAYS;
  if (text.indexOf("threshold_days", first + 1) !== -1) return undefined;
  const lineStart = text.lastIndexOf("\n", first) + 1;
  if (lineStart !== first && !(first === 1 && text.charCodeAt(0) === 0xfeff)) return undefined;
  const lineEnd = text.indexOf("\n", first);
  let line = text.slice(first, lineEnd === -1 ? text.length : lineEnd);
  if (line.endsWith("\r")) line = line.slice(0, -1);
  const match = _LINE.exec(line);
  if (!match) return undefined;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : undefined;
}

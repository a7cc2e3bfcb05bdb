/**
 * Terminal-safe text: the code points a terminal acts on instead of showing,
 * written as escapes.
 *
 * @module
 */

import { showUndecodable } from "./decode_path.ts";
/**
 * Code points a terminal acts on instead of showing: C0 and C1 controls, DEL,
 * and the bidirectional and directional marks. A file name, a status or a git
 * message holding them could move the cursor, erase a line or reorder what is
 * shown around it. Also a lone surrogate, which would show as U+FFFD, not as
 * what it is. Global: use it with `replace`, `search` or `match`, never with a
 * `test` that would keep its `lastIndex`.
 */
export const TERMINAL_UNSAFE: RegExp =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` with every {@linkcode TERMINAL_UNSAFE} code point escaped: `\xNN`
 * below U+0100 and `\uXXXX` above (the default), or `\uXXXX` for all
 * (`"json"`: inside a JSON string, which then stays valid JSON).
 *
 * @example
 * ```ts
 * import { escapeControls } from "./escape_controls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeControls("a\x1b[2Kb\u202ec"), "a\\x1b[2Kb\\u202ec");
 * assert.equal(escapeControls("a\x7f", "json"), "a\\u007f");
 * assert.equal(escapeControls("plain ü 😀"), "plain ü 😀");
 * assert.equal(escapeControls("a\u061cb\ud800"), "a\\u061cb\\ud800");
 * ```
 */
export function escapeControls(text: string, style: "x" | "json" = "x"): string {
  return text.replace(TERMINAL_UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return style === "x" && code < 0x100
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Lines for a terminal, joined with `\n`, each with {@linkcode escapeControls}:
 * the paths and values they show may hold control characters (a root named so).
 *
 * @example
 * ```ts
 * import { escapeLines } from "./escape_controls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeLines(["root: /tmp/a\x1b[2J", "ok"]), "root: /tmp/a\\x1b[2J\nok");
 * ```
 */
export function escapeLines(lines: readonly string[]): string {
  return lines.map((line) => escapeControls(line)).join("\n");
}

/**
 * A path or name shown on one terminal line: its undecodable bytes as `\xNN`
 * (see `showUndecodable`), then controls and bidi marks escaped.
 *
 * @example
 * ```ts
 * import { showSafe } from "./escape_controls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(showSafe("a\nb.md"), "a\\x0ab.md");
 * ```
 */
export function showSafe(text: string): string {
  return escapeControls(showUndecodable(text));
}

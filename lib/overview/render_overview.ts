/**
 * The overview in either form, held under a size bound whatever the
 * repository.
 *
 * @module
 */

import type { Overview, OverviewBuilder } from "./overview_builder.ts";
import { renderOverviewText } from "./render_overview_text.ts";

/** The most either form of the overview takes, in UTF-8 bytes (docs/scan.md "The overview"). */
export const OVERVIEW_MAX_BYTES = 32 * 1024;

/**
 * The overview as text (`form: "text"`) or JSON (`"json"`), at most
 * {@linkcode OVERVIEW_MAX_BYTES}: when the full one (50 directory rows, 30
 * ranked docs) is larger — long paths, many rules — rows and ranked docs are
 * halved until it fits (down to one row and no ranked doc). The JSON puts each
 * row and each ranked doc on a line of its own.
 *
 * @example
 * ```ts
 * import { OverviewBuilder } from "./overview_builder.ts";
 * import { renderOverview } from "./render_overview.ts";
 * import assert from "node:assert/strict";
 *
 * const builder = new OverviewBuilder();
 * builder.add("a.md", [{ kind: "age", days: 3, last_commit: null, source: "mtime" }]);
 * const json = JSON.parse(renderOverview(builder, {
 *   generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null, under: null,
 *   counts: { candidates: 1, shortlisted: 1, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 * }, "json"));
 * assert.equal(json.docs, 1);
 * assert.deepEqual(json.dirs[0].age_days, { min: 3, median: 3, max: 3 });
 * ```
 */
export function renderOverview(
  builder: OverviewBuilder,
  scan: Parameters<OverviewBuilder["finish"]>[0],
  form: "text" | "json",
  maxBytes: number = OVERVIEW_MAX_BYTES,
): string {
  let rows = 50;
  let top = 30;
  for (;;) {
    const overview = builder.finish(scan, { rows, top });
    const text = form === "text" ? renderOverviewText(overview) : formatOverviewJson(overview);
    if ((rows <= 1 && top === 0) || new TextEncoder().encode(text).length <= maxBytes) return text;
    rows = Math.max(1, Math.floor(rows / 2));
    top = Math.floor(top / 2);
  }
}

/**
 * The overview's JSON text: indented, with each directory row and ranked doc
 * on one line. Ends with a newline.
 *
 * @example
 * ```ts
 * import { OverviewBuilder } from "./overview_builder.ts";
 * import { formatOverviewJson } from "./render_overview.ts";
 * import assert from "node:assert/strict";
 *
 * const overview = new OverviewBuilder().finish({
 *   generated_at: "2026-11-30T00:00:00.000Z", root: "/r", git: null, under: null,
 *   counts: { candidates: 0, shortlisted: 0, excluded: { dir: 0, ignore: 0, frozen: 0, append_only: 0 } },
 * });
 * assert.deepEqual(JSON.parse(formatOverviewJson(overview)), overview);
 * ```
 */
export function formatOverviewJson(overview: Overview): string {
  const { dirs, top, ...head } = overview;
  const list = (items: unknown[]) =>
    items.length === 0
      ? "[]"
      : `[\n    ${items.map((i) => JSON.stringify(i)).join(",\n    ")}\n  ]`;
  return JSON.stringify(head, null, 2).slice(0, -2) +
    `,\n  "dirs": ${list(dirs)},\n  "top": ${list(top)}\n}\n`;
}

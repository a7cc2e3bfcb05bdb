/**
 * The signal kinds that are findings (a problem at a place in a doc), with
 * what CI outputs say of each: SARIF rules, annotation titles, `--fail-on`.
 *
 * @module
 */

/** What the CI outputs say of one finding kind. */
export interface FindingKind {
  /** The signal kind (docs/signals.md), the SARIF rule id. */
  id: string;
  /** The SARIF rule name (PascalCase). */
  name: string;
  /** One sentence: what is wrong. */
  short: string;
  /** What the signal means and how the scanner tells it. */
  full: string;
  /** How to fix it. */
  help: string;
}

/**
 * Every finding kind, in the order outputs list them. Doc-level facts (age,
 * size, checkboxes, status, dated names, lifecycle, inbound links) are not
 * findings: they are for the reader to judge (docs/signals.md). A new kind of
 * signal that points at a place in a doc gets a row here.
 *
 * @example
 * ```ts
 * import { FINDING_KINDS } from "./finding_kinds.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(FINDING_KINDS.some((k) => k.id === "broken_link"));
 * ```
 */
export const FINDING_KINDS: readonly FindingKind[] = [
  {
    id: "malformed_frontmatter",
    name: "MalformedFrontmatter",
    short: "The doc's YAML frontmatter does not parse.",
    full: "The block between the leading `---` lines is not valid YAML (or not a mapping), so " +
      "its keys (status, hygiene) cannot be read.",
    help: "Fix the YAML at the line named (quote values holding `: ` or `#`), or remove the block.",
  },
  {
    id: "broken_link",
    name: "BrokenLink",
    short: "A link points at a path that does not exist.",
    full: "A relative link (or a site-root link, under the docs' renderer) resolves to no file " +
      "or directory in the repository.",
    help: "Point the link at the file's new path, or remove it. A hint names a near miss " +
      "(a path differing in letter case, or missing its `.md`).",
  },
  {
    id: "broken_anchor",
    name: "BrokenAnchor",
    short: "A link's `#fragment` matches no heading of the doc it points at.",
    full: "The target exists, but none of its heading slugs (as its renderer makes them) nor " +
      "its explicit anchors matches the fragment.",
    help: "Link to the heading's current slug (see the target's headings), or add an explicit " +
      "anchor to the heading.",
  },
  {
    id: "missing_path",
    name: "MissingPath",
    short: "An inline-code path does not exist.",
    full: "A path written in inline code (`src/x.ts`) exists neither from the repository root " +
      "nor from the doc's directory.",
    help: "Update the path to where the file is now, or mark an example path as a placeholder " +
      "(`path/to/x`) or suppress it with `<!-- dochygiene-disable-next-line missing_path -->`.",
  },
  {
    id: "duplicate",
    name: "DuplicateDoc",
    short: "The doc has the same content as another doc.",
    full: "Two or more docs have byte-identical content (line endings aside).",
    help: "Keep one copy and link to it from the other places.",
  },
];

/**
 * The finding kind of `id`, or `undefined` when `id` is no finding kind.
 *
 * @example
 * ```ts
 * import { findingKind } from "./finding_kinds.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(findingKind("broken_anchor")?.name, "BrokenAnchor");
 * assert.equal(findingKind("age"), undefined);
 * ```
 */
export function findingKind(id: string): FindingKind | undefined {
  return FINDING_KINDS.find((k) => k.id === id);
}

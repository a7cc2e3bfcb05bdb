/**
 * Reads a project's prune facts from disk and git and plans (docs/design.md
 * "Lifecycle deletion"): the I/O half of `prune.ts`, shared by its dry run
 * and by apply's recomputation under the lock.
 *
 * @module
 */

import { analyzeDoc } from "../markdown/analyze_doc.ts";
import type { Clock } from "../core/clock.ts";
import { collectUnits, type UnitCollection } from "./collect_units.ts";
import { globMatcher } from "../config/glob_matcher.ts";
import { ALWAYS_EXCLUDED_DIRS, type Config, CONFIG_FILE_NAME } from "../config/load_config.ts";
import { IGNORE_FILE_NAME, loadIgnore } from "../config/load_ignore.ts";
import { loadYaml } from "../yaml/load_yaml.ts";
import { type Judgment, type Plan, planPrune } from "./plan_prune.ts";
import type { DocLink } from "../markdown/extract_links.ts";
import { dirEntries, type DirEntryKind } from "../fs/dir_entries.ts";
import { readDocSync } from "../scan/read_doc.ts";
import { readGitFacts } from "../git/read_git_facts.ts";
import type { ScanArtifact, Signal } from "../scan/scan_docs.ts";
import { scanRepository } from "../scan/scan_repository.ts";
import { contentExclusion } from "../scan/summarize_doc.ts";

/** Options of {@linkcode planFromDisk}. */
export interface PlanFromDiskOptions {
  /** Absolute project root (holds `.git`). */
  root: string;
  /** The config. */
  config: Config;
  /** The clock. */
  clock: Clock;
  /** `served_when` judgments by path. */
  judgments: ReadonlyMap<string, Judgment>;
  /** No report was found to judge `served_when` rules (see `PlanInput.reportMissing`). */
  reportMissing?: boolean;
  /** `--confirm` paths. */
  confirm: ReadonlySet<string>;
  /** `--extracted` paths. */
  extracted: ReadonlySet<string>;
  /** `clock_watermark` of the state file. */
  watermark: string | null;
  /** `dry-run` or `apply`. */
  mode: "dry-run" | "apply";
}

/**
 * Reads the facts (the scanner's exclusions, `.dochygiene-ignore`, git's
 * listing, status and history) and plans. Protected: `.dochygiene.yml` and
 * `.dochygiene-ignore` themselves, any path with a component in
 * `excluded_dirs` (`.git`, `.dochygiene` always), matched by
 * `.dochygiene-ignore`, or a frozen or append-only doc — whatever
 * `scope_globs` says: a file of a deletable unit that is in scope or is
 * Markdown (`.md`, `.mdx`, `.markdown`, any case) and that the scan did not
 * analyse is read and checked here, and one that cannot be read is protected.
 *
 * @example
 * ```ts
 * import { planFromDisk } from "./plan_from_disk.ts";
 * import { defaultConfig } from "../config/load_config.ts";
 * import { systemClock } from "../core/clock.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
 * const { plan } = await planFromDisk({
 *   root, config: defaultConfig(), clock: systemClock, judgments: new Map(),
 *   confirm: new Set(), extracted: new Set(), watermark: null, mode: "dry-run",
 * });
 * assert.deepEqual(plan.candidates, []);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function planFromDisk(
  options: PlanFromDiskOptions,
): Promise<{ plan: Plan; collection: UnitCollection; links: Map<string, DocLink[]> }> {
  const { root, config } = options;
  // One listing and one history pass serve both the scan and the units.
  const gitFacts = readGitFacts(root);
  const [ignored, scan] = await Promise.all([
    loadIgnore(root),
    scanRepository({ root, config, clock: options.clock, gitFacts, keepLinks: true }),
  ]);
  const excludedDirs = new Set([...ALWAYS_EXCLUDED_DIRS, ...config.excluded_dirs]);
  const excluded = new Map(scan.artifact.excluded.map((e) => [e.path, e.reason]));
  const analysed = new Set(scan.artifact.shortlist);
  const inScope = globMatcher(config.scope_globs);
  // Frontmatter beyond flat lines needs the full parser (a rulebook has loaded it already).
  await loadYaml();
  let entry: ((path: string) => DirEntryKind) | undefined;
  const protect = (path: string): string | undefined => {
    if (path === CONFIG_FILE_NAME || path === IGNORE_FILE_NAME) return "dochygiene's own config";
    const dir = path.split("/").slice(0, -1).find((part) => excludedDirs.has(part));
    if (dir !== undefined) return `excluded dir ${dir}`;
    if (ignored(path)) return _EXCLUSIONS.ignore;
    const scanned = excluded.get(path);
    if (scanned !== undefined) return _EXCLUSIONS[scanned];
    if (analysed.has(path)) return _failsClosed(scan.artifact.signals[path]);
    if (!(_MARKDOWN.test(path) || inScope(path))) return undefined;
    return _protectedByContent(root, path, entry ??= dirEntries(root));
  };
  const collection = await collectUnits(root, { rules: config.rules, protect, gitFacts });
  const plan = planPrune({
    units: collection.units,
    existing: collection.existing,
    judgments: options.judgments,
    reportMissing: options.reportMissing,
    confirm: options.confirm,
    extracted: options.extracted,
    now: options.clock.now(),
    watermark: options.watermark,
    mode: options.mode,
  });
  plan.warnings.push(...collection.warnings);
  return { plan, collection, links: scan.links ?? new Map() };
}

/** The scan's exclusion reasons, as a unit's `protected (…)` reason says them. */
const _EXCLUSIONS: Record<ScanArtifact["excluded"][number]["reason"], string> = {
  ignore: ".dochygiene-ignore",
  frozen: "frozen",
  append_only: "append-only",
};

/** Why a frontmatter with a `hygiene:` line that cannot be parsed protects its doc. */
const _MALFORMED_HYGIENE = "malformed frontmatter with a hygiene: line; fix its YAML";

/** A shortlisted doc whose frontmatter has a `hygiene:` line but cannot be parsed: protected. */
function _failsClosed(signals: readonly Signal[] | undefined): string | undefined {
  return signals?.some((s) => s.kind === "malformed_frontmatter" && s.hygiene)
    ? _MALFORMED_HYGIENE
    : undefined;
}

/** Markdown by its extension: a doc to the scanner under the default scope. */
const _MARKDOWN = /\.(?:md|mdx|markdown)$/i;

/**
 * Reads one doc the scan did not analyse and says whether it is frozen or
 * append-only as the scanner would (see `contentExclusion`); a doc that cannot
 * be read or analysed may be either: it is protected, saying why.
 */
function _protectedByContent(
  root: string,
  path: string,
  entry: (path: string) => DirEntryKind,
): string | undefined {
  // Only a regular file reached through real directories is read (never through a symlink);
  // one whose directory cannot be read is tried, to say why it was not checked.
  const kind = entry(path);
  if (kind !== "file" && kind !== "unknown") return undefined;
  const read = readDocSync(root, path, { regularFile: kind === "file" });
  if (read === "") return undefined; // not a regular file (a symlink), or gone: no doc
  const unchecked = "not checked for frozen/append-only";
  if (typeof read === "string") return `${unchecked}: ${read}`;
  if (read.kind !== "text") return undefined;
  try {
    const analysis = analyzeDoc(read.text, path);
    if (analysis.malformedFrontmatter?.hygiene) return _MALFORMED_HYGIENE;
    const why = contentExclusion(analysis);
    return why && _EXCLUSIONS[why];
  } catch (err) {
    return `${unchecked}: could not be analysed (${err instanceof Error ? err.message : err})`;
  }
}

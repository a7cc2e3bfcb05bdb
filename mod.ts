/**
 * dochygiene as a library: the deterministic half of the dochygiene Claude
 * Code plugin, for your own scripts. Everything the four scripts do is here as
 * functions over an explicit root, config and clock:
 *
 * - **root and config** — {@linkcode findRoot}, {@linkcode loadConfig},
 *   {@linkcode parseConfig} (`.dochygiene.yml`, validated);
 * - **the state store** — {@linkcode readState}, {@linkcode updateState}
 *   (locked, atomic, unknown keys kept), {@linkcode resolveStateDir},
 *   {@linkcode diagnose} (what `state.ts doctor` prints);
 * - **the reminder's decision** — {@linkcode checkStaleness},
 *   {@linkcode decideReminder}, {@linkcode formatBanner};
 * - **the scan** — {@linkcode scanRepository} (the artifact `scan.ts` prints);
 * - **lifecycle deletion** — {@linkcode planFromDisk} (the plan `prune.ts`
 *   prints), {@linkcode applyPrune} (one hygiene commit), and their parts
 *   {@linkcode collectUnits} and {@linkcode planPrune};
 * - **reports** — {@linkcode parseReport}, {@linkcode validateReport},
 *   {@linkcode renderReport}, {@linkcode writeReportPair},
 *   {@linkcode findReportPair}.
 *
 * Functions that touch the disk need `--allow-read`; git facts need
 * `--allow-run=git`; writes go only to `<root>/.dochygiene/`
 * (`--allow-write=.dochygiene` when run from the root).
 *
 * @example Scan a repository and list its stale docs
 * ```ts
 * import { findRoot, fixedClock, loadConfig, scanRepository } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/README.md`, "# Hi\n\nSee [the guide](guide.md).\n");
 *
 * const root = await findRoot(dir);
 * const { artifact } = await scanRepository({
 *   root,
 *   config: await loadConfig(root),
 *   clock: fixedClock(new Date("2026-11-30T12:00:00Z")),
 * });
 * assert.deepEqual(artifact.shortlist, ["README.md"]);
 * const broken = artifact.signals["README.md"].filter((s) => s.kind === "broken_link");
 * assert.equal(broken.length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

// Errors, time, versions and the permission contract.
export { DochygieneError, type ExitCode } from "./lib/core/dochygiene_error.ts";
export {
  type Clock,
  clockFromEnv,
  fileStamp,
  fixedClock,
  localDay,
  systemClock,
} from "./lib/core/clock.ts";
export { PERMISSION_FLAGS, type SeamName } from "./lib/cli/permission_flags.ts";
export { VERSION } from "./lib/core/version.ts";

// Root, state directory, config.
export { findRoot } from "./lib/fs/find_root.ts";
export {
  assertWritePermission,
  ensureStateDir,
  hasWritePermission,
  resolveStateDir,
  STATE_DIR_NAME,
} from "./lib/state/state_dir.ts";
export {
  ALWAYS_EXCLUDED_DIRS,
  type Config,
  CONFIG_FILE_NAME,
  defaultConfig,
  type DriftConfig,
  type Lifetime,
  type LinksConfig,
  loadConfig,
  type Renderer,
  type Rule,
} from "./lib/config/load_config.ts";
export { parseConfig } from "./lib/config/parse_config.ts";

// The state store.
export { atomicWrite } from "./lib/fs/atomic_write.ts";
export { type LockOptions, withLock } from "./lib/fs/with_lock.ts";
export {
  emptyState,
  parseState,
  readState,
  type State,
  STATE_FILE_NAME,
  type StateRead,
  type UpdateOptions,
  updateState,
} from "./lib/state/state_file.ts";
export { diagnose, type Diagnosis, GITIGNORE_LINE } from "./lib/state/diagnose.ts";

// The reminder's decision.
export { checkStaleness, type Staleness } from "./lib/state/check_staleness.ts";
export {
  decideReminder,
  type ReminderDecision,
  type ReminderReason,
  type ReminderState,
} from "./lib/remind/decide_reminder.ts";
export { type Banner, formatBanner } from "./lib/remind/format_banner.ts";

// The scan.
export {
  type ScanOutcome,
  scanRepository,
  type ScanRepositoryOptions,
} from "./lib/scan/scan_repository.ts";
export { type GitFacts, readGitFacts } from "./lib/git/read_git_facts.ts";
export { type CandidateListing } from "./lib/git/list_candidates.ts";
export { type GitAges, type GitTip, type KnownAges } from "./lib/git/read_git_ages.ts";
export { type FirstParentLog } from "./lib/git/first_parent_log.ts";
export { type DocLink } from "./lib/markdown/extract_links.ts";
export {
  type ExclusionReason,
  SCAN_SCHEMA_VERSION,
  type ScanArtifact,
  type Signal,
} from "./lib/scan/scan_docs.ts";
export { type SuppressedCounts } from "./lib/scan/suppress_signals.ts";
export { codeElement, elementTerms } from "./lib/drift/code_element.ts";
export { type ReviewFacts, reviewFacts } from "./lib/drift/review_facts.ts";
export { CODE_DRIFT_CAP, type CommitRef, type DriftSignal } from "./lib/drift/drift_signals.ts";

// Lifecycle deletion.
export {
  type CollectOptions,
  collectUnits,
  type UnitCollection,
} from "./lib/prune/collect_units.ts";
export {
  approvedCandidates,
  type Candidate,
  type Dangling,
  type Deferred,
  type Judgment,
  type Kept,
  type Plan,
  type PlanInput,
  planPrune,
  type UnitFacts,
} from "./lib/prune/plan_prune.ts";
export { type ApplyInput, applyPrune } from "./lib/apply/apply_prune.ts";
export { planFromDisk, type PlanFromDiskOptions } from "./lib/prune/plan_from_disk.ts";
export { type ListedFile } from "./lib/git/list_candidates.ts";
export {
  type ExistingPaths,
  existingPaths,
  type Governance,
  governingRule,
} from "./lib/config/governing_rule.ts";

// Reports.
export {
  CATEGORIES,
  type Category,
  OP_TYPES,
  type OpType,
  parseReport,
  type Report,
  type ReportEntry,
  SAFETY_TIERS,
  type SafetyTier,
  validateReport,
  type ValidateReportOptions,
} from "./lib/report/validate_report.ts";
export { renderReport } from "./lib/report/render_report.ts";
export {
  type WriteReportOptions,
  writeReportPair,
  type WrittenReport,
} from "./lib/report/write_report_pair.ts";
export { findReportPair, type ReportPair } from "./lib/report/find_report_pair.ts";

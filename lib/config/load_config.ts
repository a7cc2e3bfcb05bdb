/**
 * `.dochygiene.yml`: loading, validation with messages that name the key and
 * the rule broken, defaults. The parser (`parse_config.ts`, with its YAML and
 * glob engines from npm) is only loaded when the file exists.
 *
 * @module
 */

import { join } from "node:path";
import { CONFIG_FILE_NAME } from "./config_file_name.ts";
import { DochygieneError } from "../core/dochygiene_error.ts";
import { MAX_YAML_BYTES } from "../yaml/load_yaml.ts";
import { LEADS_OUTSIDE, linkState } from "../fs/link_state.ts";

export { CONFIG_FILE_NAME };

/** How long a governed path lives. */
export type Lifetime = "keep" | "temporary" | "delete-once-served";

/** One rule of the lifecycle rulebook, defaults applied. */
export interface Rule {
  /** Root-anchored glob; a trailing `/` makes it a directory rule. */
  match: string;
  /** The rule's lifetime. */
  lifetime: Lifetime;
  /** `temporary`: how many newest units are always kept (default 3). */
  retain_recent: number;
  /** `temporary`: age in days past which an older unit is a candidate (default 3). */
  max_age_days: number;
  /** `delete-once-served`: a glob with `{name}` that proves on disk the entry was served. */
  served_when_path?: string;
  /** `delete-once-served`: a condition the check skill judges. */
  served_when?: string;
  /** Distil durable content before deleting (default false). */
  extract: boolean;
}

/** The drift signals' settings (`drift:` in `.dochygiene.yml`; docs/configuration.md). */
export interface DriftConfig {
  /** Report `stale_reference` signals (default true). */
  stale_reference: boolean;
  /** Report `code_drift` signals (default true). */
  code_drift: boolean;
  /** Report `review` signals (default true). */
  review: boolean;
  /** The review interval of a doc that declares none, in days; `null` = none (default). */
  review_interval_days: number | null;
  /** Root-anchored globs of docs that get no drift signal. */
  exclude_docs: string[];
  /** Root-anchored globs of files that are not code: neither searched for elements nor `code_drift` targets. */
  exclude_code: string[];
  /** Elements never reported as `stale_reference`, as written (with or without `()`). */
  exclude_elements: string[];
}

/** The config, every key present with its default. */
export interface Config {
  /** The reminder fires when the last check is older than this many days. */
  threshold_days: number;
  /** Which files are docs. */
  scope_globs: string[];
  /** Directory names never scanned (`.git` and `.dochygiene` always). */
  excluded_dirs: string[];
  /** The lifecycle rulebook; empty = prune manages nothing. */
  rules: Rule[];
  /** The drift signals' settings. */
  drift: DriftConfig;
  /** How links are resolved: the docs' renderer (docs/configuration.md `links`); absent = detected. */
  links?: LinksConfig;
}

/** A docs renderer whose link rules dochygiene models (docs/signals.md "Renderers"). */
export type Renderer = "github" | "vitepress" | "docusaurus" | "mkdocs" | "mdbook";

/**
 * Every {@linkcode Renderer}.
 *
 * @example
 * ```ts
 * import { RENDERERS } from "./load_config.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(RENDERERS.includes("vitepress"));
 * ```
 */
export const RENDERERS: readonly Renderer[] = [
  "github",
  "vitepress",
  "docusaurus",
  "mkdocs",
  "mdbook",
];

/** `.dochygiene.yml`'s `links:` (docs/configuration.md). */
export interface LinksConfig {
  /** `auto` (default): detected from the repository; else this renderer. */
  renderer?: "auto" | Renderer;
  /** The site's source root (root-relative directory), instead of the detected one. */
  root?: string;
  /** Extensions an extensionless or `.html` link may stand for (default `md`; Docusaurus `md`, `mdx`). */
  fallback_extensions?: string[];
}

/**
 * The defaults of docs/design.md "Defaults".
 *
 * @example
 * ```ts
 * import { defaultConfig } from "./load_config.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(defaultConfig().threshold_days, 7);
 * ```
 */
export function defaultConfig(): Config {
  return {
    threshold_days: 7,
    scope_globs: ["**/*.md", "**/*.mdx", "**/*.markdown"],
    excluded_dirs: ["build", "vendor", "archive", "graphify-out", "node_modules"],
    rules: [],
    drift: {
      stale_reference: true,
      code_drift: true,
      review: true,
      review_interval_days: null,
      exclude_docs: [],
      exclude_code: [],
      exclude_elements: [],
    },
  };
}

/** Directory names excluded whatever the config says. */
export const ALWAYS_EXCLUDED_DIRS: readonly string[] = [".git", ".dochygiene"];

/**
 * Reads and validates `<root>/.dochygiene.yml`; a missing file gives the
 * defaults.
 *
 * @throws {DochygieneError} `INVALID_CONFIG` (exit 2) naming the key and the rule broken.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/.dochygiene.yml`, "threshold_days: 3\n");
 * assert.equal((await loadConfig(root)).threshold_days, 3);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function loadConfig(root: string): Promise<Config> {
  const path = join(root, CONFIG_FILE_NAME);
  let text: string;
  try {
    // A symlink is followed only where it stays inside the project (a dangling one is no config).
    const link = linkState(root, path);
    if (link === "dangling") return defaultConfig();
    if (link === "outside") throw invalidConfig(LEADS_OUTSIDE);
    const info = await Deno.stat(path);
    if (!info.isFile) throw invalidConfig(`is not a regular file; remove it or make it one`);
    if (info.size > MAX_YAML_BYTES) {
      throw invalidConfig(`is ${info.size} bytes; the limit is ${MAX_YAML_BYTES}: shorten it`);
    }
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return defaultConfig();
    if (err instanceof DochygieneError) throw err;
    throw invalidConfig(
      `cannot be read (${
        err instanceof Error ? err.message : err
      }); fix the file or its permissions`,
    );
  }
  const { parseConfig } = await import("./parse_config.ts");
  return parseConfig(text);
}

/**
 * The `INVALID_CONFIG` error (exit 2) for a problem with the config file.
 *
 * @example
 * ```ts
 * import { invalidConfig } from "./load_config.ts";
 * import assert from "node:assert/strict";
 *
 * const err = invalidConfig("threshold_days: must be a number >= 0");
 * assert.equal(err.code, "INVALID_CONFIG");
 * assert.equal(err.exitCode, 2);
 * assert.match(err.message, /^\.dochygiene\.yml: threshold_days/);
 * ```
 */
export function invalidConfig(detail: string): DochygieneError {
  return new DochygieneError("INVALID_CONFIG", `${CONFIG_FILE_NAME}: ${detail}`, 2);
}

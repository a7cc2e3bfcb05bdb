// schema/dochygiene.schema.json, which editors use to complete and check .dochygiene.yml
// (`# yaml-language-server: $schema=…`), kept in step with the validator (parse_config.ts):
// the same keys and lifetimes, and the same verdict on every sample config. The schema checks
// structure only: glob syntax and whether a deleting rule is anchored are the validator's alone.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CONFIG_KEYS,
  DRIFT_KEYS,
  LIFETIMES,
  parseConfig,
  RULE_KEYS,
} from "../../lib/config/parse_config.ts";
import { parseYaml } from "../../lib/yaml/parse_yaml.ts";
import { PACKAGE_DIR } from "../support/helpers.ts";

type Schema = Record<string, unknown>;

const SCHEMA: Schema = JSON.parse(
  await Deno.readTextFile(join(PACKAGE_DIR, "schema/dochygiene.schema.json")),
);

/** The JSON Schema (draft-07) keywords the schema uses, checked by hand: no dependency. */
function valid(schema: Schema, value: unknown, root: Schema = SCHEMA): boolean {
  const check = (s: unknown, v: unknown) => valid(s as Schema, v, root);
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/definitions/", "");
    return check((root.definitions as Record<string, Schema>)[name], value);
  }
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type as string | string[]);
    if (!types.some((t) => _isType(t, value))) return false;
  }
  if (schema.enum !== undefined && !(schema.enum as unknown[]).includes(value)) return false;
  if ("const" in schema && schema.const !== value) return false;
  if (typeof value === "number" && typeof schema.minimum === "number" && value < schema.minimum) {
    return false;
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) return false;
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) {
      return false;
    }
  }
  if (Array.isArray(value) && typeof schema.minItems === "number") {
    if (value.length < schema.minItems) return false;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    if (!value.every((item) => check(schema.items, item))) return false;
  }
  if (_isType("object", value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, item] of Object.entries(object)) {
      if (key in properties) {
        if (!check(properties[key], item)) return false;
      } else if (schema.additionalProperties === false) return false;
    }
    for (const key of (schema.required ?? []) as string[]) if (!(key in object)) return false;
  }
  if (schema.allOf && !(schema.allOf as Schema[]).every((s) => check(s, value))) return false;
  if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => check(s, value))) return false;
  if (schema.oneOf && (schema.oneOf as Schema[]).filter((s) => check(s, value)).length !== 1) {
    return false;
  }
  if (schema.not !== undefined && check(schema.not, value)) return false;
  if (schema.if !== undefined && check(schema.if, value) && schema.then !== undefined) {
    if (!check(schema.then, value)) return false;
  }
  return true;
}

function _isType(type: string, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
  }
  throw new Error(`type ${type} is not checked here: extend the test's validator`);
}

function validatorAccepts(text: string): boolean {
  try {
    parseConfig(text);
    return true;
  } catch {
    return false;
  }
}

const rule = (body: string) => `rules:\n  - {match: "runs/*/", ${body}}\n`;

/** Sample configs, each with the verdict both must give. */
const SAMPLES: [string, boolean][] = [
  ["", true],
  ["# only a comment\n", true],
  ["threshold_days: 7\n", true],
  ["threshold_days: 0.5\n", true],
  ["threshold_days: -1\n", false],
  ['threshold_days: "7"\n', false],
  ["threshold_dayz: 7\n", false],
  ['scope_globs: ["docs/**/*.md"]\n', true],
  ["scope_globs: docs\n", false],
  ['scope_globs: [""]\n', false],
  ["scope_globs: [3]\n", false],
  ["excluded_dirs: [build, dist]\n", true],
  ["excluded_dirs: [a/b]\n", false],
  ["excluded_dirs: ['..']\n", false],
  ["rules:\n", true],
  ["links:\n", true],
  ["links: {renderer: vitepress, root: docs/, fallback_extensions: [md, mdx]}\n", true],
  ["links: {renderer: auto}\n", true],
  ["links: {renderer: vitepres}\n", false],
  ["links: {rendrer: vitepress}\n", false],
  ["links: {root: /docs}\n", false],
  ["links: {root: ../docs}\n", false],
  ["links: {fallback_extensions: []}\n", false],
  ["links: {fallback_extensions: [md, 'x/y']}\n", false],
  ["links: vitepress\n", false],
  ["rules: []\n", true],
  ["rules: {match: a}\n", false],
  ["rules: [a.md]\n", false],
  [rule("lifetime: keep"), true],
  [rule("lifetime: temporary"), true],
  [rule("lifetime: temporary, retain_recent: 2, max_age_days: 1.5, extract: true"), true],
  [rule("lifetime: temporary, retain_recent: 1.5"), false],
  [rule("lifetime: temporary, retain_recent: -1"), false],
  [rule("lifetime: temporary, max_age_days: -1"), false],
  [rule("lifetime: temporary, extract: 'yes'"), false],
  [rule("lifetime: temporary, served_when: shipped"), false],
  [rule("lifetime: temporary, served_when_path: 'done/{name}/'"), false],
  [rule("lifetime: temprary"), false],
  [rule("lifetime: keep, retain_recent: 2"), false],
  [rule("lifetime: keep, extract: false"), false],
  [rule("lifetime: keep, served_when: x"), false],
  [rule("lifetime: keep, age_source: mtime"), false],
  [rule("lifetime: keep, keep_last: 2"), false],
  [rule("lifetime: delete-once-served, served_when: 'the feature shipped'"), true],
  [rule("lifetime: delete-once-served, served_when_path: 'archive/{date}-{name}/'"), true],
  [rule("lifetime: delete-once-served, served_when: x, extract: true"), true],
  [rule("lifetime: delete-once-served"), false],
  [rule("lifetime: delete-once-served, served_when: x, served_when_path: 'a/{name}'"), false],
  [rule("lifetime: delete-once-served, served_when: '  '"), false],
  [rule("lifetime: delete-once-served, served_when_path: [a]"), false],
  [rule("lifetime: delete-once-served, served_when: x, max_age_days: 2"), false],
  ["rules:\n  - lifetime: keep\n", false],
  ["rules:\n  - {match: 3, lifetime: keep}\n", false],
  ["rules:\n  - {match: 'runs/*/'}\n", false],
  ["drift:\n", true],
  ["drift: {stale_reference: false, code_drift: false, review: false}\n", true],
  [
    "drift: {review_interval_days: 90, exclude_docs: ['old/**'], exclude_code: ['vendor/**']}\n",
    true,
  ],
  ["drift: {exclude_elements: [useState, '--dry-run']}\n", true],
  ["drift: {review_interval_days: null}\n", true],
  ["drift: {stale_reference: 'false'}\n", false],
  ["drift: {review_interval_days: 0}\n", false],
  ["drift: {review_interval_days: 1.5}\n", false],
  ["drift: {exclude_docs: old}\n", false],
  ["drift: {exclude_elements: ['']}\n", false],
  ["drift: {stale_refs: true}\n", false],
  ["drift: [a]\n", false],
];

Deno.test("the JSON Schema names exactly the keys and lifetimes the validator accepts", () => {
  assert.deepEqual(Object.keys(SCHEMA.properties as Schema).sort(), [...CONFIG_KEYS].sort());
  const ruleSchema = (SCHEMA.definitions as Record<string, Schema>).rule;
  assert.deepEqual(Object.keys(ruleSchema.properties as Schema).sort(), [...RULE_KEYS].sort());
  assert.deepEqual(
    ((ruleSchema.properties as Record<string, Schema>).lifetime.enum as string[]).sort(),
    [...LIFETIMES].sort(),
  );
  assert.deepEqual(ruleSchema.required, ["match", "lifetime"]);
  const drift = (SCHEMA.properties as Record<string, Schema>).drift;
  assert.deepEqual(Object.keys(drift.properties as Schema).sort(), [...DRIFT_KEYS].sort());
});

Deno.test("the JSON Schema and the validator give every sample config the same verdict", () => {
  for (const [text, expected] of SAMPLES) {
    assert.equal(validatorAccepts(text), expected, `validator on ${JSON.stringify(text)}`);
    assert.equal(
      valid(SCHEMA, parseYaml(text) ?? null),
      expected,
      `schema on ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("the JSON Schema is published with the package", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(PACKAGE_DIR, "deno.json")));
  const excluded: string[] = config.publish?.exclude ?? [];
  assert.ok(
    !excluded.some((e) => "schema/dochygiene.schema.json".startsWith(e.replace(/\/$/, ""))),
  );
  assert.ok(config.publish?.include === undefined || config.publish.include.includes("schema/"));
});

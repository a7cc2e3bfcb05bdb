import assert from "node:assert/strict";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { defaultConfig, loadConfig } from "../../lib/config/load_config.ts";
import { parseConfig } from "../../lib/config/parse_config.ts";
import { aliasBomb, tempDir } from "../support/helpers.ts";

function invalid(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof DochygieneError, String(err));
    assert.equal(err.code, "INVALID_CONFIG");
    assert.equal(err.exitCode, 2);
    assert.ok(!err.message.includes("\n"), err.message);
    assert.match(err.message, /^\.dochygiene\.yml: /);
    assert.match(err.message, pattern);
    return true;
  };
}

const DOS = "lifetime: delete-once-served";

Deno.test("a missing config file gives the documented defaults (docs/design.md, Defaults)", async () => {
  await using root = await tempDir();
  assert.deepEqual(await loadConfig(root.path), {
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
  });
});

Deno.test("an empty or comment-only config gives the defaults", () => {
  assert.deepEqual(parseConfig(""), defaultConfig());
  assert.deepEqual(parseConfig("# nothing\n"), defaultConfig());
  assert.deepEqual(parseConfig("rules:\n"), defaultConfig());
});

Deno.test("every key is applied and rule defaults filled in", () => {
  const cfg = parseConfig(`
threshold_days: 0
scope_globs: ["docs/**/*.md"]
excluded_dirs: [dist]
rules:
  - match: "autoresearch/*/"
    lifetime: temporary
  - match: "runs/*/"
    lifetime: temporary
    retain_recent: 0
    max_age_days: 1.5
    extract: true
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
  - match: "docs/plans/*.md"
    lifetime: delete-once-served
    served_when: "the feature shipped"
  - match: "docs/adr/**"
    lifetime: keep
  - match: "**"
    lifetime: keep
`);
  assert.equal(cfg.threshold_days, 0);
  assert.deepEqual(cfg.scope_globs, ["docs/**/*.md"]);
  assert.deepEqual(cfg.excluded_dirs, ["dist"]);
  assert.deepEqual(cfg.rules[0], {
    match: "autoresearch/*/",
    lifetime: "temporary",
    retain_recent: 3,
    max_age_days: 3,
    extract: false,
  });
  assert.equal(cfg.rules[1].retain_recent, 0);
  assert.equal(cfg.rules[1].max_age_days, 1.5);
  assert.equal(cfg.rules[1].extract, true);
  assert.equal(cfg.rules[2].served_when_path, "openspec/changes/archive/{date}-{name}/");
  assert.equal(cfg.rules[3].served_when, "the feature shipped");
  assert.equal(cfg.rules[5].match, "**");
});

const CASES: [string, string, RegExp][] = [
  ["not a mapping", "- a\n- b\n", /must be a mapping of keys/],
  ["a scalar document", "hello\n", /must be a mapping of keys/],
  ["unknown top-level key", "threshold: 3\n", /threshold: unknown key; allowed keys are/],
  ["threshold_days string", "threshold_days: '7'\n", /threshold_days: must be a number >= 0/],
  ["threshold_days negative", "threshold_days: -1\n", /threshold_days: must be a number >= 0/],
  ["threshold_days infinite", "threshold_days: .inf\n", /threshold_days: must be a number >= 0/],
  ["threshold_days null", "threshold_days: ~\n", /threshold_days: must be a number >= 0/],
  ["scope_globs not a list", "scope_globs: '**/*.md'\n", /scope_globs: must be a list of strings/],
  ["scope_globs element", "scope_globs: [1]\n", /scope_globs\[0\]: must be a non-empty string/],
  [
    "scope_globs empty string",
    "scope_globs: ['a.md', '']\n",
    /scope_globs\[1\]: must be a non-empty/,
  ],
  ["scope_globs absolute", "scope_globs: ['/etc/*.md']\n", /scope_globs\[0\]: must be relative/],
  ["scope_globs dotdot", "scope_globs: ['../*.md']\n", /scope_globs\[0\]: must not contain '\.\.'/],
  [
    "excluded_dirs with /",
    "excluded_dirs: [a/b]\n",
    /excluded_dirs\[0\]: must be a directory name without '\/'/,
  ],
  [
    "excluded_dirs dotdot",
    "excluded_dirs: [x, '..']\n",
    /excluded_dirs\[1\]: must be a directory name/,
  ],
  ["rules not a list", "rules: {match: a}\n", /rules: must be a list of rules/],
  [
    "rule not a mapping",
    "rules: [a.md]\n",
    /rules\[0\]: must be a mapping with match and lifetime/,
  ],
  [
    "age_source is refused",
    "rules:\n  - match: a/*/\n    lifetime: temporary\n    age_source: mtime\n",
    /rules\[0\]\.age_source: not supported/,
  ],
  [
    "unknown rule key",
    "rules:\n  - match: a/*/\n    lifetime: temporary\n    keep_last: 2\n",
    /rules\[0\]\.keep_last: unknown key/,
  ],
  [
    "match missing",
    "rules:\n  - lifetime: keep\n",
    /rules\[0\]\.match: required, must be a string/,
  ],
  [
    "match not a string",
    "rules:\n  - match: 3\n    lifetime: keep\n",
    /rules\[0\]\.match: required/,
  ],
  [
    "match absolute",
    "rules:\n  - match: /tmp/*/\n    lifetime: keep\n",
    /rules\[0\]\.match: must be relative/,
  ],
  [
    "match dotdot",
    "rules:\n  - match: ../x/*\n    lifetime: keep\n",
    /rules\[0\]\.match: must not contain '\.\.'/,
  ],
  [
    "lifetime missing",
    "rules:\n  - match: a/*\n",
    /rules\[0\]\.lifetime: required, must be one of keep, temporary, delete-once-served/,
  ],
  [
    "lifetime unknown",
    "rules:\n  - match: a/*\n    lifetime: forever\n",
    /rules\[0\]\.lifetime: required, must be one of/,
  ],
  [
    "retain_recent on keep",
    "rules:\n  - match: a/*\n    lifetime: keep\n    retain_recent: 2\n",
    /rules\[0\]\.retain_recent: only allowed with lifetime: temporary/,
  ],
  [
    "max_age_days on delete-once-served",
    `rules:\n  - match: a/*\n    ${DOS}\n    served_when: x\n    max_age_days: 2\n`,
    /rules\[0\]\.max_age_days: only allowed with lifetime: temporary/,
  ],
  [
    "served_when_path on temporary",
    "rules:\n  - match: a/*\n    lifetime: temporary\n    served_when_path: b/*\n",
    /rules\[0\]\.served_when_path: only allowed with lifetime: delete-once-served/,
  ],
  [
    "served_when on keep",
    "rules:\n  - match: a/*\n    lifetime: keep\n    served_when: x\n",
    /rules\[0\]\.served_when: only allowed with lifetime: delete-once-served/,
  ],
  [
    "extract on keep",
    "rules:\n  - match: a/*\n    lifetime: keep\n    extract: true\n",
    /rules\[0\]\.extract: only allowed with lifetime: temporary or delete-once-served/,
  ],
  [
    "retain_recent fractional",
    "rules:\n  - match: a/*\n    lifetime: temporary\n    retain_recent: 1.5\n",
    /rules\[0\]\.retain_recent: must be a whole number >= 0/,
  ],
  [
    "retain_recent negative",
    "rules:\n  - match: a/*\n    lifetime: temporary\n    retain_recent: -1\n",
    /rules\[0\]\.retain_recent: must be a whole number >= 0/,
  ],
  [
    "max_age_days negative (the documented example)",
    "rules:\n  - match: a/*\n    lifetime: keep\n  - match: b/*\n    lifetime: temporary\n  - match: c/*\n    lifetime: temporary\n    max_age_days: -1\n",
    /rules\[2\]\.max_age_days: must be a number >= 0/,
  ],
  [
    "extract not a boolean",
    "rules:\n  - match: a/*\n    lifetime: temporary\n    extract: 'yes'\n",
    /rules\[0\]\.extract: must be true or false/,
  ],
  [
    "delete-once-served with neither condition",
    `rules:\n  - match: a/*\n    ${DOS}\n`,
    /rules\[0\]: delete-once-served needs exactly one of served_when_path .* or served_when/,
  ],
  [
    "delete-once-served with both conditions",
    `rules:\n  - match: a/*\n    ${DOS}\n    served_when: x\n    served_when_path: b/*\n`,
    /rules\[0\]: delete-once-served needs exactly one of/,
  ],
  [
    "served_when_path not a string",
    `rules:\n  - match: a/*\n    ${DOS}\n    served_when_path: [b]\n`,
    /rules\[0\]\.served_when_path: must be a string/,
  ],
  [
    "served_when_path with ..",
    `rules:\n  - match: a/*\n    ${DOS}\n    served_when_path: ../b/*\n`,
    /rules\[0\]\.served_when_path: must not contain '\.\.'/,
  ],
  [
    "served_when empty",
    `rules:\n  - match: a/*\n    ${DOS}\n    served_when: "  "\n`,
    /rules\[0\]\.served_when: must be a non-empty string/,
  ],
  [
    "a deleting rule over the whole repository",
    "rules:\n  - match: '**'\n    lifetime: temporary\n",
    /rules\[0\]\.match: "\*\*" would cover the whole repository/,
  ],
  [
    "a number in quotes",
    'threshold_days: "7"\n',
    /^\.dochygiene\.yml: threshold_days: must be a number >= 0, not the string "7" \(write it without quotes\)$/,
  ],
  [
    "a whole number in quotes",
    'rules:\n  - {match: "runs/*/", lifetime: temporary, retain_recent: "2"}\n',
    /^\.dochygiene\.yml: rules\[0\]\.retain_recent: must be a whole number >= 0, not the string "2"/,
  ],
  ["YAML syntax error", "rules: [\n", /is not valid YAML/],
  ["duplicate keys", "threshold_days: 1\nthreshold_days: 2\n", /is not valid YAML/],
];

for (const [name, text, pattern] of CASES) {
  Deno.test(`invalid config is refused naming the key: ${name}`, () => {
    assert.throws(() => parseConfig(text), invalid(pattern));
  });
}

Deno.test("a deleting rule is judged by what it matches: arbitrary names are refused however spelled, directory-anchored rules accepted", () => {
  const spellings = [
    "?*/",
    "*?/",
    "[a-z]*/",
    "{a,**}/",
    "*{,}/",
    "@(*)/",
    "!(zzz)/",
    "{**,x}",
    "?*",
    "*.*",
    "*.md",
    "*/*",
    "*_*/",
    "*/*/*/",
    "*/*/*",
    "?*/*/*/",
    "{*,x}/*/*",
    "*/*/*.md",
    "*/*/*/*",
    "*/*/*/*/*/*/*/*.markdown",
  ];
  for (const match of spellings) {
    for (const lifetime of ["lifetime: temporary", `${DOS}\n    served_when: x`]) {
      const text =
        `rules:\n  - match: keep/**\n    lifetime: keep\n  - match: "${match}"\n    ${lifetime}\n`;
      assert.throws(
        () => parseConfig(text),
        invalid(
          /^\.dochygiene\.yml: rules\[1\]\.match: ".+" would cover the whole repository \(it matches arbitrary names such as "[^"]+"\); a (temporary|delete-once-served) rule must be anchored to a directory \(e\.g\. "autoresearch\/\*\/"\)$/,
        ),
        match,
      );
    }
  }
  const { rules } = parseConfig(`
rules:
  - {match: "autoresearch/*/", lifetime: temporary}
  - {match: "openspec/changes/*/", ${DOS}, served_when_path: "openspec/changes/archive/{date}-{name}/"}
  - {match: "docs/superpowers/plans/*.md", ${DOS}, served_when: shipped, extract: true}
  - {match: "**/runs/*/", lifetime: temporary}
  - {match: "*.log", lifetime: temporary}
  - {match: "tmp/**", lifetime: temporary}
  - {match: "runs/**/", lifetime: temporary}
  - {match: "**/scratch/*/", lifetime: temporary}
  - {match: "*/runs/*/", lifetime: temporary}
  - {match: ".claude/plans/*.md", lifetime: temporary}
  - {match: "docs/adr/**", lifetime: keep}
  - {match: "**", lifetime: keep}
`);
  assert.equal(rules.length, 12);
});

Deno.test("a YAML alias bomb fails fast with INVALID_CONFIG", () => {
  assert.throws(() => parseConfig(aliasBomb()), invalid(/too many aliases/));
});

Deno.test("a 50 MB config file fails fast, before it is read", async () => {
  await using root = await tempDir();
  const file = await Deno.open(`${root.path}/.dochygiene.yml`, { write: true, create: true });
  await file.truncate(50 * 1024 * 1024); // sparse: the size is what matters
  file.close();
  await assert.rejects(loadConfig(root.path), invalid(/is 52428800 bytes; the limit is \d+/));
});

Deno.test("a config that is a directory is refused", async () => {
  await using root = await tempDir();
  await Deno.mkdir(`${root.path}/.dochygiene.yml`);
  await assert.rejects(loadConfig(root.path), invalid(/is not a regular file/));
});

Deno.test("loadConfig reads and validates the file in the root", async () => {
  await using root = await tempDir();
  await Deno.writeTextFile(`${root.path}/.dochygiene.yml`, "rules:\n  - match: x/*\n");
  await assert.rejects(loadConfig(root.path), invalid(/rules\[0\]\.lifetime/));
});

Deno.test("a symlinked .dochygiene.yml is followed inside the project; one leading outside is refused unread", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  const path = `${dir.path}/.dochygiene.yml`;
  await Deno.writeTextFile(`${dir.path}/shared.yml`, "threshold_days: 3\n");
  await Deno.symlink("shared.yml", path);
  assert.equal((await loadConfig(dir.path)).threshold_days, 3);
  await Deno.remove(path);
  await Deno.writeTextFile(`${outside.path}/cfg.yml`, 'scope_globs: ["../TOKEN=s3cr3t"]\n');
  await Deno.symlink(`${outside.path}/cfg.yml`, path);
  await assert.rejects(() => loadConfig(dir.path), invalid(/leads outside the project/));
  await assert.rejects(() => loadConfig(dir.path), (err: Error) => !err.message.includes("s3cr3t"));
  await Deno.remove(path);
  await Deno.symlink("gone.yml", path);
  assert.deepEqual(await loadConfig(dir.path), defaultConfig());
  await Deno.remove(path);
  await Deno.symlink(".dochygiene.yml", path); // a loop: unreadable, not "outside"
  await assert.rejects(() => loadConfig(dir.path), invalid(/cannot be read \(Too many levels/));
});

Deno.test("a YAML syntax error is one sentence ending in the fix; a tagged value is no mapping", () => {
  assert.throws(
    () => parseConfig("threshold_days: [1\nscope_globs: x\n"),
    invalid(/is not valid YAML: .* at line 2, column 1; fix the syntax there$/),
  );
  assert.throws(() => parseConfig("!!binary abc\n"), invalid(/: must be a mapping of keys/));
  assert.throws(
    () => parseConfig("rules:\n  - !!set {a: null}\n"),
    invalid(/rules\[0\]: must be a mapping with match and lifetime/),
  );
});

Deno.test("a config with several mistakes reports every one in one run, on one line, exit 2", () => {
  const text = "threshold_days: -1\nexcluded_dirs: [a/b]\nrules:\n" +
    "  - {match: 'runs/*/', lifetime: temporary, retain_recent: 1.5}\n" +
    "  - {match: 'plans/*.md', lifetime: delete-once-served}\n";
  assert.throws(
    () => parseConfig(text),
    invalid(
      new RegExp(
        "^\\.dochygiene\\.yml: 4 problems: " +
          "\\(1\\) threshold_days: must be a number >= 0 " +
          "\\(2\\) excluded_dirs\\[0\\]: must be a directory name without '/' \\(got \"a/b\"\\) " +
          "\\(3\\) rules\\[0\\]\\.retain_recent: must be a whole number >= 0 " +
          "\\(4\\) rules\\[1\\]: delete-once-served needs exactly one of",
      ),
    ),
  );
});

Deno.test("a near-miss key or lifetime says what was meant; a far one does not guess", () => {
  assert.throws(
    () => parseConfig("threshold_dayz: 3\n"),
    invalid(
      /^\.dochygiene\.yml: threshold_dayz: unknown key \(did you mean "threshold_days"\?\); allowed keys are/,
    ),
  );
  assert.throws(
    () => parseConfig("rules:\n  - {match: 'runs/*/', lifetime: temprary, retian_recent: 2}\n"),
    invalid(
      /2 problems: \(1\) rules\[0\]\.retian_recent: unknown key \(did you mean "retain_recent"\?\).* \(2\) rules\[0\]\.lifetime: required, must be one of keep, temporary, delete-once-served \(got "temprary"; did you mean "temporary"\?\)$/,
    ),
  );
  assert.throws(
    () => parseConfig("rules:\n  - {match: 'runs/*/', lifetime: forever}\n"),
    invalid(/\(got "forever"\)$/),
  );
  assert.throws(() => parseConfig("colour: red\n"), invalid(/colour: unknown key; allowed/));
});

Deno.test("drift: each signal can be switched off, with exclusions and a review default", () => {
  const cfg = parseConfig(
    "drift:\n  code_drift: false\n  review_interval_days: 90\n  exclude_docs: ['old/**']\n" +
      "  exclude_code: ['vendor/**']\n  exclude_elements: [useState]\n",
  );
  assert.deepEqual(cfg.drift, {
    stale_reference: true,
    code_drift: false,
    review: true,
    review_interval_days: 90,
    exclude_docs: ["old/**"],
    exclude_code: ["vendor/**"],
    exclude_elements: ["useState"],
  });
});

Deno.test("drift: every problem is reported at once, with did-you-mean", () => {
  assert.throws(
    () =>
      parseConfig("drift:\n  stale_referense: false\n  review: 'no'\n  review_interval_days: 0\n"),
    /3 problems: \(1\) drift\.stale_referense: unknown key \(did you mean "stale_reference"\?\).*\(2\) drift\.review: must be true or false.*\(3\) drift\.review_interval_days: must be a whole number >= 1/,
  );
});

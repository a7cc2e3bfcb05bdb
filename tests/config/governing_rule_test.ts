import assert from "node:assert/strict";
import {
  escapeGlob,
  existingPaths,
  governingRule,
  isDirectoryRule,
  servedByPath,
} from "../../lib/config/governing_rule.ts";
import { parseConfig } from "../../lib/config/parse_config.ts";

const { rules } = parseConfig(`
rules:
  - match: "autoresearch/*/"
    lifetime: temporary
  - match: "docs/superpowers/plans/*.md"
    lifetime: delete-once-served
    served_when: "the feature shipped"
    extract: true
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
  - match: "docs/adr/**"
    lifetime: keep
  - match: "autoresearch/pinned/"
    lifetime: keep
  - match: "notes/*.md"
    lifetime: temporary
  - match: "notes/**/"
    lifetime: temporary
`);

Deno.test("governingRule: a file rule's unit is the file itself", () => {
  const g = governingRule("docs/superpowers/plans/a.md", rules);
  assert.equal(g?.unit, "docs/superpowers/plans/a.md");
  assert.equal(g?.rule.match, "docs/superpowers/plans/*.md");
});

Deno.test("governingRule: globs are anchored at the root", () => {
  assert.equal(governingRule("tests/fixtures/x/docs/superpowers/plans/a.md", rules), undefined);
  assert.equal(governingRule("x/autoresearch/run-1/a.md", rules), undefined);
});

Deno.test("governingRule: a directory rule's unit is the matched directory, never a nested file", () => {
  assert.equal(governingRule("autoresearch/run-1/a.md", rules)?.unit, "autoresearch/run-1/");
  assert.equal(
    governingRule("autoresearch/run-1/deep/x/y.csv", rules)?.unit,
    "autoresearch/run-1/",
  );
});

Deno.test("governingRule: a directory rule never matches a file directly under its parent", () => {
  // autoresearch/README.md has no ancestor matching autoresearch/*.
  assert.equal(governingRule("autoresearch/README.md", rules), undefined);
});

Deno.test("governingRule: keep wins over an earlier deleting rule, via the path or an ancestor", () => {
  const pinned = governingRule("autoresearch/pinned/a.md", rules);
  assert.equal(pinned?.rule.lifetime, "keep");
  assert.equal(pinned?.unit, "autoresearch/pinned/");
  assert.equal(governingRule("docs/adr/0001.md", rules)?.rule.lifetime, "keep");
});

Deno.test("governingRule: the first matching non-keep rule governs", () => {
  assert.equal(governingRule("notes/a.md", rules)?.rule.match, "notes/*.md");
  assert.equal(governingRule("notes/sub/a.md", rules)?.rule.match, "notes/**/");
  assert.equal(governingRule("notes/sub/a.md", rules)?.unit, "notes/");
});

Deno.test("governingRule: a directory rule that matches several ancestors takes the shallowest", () => {
  // picomatch: "notes/**" also matches "notes" itself, so the whole of notes/ is one unit.
  assert.equal(governingRule("notes/sub/deeper/a.md", rules)?.unit, "notes/");
  const only = parseConfig("rules:\n  - {match: 'runs/*/**/', lifetime: temporary}\n").rules;
  assert.equal(governingRule("runs/a/b/c/d.md", only)?.unit, "runs/a/b/");
});

Deno.test("governingRule: no rule means unmanaged", () => {
  assert.equal(governingRule("README.md", rules), undefined);
  assert.equal(governingRule("a.md", []), undefined);
});

Deno.test("governingRule: hostile names are only ever themselves", () => {
  const hostile = parseConfig(`
rules:
  - match: "runs/*/"
    lifetime: temporary
`).rules;
  for (const name of ["*", "[1]", ":(exclude)x", "-rf", "a b", "a\nb", "ünï €"]) {
    assert.equal(governingRule(`runs/${name}/f.md`, hostile)?.unit, `runs/${name}/`);
  }
});

Deno.test("isDirectoryRule: trailing slash", () => {
  assert.ok(isDirectoryRule(rules[0]));
  assert.ok(!isDirectoryRule(rules[1]));
});

Deno.test("servedByPath: {name} of a directory unit is its base name; the pattern needs a directory", () => {
  const openspec = rules[2];
  const paths = existingPaths([
    "openspec/changes/add-x/proposal.md",
    "openspec/changes/archive/2026-01-02-add-x/proposal.md",
    "openspec/changes/archive/2026-01-02-add-y",
  ]);
  assert.equal(
    servedByPath(openspec, "openspec/changes/add-x/", paths),
    "openspec/changes/archive/2026-01-02-add-x/",
  );
  // add-y exists only as a FILE, and the pattern ends in '/': not proof.
  assert.equal(servedByPath(openspec, "openspec/changes/add-y/", paths), undefined);
});

Deno.test("servedByPath: {date}-{name} takes OpenSpec's archived twin, never a longer name ending in the same words", () => {
  const rule = parseConfig(`
rules:
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/{date}-{name}/"
`).rules[0];
  const paths = existingPaths([
    "openspec/changes/dark-mode/proposal.md",
    "openspec/changes/add-dark-mode/proposal.md",
    "openspec/changes/mode/proposal.md",
    "openspec/changes/archive/2026-09-01-add-dark-mode/proposal.md",
    "openspec/changes/archive/v2-mode/proposal.md",
  ]);
  assert.equal(servedByPath(rule, "openspec/changes/dark-mode/", paths), undefined);
  assert.equal(servedByPath(rule, "openspec/changes/mode/", paths), undefined);
  assert.equal(
    servedByPath(rule, "openspec/changes/add-dark-mode/", paths),
    "openspec/changes/archive/2026-09-01-add-dark-mode/",
  );
});

Deno.test("servedByPath: a * before -{name} never swallows the head of a longer name", () => {
  const rule = parseConfig(`
rules:
  - match: "openspec/changes/*/"
    lifetime: delete-once-served
    served_when_path: "openspec/changes/archive/*-{name}/"
`).rules[0];
  const paths = existingPaths([
    "openspec/changes/dark-mode/proposal.md",
    "openspec/changes/beta/proposal.md",
    "openspec/changes/archive/2026-09-01-add-dark-mode/proposal.md",
    "openspec/changes/archive/v2-beta/proposal.md",
  ]);
  assert.equal(servedByPath(rule, "openspec/changes/dark-mode/", paths), undefined);
  assert.equal(
    servedByPath(rule, "openspec/changes/beta/", paths),
    "openspec/changes/archive/v2-beta/",
  );
});

Deno.test("servedByPath: {name} of a file unit drops the extension", () => {
  const rule = parseConfig(`
rules:
  - match: "plans/*.md"
    lifetime: delete-once-served
    served_when_path: "done/{name}.txt"
`).rules[0];
  const paths = existingPaths(["plans/a.md", "done/a.txt", "plans/b.md"]);
  assert.equal(servedByPath(rule, "plans/a.md", paths), "done/a.txt");
  assert.equal(servedByPath(rule, "plans/b.md", paths), undefined);
});

Deno.test("servedByPath: glob characters in the unit's name never widen the match", () => {
  const rule = parseConfig(`
rules:
  - match: "changes/*/"
    lifetime: delete-once-served
    served_when_path: "archive/{name}/"
`).rules[0];
  const paths = existingPaths(["archive/anything/x.md", "archive/[1]/x.md"]);
  assert.equal(servedByPath(rule, "changes/*/", paths), undefined);
  assert.equal(servedByPath(rule, "changes/{a,anything}/", paths), undefined);
  assert.equal(servedByPath(rule, "changes/1/", paths), undefined);
  assert.equal(servedByPath(rule, "changes/[1]/", paths), "archive/[1]/");
});

Deno.test("servedByPath: the unit itself never proves itself", () => {
  const rule = parseConfig(`
rules:
  - match: "changes/*/"
    lifetime: delete-once-served
    served_when_path: "changes/{name}/"
`).rules[0];
  assert.equal(servedByPath(rule, "changes/a/", existingPaths(["changes/a/x.md"])), undefined);
});

Deno.test("servedByPath: a rule without served_when_path proves nothing", () => {
  assert.equal(
    servedByPath(rules[0], "autoresearch/r/", existingPaths(["autoresearch/r/a"])),
    undefined,
  );
});

Deno.test("escapeGlob: every metacharacter is escaped", () => {
  assert.equal(
    escapeGlob("a*b?[c]{d,e}(f)!g+h@i"),
    "a\\*b\\?\\[c\\]\\{d\\,e\\}\\(f\\)\\!g\\+h\\@i",
  );
});

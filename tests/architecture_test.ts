// The layout of lib/ (docs/architecture.md): every module in a subsystem folder, each folder
// importing only from itself and the folders below it, `_` files private to their folder.

import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { PACKAGE_DIR } from "./support/helpers.ts";

/** The subsystem folders of lib/, lowest layer first (docs/architecture.md). */
const LAYERS = [
  "core",
  "fs",
  "yaml",
  "config",
  "git",
  "markdown",
  "site",
  "links",
  "drift",
  "scan",
  "findings",
  "overview",
  "report",
  "state",
  "remind",
  "prune",
  "apply",
  "cli",
] as const;

/** Most hand-written modules a folder may hold before it should be split. */
const MAX_MODULES = 20;

const LIB = join(PACKAGE_DIR, "lib");

/** Every `.ts` file below `dir`, as paths relative to `dir`. */
async function tsFiles(dir: string, base = dir): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await tsFiles(path, base));
    else if (entry.name.endsWith(".ts")) files.push(relative(base, path));
  }
  return files.sort();
}

/** The relative specifiers a module imports, re-exports, loads lazily or starts as a worker. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g,
    /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']/g,
    /\bnew URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** Each import edge of lib/ as [importer, imported], both relative to lib/. */
async function edges(): Promise<[string, string][]> {
  const result: [string, string][] = [];
  for (const file of await tsFiles(LIB)) {
    const source = await Deno.readTextFile(join(LIB, file));
    for (const spec of specifiers(source)) {
      result.push([file, normalize(join(dirname(file), spec))]);
    }
  }
  return result;
}

/** The subsystem folder of a path relative to lib/ (its first segment). */
const folderOf = (path: string) => path.split("/")[0];

Deno.test("every lib module sits in a subsystem folder that the layering names", async () => {
  for (const file of await tsFiles(LIB)) {
    assert.ok(file.includes("/"), `${file} is not in a subsystem folder`);
    assert.ok(
      (LAYERS as readonly string[]).includes(folderOf(file)),
      `${file}: its folder is not in the layering (tests/architecture_test.ts, docs/architecture.md)`,
    );
  }
});

Deno.test("no subsystem folder holds more than 20 hand-written modules", async () => {
  const counts = new Map<string, number>();
  for (const file of await tsFiles(LIB)) {
    if (file.includes("/vendor/")) continue; // data, generated
    counts.set(folderOf(file), (counts.get(folderOf(file)) ?? 0) + 1);
  }
  for (const [folder, count] of counts) {
    assert.ok(count <= MAX_MODULES, `lib/${folder}/ holds ${count} modules`);
  }
});

Deno.test("a folder imports only from itself and the layers below it (no cycle between folders)", async () => {
  const rank = (folder: string) => (LAYERS as readonly string[]).indexOf(folder);
  const upward: string[] = [];
  for (const [from, to] of await edges()) {
    assert.ok(!to.startsWith(".."), `lib/${from} imports ${to} outside lib/`);
    if (rank(folderOf(to)) > rank(folderOf(from))) upward.push(`lib/${from} -> lib/${to}`);
  }
  assert.deepEqual(upward, [], "imports from a layer above");
});

Deno.test("a _-prefixed module is imported only inside its own folder", async () => {
  const leaks: string[] = [];
  for (const [from, to] of await edges()) {
    const name = to.split("/").at(-1)!;
    if (name.startsWith("_") && dirname(to) !== dirname(from)) {
      leaks.push(`lib/${from} -> lib/${to}`);
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("the seams and mod.ts reach lib/ only through public modules", async () => {
  const leaks: string[] = [];
  for (const seam of ["mod.ts", "remind.ts", "scan.ts", "state.ts", "prune.ts"]) {
    const source = await Deno.readTextFile(join(PACKAGE_DIR, seam));
    for (const spec of specifiers(source)) {
      if (spec.split("/").at(-1)!.startsWith("_")) leaks.push(`${seam} -> ${spec}`);
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("the layering check sees an upward import and a private one (its own parser)", () => {
  const source = 'import { a } from "../scan/x.ts";\nexport * from "./_y.ts";\n' +
    'const m = await import("../prune/z.ts");\nnew Worker(new URL("./w.ts", import.meta.url));\n';
  assert.deepEqual(specifiers(source), ["../scan/x.ts", "./_y.ts", "../prune/z.ts", "./w.ts"]);
});

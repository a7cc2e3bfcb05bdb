import assert from "node:assert/strict";
import { join } from "node:path";
import { CONFIG_FILE_NAME, loadConfig } from "../../lib/config/load_config.ts";
import { DEFAULT_THRESHOLD_DAYS, readThreshold } from "../../lib/remind/read_threshold.ts";
import { DENO, PACKAGE_DIR, tempDir } from "../support/helpers.ts";

/** readThreshold on a root whose `.dochygiene.yml` holds `text`. */
async function thresholdOf(text: string): Promise<number> {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, CONFIG_FILE_NAME), text);
  return await readThreshold(dir.path);
}

/**
 * readThreshold in a child process started with `--no-npm`: a path that
 * needs the YAML parser cannot load it there and falls back to the default.
 */
async function thresholdWithoutNpm(text: string): Promise<number> {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, CONFIG_FILE_NAME), text);
  const module = new URL(`file://${join(PACKAGE_DIR, "lib/remind/read_threshold.ts")}`).href;
  const code = `import { readThreshold } from "${module}";
    console.log(await readThreshold(${JSON.stringify(dir.path)}));`;
  const out = await new Deno.Command(DENO, {
    args: ["eval", "--quiet", "--no-npm", `--config=${join(PACKAGE_DIR, "deno.json")}`, code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return Number(new TextDecoder().decode(out.stdout));
}

/**
 * A FIFO at `path` with a writer waiting to send `threshold_days: 99`: code that
 * wrongly reads the FIFO gets 99 (a clean failure) instead of blocking forever.
 * `release` lets the writer finish once the FIFO was rightly left alone.
 */
async function waitingFifo(path: string): Promise<{ release(): Promise<void> }> {
  assert.equal((await new Deno.Command("mkfifo", { args: [path] }).output()).code, 0);
  const writer = new Deno.Command("sh", {
    args: ["-c", 'printf "threshold_days: 99\\n" > "$1"', "sh", path],
  }).spawn();
  return {
    async release() {
      await Deno.readTextFile(path);
      await writer.status;
    },
  };
}

Deno.test("the default is load_config's default, 7", async () => {
  const { defaultConfig } = await import("../../lib/config/load_config.ts");
  assert.equal(DEFAULT_THRESHOLD_DAYS, defaultConfig().threshold_days);
  assert.equal(DEFAULT_THRESHOLD_DAYS, 7);
});

Deno.test("no .dochygiene.yml gives the default", async () => {
  await using dir = await tempDir();
  assert.equal(await readThreshold(dir.path), 7);
});

Deno.test("a config without threshold_days gives the default", async () => {
  assert.equal(await thresholdOf('scope_globs: ["**/*.md"]\nrules: []\n'), 7);
  assert.equal(await thresholdOf(""), 7);
});

Deno.test("a top-level threshold_days line is read by the scanner", async () => {
  const cases: [string, number][] = [
    ["threshold_days: 3\n", 3],
    ["threshold_days: 14", 14],
    ["threshold_days:   2.5   # half-weekly\n", 2.5],
    ["threshold_days : 0\n", 0],
    ["threshold_days: 007\n", 7],
    ["threshold_days: 4\r\nscope_globs: ['**/*.md']\r\n", 4],
    ["\uFEFFthreshold_days: 5\n", 5],
    [
      "# docs policy\nscope_globs:\n  - '**/*.md'\nthreshold_days: 10\nrules:\n  - match: 'runs/*/'\n    lifetime: temporary\n",
      10,
    ],
  ];
  for (const [text, expected] of cases) {
    await using dir = await tempDir();
    await Deno.writeTextFile(join(dir.path, CONFIG_FILE_NAME), text);
    assert.equal(await readThreshold(dir.path), expected, JSON.stringify(text));
    // The scanner agrees with the validating loader.
    assert.equal((await loadConfig(dir.path)).threshold_days, expected, JSON.stringify(text));
  }
});

Deno.test("the scanner's forms need no npm package (works under --no-npm)", async () => {
  assert.equal(await thresholdWithoutNpm("threshold_days: 3 # fast path\n"), 3);
  assert.equal(await thresholdWithoutNpm("rules: []\n"), 7);
});

Deno.test("other forms of threshold_days go through the full YAML loader", async () => {
  const cases: [string, number][] = [
    ['"threshold_days": 5\n', 5],
    ["{threshold_days: 6}\n", 6],
    ["threshold_days: 1e1\n", 10],
    ["threshold_days: 0x0A\n", 10],
    ["threshold_days:\n  9\n", 9],
    ["# threshold_days: 1\nthreshold_days: 2\n", 2],
    ["# threshold_days: 1\n", 7],
  ];
  for (const [text, expected] of cases) {
    assert.equal(await thresholdOf(text), expected, JSON.stringify(text));
    // Proof that these need the YAML parser: without npm they fall back to 7.
    if (expected !== 7) assert.equal(await thresholdWithoutNpm(text), 7, JSON.stringify(text));
  }
});

Deno.test("an invalid threshold or an invalid YAML file gives the default", async () => {
  for (
    const text of [
      "threshold_days: -1\n",
      "threshold_days: abc\n",
      "threshold_days: 3#no-space-comment\n",
      "threshold_days: 1\nthreshold_days: 2\n",
      "threshold_days: [3\n",
      "threshold_days: 1" + "0".repeat(400) + "\n",
    ]
  ) {
    assert.equal(await thresholdOf(text), 7, JSON.stringify(text));
  }
});

Deno.test("the reminder reads only threshold_days: other invalid keys do not hide it", async () => {
  // The hook never validates the whole config (state.ts doctor does); the
  // fast path keeps the user's threshold even when another key is wrong.
  assert.equal(await thresholdOf("threshold_days: 3\nunknown_key: 1\n"), 3);
});

Deno.test("a .dochygiene.yml that is a directory, a FIFO or over 1 MiB gives the default", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, CONFIG_FILE_NAME);
  await Deno.mkdir(path);
  assert.equal(await readThreshold(dir.path), 7);
  await Deno.remove(path);
  const fifo = await waitingFifo(path);
  assert.equal(await readThreshold(dir.path), 7); // the FIFO is not read
  await fifo.release();
  await Deno.remove(path);
  await Deno.writeTextFile(path, "threshold_days: 3\n" + "#".repeat(1024 * 1024));
  assert.equal(await readThreshold(dir.path), 7);
});

Deno.test("a symlinked .dochygiene.yml is followed to a file, never to a FIFO", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, CONFIG_FILE_NAME);
  await Deno.writeTextFile(join(dir.path, "shared.yml"), "threshold_days: 3\r\n");
  await Deno.symlink("shared.yml", path);
  assert.equal(await readThreshold(dir.path), 3);
  await Deno.remove(path);
  const fifo = await waitingFifo(join(dir.path, "pipe"));
  await Deno.symlink("pipe", path);
  assert.equal(await readThreshold(dir.path), 7); // the FIFO is not read
  await fifo.release();
  await Deno.remove(path);
  await Deno.writeTextFile(join(dir.path, "big.yml"), "threshold_days: 3\n" + "#".repeat(1 << 20));
  await Deno.symlink("big.yml", path);
  assert.equal(await readThreshold(dir.path), 7);
  // Never out of the project, even to a file that would be valid.
  await using outside = await tempDir();
  await Deno.writeTextFile(join(outside.path, "cfg.yml"), "threshold_days: 3\n");
  await Deno.remove(path);
  await Deno.symlink(join(outside.path, "cfg.yml"), path);
  assert.equal(await readThreshold(dir.path), 7);
});

Deno.test("a root that does not exist gives the default", async () => {
  assert.equal(await readThreshold("/nonexistent/dochygiene/root"), 7);
});

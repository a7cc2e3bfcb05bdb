import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_PARSE_BYTES, readDocSync } from "../../lib/scan/read_doc.ts";
import { readDocs, ReadHelper } from "../../lib/scan/read_docs.ts";
import { cacheKey } from "../../lib/scan/scan_cache.ts";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import { PACKAGE_DIR, tempDir } from "../support/helpers.ts";

async function corpus(root: string): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < 300; i++) {
    const path = `d${i % 7}/doc-${i}.md`;
    await Deno.mkdir(join(root, `d${i % 7}`), { recursive: true });
    await Deno.writeTextFile(
      join(root, path),
      `---\nstatus: s${i}\n${i % 5 === 0 ? "tags: [a, b]\n" : ""}---\n# Doc ${i}\n\n` +
        `- [x] see [next](doc-${i + 1}.md#doc-${i + 1}) and \`src/m${i}.ts\`\n`,
    );
    paths.push(path);
  }
  await Deno.writeFile(join(root, "binary.md"), new Uint8Array([0x23, 0, 1, 2]));
  await Deno.writeFile(join(root, "latin1.md"), new Uint8Array([0x23, 0x20, 0xe9, 0x0a]));
  await Deno.symlink("d0/doc-0.md", join(root, "link.md"));
  paths.push("binary.md", "latin1.md", "link.md", "gone.md", "bad\udce9.md");
  return paths;
}

Deno.test("readDocs reads and analyses every doc in path order and says why one is left out", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path);
  const alone = await readDocs(dir.path, paths);
  assert.deepEqual([...alone.reads.keys()], paths.slice(0, 302));
  assert.equal(alone.reads.size, 302); // the symlink, the missing file and the bad name are left out
  assert.equal(alone.warnings.length, 1);
  assert.match(alone.warnings[0], /^"bad\\\\xe9\.md": the name is not valid UTF-8/);
  const first = alone.reads.get("d0/doc-0.md");
  assert.ok(first?.kind === "text");
  assert.deepEqual(first.analysis?.checkboxes, { done: 1, open: 0 });
});

/** Options that make readDocs share small batches with helper threads that have already loaded. */
async function loadedHelpers(count = 1) {
  const helpers = Array.from({ length: count }, () => new ReadHelper());
  for (const helper of helpers) assert.ok(await helper.ready, "the helper thread loads");
  // Each helper returns a batch before this thread reads: what they read is pinned under any load.
  return { helpers, parallelFrom: 0, batch: 4, cores: count + 1, helpersFirst: true };
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

Deno.test("readDocs gives the same reads, in path order, with a helper thread as without", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path);
  for (const options of [{}, { skipLstat: true }]) {
    const alone = await readDocs(dir.path, paths, { ...options, parallelFrom: Infinity });
    const helped = await readDocs(dir.path, paths, { ...options, ...await loadedHelpers() });
    assert.ok(sum(helped.helperDocs) > 0, "the helper thread read some of the docs");
    assert.deepEqual(alone.helperDocs, []);
    assert.deepEqual([...helped.reads.keys()], [...alone.reads.keys()]);
    assert.deepEqual(helped.reads, alone.reads);
    assert.deepEqual(helped.warnings, alone.warnings);
  }
});

Deno.test("readDocs with the listing summarises, checks links and counts inbound links alike with a helper thread", async () => {
  await using dir = await tempDir();
  const listed = ["hub.md", "frozen.md"];
  await Deno.writeTextFile(join(dir.path, "hub.md"), "# Hub\n\n## Setup\n");
  await Deno.writeTextFile(join(dir.path, "frozen.md"), "---\nhygiene: frozen\n---\n[h](hub.md)\n");
  for (let i = 0; i < 200; i++) {
    listed.push(`n-${i}.md`);
    await Deno.writeTextFile(
      join(dir.path, `n-${i}.md`),
      `# N ${i}\n\n[hub](hub.md#setup) [again](./hub.md) [next](n-${i + 1}.md) [self](#n-${i})` +
        ` [nope](#nope) \`src/m${i}.ts\`\n`,
    );
  }
  const links = { paths: listed, nonFiles: [], opaque: [] };
  const alone = await readDocs(dir.path, listed, { links, parallelFrom: Infinity });
  const helped = await readDocs(dir.path, listed, { links, ...await loadedHelpers() });
  assert.ok(sum(helped.helperDocs) > 0, "the helper thread read some of the docs");
  assert.deepEqual(helped.reads, alone.reads);
  for (const { inbound } of [alone, helped]) {
    // Distinct linking docs; the frozen doc's link does not count.
    assert.equal(inbound.get("hub.md"), 200);
    assert.equal(inbound.get("n-1.md"), 1);
    assert.equal(inbound.get("n-0.md"), undefined);
  }
  const read = alone.reads.get("n-199.md");
  assert.ok(read?.kind === "text" && read.summary !== undefined);
  assert.equal(read.text, ""); // not kept once summarised
  assert.deepEqual(read.summary.linkFacts, {
    broken: [{ kind: "broken_link", line: 3, target: "n-200.md", hint: null }],
    // The fragment into hub.md is checked later; the doc's own good anchor is not kept.
    fragments: [
      { line: 3, target: "hub.md#setup", path: "hub.md", fragment: "setup" },
      { line: 3, target: "#nope", path: "n-199.md", fragment: "nope" },
    ],
    missing: [{ kind: "missing_path", line: 3, path: "src/m199.ts" }],
  });
});

Deno.test("readDocs shares the docs among three helper threads where the cores allow, with the same results", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path);
  const many = [...paths, ...paths, ...paths];
  const links = { paths: paths.slice(0, 300), nonFiles: [], opaque: [] };
  const alone = await readDocs(dir.path, many, { links, parallelFrom: Infinity });
  const helped = await readDocs(dir.path, many, { links, ...await loadedHelpers(3) });
  assert.equal(helped.helperDocs.length, 3);
  assert.ok(sum(helped.helperDocs) > 0, "the helper threads read some of the docs");
  assert.deepEqual(helped.reads, alone.reads);
  assert.deepEqual(helped.warnings, alone.warnings);
  assert.deepEqual(new Map([...helped.inbound].sort()), new Map([...alone.inbound].sort()));
  // Two helpers started ahead for one core are closed unused, and none is started.
  const ahead = [new ReadHelper(), new ReadHelper()];
  const one = await readDocs(dir.path, many, { links, helpers: ahead, parallelFrom: 0, cores: 1 });
  assert.equal(one.helperDocs.length, 1);
  assert.equal(ahead[1].worker, undefined, "the one not used is closed");
  assert.deepEqual(one.reads, alone.reads);
});

Deno.test("readDocs progress with a helper thread never goes backwards or past the total", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path);
  const seen: number[] = [];
  await readDocs(dir.path, [...paths, ...paths, ...paths], {
    parallelFrom: 0,
    onProgress: (done, total) => {
      assert.equal(total, paths.length * 3);
      assert.ok(done <= total);
      seen.push(done);
    },
  });
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1]);
  assert.equal(seen.at(-1), paths.length * 3, "the last report is the whole");
});

Deno.test("the helper thread loads, reads and checks links under scan.ts's exact permission flags", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.md"), "# A\n\n- [x] [b](b.md) [c](c.md)\n");
  await Deno.writeTextFile(join(dir.path, "c.md"), "# C\n");
  const worker = new URL("../../lib/scan/read_docs_worker.ts", import.meta.url).href;
  const script = `
    const worker = new Worker(${JSON.stringify(worker)}, { type: "module" });
    worker.onerror = (e) => { e.preventDefault(); console.log("failed: " + e.message); worker.terminate(); };
    const results = [];
    const inbound = [];
    worker.onmessage = (e) => {
      if (e.data.ready) return;
      if (e.data.done) { console.log(JSON.stringify({ results, inbound })); worker.terminate(); }
      else { results.push(...e.data.results); inbound.push(...e.data.inbound); }
    };
    worker.postMessage({ root: Deno.cwd(), paths: ["a.md", "gone.md"], skipLstat: true,
      counter: new Int32Array(new SharedArrayBuffer(4)), batch: 64,
      claims: new Int32Array(new SharedArrayBuffer(4)), slot: 0,
      links: { paths: ["a.md", "c.md"], nonFiles: [], opaque: [] }, keepLinks: false });
  `;
  await Deno.writeTextFile(join(dir.path, "start.ts"), script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(PACKAGE_DIR, "deno.json")}`,
      ...PERMISSION_FLAGS.scan,
      join(dir.path, "start.ts"),
    ],
    cwd: dir.path,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { results, inbound } = JSON.parse(stdout);
  assert.equal(results.length, 2, stdout);
  assert.equal(results[0].kind, "text");
  assert.deepEqual(results[0].summary.checkboxes, { done: 1, open: 0 });
  assert.deepEqual(results[0].summary.linkFacts.broken, [
    { kind: "broken_link", line: 3, target: "b.md", hint: null },
  ]);
  assert.deepEqual(inbound, [["c.md", 1]]);
  assert.equal(results[1], "");
});

Deno.test("readDocs keeping links for the cache hands back each doc's links and its cache line", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.md"), "# A\n\n[b](b.md) [c](c.md)\n");
  await Deno.writeTextFile(join(dir.path, "b.md"), "# B\n");
  const links = { paths: ["a.md", "b.md"], nonFiles: [], opaque: [] };
  const { reads } = await readDocs(dir.path, ["a.md", "b.md"], {
    links,
    keepLinks: true,
    cache: {},
  });
  const a = reads.get("a.md");
  assert.ok(a?.kind === "text");
  assert.deepEqual(a.summary?.links?.map((link) => link.target), ["b.md", "c.md"]);
  assert.ok(a.cacheEntry !== undefined, "the cache line is made all the same");
});

Deno.test("readDocs of no paths gives nothing", async () => {
  await using dir = await tempDir();
  const { reads, warnings } = await readDocs(dir.path, [], { parallelFrom: 0 });
  assert.equal(reads.size, 0);
  assert.deepEqual(warnings, []);
});

Deno.test("readDocSync of a known regular file skips the lstat: same facts, mtime left to the caller", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.md"), "# A\r\n\r\nx\n");
  const checked = readDocSync(dir.path, "a.md");
  const unchecked = readDocSync(dir.path, "a.md", { regularFile: true });
  assert.ok(typeof checked !== "string" && typeof unchecked !== "string");
  assert.ok(Number.isNaN(unchecked.mtimeMs));
  assert.deepEqual({ ...unchecked, mtimeMs: checked.mtimeMs }, checked);
  assert.equal(readDocSync(dir.path, "gone.md", { regularFile: true }), "");
});

Deno.test("readDocSync of a known regular file over the parse limit still streams only the prefix", async () => {
  await using dir = await tempDir();
  const line = "# x [a](b.md)\n";
  const count = Math.ceil((MAX_PARSE_BYTES + 1000) / line.length);
  await Deno.writeTextFile(join(dir.path, "big.md"), line.repeat(count));
  const read = readDocSync(dir.path, "big.md", { regularFile: true });
  assert.ok(typeof read !== "string" && read.kind === "text");
  assert.ok(read.truncated);
  assert.equal(read.lines, count);
  assert.equal(read.bytes, line.length * count);
  assert.ok(!Number.isNaN(read.mtimeMs), "the large path stats the file anyway");
});

Deno.test("readDocSync counts lines like the bytes say: LF, CRLF, lone and trailing CR, invalid UTF-8, BOM", async () => {
  await using dir = await tempDir();
  const cases: [number[], number][] = [
    [[], 0],
    [[0x61], 1],
    [[0x61, 0x0a], 1],
    [[0x61, 0x0d, 0x0a, 0x62], 2],
    [[0x61, 0x0d, 0x62, 0x0d], 2],
    [[0x0d, 0x0d, 0x0a, 0x0a], 3],
    [[0xe2, 0x0a, 0xff, 0x0d, 0x0a, 0xc3], 3],
    [[0xef, 0xbb, 0xbf], 1],
    [[0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x0a], 2],
  ];
  for (const [i, [bytes, lines]] of cases.entries()) {
    await Deno.writeFile(join(dir.path, `${i}.md`), new Uint8Array(bytes));
    for (const regularFile of [false, true]) {
      const read = readDocSync(dir.path, `${i}.md`, { regularFile });
      assert.ok(typeof read !== "string");
      assert.equal(read.lines, lines, `case ${i}: ${bytes}`);
    }
  }
});

Deno.test("readDocs in a fresh process loads the YAML parser only when a doc's frontmatter needs it, on either thread", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path); // every fifth doc has `tags: [a, b]`
  const script = `
    import { readDocs, ReadHelper } from ${
    JSON.stringify(join(PACKAGE_DIR, "lib/scan/read_docs.ts"))
  };
    import { loadedYaml } from ${JSON.stringify(join(PACKAGE_DIR, "lib/yaml/load_yaml.ts"))};
    const paths = JSON.parse(Deno.args[0]);
    const plain = await readDocs(Deno.cwd(), paths.filter((_, i) => i % 5 !== 0 && i < 300));
    const loadedForPlain = loadedYaml() !== undefined;
    const helper = new ReadHelper();
    await helper.ready;
    const all = await readDocs(Deno.cwd(), paths, { helpers: [helper], parallelFrom: 0, batch: 4, skipLstat: true, helpersFirst: true });
    console.log(JSON.stringify({
      loadedForPlain,
      plain: plain.reads.size,
      helperDocs: all.helperDocs.reduce((a, b) => a + b, 0),
      statuses: [...all.reads].map(([path, r]) => [path, r.analysis?.status ?? null]),
      tags: all.reads.get("d0/doc-0.md")?.analysis?.frontmatter?.tags,
      warnings: all.warnings.length,
    }));
  `;
  await Deno.writeTextFile(join(dir.path, "start.ts"), script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", join(dir.path, "start.ts"), JSON.stringify(paths)],
    cwd: dir.path,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const got = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(got.loadedForPlain, false, "flat frontmatter never loads the YAML parser");
  assert.equal(got.plain, 240);
  assert.ok(got.helperDocs > 0, "the helper thread read some of the docs");
  const statuses = new Map(got.statuses);
  for (let i = 0; i < 300; i++) assert.equal(statuses.get(`d${i % 7}/doc-${i}.md`), `s${i}`);
  assert.deepEqual(got.tags, ["a", "b"]);
  assert.equal(got.warnings, 1); // only the undecodable name
});

Deno.test("readDocs reads again what a helper closed midway gave, and counts its inbound links once", async () => {
  await using dir = await tempDir();
  const paths = await corpus(dir.path);
  const many = [...paths, ...paths, ...paths];
  const links = { paths: paths.slice(0, 300), nonFiles: [], opaque: [] };
  const alone = await readDocs(dir.path, many, { links, parallelFrom: Infinity });
  for (const delay of [0, 1, 5, 20]) {
    const options = await loadedHelpers(3);
    options.batch = 1;
    const timer = setTimeout(() => options.helpers[1].close(), delay);
    const helped = await readDocs(dir.path, many, { links, ...options });
    clearTimeout(timer);
    assert.deepEqual(helped.reads, alone.reads);
    assert.deepEqual(helped.warnings, alone.warnings);
    assert.deepEqual(new Map([...helped.inbound].sort()), new Map([...alone.inbound].sort()));
  }
});

Deno.test("readDocs gives up a helper that has not come up once every doc is read", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.md"), "# A\n");
  // A thread that never takes up the job nor says anything (as one stuck loading would).
  const stuck = new Worker("data:text/javascript,setInterval(() => {}, 60000);", {
    type: "module",
  });
  let closed = () => {};
  const helper = {
    worker: stuck as Worker | undefined,
    ready: new Promise<boolean>(() => {}),
    closed: new Promise<void>((resolve) => closed = resolve),
    rechecked: undefined,
    listen() {},
    close() {
      stuck.terminate();
      this.worker = undefined;
      closed();
    },
  };
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    watchdog = setTimeout(() => reject(new Error("readDocs waited for the stuck helper")), 20_000);
  });
  try {
    const { reads, helperDocs } = await Promise.race([
      readDocs(dir.path, ["a.md"], {
        helpers: [helper as unknown as ReadHelper],
        parallelFrom: 0,
        cores: 2,
      }),
      hung,
    ]);
    assert.equal(reads.size, 1);
    assert.deepEqual(helperDocs, [0]);
    assert.equal(helper.worker, undefined, "given up and closed");
  } finally {
    clearTimeout(watchdog);
    helper.close();
  }
});

Deno.test("readDocSync gives a doc read whole the blob id git vouches for only when its bytes hash to it", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.md"), "a\n");
  // `printf 'a\n' | git hash-object --stdin`
  const oid = "78981922613b2afb6025042ff6bd878ac1994e85";
  for (const regularFile of [true, false]) {
    const read = readDocSync(dir.path, "a.md", { regularFile, oid });
    assert.ok(typeof read === "object" && read.kind === "text");
    assert.equal(read.oid, oid);
    const key = cacheKey(read)!;
    const cached = readDocSync(dir.path, "a.md", { regularFile, oid, expect: key });
    assert.ok(typeof cached === "object" && cached.kind === "text" && cached.cached);
    assert.equal(cached.oid, oid);
  }
  // Changed since git looked (as a doc edited while the scan runs): no blob id.
  await Deno.writeTextFile(join(dir.path, "a.md"), "b\n");
  const changed = readDocSync(dir.path, "a.md", { regularFile: true, oid });
  assert.ok(typeof changed === "object" && changed.kind === "text");
  assert.equal(changed.oid, undefined);
});

Deno.test("readDocs takes a doc git vouches for as expected without reading it, never beneath a symlink", async () => {
  await using dir = await tempDir();
  // The bytes on disk are not those the key names: taken all the same, so they were not read.
  await Deno.writeTextFile(join(dir.path, "a.md"), "# other bytes\n");
  await Deno.writeTextFile(join(dir.path, "b.md"), "# B\n");
  await Deno.symlink(dir.path, join(dir.path, "up"));
  const oid = "0123456789abcdef0123456789abcdef01234567";
  const key = "4/4:x:y";
  const paths = ["a.md", "b.md", "up/a.md"];
  const links = { paths, nonFiles: ["up"], opaque: ["up"] };
  const { reads } = await readDocs(dir.path, paths, {
    skipLstat: true,
    links,
    cache: {
      expect: [key, "", key],
      oids: [oid, "", oid],
      vouched: new Uint8Array([1, 0, 1]),
      take: (_, read) => (read.summary = { ...SUMMARY }, read.lines = 1, true),
    },
  });
  const a = reads.get("a.md");
  assert.ok(a?.kind === "text" && a.cached);
  assert.deepEqual([a.bytes, a.fingerprint, a.oid], [4, "4:x:y", oid]);
  const b = reads.get("b.md");
  assert.ok(b?.kind === "text" && !b.cached && b.summary !== undefined);
  assert.equal(reads.has("up/a.md"), false);
});

const SUMMARY = {
  hygiene: undefined,
  appendOnly: false,
  status: undefined,
  checkboxes: undefined,
  anchors: new Set<string>(),
  linkFacts: { broken: [], fragments: [], missing: [] },
};

import assert from "node:assert/strict";
import { DochygieneError } from "../../lib/core/dochygiene_error.ts";
import { runSeam, type SeamContext, type SeamResult, toFailure } from "../../lib/cli/run_seam.ts";
import { VERSION } from "../../lib/core/version.ts";
import { join } from "node:path";
import { PERMISSION_FLAGS } from "../../lib/cli/permission_flags.ts";
import {
  assertSeamError,
  DENO,
  giveToUnprivileged,
  PACKAGE_DIR,
  runCommand,
  runSeam as runSeamProcess,
  tempDir,
  tempRepo,
} from "../support/helpers.ts";

const SPEC = {
  name: "demo",
  usage: "usage: demo [--flag]",
  options: { flag: { type: "boolean" as const } },
};

async function run(
  args: string[],
  main: (ctx: SeamContext) => Promise<SeamResult> = () =>
    Promise.resolve({ json: { ok: true }, text: "fine" }),
  spec: Parameters<typeof runSeam>[0] = SPEC,
) {
  const out = { stdout: "", stderr: "" };
  const code = await runSeam(spec, args, main, {
    write: (s, t) => (out[s] += typeof t === "string" ? t : new TextDecoder().decode(t)),
  });
  return { code, ...out };
}

Deno.test("success prints the JSON or the text form and exits 0", async () => {
  assert.deepEqual(await run(["--format", "json"]), {
    code: 0,
    stdout: '{\n  "ok": true\n}\n',
    stderr: "",
  });
  assert.deepEqual(await run(["--format=text"]), { code: 0, stdout: "fine\n", stderr: "" });
});

Deno.test("an already-serialised jsonText is printed as is, once, instead of json", async () => {
  const main = () =>
    Promise.resolve({ json: { never: "printed" }, jsonText: '{\n  "a": 1\n}\n', text: "t" });
  assert.deepEqual(await run(["--format", "json"], main), {
    code: 0,
    stdout: '{\n  "a": 1\n}\n',
    stderr: "",
  });
  const bare = () => Promise.resolve({ json: null, jsonText: "[]", text: "t" });
  assert.equal((await run(["--format", "json"], bare)).stdout, "[]\n");
  assert.equal((await run(["--format", "text"], main)).stdout, "t\n");
  // Already encoded (as scan.ts hands over the bytes it wrote to scan.json): printed as they are.
  const encoded = () =>
    Promise.resolve({ json: null, jsonText: new TextEncoder().encode('["é"]\n'), text: "t" });
  assert.equal((await run(["--format", "json"], encoded)).stdout, '["é"]\n');
});

Deno.test("a jsonText in pieces is printed piece by piece, and stops at the first that cannot be", async () => {
  const pieces = ['{"a": ', "1", "}\n"].map((p) => new TextEncoder().encode(p));
  const main = () => Promise.resolve({ json: null, jsonText: pieces.values(), text: "t" });
  const writes: string[] = [];
  const code = await runSeam(SPEC, ["--format", "json"], main, {
    write: (_, t) => void writes.push(typeof t === "string" ? t : new TextDecoder().decode(t)),
  });
  assert.equal(code, 0);
  assert.deepEqual(writes, ['{"a": ', "1", "}\n"]);
  let made = 0;
  const lazy = function* () {
    for (const p of pieces) {
      made++;
      yield p;
    }
  };
  const failing = await runSeam(
    SPEC,
    ["--format", "json"],
    () => Promise.resolve({ json: null, jsonText: lazy(), text: "t" }),
    {
      write: (stream) => {
        if (stream === "stdout") throw new Error("EPIPE");
      },
    },
  );
  assert.equal(failing, 1);
  assert.equal(made, 1, "no piece is made after one could not be printed");
});

Deno.test("a seam's own formats are accepted, printed as its text, and named in the usage error", async () => {
  const spec = { ...SPEC, formats: ["overview", "overview-json"] as const };
  const main = (ctx: SeamContext) => Promise.resolve({ json: null, text: `as ${ctx.format}` });
  assert.deepEqual(await run(["--format", "overview"], main, spec), {
    code: 0,
    stdout: "as overview\n",
    stderr: "",
  });
  const bad = await run(["--format", "xml"], main, spec);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be json, text, overview or overview-json \(got "xml"\)/);
  // A failure under a format of JSON prints the JSON error document too.
  const failed = await run(
    ["--format", "overview-json"],
    () => Promise.reject(new DochygieneError("USAGE", "nope", 2)),
    spec,
  );
  assert.equal(JSON.parse(failed.stdout).ok, false);
  assert.equal((await run(["--format", "overview"], main)).code, 2, "not without the seam's own");
});

Deno.test("--help and --version print to stdout and exit 0 without running main", async () => {
  const never = () => Promise.reject(new Error("must not run"));
  assert.deepEqual(await run(["--help"], never), {
    code: 0,
    stdout: "usage: demo [--flag]\n",
    stderr: "",
  });
  assert.deepEqual(await run(["-h"], never), {
    code: 0,
    stdout: "usage: demo [--flag]\n",
    stderr: "",
  });
  assert.deepEqual(await run(["--version"], never), {
    code: 0,
    stdout: `dochygiene demo ${VERSION}\n`,
    stderr: "",
  });
  assert.deepEqual(await run(["-V"], never), {
    code: 0,
    stdout: `dochygiene demo ${VERSION}\n`,
    stderr: "",
  });
});

Deno.test("a positional argument to a seam that takes none is a usage error in the house style", async () => {
  const r = await run(["foo", "--format", "json"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "dochygiene demo: unexpected argument foo: this command takes options only; see --help\n",
  );
});

Deno.test("output that cannot be written: one stderr line, the job's exit code kept or raised, never a throw", async () => {
  const full =
    (stream: "stdout" | "stderr") => (s: "stdout" | "stderr", t: string | Uint8Array) => {
      if (s === stream) {
        throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
      }
      out[s] += typeof t === "string" ? t : new TextDecoder().decode(t);
    };
  let out = { stdout: "", stderr: "" };
  // Success, stdout full: exit 1, the reason on stderr.
  let code = await runSeam(
    SPEC,
    ["--format", "json"],
    () => Promise.resolve({ json: { ok: true }, text: "fine" }),
    { write: full("stdout") },
  );
  assert.equal(code, 1);
  assert.equal(
    out.stderr,
    "dochygiene demo: the output could not be printed: No space left on device (os error 28): " +
      "the disk is full; free some space and run again\n",
  );
  // A usage error, stdout full: still exit 2, its line on stderr.
  out = { stdout: "", stderr: "" };
  code = await runSeam(
    SPEC,
    ["--bogus", "--format", "json"],
    () => Promise.resolve({ json: {}, text: "" }),
    { write: full("stdout") },
  );
  assert.equal(code, 2);
  assert.equal(out.stderr, "dochygiene demo: unknown option --bogus; see --help\n");
  // --version (or --help) with stdout full: the same line, exit 1.
  out = { stdout: "", stderr: "" };
  code = await runSeam(SPEC, ["-V"], () => Promise.resolve({ json: {}, text: "" }), {
    write: full("stdout"),
  });
  assert.equal(code, 1);
  assert.match(out.stderr, /^dochygiene demo: the output could not be printed: No space left/);
  // Success with warnings, stderr full: the job's own exit code.
  out = { stdout: "", stderr: "" };
  code = await runSeam(
    SPEC,
    ["--format", "json"],
    () => Promise.resolve({ json: { ok: true }, text: "fine", stderr: ["warning: x"] }),
    {
      write: full("stderr"),
    },
  );
  assert.equal(code, 0);
  assert.equal(out.stdout, '{\n  "ok": true\n}\n');
});

Deno.test("scan.ts with stdout on a full device: scan.json written, one line on stderr, exit 1, no stack trace", async () => {
  await using repo = await tempRepo();
  await Deno.writeTextFile(join(repo.path, "a.md"), "# A\n");
  const run = await runCommand("sh", [
    "-c",
    `exec "$0" run --quiet --config="$1" ${
      PERMISSION_FLAGS.scan.join(" ")
    } "$2" --format json >/dev/full`,
    DENO,
    join(PACKAGE_DIR, "deno.json"),
    join(PACKAGE_DIR, "scan.ts"),
  ], { cwd: repo.path });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^dochygiene scan: the output could not be printed: .*\n$/);
  assert.ok(
    JSON.parse(await Deno.readTextFile(join(repo.path, ".dochygiene/scan.json"))).shortlist,
  );
});

Deno.test("an unknown flag is a usage error: exit 2, one stderr line, JSON error on stdout", async () => {
  const r = await run(["--format", "json", "--bogus"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^dochygiene demo: .*--bogus.*; see --help\n$/);
  assert.equal(JSON.parse(r.stdout).ok, false);
  assert.equal(JSON.parse(r.stdout).error.code, "USAGE");
});

Deno.test("an unknown option is named plainly, without parseArgs' advice to quote it", async () => {
  for (const flag of ["--bogus", "-x"]) {
    const r = await run(["--format", "json", flag]);
    assert.equal(r.stderr, `dochygiene demo: unknown option ${flag}; see --help\n`);
    assert.equal(JSON.parse(r.stdout).error.message, `unknown option ${flag}; see --help`);
  }
  const spec = { ...SPEC, allowPositionals: true };
  const r = await run(["--format", "text", "--bogus=1"], undefined, spec);
  assert.equal(r.stderr, "dochygiene demo: unknown option --bogus; see --help\n");
});

Deno.test("an empty --root= is a usage error, not a missing directory", async () => {
  const r = await run(["--format", "text", "--root="]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "dochygiene demo: --root needs a value (--root DIR); see --help\n");
});

Deno.test("an option given no value names the option and how to give one", async () => {
  const spec = { ...SPEC, options: { file: { type: "string" as const } } };
  for (const args of [["--format", "text", "--file"], ["--format", "text", "--file", "--root"]]) {
    const r = await run(args, undefined, spec);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(
      r.stderr,
      'dochygiene demo: --file needs a value (--file VALUE; one that starts with "-": --file=VALUE);' +
        " see --help\n",
    );
  }
});

Deno.test("a repeated --format: the last one wins, as parseArgs takes it, and every value is checked", async () => {
  assert.equal((await run(["--format", "json", "--format", "text"])).stdout, "fine\n");
  assert.equal((await run(["--format=text", "--format=json"])).stdout, '{\n  "ok": true\n}\n');
  for (const args of [["--format=xml", "--format=text"], ["--format", "text", "--format", "xml"]]) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr, /--format must be json or text \(got "xml"\)/);
    assert.equal(JSON.parse(r.stdout).error.code, "USAGE");
  }
  // An error before parsing succeeds is printed in the format the last --format names.
  const early = await run(["--format", "json", "--format", "text", "--bogus"]);
  assert.equal(early.stdout, "");
  assert.equal(early.stderr, "dochygiene demo: unknown option --bogus; see --help\n");
});

Deno.test("a bad --format value is a usage error", async () => {
  const r = await run(["--format", "yaml"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--format must be json or text \(got "yaml"\)/);
});

Deno.test("positionals are refused unless the seam allows them", async () => {
  assert.equal((await run(["extra"])).code, 2);
  const r = await run(["sub"], (ctx) => Promise.resolve({ json: ctx.positionals, text: "" }), {
    ...SPEC,
    allowPositionals: true,
  });
  assert.equal(r.code, 0);
});

Deno.test("--root resolves the project root upward; a missing --root is exit 2", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(`${repo.path}/docs/deep`, { recursive: true });
  const r = await run(
    ["--format", "json", "--root", `${repo.path}/docs/deep`],
    (ctx) => Promise.resolve({ json: { root: ctx.root }, text: "" }),
  );
  assert.equal(JSON.parse(r.stdout).root, repo.path);
  const bad = await run(["--format", "text", "--root", `${repo.path}/nope`]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--root .*nope is not a directory; name an existing one/);
  assert.equal(bad.stdout, "");
});

Deno.test("expected failures keep their code and exit code; JSON error shape on stdout", async () => {
  const r = await run(
    ["--format", "json"],
    () => Promise.reject(new DochygieneError("LOCK_HELD", "busy; try again")),
  );
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "dochygiene demo: busy; try again\n");
  assert.deepEqual(JSON.parse(r.stdout), {
    ok: false,
    error: { code: "LOCK_HELD", message: "busy; try again" },
  });
});

Deno.test("unexpected errors become one INTERNAL line, never a stack trace", async () => {
  const r = await run(
    ["--format", "text"],
    () => Promise.reject(new TypeError("x is undefined\n  at foo")),
  );
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "dochygiene demo: unexpected error: x is undefined; please report it\n");
});

Deno.test("newlines, escape sequences and bidi controls from hostile names stay one terminal-safe stderr line", async () => {
  const message = ".dochygiene.yml: a\nb\x1b[31m\u202egnp.md: unknown key";
  const r = await run(
    ["--format", "json"],
    () => Promise.reject(new DochygieneError("INVALID_CONFIG", message, 2)),
  );
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "dochygiene demo: .dochygiene.yml: a\\x0ab\\x1b[31m\\u202egnp.md: unknown key\n",
  );
  // The JSON message keeps the text as it was (JSON escapes it).
  assert.equal(JSON.parse(r.stdout).error.message, message);
  const verdict = await run(
    ["--format", "json"],
    () => Promise.resolve({ json: {}, text: "", stderr: "bad\rname\u009b2J", exitCode: 1 }),
  );
  assert.equal(verdict.stderr, "dochygiene demo: bad\\x0dname\\x9b2J\n");
});

Deno.test("a result's stderr verdict and exit code are honoured", async () => {
  const r = await run(
    ["--format", "text"],
    () => Promise.resolve({ json: {}, text: "report", exitCode: 1, stderr: "2 problems" }),
  );
  assert.deepEqual(r, { code: 1, stdout: "report\n", stderr: "dochygiene demo: 2 problems\n" });
});

Deno.test("DOCHYGIENE_NOW drives the context clock; a bad value is exit 2", async () => {
  await using dir = await tempDir();
  const saved = Deno.env.get("DOCHYGIENE_NOW");
  try {
    Deno.env.set("DOCHYGIENE_NOW", "2026-11-30T03:36:18.000Z");
    const r = await run(
      ["--format", "json", "--root", dir.path],
      (ctx) => Promise.resolve({ json: ctx.clock.now().toISOString(), text: "" }),
    );
    assert.equal(JSON.parse(r.stdout), "2026-11-30T03:36:18.000Z");
    Deno.env.set("DOCHYGIENE_NOW", "soon");
    assert.equal((await run(["--format", "json", "--root", dir.path])).code, 2);
  } finally {
    if (saved === undefined) Deno.env.delete("DOCHYGIENE_NOW");
    else Deno.env.set("DOCHYGIENE_NOW", saved);
  }
});

Deno.test("toFailure: an operating-system refusal names owner or mode, not Deno's flags", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/state.json`, "{}");
  const denied = (call: string) =>
    toFailure(new Deno.errors.PermissionDenied(`Permission denied (os error 13): ${call}`));
  const cases: [string, string][] = [
    [
      `open '${dir.path}/.state.json.tmp-1-2-0'`,
      `${dir.path} is not writable by this user (Permission denied (os error 13)): fix its owner or mode`,
    ],
    [
      `rename '${dir.path}/a' -> '${dir.path}/b'`,
      `${dir.path} is not writable by this user (Permission denied (os error 13)): fix its owner or mode`,
    ],
    [
      `open '${dir.path}/state.json'`,
      `${dir.path}/state.json cannot be opened by this user (Permission denied (os error 13)): fix its owner or mode`,
    ],
    [
      `readdir '${dir.path}'`,
      `${dir.path} cannot be read by this user (Permission denied (os error 13)): fix its owner or mode, or its directory's`,
    ],
  ];
  for (const [call, message] of cases) {
    const f = denied(call);
    assert.equal(f.code, "ACCESS_DENIED");
    assert.equal(f.exitCode, 1);
    assert.equal(f.message, message);
  }
  // EPERM, as Deno gives it for an immutable directory: the attribute is the likely fix.
  const immutable = toFailure(
    new Deno.errors.PermissionDenied(
      `Operation not permitted (os error 1): open '${dir.path}/.scan.json.tmp-1-2-0'`,
    ),
  );
  assert.equal(
    immutable.message,
    `${dir.path} is not writable by this user (Operation not permitted (os error 1)): clear an immutable or append-only attribute (chattr -i / -a) or fix its owner or mode`,
  );
});

Deno.test("mark-checked in a .dochygiene this user may not write: owner or mode is the fix", async () => {
  await using repo = await tempRepo();
  await Deno.mkdir(join(repo.path, ".dochygiene"));
  // Root writes through any mode: then the repository is nobody's, and so is the seam.
  await giveToUnprivileged(repo.path);
  await Deno.chmod(join(repo.path, ".dochygiene"), 0o555);
  const r = await runSeamProcess("state", ["mark-checked"], { cwd: repo.path, unprivileged: true });
  assertSeamError(
    "state",
    r,
    1,
    "ACCESS_DENIED",
    new RegExp(
      `: ${repo.path}/\\.dochygiene is not writable by this user \\(Permission denied \\(os error 13\\)\\): fix its owner or mode$`,
    ),
  );
  assert.doesNotMatch(r.stderr, /permission flags/);
});

Deno.test("scan into a .dochygiene this user may not enter: the message names where it writes", async () => {
  await using repo = await tempRepo();
  await Deno.remove(join(repo.path, ".git"), { recursive: true }); // no git: no ownership check
  await Deno.writeTextFile(join(repo.path, "a.md"), "# A\n");
  await Deno.mkdir(join(repo.path, ".dochygiene"));
  await giveToUnprivileged(repo.path);
  await Deno.chmod(join(repo.path, ".dochygiene"), 0o000);
  const r = await runSeamProcess("scan", [], { cwd: repo.path, unprivileged: true });
  await Deno.chmod(join(repo.path, ".dochygiene"), 0o755);
  assertSeamError("scan", r, 1, "ACCESS_DENIED", /\.dochygiene/);
});

Deno.test("--root naming a directory this user cannot reach says it cannot be read", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "locked", "inner"), { recursive: true });
  await giveToUnprivileged(dir.path);
  await Deno.chmod(join(dir.path, "locked"), 0o000);
  const root = join(dir.path, "locked", "inner");
  const r = await runSeamProcess("state", ["show", "--root", root], {
    cwd: dir.path,
    unprivileged: true,
  });
  await Deno.chmod(join(dir.path, "locked"), 0o755);
  assertSeamError(
    "state",
    r,
    2,
    "BAD_ROOT",
    /--root .*locked\/inner cannot be read \(Permission denied/,
  );
  assert.match(r.stderr, /name a directory this user can read/);
  // Reachable, but not to be listed: the same.
  await Deno.chmod(root, 0o000);
  const listed = await runSeamProcess("scan", ["--no-write", "--root", root], {
    cwd: dir.path,
    unprivileged: true,
  });
  await Deno.chmod(root, 0o755);
  assertSeamError("scan", listed, 2, "BAD_ROOT", /--root .*locked\/inner cannot be read/);
});

Deno.test("toFailure maps Deno sandbox denials to NO_PERMISSION with the flags as the fix", () => {
  const f = toFailure(new Deno.errors.NotCapable('Requires write access to "x"'));
  assert.equal(f.code, "NO_PERMISSION");
  assert.equal(f.exitCode, 1);
  assert.match(f.message, /run with the permission flags documented in the README/);
  const same = new DochygieneError("X", "y", 2);
  assert.equal(toFailure(same), same);
  assert.equal(toFailure("plain").code, "INTERNAL");
});

Deno.test("a reader that leaves early (`| true`) costs no stack trace: the job's exit code stands", async () => {
  await using repo = await tempRepo();
  const seam = [
    DENO,
    "run",
    "--quiet",
    `--config=${join(PACKAGE_DIR, "deno.json")}`,
    ...PERMISSION_FLAGS.state,
    join(PACKAGE_DIR, "state.ts"),
  ].map((word) => `'${word}'`).join(" ");
  // `true` exits before Deno has started, so the seam's first write meets a closed pipe.
  const script = `${seam} mark-checked | true; echo "exit=\${PIPESTATUS[0]}" >&2`;
  const out = await runCommand("bash", ["-c", script], { cwd: repo.path, env: { CI: "" } });
  assert.equal(out.stderr, "exit=0\n");
  const state = JSON.parse(await Deno.readTextFile(join(repo.path, ".dochygiene/state.json")));
  assert.match(state.last_check, /^\d{4}-\d\d-\d\dT/);
});

Deno.test("toFailure: a read-only, full or refusing file system is ACCESS_DENIED with its fix, not a bug", () => {
  const cases: [string, string, RegExp][] = [
    ["EROFS", "Read-only file system (os error 30): open '/r/.dochygiene/x'", /mounted read-only/],
    ["ENOSPC", "No space left on device (os error 28): write", /disk is full/],
    ["EDQUOT", "Disk quota exceeded (os error 122): write", /quota/],
    ["EPERM", "Operation not permitted (os error 1): unlink '/r/x'", /immutable or append-only/],
  ];
  for (const [code, message, fix] of cases) {
    const failure = toFailure(Object.assign(new Error(message), { code }));
    assert.equal(failure.code, "ACCESS_DENIED", code);
    assert.equal(failure.exitCode, 1);
    assert.match(failure.message, fix);
    assert.ok(failure.message.startsWith(message), failure.message);
  }
  assert.equal(toFailure(Object.assign(new Error("x"), { code: "EBADF" })).code, "INTERNAL");
});

Deno.test("a project whose path is not UTF-8 is BAD_ROOT saying to rename it, started there or named with --root", async () => {
  await using tmp = await tempDir();
  const flags = PERMISSION_FLAGS.scan.join(" ");
  const seam = `"$0" run --quiet --config="$1" ${flags} "$2" --format json --no-write`;
  const run = (script: string) =>
    runCommand("sh", [
      "-c",
      script,
      DENO,
      join(PACKAGE_DIR, "deno.json"),
      join(PACKAGE_DIR, "scan.ts"),
    ], {
      cwd: tmp.path,
    });
  const inside = await run(
    `mkdir "$(printf 'caf\\351')" && cd "$(printf 'caf\\351')" && exec ${seam}`,
  );
  assertSeamError(
    "scan",
    inside,
    2,
    "BAD_ROOT",
    /is not valid UTF-8, which Deno cannot open; rename it/,
  );
  const named = await run(`exec ${seam} --root "$(printf 'caf\\351')"`);
  assertSeamError(
    "scan",
    named,
    2,
    "BAD_ROOT",
    /is not a directory Deno can open .*rename it to UTF-8/,
  );
});

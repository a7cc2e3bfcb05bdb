/**
 * The code files of commits' trees, searched for whole words (the drift
 * signals' HEAD grep and sampled-tree grep, `read_drift_history.ts`): each
 * blob read once, whichever trees hold it.
 *
 * @module
 */

import { decodeNulTerminated } from "../core/decode_path.ts";
import { runGit } from "../git/run_git.ts";
import { blobWords } from "./_blob_words.ts";
import { isBinaryName } from "./_is_binary_name.ts";

/**
 * The code files of HEAD's tree and of older trees, searched for words: each
 * blob read once (`cat-file --batch`) and matched once against every word
 * wanted (see `blobWords`), here, not by git, whose cost grows
 * with the number of patterns. HEAD's search and the older trees' share what
 * was read: the older trees hold mostly HEAD's blobs.
 */
export class CodeTrees {
  #root: string;
  #head: string;
  #wanted: ReadonlySet<string>;
  #isCode: (path: string) => boolean;
  #notCode: readonly string[];
  #code = new Map<string, boolean>();
  /** HEAD's code files → their blob ids, listed on first need. */
  #headTree: Promise<Map<string, string>> | undefined;
  /** Each blob read → the wanted words it has (none: a binary blob, or one git lacks). */
  #words = new Map<string, ReadonlySet<string>>();
  /** Each blob asked for → the read of its batch (a search's answers wait for the ones it needs). */
  #reading = new Map<string, Promise<void>>();
  /** Older commits whose blobs are being read ahead of their search (see {@linkcode prefetch}). */
  #prefetched:
    | {
      commits: ReadonlySet<string>;
      read: Promise<{ commits: readonly string[]; trees: string[][] }>;
    }
    | undefined;

  /**
   * Searches `head` and older commits of the repository at `root` for `wanted` words in code;
   * `notCode`: git pathspecs (`:(exclude)…`) of paths surely not code, left out of git's diffs.
   */
  constructor(
    root: string,
    head: string,
    wanted: ReadonlySet<string>,
    isCode: (path: string) => boolean,
    notCode: readonly string[] = [],
  ) {
    this.#root = root;
    this.#head = head;
    this.#wanted = wanted;
    this.#isCode = isCode;
    this.#notCode = notCode;
  }

  /**
   * Which of `terms` (all wanted) the code files of each of `commits` (HEAD,
   * or older first-parent commits newest first) have as whole words: commit →
   * the terms found. Git processes, whatever the number of commits and terms:
   * HEAD's `ls-tree` (once per run), one `diff-tree --stdin` from HEAD's tree
   * to the next commit's and so on, one `cat-file --batch` of the blobs not
   * read before.
   */
  async search(
    terms: readonly string[],
    commits: readonly string[],
  ): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>(commits.map((c) => [c, new Set()]));
    if (commits.length === 0 || terms.length === 0) return found;
    const trees = await this.#readTrees(commits);
    // Blobs another search is still reading count once read (only those: not the whole prefetch).
    const batches = new Set<Promise<void>>();
    for (const tree of trees) for (const oid of tree) batches.add(this.#reading.get(oid)!);
    await Promise.all(batches);
    const asked = new Set(terms);
    commits.forEach((commit, i) => {
      const has = found.get(commit)!;
      for (const oid of trees[i]) {
        for (const term of this.#words.get(oid)!) if (asked.has(term)) has.add(term);
      }
    });
    return found;
  }

  /**
   * Starts reading the code blobs of older `commits` (newest first, none of them HEAD) while
   * HEAD's are searched: a later {@linkcode search} of any of them takes what was read.
   */
  prefetch(commits: readonly string[]): void {
    if (commits.length === 0) return;
    const read = this.#readTrees(commits);
    read.catch(() => {}); // a search of these commits awaits it
    this.#prefetched = {
      commits: new Set(commits),
      read: read.then((trees) => ({ commits, trees })),
    };
  }

  /** The code blob ids of each of `commits`, their blobs read (those of a prefetch if it has them all). */
  async #readTrees(commits: readonly string[]): Promise<string[][]> {
    const prefetched = this.#prefetched;
    if (prefetched !== undefined && commits.every((c) => prefetched.commits.has(c))) {
      const { commits: all, trees } = await prefetched.read;
      const at = new Map(all.map((c, i) => [c, trees[i]]));
      return commits.map((c) => at.get(c)!);
    }
    const trees = await this.#trees(commits);
    await this.#read([...new Set(trees.flat())].filter((oid) => !this.#words.has(oid)));
    return trees;
  }

  /** Whether `path` is code worth reading: code, and not named as a binary format. */
  #isCodePath(path: string): boolean {
    let yes = this.#code.get(path);
    if (yes === undefined) this.#code.set(path, yes = !isBinaryName(path) && this.#isCode(path));
    return yes;
  }

  /** The code blob ids of each of `commits` (see {@linkcode search}). */
  async #trees(commits: readonly string[]): Promise<string[][]> {
    const older = commits.filter((c) => c !== this.#head);
    // The diffs are asked for while HEAD's tree is listed.
    const stdin = older.map((c, i) => `${c} ${i === 0 ? this.#head : older[i - 1]}\n`).join("");
    const diffing = older.length === 0 ? undefined : runGit(
      this.#root,
      ["diff-tree", "-r", "-z", "--no-renames", "--always", "--stdin", "--", ...this.#notCode],
      // The pathspecs are patterns (`--literal-pathspecs` would take them as paths).
      { stdin, literalPathspecs: false },
    );
    diffing?.catch(() => {}); // awaited below
    const tree = new Map(await (this.#headTree ??= this.#listHead()));
    const headBlobs = [...tree.values()];
    const snapshots: string[][] = [];
    if (diffing !== undefined) {
      const tokens = decodeNulTerminated((await diffing).stdout);
      let started = false;
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i];
        if (!token.startsWith(":")) {
          // A commit's header: the tree before it is complete.
          if (started) snapshots.push([...tree.values()]);
          started = true;
          continue;
        }
        const [, mode, , oid, status] = token.slice(1).split(" ");
        const path = tokens[++i];
        if (status === "D" || !_REGULAR.has(mode) || !this.#isCodePath(path)) tree.delete(path);
        else tree.set(path, oid);
      }
      if (started) snapshots.push([...tree.values()]);
    }
    let k = 0;
    return commits.map((c) => c === this.#head ? headBlobs : snapshots[k++] ?? []);
  }

  async #listHead(): Promise<Map<string, string>> {
    const tree = new Map<string, string>();
    const listed = await runGit(this.#root, ["ls-tree", "-r", "-z", "--full-tree", this.#head]);
    for (const entry of decodeNulTerminated(listed.stdout)) {
      const tab = entry.indexOf("\t");
      const [mode, type, oid] = entry.slice(0, tab).split(" ");
      const path = entry.slice(tab + 1);
      if (type === "blob" && _REGULAR.has(mode) && this.#isCodePath(path)) tree.set(path, oid);
    }
    return tree;
  }

  /**
   * Reads `oids` in one `cat-file --batch` and keeps the wanted words each has (each marked as
   * read at once, so that no other search reads it again: see `#reading`).
   */
  #read(oids: readonly string[]): Promise<void> {
    if (oids.length === 0) return Promise.resolve();
    for (const oid of oids) this.#words.set(oid, _NONE);
    const reading = this.#readBatch(oids);
    for (const oid of oids) this.#reading.set(oid, reading);
    return reading;
  }

  async #readBatch(oids: readonly string[]): Promise<void> {
    const { stdout } = await runGit(this.#root, ["cat-file", "--batch"], {
      stdin: oids.join("\n") + "\n",
    });
    for (let at = 0; at < stdout.length;) {
      const eol = stdout.indexOf(0x0a, at);
      if (eol < 0) break;
      const [oid, type, size] = _ascii(stdout, at, eol).split(" ");
      if (type !== "blob") {
        at = eol + 1;
        continue;
      }
      const bytes = stdout.subarray(eol + 1, eol + 1 + Number(size));
      const words = blobWords(bytes, this.#wanted);
      if (words.size > 0) this.#words.set(oid, words);
      at = eol + 1 + Number(size) + 1;
    }
  }
}

/** No words. */
const _NONE: ReadonlySet<string> = new Set();

/** Modes of regular files (symlinks and submodules are not code). */
const _REGULAR = new Set(["100644", "100755"]);
function _ascii(bytes: Uint8Array, from: number, to: number): string {
  return new TextDecoder().decode(bytes.subarray(from, to));
}

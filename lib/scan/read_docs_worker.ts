/**
 * A helper thread of `readDocs` (`read_docs.ts`; up to three run at
 * once): says it is loaded; may be asked first to ask the disk the scan
 * cache's questions again (`ReadHelper.recheck`: it keeps the directory
 * listings it read for its job); then takes batches of paths from the shared
 * counter, reads, analyses and (given the listing) summarises them, posts each
 * batch's results back, and ends with its inbound link counts, or says it
 * failed. Started by `ReadHelper` (`_read_helper.ts`); not a module to import.
 *
 * @module
 */

// The stage files, not read_docs.ts: a helper loads what one thread reads with, not readDocs.
import {
  CACHED_AS_EXPECTED,
  CACHED_WITH_OID,
  type HelperJob,
  type HelperMessage,
} from "./_read_helper.ts";
import { readAnalysedBatch, threadReader } from "./_thread_reader.ts";
import type { FileRead } from "./scan_docs.ts";
import { type DiskAnswer, DiskRecord } from "../links/disk_record.ts";
import { type DirEntries, dirEntries } from "../fs/dir_entries.ts";
import { diskState } from "../links/path_index.ts";
import { keepHeapNearLive } from "../core/keep_heap_near_live.ts";

const scope = self as unknown as {
  onmessage: (
    event: MessageEvent<HelperJob | { recheck: [string, DiskAnswer][]; root: string }>,
  ) => void;
  postMessage: (message: HelperMessage) => void;
};

/** The thread keeps little between batches: its heap is kept near that. */
const _HEAP = { floorBytes: 64 * 1024 * 1024, slackBytes: 16 * 1024 * 1024 };

/** The directory listings a recheck read, kept for the job that follows (same root). */
let _listings: { root: string; entry: DirEntries } | undefined;

scope.onmessage = async (event) => {
  if ("recheck" in event.data) return _recheck(event.data);
  const { root, paths, counter, batch, claims, slot } = event.data;
  // Given up by readDocs (it read every batch before this thread came up): nothing to do.
  if (Atomics.compareExchange(claims, slot, 0, 1) !== 0) return;
  try {
    const entry = _listings?.root === root ? _listings.entry : undefined;
    const { regular, summarizer } = threadReader(event.data, entry);
    let batches = 0;
    for (let start = Atomics.add(counter, 0, batch); start < paths.length;) {
      const end = Math.min(start + batch, paths.length);
      const results: (FileRead | string)[] = [];
      await readAnalysedBatch(root, paths, start, end, regular, summarizer, results, start);
      const inbound = summarizer === undefined ? [] : [...summarizer.inbound];
      summarizer?.inbound.clear();
      scope.postMessage({
        start,
        inbound,
        disk: summarizer?.disk?.drain() ?? [],
        results: results.map((r) =>
          typeof r !== "object" || r.kind !== "text" || !r.cached || !Number.isNaN(r.mtimeMs)
            ? r
            : r.oid === undefined
            ? CACHED_AS_EXPECTED
            : CACHED_WITH_OID
        ),
      });
      start = Atomics.add(counter, 0, batch);
      // The thread keeps nothing between batches (counts and answers are handed over); a look at
      // the heap costs a few µs: once every 8 batches.
      if (++batches % 8 === 0) keepHeapNearLive(_HEAP);
    }
    scope.postMessage({ done: true });
  } catch (err) {
    // Said, not thrown: Deno prints a worker's uncaught error to stderr whatever its parent does.
    scope.postMessage({ failed: err instanceof Error ? err.message : String(err) });
  }
};

/** Asks the disk the scan cache's questions again (see `ReadHelper.recheck`). */
function _recheck(request: { recheck: [string, DiskAnswer][]; root: string }): void {
  try {
    const entry = dirEntries(request.root);
    _listings = { root: request.root, entry };
    const changed = new DiskRecord(request.recheck).differences(diskState(entry));
    scope.postMessage({ changed: changed.entries() });
  } catch {
    scope.postMessage({ changed: null }); // the caller's thread asks them itself
  }
}

// Loaded: the caller may wait for this (ReadHelper.ready) before handing out work.
scope.postMessage({ ready: true });

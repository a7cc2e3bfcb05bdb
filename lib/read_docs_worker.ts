/**
 * A helper thread of `readDocs` (`read_docs.ts`; up to three run at
 * once): says it is loaded, then takes batches of paths from the shared
 * counter, reads, analyses and (given the listing) summarises them, posts each
 * batch's results back, and ends with its inbound link counts, or says it
 * failed. Started by `read_docs.ts`; not a module to import.
 *
 * @module
 */

import {
  type HelperJob,
  type HelperMessage,
  readAnalysedBatch,
  threadReader,
} from "./read_docs.ts";
import type { FileRead } from "./scan_docs.ts";
import { DiskRecord } from "./disk_record.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<HelperJob>) => void;
  postMessage: (message: HelperMessage) => void;
};

scope.onmessage = async (event) => {
  const { root, paths, counter, batch, claims, slot } = event.data;
  // Given up by readDocs (it read every batch before this thread came up): nothing to do.
  if (Atomics.compareExchange(claims, slot, 0, 1) !== 0) return;
  try {
    const { regular, summarizer, onDisk } = threadReader(event.data);
    for (let start = Atomics.add(counter, 0, batch); start < paths.length;) {
      const end = Math.min(start + batch, paths.length);
      const results: (FileRead | string)[] = [];
      await readAnalysedBatch(root, paths, start, end, regular, summarizer, results, start);
      scope.postMessage({ start, results });
      start = Atomics.add(counter, 0, batch);
    }
    // Asked once the listings of this thread's directories are at hand.
    const recheck = event.data.recheck;
    if (recheck !== undefined) {
      scope.postMessage({ changed: new DiskRecord(recheck).differences(onDisk).entries() });
    }
    scope.postMessage({
      done: true,
      inbound: summarizer?.inbound ?? new Map(),
      disk: summarizer?.disk?.entries() ?? [],
    });
  } catch (err) {
    // Said, not thrown: Deno prints a worker's uncaught error to stderr whatever its parent does.
    scope.postMessage({ failed: err instanceof Error ? err.message : String(err) });
  }
};

// Loaded: the caller may wait for this (ReadHelper.ready) before handing out work.
scope.postMessage({ ready: true });

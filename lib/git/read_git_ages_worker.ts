/**
 * The thread of `readGitAgesThreaded` (`read_git_ages_threaded.ts`): runs
 * the history pass ({@linkcode readFirstParentLog}) for each root (and `since`) it is sent and
 * posts the log read back under the id it came with (the ages are made from it there),
 * or the failure: a `DochygieneError`'s code, message and exit code, another
 * error's name and message. Not a module to import.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { readFirstParentLog } from "./first_parent_log.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ id: number; root: string; since?: string }>) => void;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  const { id, root, since } = event.data;
  try {
    scope.postMessage({ id, read: await readFirstParentLog(root, { since, partial: true }) });
  } catch (err) {
    scope.postMessage({
      id,
      error: err instanceof DochygieneError
        ? { code: err.code, message: err.message, exitCode: err.exitCode }
        : err instanceof Error
        ? { name: err.name, message: err.message }
        : { message: String(err) },
    });
  }
};

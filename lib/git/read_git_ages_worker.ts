/**
 * The thread of `readGitAgesThreaded` (`read_git_ages_threaded.ts`): runs
 * {@linkcode historyPass} for each root (and `since`) it is sent and posts the result back under
 * the id it came with,
 * or the failure: a `DochygieneError`'s code, message and exit code, another
 * error's name and message. Not a module to import.
 *
 * @module
 */

import { DochygieneError } from "../core/dochygiene_error.ts";
import { historyPass } from "./read_git_ages.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ id: number; root: string; since?: string }>) => void;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  const { id, root, since } = event.data;
  try {
    scope.postMessage({ id, pass: await historyPass(root, since) });
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

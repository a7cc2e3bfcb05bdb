/**
 * The thread of `readGitAgesThreaded` (`read_git_ages_threaded.ts`): runs
 * {@linkcode readGitAges} for the root it is sent and posts the result back,
 * or the failure: a `DochygieneError`'s code, message and exit code, another
 * error's name and message. Not a module to import.
 *
 * @module
 */

import { DochygieneError } from "./dochygiene_error.ts";
import { readGitAges } from "./read_git_ages.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<string>) => void;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  try {
    scope.postMessage({ ages: await readGitAges(event.data) });
  } catch (err) {
    scope.postMessage({
      error: err instanceof DochygieneError
        ? { code: err.code, message: err.message, exitCode: err.exitCode }
        : err instanceof Error
        ? { name: err.name, message: err.message }
        : { message: String(err) },
    });
  }
};

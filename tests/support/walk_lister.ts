// Test helper (run by list_candidates_test.ts, as an unprivileged user when the
// suite runs as root): lists the directory in Deno.args[0] in walk mode and
// prints the listing as JSON.

import { listCandidates } from "../../lib/git/list_candidates.ts";

const listing = await listCandidates(Deno.args[0], { git: false, excludedDirs: [] });
console.log(JSON.stringify(listing));

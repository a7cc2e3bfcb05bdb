// Test helper (run by state_sandbox_test.ts with state.ts's exact flags, from
// the root): tries writes outside `.dochygiene` and prints what happened to each.

const outside = Deno.args[0];
const attempts: Record<string, () => Promise<unknown>> = {
  "../x": () => Deno.writeTextFile("../x", "escaped"),
  "README.md": () => Deno.writeTextFile("README.md", "overwritten"),
  "docs/new.md": () => Deno.writeTextFile("docs/new.md", "new"),
  "mkdir docs2": () => Deno.mkdir("docs2"),
  "remove README.md": () => Deno.remove("README.md"),
  "outside": () => Deno.writeTextFile(`${outside}/x`, "escaped"),
  ".dochygiene/ok": () => Deno.writeTextFile(".dochygiene/ok", "inside"),
};
const result: Record<string, string> = {};
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    await attempt();
    result[name] = "ok";
  } catch (err) {
    result[name] = err instanceof Error ? err.name : String(err);
  }
}
console.log(JSON.stringify(result));

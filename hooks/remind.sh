# dochygiene SessionStart launcher (POSIX sh). hooks/hooks.json sources it with `.`
# into the shell Claude Code starts for the hook command, so no second shell
# process starts and no executable bit is needed (marketplace installs strip it).
# It walks up from the session directory to the first directory holding `.git`
# (builtins only, no git process), cd's there so that --allow-write=.dochygiene
# names <root>/.dochygiene, and execs the reminder with --no-config (no deno.json
# is read, neither the project's nor the plugin's: ~1 ms). It runs hooks/remind.js,
# remind.ts bundled into one module by `deno task bundle` (~2 ms less start-up
# than separate modules). No deno: once a calendar day, one line saying dochygiene
# needs it and how to install it, the day kept in the plugin's data directory
# ($CLAUDE_PLUGIN_DATA; never the project); without that directory, or `date`,
# silently nothing. Sourced, so `exit` ends the hook's shell and the variables are
# prefixed.

if ! command -v deno >/dev/null 2>&1; then
  [ -n "${CLAUDE_PLUGIN_DATA:-}" ] || exit 0
  dochygiene_day=$(date +%Y-%m-%d 2>/dev/null) || exit 0
  [ -n "$dochygiene_day" ] || exit 0
  dochygiene_said=
  { read -r dochygiene_said <"$CLAUDE_PLUGIN_DATA/deno-missing-notice"; } 2>/dev/null
  [ "$dochygiene_said" = "$dochygiene_day" ] && exit 0
  # Said only once the day is kept: a directory that takes no file never repeats it.
  { printf '%s\n' "$dochygiene_day" >"$CLAUDE_PLUGIN_DATA/deno-missing-notice"; } 2>/dev/null ||
    exit 0
  printf '%s' '{"systemMessage":"dochygiene needs Deno 2, not found on PATH: install it (npm install -g deno@2, or see https://docs.deno.com/runtime/getting_started/installation/), then start a new session","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"The dochygiene plugin cannot run: Deno 2 is not on PATH. The user was told once today; mention it only if asked about dochygiene."}}'
  exit 0
fi
cd -P . 2>/dev/null || exit 0
dochygiene_root=$PWD
dochygiene_dir=$PWD
while :; do
  if [ -e "$dochygiene_dir/.git" ] || [ -h "$dochygiene_dir/.git" ]; then
    dochygiene_root=$dochygiene_dir
    break
  fi
  case $dochygiene_dir in /) break ;; esac
  dochygiene_dir=${dochygiene_dir%/*}
  [ -n "$dochygiene_dir" ] || dochygiene_dir=/
done
cd "$dochygiene_root" 2>/dev/null || exit 0

exec deno run --quiet --no-config \
  --no-prompt --allow-read --allow-write=.dochygiene --allow-env \
  "$CLAUDE_PLUGIN_ROOT/hooks/remind.js" 2>/dev/null

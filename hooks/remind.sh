# dochygiene SessionStart launcher (POSIX sh, run as `sh .../hooks/remind.sh`, so no
# executable bit is needed). It walks up from the session directory to the first
# directory holding `.git` (no git process), cd's there so that
# --allow-write=.dochygiene names <root>/.dochygiene, and execs remind.ts with the
# plugin's own deno.json (the project's is ignored). No deno: silently nothing.

command -v deno >/dev/null 2>&1 || exit 0
case $0 in
  /*) hooks=${0%/*} ;;
  */*) hooks=$PWD/${0%/*} ;;
  *) hooks=$PWD ;;
esac
plugin=${CLAUDE_PLUGIN_ROOT:-$hooks/..}

cd -P . 2>/dev/null || exit 0
root=$PWD
dir=$PWD
while :; do
  if [ -e "$dir/.git" ] || [ -h "$dir/.git" ]; then
    root=$dir
    break
  fi
  case $dir in /) break ;; esac
  dir=${dir%/*}
  [ -n "$dir" ] || dir=/
done
cd "$root" 2>/dev/null || exit 0

exec deno run --quiet --config "$plugin/deno.json" \
  --no-prompt --allow-read --allow-write=.dochygiene --allow-env \
  "$plugin/remind.ts" 2>/dev/null

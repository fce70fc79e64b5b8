#!/bin/sh
# run-isolated.sh DIR TIMEOUT COMMAND
#
# Runs COMMAND with /bin/sh in DIR the way a pipeline runs the patch's code outside ag-run
# (the coverage command): an allowlisted environment (PATH, a fresh empty HOME, LANG, TZ=UTC,
# CI=true: never the caller's secrets), a wall-clock limit, stdin closed. As root it runs as a
# fresh unprivileged uid that owns DIR, and every process of that uid is killed afterwards —
# also a daemon that left the process group and cleared its environment. Not as root, the
# command gets its own session and nothing outlives it that is known; use AG_SANDBOX=bwrap in
# CI (ag-run and ag-mutate then run in a pid namespace).
# Exit: the command's status (124 on timeout), 3 when DIR is not a directory.
set -u
[ $# -eq 3 ] && [ -d "$1" ] || { echo "run-isolated.sh: usage: run-isolated.sh DIR TIMEOUT COMMAND" >&2; exit 3; }
dir=$1 limit=$2 cmd=$3
home=$(mktemp -d) || exit 3
keep_env() { env -i PATH="$PATH" HOME="$home" LANG="${LANG:-C.UTF-8}" TZ=UTC CI=true "$@"; }

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  # A uid no account names and no process uses (the range ag-run picks from too).
  uid=""
  for _ in 1 2 3 4 5 6 7 8; do
    candidate=$(shuf -i 100000-164999 -n 1)
    grep -q ":$candidate:" /etc/passwd /etc/group && continue
    grep -qs "^Uid:[[:space:]]*$candidate[[:space:]]" /proc/[0-9]*/status && continue
    uid=$candidate && break
  done
  [ -n "$uid" ] || { echo "run-isolated.sh: no free uid found" >&2; rm -rf "$home"; exit 3; }
  if ! setpriv --reuid="$uid" --regid="$uid" --clear-groups test -x "$dir/.." 2>/dev/null; then
    echo "run-isolated.sh: $dir lies under a directory other users cannot enter: running as the caller" >&2
    uid=""
  fi
fi

if [ -n "${uid:-}" ]; then
  chown -R "$uid:$uid" "$dir" "$home"
  (cd "$dir" && keep_env timeout -k 2 "$limit" setpriv --reuid="$uid" --regid="$uid" --clear-groups /bin/sh -c "$cmd" </dev/null)
  status=$?
  # kill(-1) as that uid reaches every process of the uid, wherever it went (not the killer itself).
  setpriv --reuid="$uid" --regid="$uid" --clear-groups /bin/sh -c 'kill -s KILL -- -1' 2>/dev/null
  setpriv --reuid="$uid" --regid="$uid" --clear-groups /bin/sh -c 'kill -s KILL -- -1' 2>/dev/null
  chown -R 0:0 "$dir"
else
  (cd "$dir" && keep_env timeout -k 2 "$limit" setsid /bin/sh -c "$cmd" </dev/null)
  status=$?
fi
rm -rf "$home"
exit "$status"

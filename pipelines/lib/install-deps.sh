#!/bin/sh
# install-deps.sh TREE DEPS TIMEOUT COMMAND
#
# Installs one side's dependencies once, outside the test runs: TREE (an exported tree) is
# copied to DEPS, COMMAND (the install, e.g. `npm ci --ignore-scripts`) runs there through
# run-isolated.sh (the allowlisted environment, a wall-clock limit of TIMEOUT seconds, and as
# root a fresh unprivileged uid), and TREE/node_modules becomes a link to DEPS/node_modules,
# owned by root: every copy ag-run and ag-mutate make of TREE gets its own folder of links to
# those packages, so no run writes into them or into the next run.
# Prints the install's output tail on stderr when it fails.
# Exit: 0 installed; the install's status when it failed (124 on timeout); 3 on bad usage.
set -u
[ $# -eq 4 ] && [ -d "$1" ] || { echo "install-deps.sh: usage: install-deps.sh TREE DEPS TIMEOUT COMMAND" >&2; exit 3; }
tree=$1 deps=$2 limit=$3 cmd=$4
here=$(cd "$(dirname "$0")" && pwd)
[ -e "$deps" ] && { echo "install-deps.sh: $deps already exists" >&2; exit 3; }
mkdir -p "$deps" && (cd "$tree" && tar -cf - --exclude=./node_modules .) | (cd "$deps" && tar -xf -) || exit 3
chmod 755 "$deps"
log="$deps.log"
sh "$here/run-isolated.sh" "$deps" "$limit" "$cmd" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "install-deps.sh: the install ($cmd) exited $status in a copy of $tree; its last lines:" >&2
  tail -n 15 "$log" | sed 's/^/  | /' >&2
  exit "$status"
fi
[ -d "$deps/node_modules" ] || mkdir "$deps/node_modules"
rm -rf "$tree/node_modules" && ln -s "$deps/node_modules" "$tree/node_modules" || exit 3
exit 0

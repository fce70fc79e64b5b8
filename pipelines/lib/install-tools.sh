#!/bin/sh
# install-tools.sh TREE PACKAGES TOOLS TIMEOUT SPEC...
#
# Installs the gate's own tools, the reporter or coverage tool a project lacks (jest-junit, c8,
# @vitest/coverage-v8), into TOOLS/node_modules: never into the project's packages or its
# package.json. Part of the install step: `npm install` of exact versions in TOOLS through
# run-isolated.sh (the allowlisted environment, a limit of TIMEOUT seconds, as root a fresh
# uid), lifecycle scripts off, with TREE's .npmrc (the project's registry and cache) when it
# has one. A SPEC is NAME@VERSION, or NAME@=DEP: the version of DEP installed in PACKAGES (a
# peer that must match the project's, as @vitest/coverage-v8 matches vitest).
# Prints one line per tool, with its version and folder, on stderr; the install's last lines
# when it fails.
# Exit: 0; the install's status when it failed (124 on timeout); 3 on bad usage, or a DEP that
# PACKAGES does not hold.
set -u
[ $# -ge 5 ] && [ -d "$1" ] || { echo "install-tools.sh: usage: install-tools.sh TREE PACKAGES TOOLS TIMEOUT SPEC..." >&2; exit 3; }
tree=$1 packages=$2 tools=$3 limit=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
[ -e "$tools" ] && { echo "install-tools.sh: $tools already exists" >&2; exit 3; }
mkdir -p "$tools" && chmod 755 "$tools" || exit 3
# The folder is its own project: npm neither climbs to a package.json above it nor saves one.
printf '{"name":"adversary-gate-tools","version":"0.0.0","private":true}\n' >"$tools/package.json" || exit 3
[ -f "$tree/.npmrc" ] && [ ! -L "$tree/.npmrc" ] && { cp "$tree/.npmrc" "$tools/.npmrc" || exit 3; }
words=""
for spec in "$@"; do
  name=${spec%@*} version=${spec##*@}
  case "$version" in
    =*)
      dep=${version#=}
      version=$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version))' \
        "$packages/$dep/package.json" 2>/dev/null) ||
        { echo "install-tools.sh: $name must match $dep's version, and $packages holds no $dep" >&2; exit 3; }
      ;;
  esac
  # Names and versions become words of one shell command: only the characters npm allows.
  printf '%s@%s' "$name" "$version" | grep -Eq '^@?[A-Za-z0-9._/-]+@[A-Za-z0-9.+-]+$' ||
    { echo "install-tools.sh: not a package and exact version: $name@$version" >&2; exit 3; }
  words="$words $name@$version"
  echo "install-tools.sh: $name@$version (the project has none) into $tools/node_modules" >&2
done
log="$tools.log"
sh "$here/run-isolated.sh" "$tools" "$limit" \
  "npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --save-exact$words" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "install-tools.sh: the gate's tool install (npm install$words) exited $status; its last lines:" >&2
  tail -n 15 "$log" | sed 's/^/  | /' >&2
  exit "$status"
fi
exit 0

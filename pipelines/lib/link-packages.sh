#!/bin/sh
# link-packages.sh PACKAGES DEST [TOOLS NAME...]
#
# Gives the tree DEST (run in place: the coverage tree) its own node_modules folder of links to
# each installed package in PACKAGES, so that what a runner writes beside them (.vite, .cache)
# lands in DEST, never in the packages; the caches themselves are not linked. Each NAME is
# then linked from TOOLS/node_modules (the gate's own tools a runner imports by name, such as
# @vitest/coverage-v8); a scope folder that is a link becomes a folder of links first, so that
# nothing is added inside PACKAGES.
# Exit: 0, or 3 on bad usage or a failed link.
set -u
[ $# -ge 2 ] && [ -d "$1" ] && [ -d "$2" ] || { echo "link-packages.sh: usage: link-packages.sh PACKAGES DEST [TOOLS NAME...]" >&2; exit 3; }
packages=$(cd "$1" && pwd -P) dest=$2/node_modules
shift 2
mkdir "$dest" || exit 3
# links DIR TARGET: a link in TARGET to every entry of DIR but the caches.
links() {
  for p in "$1"/* "$1"/.[!.]*; do
    [ -e "$p" ] || [ -L "$p" ] || continue
    case "$(basename "$p")" in .cache|.vite) continue ;; esac
    ln -s "$p" "$2/" || return 1
  done
}
links "$packages" "$dest" || exit 3
[ $# -eq 0 ] && exit 0
tools=$(cd "$1" && pwd -P)/node_modules
shift
for name in "$@"; do
  [ -e "$tools/$name" ] || { echo "link-packages.sh: the gate's tools hold no $name" >&2; exit 3; }
  case "$name" in
    @*/*)
      scope=$dest/${name%%/*}
      if [ -L "$scope" ]; then
        target=$(readlink "$scope") && rm "$scope" && mkdir "$scope" && links "$target" "$scope" || exit 3
      fi
      [ -d "$scope" ] || mkdir "$scope" || exit 3
      ;;
  esac
  rm -f "$dest/$name" && ln -s "$tools/$name" "$dest/$name" || exit 3
done
exit 0

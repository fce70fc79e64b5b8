#!/bin/sh
# packages-digest.sh DIR...
#
# One digest of the installed packages in each DIR: every entry's path, type, size, mode,
# owner, modification time and link target (no content is read: a write changes its time).
# A pipeline takes it right after the install and again after the last tool ran the patch's
# code; a different digest means a run wrote into the installed packages.
# Prints `DIGEST  DIR` per DIR (`absent  DIR` for one that does not exist).
# Exit: 0, or 3 on bad usage or a DIR that cannot be read.
set -u
[ $# -ge 1 ] || { echo "packages-digest.sh: usage: packages-digest.sh DIR..." >&2; exit 3; }
for dir in "$@"; do
  [ -e "$dir" ] || { printf 'absent  %s\n' "$dir"; continue; }
  [ -d "$dir" ] || { echo "packages-digest.sh: $dir is not a directory" >&2; exit 3; }
  sum=$(cd "$dir" && find . -printf '%P\t%y\t%s\t%m\t%U\t%T@\t%l\n' | LC_ALL=C sort | sha256sum | cut -c1-64) || exit 3
  printf '%s  %s\n' "$sum" "$dir"
done

#!/bin/sh
# mutate.sh: the `mode: mutate` step of the adversary-gate action (action.yml).
#
# One shard of the mutation testing, in a job of its own: measure.sh with AG_MUTATE_SHARD, so
# pipelines/gate.sh runs as root exactly as in the measure job (the two trees exported, the
# same install step, every mutant as a fresh unprivileged uid with no sudo), then only
# `ag-mutate --shard K/N`, writing mutation-K.json into the evidence directory. The decide job
# merges every shard (decide.sh); a shard that wrote nothing is a shard missing there: a HOLD.
#
# Environment: AG_SHARD (K/N, 1 <= K <= N) and those of measure.sh (not AG_SHARDS).
# Exit: 0 (the verdict is the decide job's); 3 on a bad AG_SHARD or what measure.sh refuses.
set -u
bad() {
  echo "mutate.sh: AG_SHARD must be K/N with 1 <= K <= N, got: ${AG_SHARD:-nothing}" >&2
  exit 3
}
case "${AG_SHARD:-}" in
  */*) ;;
  *) bad ;;
esac
k=${AG_SHARD%%/*}
n=${AG_SHARD#*/}
case "$k/$n" in
  0* | */0* | */ | /* | *[!0-9/]* | */*/*) bad ;;
esac
[ "$k" -le "$n" ] || bad
unset AG_SHARDS
AG_MUTATE_SHARD=$k/$n
export AG_MUTATE_SHARD
exec sh "$(dirname "$0")/measure.sh"

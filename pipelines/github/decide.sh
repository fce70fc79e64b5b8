#!/bin/sh
# decide.sh: the `mode: decide` step of the adversary-gate action (action.yml).
#
# Trusted: reads git objects and JSON, never runs pull request code. It recomputes the diff and
# the two trees' git ids from the commits itself, reads the policy from the BASE commit, merges
# the mutation shards when told there are N (AG_SHARDS: mutation-1.json .. mutation-N.json,
# every one of them, else the mutation evidence is missing and the shards missing are named),
# runs ag-decide with the trees the evidence must have measured and the steps the measure job
# could not do (pipeline-faults.txt, each a --pipeline-fault), appends verdict.md to the job
# summary, and exits with `ag-decide check`: 0 ACCEPT, 1 REJECT, 2 HOLD.
#
# Environment: AG_GATE, AG_BASE, AG_HEAD, AG_EVIDENCE (the downloaded evidence); optional
# AG_SHARDS (the number of `mode: mutate` shards; without it, the evidence's mutation.json).
set -u
for v in AG_GATE AG_BASE AG_HEAD AG_EVIDENCE; do
  eval "val=\${$v:-}"
  [ -n "$val" ] || { echo "decide.sh: $v is not set" >&2; exit 3; }
done
case "${AG_SHARDS:-1}" in
  0* | *[!0-9]*) echo "decide.sh: AG_SHARDS must be a number of shards, got: $AG_SHARDS" >&2; exit 3 ;;
esac
BIN="$AG_GATE/node_modules/.bin"
work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/adversary-gate-decide"
rm -rf "$work" && mkdir -p "$work" || exit 3
for c in "$AG_BASE" "$AG_HEAD"; do
  git cat-file -e "$c^{commit}" 2>/dev/null || {
    echo "decide.sh: the checkout has no commit $c (check out the pull request with fetch-depth: 0): HOLD" >&2
    exit 2
  }
done
git diff --no-color --no-ext-diff --find-renames "$AG_BASE" "$AG_HEAD" >"$work/changes.diff" || exit 2
base_tree=$(git rev-parse "$AG_BASE^{tree}") && head_tree=$(git rev-parse "$AG_HEAD^{tree}") || exit 2

set -- --diff "$work/changes.diff" --baseline-tree "$base_tree" --patch-tree "$head_tree"
if git cat-file -e "$AG_BASE:adversary-gate.json" 2>/dev/null; then
  git show "$AG_BASE:adversary-gate.json" >"$work/policy.json" && set -- "$@" --policy "$work/policy.json"
fi
for kind in run diffcov oracle; do set -- "$@" --evidence "$AG_EVIDENCE/$kind.json"; done
# merge_shards N: every shard 1..N into $work/mutation.json, or names what is missing. Exactly
# N files given to `ag-mutate merge` (which refuses duplicated, missing and foreign shards):
# the merge covers shards 1..N of N, and no other count.
merge_shards() {
  n=$1 k=1 missing=""
  set --
  while [ "$k" -le "$n" ]; do
    if [ -f "$AG_EVIDENCE/mutation-$k.json" ]; then set -- "$@" "$AG_EVIDENCE/mutation-$k.json"; else missing="$missing $k/$n"; fi
    k=$((k + 1))
  done
  if [ -n "$missing" ]; then
    echo "decide.sh: mutation shard(s)$missing missing from the evidence (no mutation-K.json): HOLD"
    return 1
  fi
  "$BIN/ag-mutate" merge "$@" --quiet --out "$work/mutation.json" 2>&1 ||
    { echo "decide.sh: the mutation shards do not merge: HOLD"; return 1; }
}
note=""
if [ -n "${AG_SHARDS:-}" ]; then
  if ! note=$(merge_shards "$AG_SHARDS"); then
    printf '%s\n' "$note" >&2
    set -- "$@" --pipeline-fault "$(printf '%s' "$note" | sed 's/^decide\.sh: //; s/: HOLD$//' | tr '\n' ' ')"
  fi
  set -- "$@" --evidence "$work/mutation.json"
else
  set -- "$@" --evidence "$AG_EVIDENCE/mutation.json"
fi
# The steps the measure job could not do (gate.sh's pipeline-faults.txt): each names a HOLD.
# Only a HOLD can come of them, so the file needs no more trust than the evidence beside it.
if [ -f "$AG_EVIDENCE/pipeline-faults.txt" ]; then
  while IFS= read -r fault; do
    [ -n "$fault" ] && set -- "$@" --pipeline-fault "$fault"
  done <"$AG_EVIDENCE/pipeline-faults.txt"
fi

"$BIN/ag-decide" "$@" --out "$work/verdict.json" --markdown "$work/verdict.md" --annotations
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  [ -n "$note" ] && printf '%s\n\n' "$note" >>"$GITHUB_STEP_SUMMARY"
  [ -f "$work/verdict.md" ] && cat "$work/verdict.md" >>"$GITHUB_STEP_SUMMARY"
fi
verdict=$(node -e 'try { process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).verdict) } catch { process.stdout.write("HOLD") }' "$work/verdict.json")
[ -n "${GITHUB_OUTPUT:-}" ] && echo "verdict=$verdict" >>"$GITHUB_OUTPUT"
"$BIN/ag-decide" check "$work/verdict.json" --diff "$work/changes.diff"

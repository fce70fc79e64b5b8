#!/bin/sh
# decide.sh: the `mode: decide` step of the adversary-gate action (action.yml).
#
# Trusted: reads git objects and JSON, never runs pull request code. It recomputes the diff and
# the two trees' git ids from the commits itself, reads the policy from the BASE commit, merges
# mutation shards when the evidence holds them (mutation-shard-*.json), runs ag-decide with the
# trees the evidence must have measured, appends verdict.md to the job summary, and exits with
# `ag-decide check`: 0 ACCEPT, 1 REJECT, 2 HOLD.
#
# Environment: AG_GATE, AG_BASE, AG_HEAD, AG_EVIDENCE (the downloaded evidence).
set -u
for v in AG_GATE AG_BASE AG_HEAD AG_EVIDENCE; do
  eval "val=\${$v:-}"
  [ -n "$val" ] || { echo "decide.sh: $v is not set" >&2; exit 3; }
done
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
shards=$(find "$AG_EVIDENCE" -maxdepth 2 -name 'mutation-shard-*.json' 2>/dev/null | sort)
if [ -n "$shards" ]; then
  # shellcheck disable=SC2086 # the shard paths are the action's own names, without spaces
  "$BIN/ag-mutate" merge $shards --out "$work/mutation.json" || echo "decide.sh: the mutation shards do not merge (the verdict holds)" >&2
  set -- "$@" --evidence "$work/mutation.json"
else
  set -- "$@" --evidence "$AG_EVIDENCE/mutation.json"
fi

"$BIN/ag-decide" "$@" --out "$work/verdict.json" --markdown "$work/verdict.md" --annotations
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$work/verdict.md" ] && cat "$work/verdict.md" >>"$GITHUB_STEP_SUMMARY"
verdict=$(node -e 'try { process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).verdict) } catch { process.stdout.write("HOLD") }' "$work/verdict.json")
[ -n "${GITHUB_OUTPUT:-}" ] && echo "verdict=$verdict" >>"$GITHUB_OUTPUT"
"$BIN/ag-decide" check "$work/verdict.json" --diff "$work/changes.diff"

#!/bin/sh
# decide.sh: the `mode: decide` step of the adversary-gate action (action.yml).
#
# Trusted: reads git objects and JSON, never runs pull request code. `ag-gate decide` (the one
# implementation, tools/ag-gate) recomputes the diff and the two trees' git ids from the
# commits, reads the policy from the BASE commit, merges the mutation shards when told there
# are N (AG_SHARDS), runs ag-decide with the steps the measure job could not do
# (pipeline-faults.txt), appends verdict.md to the job summary, and exits with
# `ag-decide check`: 0 ACCEPT, 1 REJECT, 2 HOLD.
#
# Environment: AG_GATE, AG_BASE, AG_HEAD, AG_EVIDENCE (the downloaded evidence); optional
# AG_SHARDS (the number of `mode: mutate` shards; without it, the evidence's mutation.json).
set -u
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
# In a checkout, tools/ag-gate; installed as @adversary-gate/gate, its sibling package.
for cli in "$here/../../tools/ag-gate/bin/ag-gate.js" "$here/../../ag-gate/bin/ag-gate.js"; do
  [ -f "$cli" ] && exec node "$cli" decide
done
echo "decide.sh: ag-gate is not installed beside $here" >&2
exit 3

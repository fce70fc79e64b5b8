#!/bin/sh
# adversary-gate from a POSIX shell: the whole pipeline in one command.
#
#   pipelines/gate.sh [--base REF] [--head REF] [--out DIR] [any ag-gate flag]
#
# A wrapper of ag-gate (tools/ag-gate), the one implementation of the pipeline; every setting
# may be given as its AG_* variable (AG_TEST_COMMAND, AG_COVERAGE_COMMAND, AG_INSTALL_COMMAND,
# AG_TIMEOUT, AG_MUTATE_MAX, AG_MUTATE_SHARD, AG_POLICY, AG_SANDBOX, AG_BIN_DIR, ...) or as
# the flag `ag-gate --help` lists. Exits 0 ACCEPT, 1 REJECT, 2 HOLD, 3 bad usage.
set -u
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
# In this repository, tools/ag-gate; installed as @adversary-gate/gate, its sibling package.
for cli in "$here/../tools/ag-gate/bin/ag-gate.js" "$here/../ag-gate/bin/ag-gate.js"; do
  if [ -f "$cli" ]; then
    AG_GATE_WHO=${AG_GATE_WHO:-gate.sh} exec node "$cli" "$@"
  fi
done
echo "gate.sh: ag-gate is not installed beside $here" >&2
exit 3

#!/bin/sh
# measure.sh: the `mode: measure` step of the adversary-gate action (action.yml).
#
# Runs pipelines/gate.sh as root (through `sudo -n` when the job is not root, as on
# GitHub-hosted runners), so that every install, test, coverage and mutant run gets a fresh
# unprivileged uid with no sudo, and the evidence directory and the gate's own files belong to
# root: nothing a test runs can rewrite run.json, the policy, the next tool or its
# node_modules. bwrap runs as root too, which needs no unprivileged user namespace (ubuntu-24.04
# restricts them through AppArmor; the restriction is lifted for the job all the same). When
# bwrap cannot start, ag-run and ag-mutate say so and the verdict holds: never a silent
# unsandboxed run.
#
# AG_SHARDS=N: mutation testing is done by N `mode: mutate` jobs (mutate.sh), so gate.sh runs
# with AG_MUTATE_MAX=0 and its mutation.json (a budget of 0) is deleted: a decide job not told
# about the shards holds on the missing mutation evidence, never decides without it.
# AG_MUTATE_SHARD=K/N (set by mutate.sh): gate.sh runs as that mutation shard only.
#
# Environment: AG_GATE (the installed gate), AG_BASE, AG_HEAD, AG_EVIDENCE; optional
# AG_TEST_COMMAND, AG_COVERAGE_COMMAND, AG_COVERAGE_REPORT, AG_JUNIT, AG_TIMEOUT, AG_SANDBOX,
# AG_SHARDS, AG_MUTATE_SHARD.
# Exit: 0 (the verdict is the decide job's); 3 on a missing or bad setting or no way to become root.
set -u
for v in AG_GATE AG_BASE AG_HEAD AG_EVIDENCE; do
  eval "val=\${$v:-}"
  [ -n "$val" ] || { echo "measure.sh: $v is not set" >&2; exit 3; }
done
case "${AG_SHARDS:-1}" in
  0* | *[!0-9]*) echo "measure.sh: AG_SHARDS must be a number of shards, got: $AG_SHARDS" >&2; exit 3 ;;
esac
[ -n "${AG_SHARDS:-}" ] && AG_MUTATE_MAX=0
# The pipeline beside this file: pipelines/gate.sh in a checkout, gate.sh in the installed package.
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
if [ "$(id -u)" = 0 ]; then
  as_root() { "$@"; }
elif sudo -n true 2>/dev/null; then
  as_root() { sudo -n "$@"; }
else
  echo "measure.sh: the gate must run as root (or through passwordless sudo) to give the tests a uid of their own" >&2
  exit 3
fi

as_root sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 >/dev/null 2>&1 || true
as_root chown -R 0:0 "$AG_GATE" || exit 3
as_root chmod -R go-w "$AG_GATE" || exit 3

# gate.sh gets exactly the settings given (an input left empty is not a setting: what is
# detected applies) and the toolchain's PATH, never the rest of the job's environment. git
# runs as root in a checkout the runner user owns, which git allows only when told so.
set -- -i PATH="$PATH" HOME="${HOME:-/root}" LANG="${LANG:-C.UTF-8}" GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'
for v in AG_TEST_COMMAND AG_COVERAGE_COMMAND AG_COVERAGE_REPORT AG_JUNIT AG_TIMEOUT AG_SANDBOX AG_PYTHON AG_ROUNDS AG_MUTATE_MAX AG_MUTATE_SHARD; do
  eval "val=\${$v:-}"
  [ -n "$val" ] && set -- "$@" "$v=$val"
done
as_root env "$@" sh "$here/../gate.sh" --base "$AG_BASE" --head "$AG_HEAD" --out "$AG_EVIDENCE"
echo "measure.sh: gate.sh exited $? (the decide job gives the verdict)"
[ -n "${AG_SHARDS:-}" ] && as_root rm -f "$AG_EVIDENCE/mutation.json"
# The upload step runs as the runner user: it may read the evidence, never write it.
as_root chmod -R a+rX,go-w "$AG_EVIDENCE" 2>/dev/null || true
exit 0

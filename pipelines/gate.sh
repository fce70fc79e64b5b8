#!/bin/sh
# adversary-gate as a plain POSIX shell pipeline.
#
#   pipelines/gate.sh [--base REF] [--head REF] [--out DIR]
#
# Run it inside the git repository to judge. It exports the baseline and the patch trees,
# writes the diff, runs ag-oracle on the exported trees before any of the patch's code runs,
# then ag-run, the coverage command and ag-diffcov, ag-mutate, lets ag-decide write
# verdict.json, and exits with `ag-decide check`: 0 ACCEPT, 1 REJECT, 2 HOLD, 3 bad usage.
# Every path and command is passed as one argument: spaces, quotes and non-ASCII are safe.
# Another run on the same --out (it holds DIR.lock) is exit 2 at once, with nothing written.
# A REJECT or HOLD never stops the pipeline half-way: every artefact is written first.
#
# With no settings it finds out, from the baseline tree, the install command (from the lock
# file: npm ci, pnpm install --frozen-lockfile, yarn install --immutable; no lock: npm install;
# lifecycle scripts off), the test runner (vitest, jest, mocha, ava, node --test, tap, tape,
# pytest) and the commands that run it with a per-test report and a coverage report, and prints
# what it found (kept as detected.txt). Dependencies are installed once per side, each in its
# own copy. A reporter or coverage tool the project lacks (jest-junit, c8, @vitest/coverage-v8
# of the project's vitest version) is installed by the gate, pinned, into its own folder as
# part of the install step (never into the project); node:test runs with the gate's reporter
# (lib/node-test-junit.mjs), whose test ids carry the file. The installed packages are
# digested after the install and after the last run (packages-installed.sha256,
# packages-after.sha256): a run that wrote into them is a HOLD, like a failed install.
#
# Settings (environment; each overrides what is detected):
#   AG_TEST_COMMAND        the claim / full-suite command        (default: detected)
#   AG_FULL_SUITE_COMMAND  the full-suite command                (default: AG_TEST_COMMAND)
#   AG_COVERAGE_COMMAND    writes a coverage report in the patch tree (default: detected when
#                          AG_TEST_COMMAND is not set; empty: no coverage)
#   AG_COVERAGE_REPORT     that report's path, relative to the tree (default: detected, else coverage/lcov.info)
#   AG_JUNIT               a JUnit report path the test command writes (default: detected)
#   AG_INSTALL_COMMAND     installs a side's dependencies        (default: detected; empty: none)
#   AG_INSTALL_TIMEOUT     seconds for one install               (default: 900)
#   AG_ROUNDS              claim rounds on the patch             (default: 3)
#   AG_TIMEOUT             seconds per test run: ag-run's executions, ag-mutate's
#                          baseline runs (--timeout), the coverage command (default: 120)
#   AG_MUTATE_MAX          mutant budget                         (default: 20)
#   AG_MUTATE_SHARD        K/N: run as mutation shard K of N: export and install as always,
#                          then only `ag-mutate --shard K/N`, into DIR/mutation-K.json (no
#                          ag-oracle, ag-run, coverage, ag-diffcov, verdict); exit 0 when that
#                          file was written, 2 when not
#   AG_PYTHON              interpreter for Python projects       (default: python3)
#   AG_POLICY              policy file outside the patch tree    (default: the baseline's
#                          adversary-gate.json if it has one, else the tools' defaults;
#                          set and missing: exit 3)
#   AG_SANDBOX             none | bwrap                          (default: none)
#   AG_MAX_PROCESSES       as root: each test run's own process limit (default: ag-run's, 1024)
#   AG_BIN_DIR             where the ag-* binaries are           (default: this repo's node_modules/.bin)
set -u

usage() { echo "usage: gate.sh [--base REF] [--head REF] [--out DIR]" >&2; exit 3; }

BASE=origin/main
HEAD_REF=HEAD
OUT=.adversary-gate
while [ $# -gt 0 ]; do
  case "$1" in
    --base) [ $# -ge 2 ] || usage; BASE=$2; shift 2 ;;
    --head) [ $# -ge 2 ] || usage; HEAD_REF=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 0 ;;
    *) usage ;;
  esac
done

unset CDPATH
# A directory named like a flag would be read as one by mkdir, cd and the tools.
case "$OUT" in -*) OUT=./$OUT ;; esac
# Where this file really is (run through node_modules/.bin/ag-gate, $0 is a link to it).
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
# The tools: this repository's, or, installed as @adversary-gate/gate, the project's.
if [ -z "${AG_BIN_DIR:-}" ] && [ ! -x "$here/../node_modules/.bin/ag-run" ] && [ -x "$here/../../.bin/ag-run" ]; then
  AG_BIN_DIR=$here/../../.bin
fi
BIN=${AG_BIN_DIR:-$here/../node_modules/.bin}
INSTALL_TIMEOUT=${AG_INSTALL_TIMEOUT:-900}
ROUNDS=${AG_ROUNDS:-3}
TIMEOUT=${AG_TIMEOUT:-120}
MUTATE_MAX=${AG_MUTATE_MAX:-20}
PYTHON=${AG_PYTHON:-python3}
SANDBOX=${AG_SANDBOX:-none}
SHARD=${AG_MUTATE_SHARD:-}
case "$SHARD" in
  *[!0-9/]* | */*/* | /* | */) echo "gate.sh: AG_MUTATE_SHARD must be K/N, got: $SHARD" >&2; exit 3 ;;
  '' | */*) ;;
  *) echo "gate.sh: AG_MUTATE_SHARD must be K/N, got: $SHARD" >&2; exit 3 ;;
esac

# A policy asked for by name and missing is bad usage, never a silent fall back to the defaults.
if [ -n "${AG_POLICY:-}" ] && [ ! -f "$AG_POLICY" ]; then
  echo "gate.sh: AG_POLICY names no file: $AG_POLICY" >&2
  exit 3
fi
git rev-parse --git-dir >/dev/null 2>&1 || { echo "gate.sh: not inside a git repository" >&2; exit 3; }
base_sha=$(git rev-parse --verify --quiet "$BASE^{commit}") || { echo "gate.sh: unknown base ref: $BASE" >&2; exit 3; }
head_sha=$(git rev-parse --verify --quiet "$HEAD_REF^{commit}") || { echo "gate.sh: unknown head ref: $HEAD_REF" >&2; exit 3; }

# One run per evidence directory (catalogue G69): a second run on the same --out would delete
# or mix the first one's artefacts. The lock is a file beside the directory (which is deleted
# and rebuilt), held on fd 9 until this shell ends however it ends; no tool inherits it.
LOCK="${OUT%/}.lock"
# (A failed redirection on exec would end the shell with sh's own message: try it first.)
{ mkdir -p "$(dirname "$LOCK")" && : >>"$LOCK"; } 2>/dev/null || { echo "gate.sh: cannot open the lock file $LOCK" >&2; exit 3; }
exec 9>>"$LOCK"
flock -n 9 || { echo "gate.sh: another gate run is using $OUT (it holds $LOCK): HOLD, nothing written" >&2; exit 2; }

rm -rf "$OUT"
mkdir -p "$OUT/baseline" "$OUT/patch" || exit 3
OUT=$(cd "$OUT" && pwd)
# A step this pipeline could not do: said on stderr and kept, one line each, in
# pipeline-faults.txt; ag-decide gets each as --pipeline-fault, so the verdict (a HOLD) names
# it. pipeline_fault TEXT [LOG]: LOG's last lines follow TEXT.
FAULTS=$OUT/pipeline-faults.txt
pipeline_fault() {
  sh "$here/lib/pipeline-fault.sh" 9>&- gate.sh "$FAULTS" "$@" || exit 3
}
# The coverage command runs the patch's code in place: in a tree outside the evidence directory.
WORK=$(mktemp -d) || exit 3
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK" && mkdir "$WORK/coverage-tree" || exit 3

# The trees are exports of exactly the two commits: no history, no other refs, no remotes.
git archive "$base_sha" | tar -x -C "$OUT/baseline" || exit 3
git archive "$head_sha" | tar -x -C "$OUT/patch" || exit 3
git archive "$head_sha" | tar -x -C "$WORK/coverage-tree" || exit 3
# Written whole or not at all: the tools read it under its final name.
git diff --no-color --no-ext-diff --find-renames "$base_sha" "$head_sha" > "$OUT/changes.diff.tmp" &&
  mv "$OUT/changes.diff.tmp" "$OUT/changes.diff" || exit 3

# The policy comes from outside the patch: AG_POLICY, or the baseline's adversary-gate.json
# when the baseline has one (without it every tool judges under the defaults).
if [ -n "${AG_POLICY:-}" ]; then
  POLICY=$AG_POLICY
elif [ -f "$OUT/baseline/adversary-gate.json" ]; then
  POLICY=$OUT/baseline/adversary-gate.json
else
  POLICY=""
fi
# Every argument below is passed as one word, whatever its spaces or quotes: each tool's
# argument list is built with `set --` (POSIX sh has no arrays), never by splitting a string.
# with_policy CMD ARGS...: runs CMD ARGS... with `--policy FILE` appended when there is one.
with_policy() {
  if [ -n "$POLICY" ]; then "$@" --policy "$POLICY"; else "$@"; fi
}

# The exported trees' git ids, taken before any of the patch's code runs.
baseline_tree=$(node "$here/lib/tree-id.mjs" 9>&- "$OUT/baseline") && patch_tree=$(node "$here/lib/tree-id.mjs" 9>&- "$OUT/patch") || exit 3

# 1. did the patch touch what it must not: first, on the exported trees, before any of the
# patch's code (its tests, its coverage command) has run and could rewrite what it digests.
oracle_sum=""
if [ -z "$SHARD" ]; then
  with_policy "$BIN/ag-oracle" 9>&- --diff "$OUT/changes.diff" --baseline "$OUT/baseline" --patch "$OUT/patch" \
    --quiet --out "$OUT/oracle.json" || true
  oracle_sum=$(sha256sum 2>/dev/null <"$OUT/oracle.json")
fi

# What the checkout is, found out from the BASELINE (the runner is the baseline's, never one
# the patch brings): the install command, the test runner and the commands that run it with a
# per-test report and a coverage report. Every AG_* setting given overrides what is detected.
detected=$(node "$here/lib/detect.mjs" 9>&- --tree "$OUT/baseline" --python "$PYTHON" --tools-dir "$WORK/tools" \
  2>"$WORK/detected.txt") || { cat "$WORK/detected.txt" >&2; exit 3; }
eval "$detected"
TEST_COMMAND=${AG_TEST_COMMAND:-$AG_DETECTED_TEST_COMMAND}
FULL_SUITE_COMMAND=${AG_FULL_SUITE_COMMAND:-$TEST_COMMAND}
if [ -n "${AG_TEST_COMMAND:-}" ]; then
  # A test command given by hand brings its own reports: nothing detected is added to it.
  COVERAGE_COMMAND=${AG_COVERAGE_COMMAND:-}
  COVERAGE_REPORT=${AG_COVERAGE_REPORT:-coverage/lcov.info}
  JUNIT=${AG_JUNIT:-}
else
  COVERAGE_COMMAND=${AG_COVERAGE_COMMAND-$AG_DETECTED_COVERAGE_COMMAND}
  COVERAGE_REPORT=${AG_COVERAGE_REPORT:-${AG_DETECTED_COVERAGE_REPORT:-coverage/lcov.info}}
  JUNIT=${AG_JUNIT-$AG_DETECTED_JUNIT}
fi
INSTALL_COMMAND=${AG_INSTALL_COMMAND-$AG_DETECTED_INSTALL_COMMAND}
# One short block at the start: what was detected, or what the settings chose instead.
# The gate's own tools (a reporter or coverage tool the project lacks) only for detected commands.
TOOLS=""
if [ "$TEST_COMMAND" = "$AG_DETECTED_TEST_COMMAND" ] ||
  { [ -n "$COVERAGE_COMMAND" ] && [ "$COVERAGE_COMMAND" = "$AG_DETECTED_COVERAGE_COMMAND" ]; }; then
  TOOLS=$AG_DETECTED_TOOLS
fi
# The block is kept with the evidence (detected.txt), as printed.
if [ -z "${AG_TEST_COMMAND:-}${AG_INSTALL_COMMAND+set}${AG_COVERAGE_COMMAND+set}${AG_JUNIT+set}" ]; then
  cp "$WORK/detected.txt" "$OUT/detected.txt" || exit 3
else
  {
    echo "adversary-gate settings (AG_*) over what was detected:"
    echo "  tests: ${TEST_COMMAND:-none}"
    echo "  install: ${INSTALL_COMMAND:-none}"
    echo "  coverage: ${COVERAGE_COMMAND:-none}"
    if [ -n "$TOOLS" ]; then echo "  the gate's tools: $TOOLS"; fi
  } >"$OUT/detected.txt" || exit 3
fi
cat "$OUT/detected.txt" >&2

# Dependencies: installed once per side, each in its own copy, outside the runs' timeout (the
# install has its own, AG_INSTALL_TIMEOUT); a side whose package files equal the other's
# shares its install. Each tree's node_modules becomes a link to its side's packages, and
# every copy a tool makes gets its own folder of links to them. A failed install is named
# here and leaves that side unmeasured: a HOLD, never a test failure.
installed=yes
if [ -n "$INSTALL_COMMAND" ]; then
  same=yes
  for f in package.json package-lock.json npm-shrinkwrap.json pnpm-lock.yaml yarn.lock .npmrc .yarnrc.yml; do
    if [ -e "$OUT/baseline/$f" ] || [ -e "$OUT/patch/$f" ]; then
      cmp -s "$OUT/baseline/$f" "$OUT/patch/$f" || same=no
    fi
  done
  # install SIDE: one side's install; a failure is a pipeline fault with its exit and last lines.
  install_side() {
    sh "$here/lib/install-deps.sh" 9>&- "$OUT/$1" "$WORK/deps-$1" "$INSTALL_TIMEOUT" "$INSTALL_COMMAND" && return 0
    status=$?
    pipeline_fault "the install of the $1 ($INSTALL_COMMAND) exited $status, so no test ran" "$WORK/deps-$1.log"
    installed=no
  }
  install_side baseline
  if [ "$installed" = yes ] && [ "$same" = yes ]; then
    ln -s "$WORK/deps-baseline/node_modules" "$OUT/patch/node_modules" || exit 3
  elif [ "$installed" = yes ]; then
    install_side patch
  fi
fi
# The gate's own tools, installed as part of the install step (same timeout, same failure:
# nothing measured), into their own folder, never into the project's packages.
if [ "$installed" = yes ] && [ -n "$TOOLS" ]; then
  # shellcheck disable=SC2086 # package@version words, checked by install-tools.sh
  sh "$here/lib/install-tools.sh" 9>&- "$OUT/baseline" "$OUT/patch/node_modules" "$WORK/tools" "$INSTALL_TIMEOUT" $TOOLS || {
    status=$?
    installed=no
    pipeline_fault "the gate's tool install ($TOOLS) exited $status, so no test ran" "$WORK/tools.log"
  }
fi
if [ "$installed" = yes ] && [ -n "$INSTALL_COMMAND" ]; then
  # The coverage tree is run in place: its own folder of links, which its uid may write beside.
  set --
  [ -n "$TOOLS" ] && [ -n "$AG_DETECTED_TOOL_LINKS" ] && set -- "$WORK/tools" $AG_DETECTED_TOOL_LINKS
  sh "$here/lib/link-packages.sh" 9>&- "$OUT/patch/node_modules" "$WORK/coverage-tree" "$@" || exit 3
fi
# What was installed, digested now and again after the last run of the patch's code.
digest_installed() {
  sh "$here/lib/packages-digest.sh" 9>&- "$WORK/deps-baseline/node_modules" "$WORK/deps-patch/node_modules" \
    "$WORK/tools/node_modules" >"$1"
}
if [ "$installed" = yes ] && [ -n "$INSTALL_COMMAND" ]; then
  digest_installed "$WORK/packages.before" || exit 3
fi
[ -n "$TEST_COMMAND" ] || pipeline_fault "no test command, so no test ran: ${AG_DETECTED_PROBLEMS:-nothing detected}"
measure=no
[ "$installed" = yes ] && [ -n "$TEST_COMMAND" ] && measure=yes

# 2. did the tests run, and what happened (a mutation shard measures only step 4)
if [ "$measure" = yes ] && [ -z "$SHARD" ]; then
  set -- --baseline "$OUT/baseline" --patch "$OUT/patch" --diff "$OUT/changes.diff" \
    --test-command "$TEST_COMMAND" --full-suite-command "$FULL_SUITE_COMMAND" \
    --rounds "$ROUNDS" --timeout "$TIMEOUT" --sandbox "$SANDBOX"
  [ -n "$JUNIT" ] && set -- "$@" --junit "$JUNIT"
  [ -n "${AG_MAX_PROCESSES:-}" ] && set -- "$@" --max-processes "$AG_MAX_PROCESSES"
  "$BIN/ag-run" 9>&- "$@" --quiet --out "$OUT/run.json" || true
fi

# 3. were the changed lines executed
set -- --diff "$OUT/changes.diff"
if [ -n "$COVERAGE_COMMAND" ] && [ "$measure" = yes ] && [ -z "$SHARD" ]; then
  sh "$here/lib/run-isolated.sh" 9>&- "$WORK/coverage-tree" "$TIMEOUT" "$COVERAGE_COMMAND" >"$OUT/coverage.log" 2>&1 || true
  if [ -f "$WORK/coverage-tree/$COVERAGE_REPORT" ] && [ ! -L "$WORK/coverage-tree/$COVERAGE_REPORT" ]; then
    report=$OUT/coverage/$(basename "$COVERAGE_REPORT")
    mkdir -p "$OUT/coverage" && cp "$WORK/coverage-tree/$COVERAGE_REPORT" "$report" &&
      set -- "$@" --coverage "$report" --root "$WORK/coverage-tree"
  fi
fi
[ -n "$SHARD" ] || with_policy "$BIN/ag-diffcov" 9>&- "$@" --quiet --out "$OUT/diffcov.json" --markdown "$OUT/diffcov.md" || true

# 4. would the tests notice if the changed lines were wrong (AG_TIMEOUT limits its runs too)
MUTATION=$OUT/mutation.json
if [ "$measure" = yes ]; then
  set -- --max "$MUTATE_MAX" --timeout "$TIMEOUT" --python "$PYTHON" --sandbox "$SANDBOX"
  [ -n "$SHARD" ] && MUTATION=$OUT/mutation-${SHARD%/*}.json && set -- "$@" --shard "$SHARD"
  # ag-run's full-suite run on the patch stands for ag-mutate's second baseline run when bound to the same work.
  [ -z "$SHARD" ] && [ -f "$OUT/run.json" ] && set -- "$@" --run "$OUT/run.json"
  with_policy "$BIN/ag-mutate" 9>&- --diff "$OUT/changes.diff" --tree "$OUT/patch" --test-command "$TEST_COMMAND" \
    "$@" --quiet --out "$MUTATION" || true
fi

# The installed packages must be as the install left them: a run that wrote into them (through
# a link, as another uid) measured packages nobody installed. Its evidence is moved aside
# (run.json.changed, mutation.json.changed), so ag-decide holds on it as missing.
if [ -f "$WORK/packages.before" ]; then
  digest_installed "$WORK/packages.after" || exit 3
  cp "$WORK/packages.before" "$OUT/packages-installed.sha256" && cp "$WORK/packages.after" "$OUT/packages-after.sha256" || exit 3
  if ! cmp -s "$WORK/packages.before" "$WORK/packages.after"; then
    pipeline_fault "a run wrote into the installed packages (packages-after.sha256 differs from packages-installed.sha256): run.json and mutation.json set aside"
    for f in "$OUT/run.json" "$MUTATION"; do [ -f "$f" ] && mv -f "$f" "$f.changed"; done
  fi
fi

# oracle.json must still be what ag-oracle wrote before the patch's code ran. A changed one
# is moved aside (never uploaded or read as evidence): ag-decide then holds on it as missing.
if [ -f "$OUT/oracle.json" ] && [ "$(sha256sum <"$OUT/oracle.json")" != "$oracle_sum" ]; then
  pipeline_fault "oracle.json changed after ag-oracle wrote it (kept as oracle.json.changed)"
  mv -f "$OUT/oracle.json" "$OUT/oracle.json.changed"
fi

# A shard's verdict is the decide job's, on every shard merged.
if [ -n "$SHARD" ]; then
  [ -f "$MUTATION" ] && exit 0
  echo "gate.sh: mutation shard $SHARD wrote no $(basename "$MUTATION"): HOLD" >&2
  exit 2
fi

# 5. the verdict (written whatever the tools did: missing evidence is HOLD)
set --
for kind in run diffcov mutation oracle; do set -- "$@" --evidence "$OUT/$kind.json"; done
# The trees every evidence file must have measured, as exported (never from the evidence).
set -- "$@" --baseline-tree "$baseline_tree" --patch-tree "$patch_tree"
if [ -f "$FAULTS" ]; then
  while IFS= read -r fault; do set -- "$@" --pipeline-fault "$fault"; done <"$FAULTS"
fi
with_policy "$BIN/ag-decide" 9>&- --diff "$OUT/changes.diff" "$@" \
  --out "$OUT/verdict.json" --markdown "$OUT/verdict.md"
decided=$?

# The file is checked as CI checks it; its answer must be the one ag-decide just gave. A
# verdict.json changed after ag-decide wrote it (by a process the tests left behind) is a HOLD.
"$BIN/ag-decide" 9>&- check "$OUT/verdict.json" --diff "$OUT/changes.diff"
checked=$?
if [ "$checked" -ne "$decided" ]; then
  echo "gate.sh: verdict.json no longer says what ag-decide decided (exit $decided, check $checked): HOLD" >&2
  exit 2
fi
exit "$checked"

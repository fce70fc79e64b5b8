# adversary-gate as Makefile targets, usable from any git repository:
#
#   make -f /path/to/adversary-gate/pipelines/gate.mk BASE=origin/main TEST_COMMAND='npm test'
#
# File targets run from changes.diff to verdict.json; the final `gate` target is
# `ag-decide check` (make fails unless the verdict is ACCEPT). A measuring tool that exits
# non-zero never deletes or skips a target: every recipe that may "fail" is prefixed with
# `-`, and this file deliberately has no .DELETE_ON_ERROR, so a REJECT still leaves
# verdict.json behind for people and CI to read.

AG_HOME      := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
BIN          ?= $(AG_HOME)/node_modules/.bin
BASE         ?= origin/main
HEAD         ?= HEAD
OUT          ?= .adversary-gate
TEST_COMMAND ?= npm test
FULL_SUITE_COMMAND ?= $(TEST_COMMAND)
COVERAGE_COMMAND   ?=
COVERAGE_REPORT    ?= coverage/lcov.info
JUNIT        ?=
ROUNDS       ?= 3
TIMEOUT      ?= 120
MUTATE_MAX   ?= 20
PYTHON       ?= python3
SANDBOX      ?= none
POLICY       ?= $(OUT)/baseline/adversary-gate.json
COVERAGE_TREE ?= $(abspath $(OUT)).work/coverage-tree
GATE_DIR     := $(AG_HOME)/pipelines/

POLICY_ARGS   = $(if $(wildcard $(POLICY)),--policy $(POLICY))
JUNIT_ARGS    = $(if $(JUNIT),--junit $(JUNIT))
EVIDENCE      = $(OUT)/run.json $(OUT)/diffcov.json $(OUT)/mutation.json $(OUT)/oracle.json

.PHONY: gate clean-gate FORCE
gate: $(OUT)/verdict.json
	$(BIN)/ag-decide check $(OUT)/verdict.json --diff $(OUT)/changes.diff

clean-gate:
	rm -rf $(OUT) $(abspath $(OUT)).work

# The subject: the two commits, rewritten only when they change, so every file target
# below is rebuilt exactly when BASE or HEAD moves.
$(OUT)/subject: FORCE
	@mkdir -p $(OUT)
	@b=$$(git rev-parse --verify --quiet '$(BASE)^{commit}') || { echo "gate.mk: unknown BASE $(BASE)" >&2; exit 3; }; \
	 h=$$(git rev-parse --verify --quiet '$(HEAD)^{commit}') || { echo "gate.mk: unknown HEAD $(HEAD)" >&2; exit 3; }; \
	 printf '%s %s\n' "$$b" "$$h" > $@.new; \
	 if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# Exports of exactly the two commits: no history, no other refs, no remotes.
# The coverage command runs the patch's code in place, so its tree is outside the evidence.
$(OUT)/trees: $(OUT)/subject
	rm -rf $(OUT)/baseline $(OUT)/patch $(COVERAGE_TREE)
	mkdir -p $(OUT)/baseline $(OUT)/patch $(COVERAGE_TREE)
	chmod 755 $(dir $(COVERAGE_TREE))
	git archive $$(cut -d' ' -f1 $<) | tar -x -C $(OUT)/baseline
	git archive $$(cut -d' ' -f2 $<) | tar -x -C $(OUT)/patch
	git archive $$(cut -d' ' -f2 $<) | tar -x -C $(COVERAGE_TREE)
	touch $@

$(OUT)/changes.diff: $(OUT)/subject
	git diff --no-color --no-ext-diff --find-renames $$(cut -d' ' -f1 $<) $$(cut -d' ' -f2 $<) > $@

$(OUT)/run.json: $(OUT)/changes.diff $(OUT)/trees
	-$(BIN)/ag-run --baseline $(OUT)/baseline --patch $(OUT)/patch --diff $< \
	  --test-command '$(TEST_COMMAND)' --full-suite-command '$(FULL_SUITE_COMMAND)' \
	  --rounds $(ROUNDS) --timeout $(TIMEOUT) --sandbox $(SANDBOX) $(JUNIT_ARGS) --quiet --out $@

# The other tools start after ag-run (order-only): it watches the evidence directory for
# writes while the patch's tests run, and a sibling tool's write under `make -j` would look like one.
$(OUT)/coverage.stamp: $(OUT)/trees | $(OUT)/run.json
	-$(if $(COVERAGE_COMMAND),sh $(GATE_DIR)lib/run-isolated.sh $(COVERAGE_TREE) $(TIMEOUT) '$(COVERAGE_COMMAND)' > $(OUT)/coverage.log 2>&1,true)
	touch $@

$(OUT)/diffcov.json: $(OUT)/changes.diff $(OUT)/coverage.stamp
	-$(BIN)/ag-diffcov --diff $< \
	  $(if $(and $(COVERAGE_COMMAND),$(wildcard $(COVERAGE_TREE)/$(COVERAGE_REPORT))),--coverage $(COVERAGE_TREE)/$(COVERAGE_REPORT) --root $(COVERAGE_TREE)) \
	  $(POLICY_ARGS) --quiet --out $@ --markdown $(OUT)/diffcov.md

$(OUT)/mutation.json: $(OUT)/changes.diff $(OUT)/trees | $(OUT)/run.json
	-$(BIN)/ag-mutate --diff $< --tree $(OUT)/patch --test-command '$(TEST_COMMAND)' \
	  --max $(MUTATE_MAX) --python $(PYTHON) --sandbox $(SANDBOX) $(POLICY_ARGS) --quiet --out $@

$(OUT)/oracle.json: $(OUT)/changes.diff $(OUT)/trees | $(OUT)/run.json
	-$(BIN)/ag-oracle --diff $< --baseline $(OUT)/baseline --patch $(OUT)/patch $(POLICY_ARGS) --quiet --out $@

# Missing evidence is HOLD, never an error: ag-decide writes a verdict on every path.
$(OUT)/verdict.json: $(OUT)/changes.diff $(EVIDENCE)
	-$(BIN)/ag-decide --diff $< $(foreach e,$(EVIDENCE),--evidence $(e)) $(POLICY_ARGS) \
	  --out $@ --markdown $(OUT)/verdict.md

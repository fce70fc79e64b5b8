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

POLICY_ARGS   = $(if $(wildcard $(POLICY)),--policy $(POLICY))
JUNIT_ARGS    = $(if $(JUNIT),--junit $(JUNIT))
EVIDENCE      = $(OUT)/run.json $(OUT)/diffcov.json $(OUT)/mutation.json $(OUT)/oracle.json

.PHONY: gate clean-gate FORCE
gate: $(OUT)/verdict.json
	$(BIN)/ag-decide check $(OUT)/verdict.json --diff $(OUT)/changes.diff

clean-gate:
	rm -rf $(OUT)

# The subject: the two commits, rewritten only when they change, so every file target
# below is rebuilt exactly when BASE or HEAD moves.
$(OUT)/subject: FORCE
	@mkdir -p $(OUT)
	@b=$$(git rev-parse --verify --quiet '$(BASE)^{commit}') || { echo "gate.mk: unknown BASE $(BASE)" >&2; exit 3; }; \
	 h=$$(git rev-parse --verify --quiet '$(HEAD)^{commit}') || { echo "gate.mk: unknown HEAD $(HEAD)" >&2; exit 3; }; \
	 printf '%s %s\n' "$$b" "$$h" > $@.new; \
	 if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# Exports of exactly the two commits: no history, no other refs, no remotes.
$(OUT)/trees: $(OUT)/subject
	rm -rf $(OUT)/baseline $(OUT)/patch $(OUT)/coverage-tree
	mkdir -p $(OUT)/baseline $(OUT)/patch $(OUT)/coverage-tree
	git archive $$(cut -d' ' -f1 $<) | tar -x -C $(OUT)/baseline
	git archive $$(cut -d' ' -f2 $<) | tar -x -C $(OUT)/patch
	git archive $$(cut -d' ' -f2 $<) | tar -x -C $(OUT)/coverage-tree
	touch $@

$(OUT)/changes.diff: $(OUT)/subject
	git diff --no-color --no-ext-diff --find-renames $$(cut -d' ' -f1 $<) $$(cut -d' ' -f2 $<) > $@

$(OUT)/run.json: $(OUT)/changes.diff $(OUT)/trees
	-$(BIN)/ag-run --baseline $(OUT)/baseline --patch $(OUT)/patch --diff $< \
	  --test-command '$(TEST_COMMAND)' --full-suite-command '$(FULL_SUITE_COMMAND)' \
	  --rounds $(ROUNDS) --timeout $(TIMEOUT) --sandbox $(SANDBOX) $(JUNIT_ARGS) --quiet --out $@

$(OUT)/coverage.stamp: $(OUT)/trees
	-$(if $(COVERAGE_COMMAND),cd $(OUT)/coverage-tree && $(COVERAGE_COMMAND) > ../coverage.log 2>&1,true)
	touch $@

$(OUT)/diffcov.json: $(OUT)/changes.diff $(OUT)/coverage.stamp
	-$(BIN)/ag-diffcov --diff $< \
	  $(if $(and $(COVERAGE_COMMAND),$(wildcard $(OUT)/coverage-tree/$(COVERAGE_REPORT))),--coverage $(OUT)/coverage-tree/$(COVERAGE_REPORT) --root $(OUT)/coverage-tree) \
	  $(POLICY_ARGS) --quiet --out $@ --markdown $(OUT)/diffcov.md

$(OUT)/mutation.json: $(OUT)/changes.diff $(OUT)/trees
	-$(BIN)/ag-mutate --diff $< --tree $(OUT)/patch --test-command '$(TEST_COMMAND)' \
	  --max $(MUTATE_MAX) --python $(PYTHON) $(POLICY_ARGS) --quiet --out $@

$(OUT)/oracle.json: $(OUT)/changes.diff $(OUT)/trees
	-$(BIN)/ag-oracle --diff $< --baseline $(OUT)/baseline --patch $(OUT)/patch $(POLICY_ARGS) --quiet --out $@

# Missing evidence is HOLD, never an error: ag-decide writes a verdict on every path.
$(OUT)/verdict.json: $(OUT)/changes.diff $(EVIDENCE)
	-$(BIN)/ag-decide --diff $< $(foreach e,$(EVIDENCE),--evidence $(e)) $(POLICY_ARGS) \
	  --out $@ --markdown $(OUT)/verdict.md

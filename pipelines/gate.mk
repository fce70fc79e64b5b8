# adversary-gate as Makefile targets, usable from any git repository:
#
#   make -f /path/to/adversary-gate/pipelines/gate.mk BASE=origin/main TEST_COMMAND='npm test'
#
# File targets run from changes.diff to verdict.json; the final `gate` target is
# `ag-decide check` (make fails unless the verdict is ACCEPT). A measuring tool that exits
# non-zero never deletes or skips a target: every recipe that may "fail" is prefixed with
# `-`, and this file deliberately has no .DELETE_ON_ERROR, so a REJECT still leaves
# verdict.json behind for people and CI to read.
#
# ag-oracle runs first, on the exported trees, before any of the patch's code (its tests, the
# coverage command, the mutants) has run and could rewrite what it digests; every other tool
# starts after it. TIMEOUT limits ag-run's executions, ag-mutate's baseline runs and the
# coverage command. POLICY defaults to the baseline's adversary-gate.json when the baseline has
# one (else the tools judge under their defaults); a POLICY given and missing stops make.
#
# Every value is passed to the shell quoted: OUT, POLICY, the commands and the repository's
# own path may hold spaces, quotes and non-ASCII. OUT (a make target) may not hold a
# `:`, `%`, `;`, `\` or a newline (make stops), and make itself expands a `$` in any value;
# the gate's own path may not hold whitespace (set AG_HOME when it does).

AG_HOME      ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
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
POLICY       ?=
GATE_DIR     := $(AG_HOME)/pipelines/

$(foreach c,: % ; \,$(if $(findstring $(c),$(OUT)),$(error gate.mk: OUT may not contain '$(c)': $(OUT))))

# q: one shell word, whatever the value holds; O: OUT as a make target (spaces escaped).
space        := $(subst ,, )
q             = '$(subst ','\'',$(1))'
O            := $(subst $(space),\$(space),$(OUT))
ABS_OUT      := $(if $(filter /%,$(firstword $(OUT))),$(OUT),$(CURDIR)/$(OUT))
COVERAGE_TREE ?= $(ABS_OUT).work/coverage-tree
POLICY_FILE   = $(or $(POLICY),$(OUT)/baseline/adversary-gate.json)
REPORT        = $(COVERAGE_TREE)/$(COVERAGE_REPORT)

# Shell snippets for a recipe: start an argument list, append the policy when there is one.
ARGS          = set --;
WITH_POLICY   = if [ -f $(call q,$(POLICY_FILE)) ]; then set -- "$$@" --policy $(call q,$(POLICY_FILE)); fi;
EVIDENCE      = $(O)/run.json $(O)/diffcov.json $(O)/mutation.json $(O)/oracle.json

.PHONY: gate clean-gate FORCE
gate: $(O)/verdict.json
	$(call q,$(BIN)/ag-decide) check $(call q,$(OUT)/verdict.json) --diff $(call q,$(OUT)/changes.diff)

clean-gate:
	rm -rf $(call q,$(OUT)) $(call q,$(ABS_OUT).work)

# The subject: the two commits, rewritten only when they change, so every file target
# below is rebuilt exactly when BASE or HEAD moves.
$(O)/subject: FORCE
	@$(if $(POLICY),test -f $(call q,$(POLICY)) || { echo $(call q,gate.mk: POLICY names no file: $(POLICY)) >&2; exit 3; };) \
	 mkdir -p $(call q,$(OUT)); \
	 b=$$(git rev-parse --verify --quiet $(call q,$(BASE)^{commit})) || { echo $(call q,gate.mk: unknown BASE $(BASE)) >&2; exit 3; }; \
	 h=$$(git rev-parse --verify --quiet $(call q,$(HEAD)^{commit})) || { echo $(call q,gate.mk: unknown HEAD $(HEAD)) >&2; exit 3; }; \
	 printf '%s %s\n' "$$b" "$$h" > $(call q,$@.new); \
	 if cmp -s $(call q,$@.new) $(call q,$@); then rm -f $(call q,$@.new); else mv $(call q,$@.new) $(call q,$@); fi

# Exports of exactly the two commits: no history, no other refs, no remotes.
# The coverage command runs the patch's code in place, so its tree is outside the evidence.
$(O)/trees: $(O)/subject
	rm -rf $(call q,$(OUT)/baseline) $(call q,$(OUT)/patch) $(call q,$(COVERAGE_TREE))
	mkdir -p $(call q,$(OUT)/baseline) $(call q,$(OUT)/patch) $(call q,$(COVERAGE_TREE))
	chmod 755 "$$(dirname $(call q,$(COVERAGE_TREE)))"
	git archive $$(cut -d' ' -f1 $(call q,$<)) | tar -x -C $(call q,$(OUT)/baseline)
	git archive $$(cut -d' ' -f2 $(call q,$<)) | tar -x -C $(call q,$(OUT)/patch)
	git archive $$(cut -d' ' -f2 $(call q,$<)) | tar -x -C $(call q,$(COVERAGE_TREE))
	touch $(call q,$@)

$(O)/changes.diff: $(O)/subject
	git diff --no-color --no-ext-diff --find-renames $$(cut -d' ' -f1 $(call q,$<)) $$(cut -d' ' -f2 $(call q,$<)) > $(call q,$@)

# First: the oracle reads the exported trees before any test code has run.
$(O)/oracle.json: $(O)/changes.diff $(O)/trees
	-$(ARGS) $(WITH_POLICY) $(call q,$(BIN)/ag-oracle) --diff $(call q,$<) --baseline $(call q,$(OUT)/baseline) \
	  --patch $(call q,$(OUT)/patch) "$$@" --quiet --out $(call q,$@)

# Every tool that runs the patch's code starts after ag-oracle (order-only), and the others
# after ag-run: it watches the evidence directory for writes while the patch's tests run, and
# a sibling tool's write under `make -j` would look like one.
$(O)/run.json: $(O)/changes.diff $(O)/trees | $(O)/oracle.json
	-$(ARGS) $(if $(JUNIT),set -- --junit $(call q,$(JUNIT));) \
	  $(call q,$(BIN)/ag-run) --baseline $(call q,$(OUT)/baseline) --patch $(call q,$(OUT)/patch) --diff $(call q,$<) \
	  --test-command $(call q,$(TEST_COMMAND)) --full-suite-command $(call q,$(FULL_SUITE_COMMAND)) \
	  --rounds $(call q,$(ROUNDS)) --timeout $(call q,$(TIMEOUT)) --sandbox $(call q,$(SANDBOX)) "$$@" --quiet --out $(call q,$@)

$(O)/coverage.stamp: $(O)/trees | $(O)/oracle.json $(O)/run.json
	-$(if $(COVERAGE_COMMAND),sh $(call q,$(GATE_DIR)lib/run-isolated.sh) $(call q,$(COVERAGE_TREE)) $(call q,$(TIMEOUT)) $(call q,$(COVERAGE_COMMAND)) > $(call q,$(OUT)/coverage.log) 2>&1,true)
	touch $(call q,$@)

$(O)/diffcov.json: $(O)/changes.diff $(O)/coverage.stamp
	-$(ARGS) $(if $(COVERAGE_COMMAND),if [ -f $(call q,$(REPORT)) ] && [ ! -L $(call q,$(REPORT)) ]; then \
	  set -- --coverage $(call q,$(REPORT)) --root $(call q,$(COVERAGE_TREE)); fi;) $(WITH_POLICY) \
	  $(call q,$(BIN)/ag-diffcov) --diff $(call q,$<) "$$@" --quiet --out $(call q,$@) --markdown $(call q,$(OUT)/diffcov.md)

$(O)/mutation.json: $(O)/changes.diff $(O)/trees | $(O)/oracle.json $(O)/run.json
	-$(ARGS) $(WITH_POLICY) $(call q,$(BIN)/ag-mutate) --diff $(call q,$<) --tree $(call q,$(OUT)/patch) \
	  --test-command $(call q,$(TEST_COMMAND)) --max $(call q,$(MUTATE_MAX)) --timeout $(call q,$(TIMEOUT)) \
	  --python $(call q,$(PYTHON)) --sandbox $(call q,$(SANDBOX)) "$$@" --quiet --out $(call q,$@)

# Missing evidence is HOLD, never an error: ag-decide writes a verdict on every path.
$(O)/verdict.json: $(O)/changes.diff $(EVIDENCE)
	-$(ARGS) $(foreach e,run diffcov mutation oracle,set -- "$$@" --evidence $(call q,$(OUT)/$(e).json);) $(WITH_POLICY) \
	  $(call q,$(BIN)/ag-decide) --diff $(call q,$<) "$$@" --out $(call q,$@) --markdown $(call q,$(OUT)/verdict.md)

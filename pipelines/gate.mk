# adversary-gate composed by hand: the five tools as Makefile targets, for a team that wants
# its own pipeline. (For the whole zero-config pipeline, with detection, installs, a fresh uid
# per run and progress, run ag-gate instead; this file shows what it does, step by step.)
#
#   make -f path/to/gate.mk BASE=origin/main TEST_COMMAND='npm test' \
#     [COVERAGE_COMMAND=... COVERAGE_REPORT=coverage/lcov.info] [JUNIT=...] [OUT=.adversary-gate] \
#     [AG_PASS_ENV=TZ,LANG]
#
# TEST_COMMAND is required: nothing is detected and nothing is installed (run it where the
# commands work as they are). The file targets run from changes.diff to verdict.json; the
# final `gate` target is `ag-decide check` (make fails unless the verdict is ACCEPT). A
# measuring tool that exits non-zero never deletes or skips a target: every recipe that may
# "fail" is prefixed with `-`, and there is no .DELETE_ON_ERROR, so a REJECT still leaves
# verdict.json behind. ag-oracle runs first, on the exported trees, before any of the patch's
# code runs. The coverage command runs as the caller, in a copy of the patch tree beside OUT
# (OUT.work): do not run this file as root on code you do not trust; ag-gate gives every run
# of the patch's code a fresh uid. File targets make it incremental: a second run with the
# same commits rebuilds nothing. OUT must be new, empty, or an evidence directory the gate made.
#
# AG_PASS_ENV (as ag-gate's --pass-env, and read from the environment as ag-gate reads it):
# variable names, comma-separated, whose values in this environment every run of the
# project's code gets too: ag-run's and ag-mutate's --pass-env, and the coverage command. Every
# such run otherwise has TZ=UTC and LANG=C.UTF-8 (the coverage command too: it measures the
# runs ag-run judges). A name that is not a variable name stops the pipeline (exit 3).
#
# Every value is passed to the shell quoted: OUT, POLICY, the commands and the repository's
# own path may hold spaces, quotes and non-ASCII. OUT (a make target) may not hold a
# `:`, `%`, `;`, `\` or a newline, and make itself expands a `$` in any value.

HERE         := $(dir $(lastword $(MAKEFILE_LIST)))
# This repository's tools, or, installed as @adversary-gate/gate, the project's.
BIN          ?= $(patsubst %/ag-run,%,$(firstword $(wildcard $(HERE)../node_modules/.bin/ag-run $(HERE)../../.bin/ag-run)))
# ag-gate's tree-id (the trees' ids for ag-decide), found as the tools are, never through BIN.
AG_GATE      ?= $(firstword $(wildcard $(HERE)../node_modules/.bin/ag-gate $(HERE)../../.bin/ag-gate))
BASE         ?= origin/main
HEAD         ?= HEAD
OUT          ?= .adversary-gate
TEST_COMMAND ?=
FULL_SUITE_COMMAND ?= $(TEST_COMMAND)
COVERAGE_COMMAND   ?=
COVERAGE_REPORT    ?= coverage/lcov.info
JUNIT        ?=
ROUNDS       ?= 3
TIMEOUT      ?= 120
MUTATE_MAX   ?= 20
LINE_BUDGET  ?= 200
PYTHON       ?= python3
SANDBOX      ?= none
POLICY       ?=
AG_PASS_ENV  ?=

$(foreach c,: % ; \,$(if $(findstring $(c),$(OUT)),$(error gate.mk: OUT may not contain '$(c)': $(OUT))))

# q: one shell word, whatever the value holds; O: OUT as a make target (spaces escaped).
space        := $(subst ,, )
q             = '$(subst ','\'',$(1))'
O            := $(subst $(space),\$(space),$(OUT))
COVERAGE_TREE := $(OUT).work/coverage-tree
POLICY_FILE   = $(or $(POLICY),$(OUT)/baseline/adversary-gate.json)
ARGS          = set --;
WITH_POLICY   = if [ -f $(call q,$(POLICY_FILE)) ]; then set -- "$$@" --policy $(call q,$(POLICY_FILE)); fi;
EVIDENCE      = $(O)/run.json $(O)/diffcov.json $(O)/mutation.json $(O)/oracle.json
comma        := ,
# AG_PASS_ENV's names; each is checked to be a variable name before any tool runs.
PASS_NAMES    = $(strip $(subst $(comma),$(space),$(AG_PASS_ENV)))
PASS_ARGS     = $(foreach n,$(PASS_NAMES),--pass-env $(call q,$(n)))
# The coverage command's fixed zone and locale, then the caller's value of each name passed.
PASS_COVERAGE = env TZ=UTC LANG=C.UTF-8 $(foreach n,$(PASS_NAMES),$${$(n)+"$(n)=$$$(n)"})

.PHONY: gate clean-gate FORCE
gate: $(O)/verdict.json
	$(call q,$(BIN)/ag-decide) check $(call q,$(OUT)/verdict.json) --diff $(call q,$(OUT)/changes.diff)

clean-gate:
	rm -rf $(call q,$(OUT)) $(call q,$(OUT).work)

# The subject: the two commits, rewritten only when they change, so every file target
# below is rebuilt exactly when BASE or HEAD moves. OUT is the gate's own (a marker file).
$(O)/subject: FORCE
	@$(if $(TEST_COMMAND),,echo 'gate.mk: TEST_COMMAND is required (ag-gate detects it)' >&2; exit 3;) \
	 $(if $(POLICY),test -f $(call q,$(POLICY)) || { echo $(call q,gate.mk: POLICY names no file: $(POLICY)) >&2; exit 3; };) \
	 for n in $(foreach n,$(PASS_NAMES),$(call q,$(n))); do case "$$n" in [!A-Za-z_]*|*[!A-Za-z0-9_]*) \
	   echo "gate.mk: AG_PASS_ENV takes variable names, got \"$$n\"" >&2; exit 3;; esac; done; \
	 b=$$(git rev-parse --verify --quiet $(call q,$(BASE)^{commit})) || { echo $(call q,gate.mk: unknown BASE $(BASE)) >&2; exit 3; }; \
	 h=$$(git rev-parse --verify --quiet $(call q,$(HEAD)^{commit})) || { echo $(call q,gate.mk: unknown HEAD $(HEAD)) >&2; exit 3; }; \
	 if [ -e $(call q,$(OUT)) ] && [ ! -f $(call q,$(OUT)/.adversary-gate-evidence) ] && [ -n "$$(ls -A $(call q,$(OUT)) 2>&1)" ]; then \
	   echo $(call q,gate.mk: OUT $(OUT) holds files the gate did not make: choose another OUT) >&2; exit 3; fi; \
	 mkdir -p $(call q,$(OUT)) && echo 'made by adversary-gate' > $(call q,$(OUT)/.adversary-gate-evidence); \
	 printf '%s %s\n' "$$b" "$$h" > $(call q,$@.new); \
	 if cmp -s $(call q,$@.new) $(call q,$@); then rm -f $(call q,$@.new); else mv $(call q,$@.new) $(call q,$@); fi

# Exports of exactly the two commits: no history, no other refs, no remotes.
$(O)/trees: $(O)/subject
	rm -rf $(call q,$(OUT)/baseline) $(call q,$(OUT)/patch) $(call q,$(OUT).work)
	mkdir -p $(call q,$(OUT)/baseline) $(call q,$(OUT)/patch) $(call q,$(COVERAGE_TREE))
	git archive $$(cut -d' ' -f1 $(call q,$<)) | tar -x -C $(call q,$(OUT)/baseline)
	git archive $$(cut -d' ' -f2 $(call q,$<)) | tar -x -C $(call q,$(OUT)/patch)
	git archive $$(cut -d' ' -f2 $(call q,$<)) | tar -x -C $(call q,$(COVERAGE_TREE))
	touch $(call q,$@)

# The exported trees' git ids, taken before any of the patch's code runs.
$(O)/tree-ids: $(O)/trees
	{ $(call q,$(AG_GATE)) tree-id $(call q,$(OUT)/baseline) && $(call q,$(AG_GATE)) tree-id $(call q,$(OUT)/patch); } > $(call q,$@)

$(O)/changes.diff: $(O)/subject
	git diff --no-color --no-ext-diff --find-renames $$(cut -d' ' -f1 $(call q,$<)) $$(cut -d' ' -f2 $(call q,$<)) > $(call q,$@)

# First: the oracle reads the exported trees before any test code has run.
$(O)/oracle.json: $(O)/changes.diff $(O)/trees $(O)/tree-ids
	-$(ARGS) $(WITH_POLICY) $(call q,$(BIN)/ag-oracle) --diff $(call q,$<) --baseline $(call q,$(OUT)/baseline) \
	  --patch $(call q,$(OUT)/patch) "$$@" --quiet --out $(call q,$@)

# Every tool that runs the patch's code starts after ag-oracle (order-only), the others after
# ag-run: it watches the evidence directory for writes while the patch's tests run.
$(O)/run.json: $(O)/changes.diff $(O)/trees | $(O)/oracle.json
	-$(ARGS) $(if $(JUNIT),set -- --junit $(call q,$(JUNIT));) rm -f $(call q,$@); \
	  $(call q,$(BIN)/ag-run) --baseline $(call q,$(OUT)/baseline) --patch $(call q,$(OUT)/patch) --diff $(call q,$<) \
	  --test-command $(call q,$(TEST_COMMAND)) --full-suite-command $(call q,$(FULL_SUITE_COMMAND)) \
	  --rounds $(call q,$(ROUNDS)) --timeout $(call q,$(TIMEOUT)) --sandbox $(call q,$(SANDBOX)) $(PASS_ARGS) "$$@" --quiet --out $(call q,$@)

$(O)/coverage.stamp: $(O)/trees | $(O)/oracle.json $(O)/run.json
	-$(if $(COVERAGE_COMMAND),log="$$(cd $(call q,$(OUT)) && pwd)/coverage.log"; cd $(call q,$(COVERAGE_TREE)) && \
	  $(PASS_COVERAGE) timeout -k 2 $(call q,$(TIMEOUT)) /bin/sh -c $(call q,$(COVERAGE_COMMAND)) </dev/null > "$$log" 2>&1)
	touch $(call q,$@)

$(O)/diffcov.json: $(O)/changes.diff $(O)/coverage.stamp $(O)/trees
	-$(ARGS) r=$(call q,$(COVERAGE_TREE)/$(COVERAGE_REPORT)); if [ -n $(call q,$(COVERAGE_COMMAND)) ] && [ -f "$$r" ] && [ ! -L "$$r" ]; then \
	  set -- --coverage "$$r" --root $(call q,$(COVERAGE_TREE)); fi; $(WITH_POLICY) \
	  $(call q,$(BIN)/ag-diffcov) --diff $(call q,$<) "$$@" --tree $(call q,$(OUT)/patch) --quiet --out $(call q,$@) --markdown $(call q,$(OUT)/diffcov.md)

# ag-run's full-suite run on the patch stands for ag-mutate's second baseline run.
$(O)/mutation.json: $(O)/changes.diff $(O)/trees | $(O)/oracle.json $(O)/run.json
	-$(ARGS) $(WITH_POLICY) rm -f $(call q,$@); \
	  if [ -f $(call q,$(OUT)/run.json) ]; then set -- "$$@" --run $(call q,$(OUT)/run.json); fi; \
	  $(call q,$(BIN)/ag-mutate) --diff $(call q,$<) --tree $(call q,$(OUT)/patch) \
	  --test-command $(call q,$(TEST_COMMAND)) --max $(call q,$(MUTATE_MAX)) --line-budget $(call q,$(LINE_BUDGET)) --timeout $(call q,$(TIMEOUT)) \
	  --python $(call q,$(PYTHON)) --sandbox $(call q,$(SANDBOX)) $(PASS_ARGS) "$$@" --quiet --out $(call q,$@)

# Missing evidence is HOLD, never an error: ag-decide writes a verdict on every path, judged
# against the trees as exported (never the trees the evidence names).
$(O)/verdict.json: $(O)/changes.diff $(EVIDENCE)
	-$(ARGS) $(foreach e,run diffcov mutation oracle,set -- "$$@" --evidence $(call q,$(OUT)/$(e).json);) $(WITH_POLICY) \
	  set -- "$$@" --baseline-tree "$$(sed -n 1p $(call q,$(OUT)/tree-ids))" --patch-tree "$$(sed -n 2p $(call q,$(OUT)/tree-ids))"; \
	  $(call q,$(BIN)/ag-decide) --diff $(call q,$<) "$$@" --out $(call q,$@) --markdown $(call q,$(OUT)/verdict.md)

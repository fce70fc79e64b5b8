# adversary-gate as Makefile targets, usable from any git repository:
#
#   make -f /path/to/adversary-gate/pipelines/gate.mk BASE=origin/main
#
# With no TEST_COMMAND it detects, from the baseline tree, the install command, the runner and
# the commands that run it with a per-test report and a coverage report (detected.sh), and
# installs each side's dependencies once, in its own copy (deps.stamp), as gate.sh does. Every
# variable given (TEST_COMMAND, COVERAGE_COMMAND, COVERAGE_REPORT, JUNIT, INSTALL_COMMAND)
# overrides what is detected.
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
TEST_COMMAND ?=
FULL_SUITE_COMMAND ?= $(TEST_COMMAND)
COVERAGE_COMMAND   ?=
COVERAGE_REPORT    ?=
JUNIT        ?=
INSTALL_COMMAND    ?=
INSTALL_TIMEOUT    ?= 900
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
# The gate's own tools (a reporter or coverage tool the project lacks), never the project's.
TOOLS_DIR     := $(ABS_OUT).work/tools
INSTALLED     = $(call q,$(ABS_OUT).work/deps-baseline/node_modules) $(call q,$(ABS_OUT).work/deps-patch/node_modules) $(call q,$(TOOLS_DIR)/node_modules)
POLICY_FILE   = $(or $(POLICY),$(OUT)/baseline/adversary-gate.json)
# In a recipe, after `$(DETECTED)`: a variable given, else what was detected (shell words).
DETECTED      = . $(call q,$(OUT)/detected.sh);
pick          = $(if $($(1)),$(call q,$($(1))),"$$AG_DETECTED_$(1)")
TEST          = $(call pick,TEST_COMMAND)
FULL_SUITE    = $(if $(FULL_SUITE_COMMAND),$(call q,$(FULL_SUITE_COMMAND)),$(TEST))
# A test command given by hand brings its own reports: nothing detected is added to it.
COVERAGE      = $(if $(TEST_COMMAND),$(call q,$(COVERAGE_COMMAND)),$(call pick,COVERAGE_COMMAND))
REPORT        = $(call q,$(COVERAGE_TREE))/$(if $(COVERAGE_REPORT),$(call q,$(COVERAGE_REPORT)),$(if $(TEST_COMMAND),coverage/lcov.info,"$${AG_DETECTED_COVERAGE_REPORT:-coverage/lcov.info}"))
JUNIT_ARG     = $(if $(JUNIT),$(call q,$(JUNIT)),$(if $(TEST_COMMAND),"","$$AG_DETECTED_JUNIT"))
# Run the patch's code only when there is a test command and the install did not fail.
MEASURED      = [ -n "$$(cat $(call q,$(OUT)/deps.stamp))" ] && [ -n $(TEST) ]

# FAULT WHO-FILE TEXT [LOG]: a step the pipeline could not do, kept one line each for ag-decide.
FAULT         = sh $(call q,$(GATE_DIR)lib/pipeline-fault.sh) gate.mk
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

# The exported trees' git ids, taken before any of the patch's code runs (the oracle's order).
$(O)/tree-ids: $(O)/trees
	{ node $(call q,$(GATE_DIR)lib/tree-id.mjs) $(call q,$(OUT)/baseline) && node $(call q,$(GATE_DIR)lib/tree-id.mjs) $(call q,$(OUT)/patch); } > $(call q,$@)

$(O)/changes.diff: $(O)/subject
	git diff --no-color --no-ext-diff --find-renames $$(cut -d' ' -f1 $(call q,$<)) $$(cut -d' ' -f2 $(call q,$<)) > $(call q,$@)

# First: the oracle reads the exported trees before any test code has run.
$(O)/oracle.json: $(O)/changes.diff $(O)/trees $(O)/tree-ids
	-$(ARGS) $(WITH_POLICY) $(call q,$(BIN)/ag-oracle) --diff $(call q,$<) --baseline $(call q,$(OUT)/baseline) \
	  --patch $(call q,$(OUT)/patch) "$$@" --quiet --out $(call q,$@)

# What the checkout is, from the baseline tree (the runner is the baseline's).
$(O)/detected.sh: $(O)/trees
	node $(call q,$(GATE_DIR)lib/detect.mjs) --tree $(call q,$(OUT)/baseline) --python $(call q,$(PYTHON)) \
	  --tools-dir $(call q,$(TOOLS_DIR)) > $(call q,$@) 2> $(call q,$(OUT)/detected.txt); s=$$?; cat $(call q,$(OUT)/detected.txt) >&2; exit $$s

# Each side's dependencies, installed once in its own copy; the stamp is empty when one failed.
$(O)/deps.stamp: $(O)/detected.sh | $(O)/oracle.json
	@$(DETECTED) cmd=$(call pick,INSTALL_COMMAND); ok=yes; f=$(call q,$(OUT)/deps.faults); rm -f "$$f"; \
	 if [ -n "$$cmd" ]; then \
	   rm -rf $(call q,$(ABS_OUT).work/deps-baseline) $(call q,$(ABS_OUT).work/deps-patch) $(call q,$(COVERAGE_TREE)/node_modules); \
	   for side in baseline patch; do [ -n "$$ok" ] || break; \
	     sh $(call q,$(GATE_DIR)lib/install-deps.sh) $(call q,$(OUT))/$$side $(call q,$(ABS_OUT).work)/deps-$$side $(call q,$(INSTALL_TIMEOUT)) "$$cmd" || { \
	       s=$$?; ok=""; $(FAULT) "$$f" "the install of the $$side ($$cmd) exited $$s, so no test ran" $(call q,$(ABS_OUT).work)/deps-$$side.log; }; \
	   done; \
	 fi; \
	 rm -rf $(call q,$(TOOLS_DIR)) $(call q,$(OUT)/packages-installed.sha256); tools=""; t=$(TEST); c=$(COVERAGE); \
	 if [ "$$t" = "$$AG_DETECTED_TEST_COMMAND" ] || { [ -n "$$c" ] && [ "$$c" = "$$AG_DETECTED_COVERAGE_COMMAND" ]; }; then tools=$$AG_DETECTED_TOOLS; fi; \
	 if [ -n "$$ok" ] && [ -n "$$tools" ]; then \
	   sh $(call q,$(GATE_DIR)lib/install-tools.sh) $(call q,$(OUT)/baseline) $(call q,$(OUT)/patch/node_modules) $(call q,$(TOOLS_DIR)) \
	     $(call q,$(INSTALL_TIMEOUT)) $$tools || { s=$$?; ok=""; \
	     $(FAULT) "$$f" "the gate's tool install ($$tools) exited $$s, so no test ran" $(call q,$(TOOLS_DIR).log); }; \
	 fi; \
	 if [ -n "$$ok" ] && [ -n "$$cmd" ]; then \
	   set --; if [ -n "$$tools" ] && [ -n "$$AG_DETECTED_TOOL_LINKS" ]; then set -- $(call q,$(TOOLS_DIR)) $$AG_DETECTED_TOOL_LINKS; fi; \
	   sh $(call q,$(GATE_DIR)lib/link-packages.sh) $(call q,$(OUT)/patch/node_modules) $(call q,$(COVERAGE_TREE)) "$$@" && \
	   sh $(call q,$(GATE_DIR)lib/packages-digest.sh) $(INSTALLED) > $(call q,$(OUT)/packages-installed.sha256) || ok=""; \
	 fi; echo "$$ok" > $(call q,$@)

# Every tool that runs the patch's code starts after ag-oracle (order-only), and the others
# after ag-run: it watches the evidence directory for writes while the patch's tests run, and
# a sibling tool's write under `make -j` would look like one.
$(O)/run.json: $(O)/changes.diff $(O)/trees $(O)/deps.stamp | $(O)/oracle.json
	-$(ARGS) $(DETECTED) j=$(JUNIT_ARG); if [ -n "$$j" ]; then set -- --junit "$$j"; fi; rm -f $(call q,$@); \
	  if $(MEASURED); then $(call q,$(BIN)/ag-run) --baseline $(call q,$(OUT)/baseline) --patch $(call q,$(OUT)/patch) --diff $(call q,$<) \
	  --test-command $(TEST) --full-suite-command $(FULL_SUITE) \
	  --rounds $(call q,$(ROUNDS)) --timeout $(call q,$(TIMEOUT)) --sandbox $(call q,$(SANDBOX)) "$$@" --quiet --out $(call q,$@); fi

$(O)/coverage.stamp: $(O)/trees $(O)/deps.stamp | $(O)/oracle.json $(O)/run.json
	-$(DETECTED) c=$(COVERAGE); if [ -n "$$c" ] && $(MEASURED); then \
	  sh $(call q,$(GATE_DIR)lib/run-isolated.sh) $(call q,$(COVERAGE_TREE)) $(call q,$(TIMEOUT)) "$$c" > $(call q,$(OUT)/coverage.log) 2>&1; fi
	touch $(call q,$@)

$(O)/diffcov.json: $(O)/changes.diff $(O)/coverage.stamp
	-$(ARGS) $(DETECTED) c=$(COVERAGE); r=$(REPORT); if [ -n "$$c" ] && [ -f "$$r" ] && [ ! -L "$$r" ]; then \
	  set -- --coverage "$$r" --root $(call q,$(COVERAGE_TREE)); fi; $(WITH_POLICY) \
	  $(call q,$(BIN)/ag-diffcov) --diff $(call q,$<) "$$@" --quiet --out $(call q,$@) --markdown $(call q,$(OUT)/diffcov.md)

$(O)/mutation.json: $(O)/changes.diff $(O)/trees $(O)/deps.stamp | $(O)/oracle.json $(O)/run.json
	-$(ARGS) $(WITH_POLICY) $(DETECTED) rm -f $(call q,$@); if $(MEASURED); then \
	  if [ -f $(call q,$(OUT)/run.json) ]; then set -- "$$@" --run $(call q,$(OUT)/run.json); fi; \
	  $(call q,$(BIN)/ag-mutate) --diff $(call q,$<) --tree $(call q,$(OUT)/patch) \
	  --test-command $(TEST) --max $(call q,$(MUTATE_MAX)) --timeout $(call q,$(TIMEOUT)) \
	  --python $(call q,$(PYTHON)) --sandbox $(call q,$(SANDBOX)) "$$@" --quiet --out $(call q,$@); fi

# Missing evidence is HOLD, never an error: ag-decide writes a verdict on every path. The
# installed packages must be as the install left them: when a run wrote into them, its
# evidence is moved aside (run.json.changed, mutation.json.changed) and ag-decide holds.
# Each step the pipeline could not do is one line of pipeline-faults.txt, and a --pipeline-fault.
$(O)/verdict.json: $(O)/changes.diff $(EVIDENCE)
	-@f=$(call q,$(OUT)/pipeline-faults.txt); rm -f "$$f"; \
	 if [ -f $(call q,$(OUT)/deps.faults) ]; then cp $(call q,$(OUT)/deps.faults) "$$f"; fi; \
	 $(DETECTED) t=$(TEST); [ -n "$$t" ] || $(FAULT) "$$f" "no test command, so no test ran: $${AG_DETECTED_PROBLEMS:-nothing detected}"; \
	 if [ -f $(call q,$(OUT)/packages-installed.sha256) ]; then \
	   sh $(call q,$(GATE_DIR)lib/packages-digest.sh) $(INSTALLED) > $(call q,$(OUT)/packages-after.sha256); \
	   if ! cmp -s $(call q,$(OUT)/packages-installed.sha256) $(call q,$(OUT)/packages-after.sha256); then \
	     $(FAULT) "$$f" 'a run wrote into the installed packages (packages-after.sha256 differs from packages-installed.sha256): run.json and mutation.json set aside'; \
	     for k in run mutation; do [ -f $(call q,$(OUT))/$$k.json ] && mv -f $(call q,$(OUT))/$$k.json $(call q,$(OUT))/$$k.json.changed; done; \
	   fi; fi
	-$(ARGS) $(foreach e,run diffcov mutation oracle,set -- "$$@" --evidence $(call q,$(OUT)/$(e).json);) $(WITH_POLICY) \
	  set -- "$$@" --baseline-tree "$$(sed -n 1p $(call q,$(OUT)/tree-ids))" --patch-tree "$$(sed -n 2p $(call q,$(OUT)/tree-ids))"; \
	  if [ -f $(call q,$(OUT)/pipeline-faults.txt) ]; then \
	    while IFS= read -r l; do set -- "$$@" --pipeline-fault "$$l"; done < $(call q,$(OUT)/pipeline-faults.txt); fi; \
	  $(call q,$(BIN)/ag-decide) --diff $(call q,$<) "$$@" --out $(call q,$@) --markdown $(call q,$(OUT)/verdict.md)

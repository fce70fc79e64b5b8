# adversary-gate: make (build), make test, make check (format, lint, dead code, types), make demo (the bundled demo).
.PHONY: all build test check typecheck demo clean schemas self-check

all: build

node_modules: package-lock.json
	npm ci
	@touch node_modules

build: node_modules
	npm run build

test: node_modules
	npm test

typecheck: node_modules
	npm run typecheck

check: node_modules
	npm run check

demo: node_modules
	npm run demo

schemas: node_modules
	npm run generate -w schemas

# The gate on this repository's own latest commit (HEAD~1 → HEAD): see scripts/README.md.
self-check: build
	node scripts/self-check/self-check.mjs

clean:
	rm -rf schemas/dist tools/*/dist .turbo tools/*/.turbo schemas/.turbo

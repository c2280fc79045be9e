# linemem: each target is a thin wrapper; the logic lives in scripts/.
#
#   make test             test dependencies (Chromium, CJK fonts), go mod tidy -diff, go vet, go test, then
#                         every fuzz target a few seconds (scripts/fuzz.sh; what CI runs first)
#   make setup-notebooks  Jupyter (Debian packages), bin/gonb, bin/goimports, this clone's
#                         gonb kernel spec under build/jupyter/
#   make compile-notebooks  GoNB's first build of every package the notebooks import
#   make execute-notebooks  execute notebooks/NN_*.ipynb headless into build/notebooks/
#   make notebooks        setup-notebooks, compile-notebooks, execute-notebooks
#   make notebooks-outputs  execute every notebook in place: refresh the committed outputs
#   make jupyter          open the notebooks in the classic Jupyter web UI with this
#                         clone's kernel (installs Debian's jupyter-notebook if missing)
#   make notebook-browser run notebooks 00 and 02 in that UI in headless Chromium: every
#                         cell runs, figures render inline, no cell errors (screenshots
#                         in build/screenshots/; make notebook-screenshots: docs/screenshots/)
#   make reproduce        regenerate results/ from the synthetic export
#   make robustness       regenerate results/robustness_seeds* (the paper protocol on SEEDS)
#   make datasets         use DATASETS, or download the pinned, checksummed data sets into it
#                         (build/datasets-cache when ../shared/datasets is absent); offline:
#                         stop at once naming `linemem datasets fetch` (scripts/fetch-datasets.sh)
#   make benchmarks       regenerate results/benchmarks/ (LoCoMo and RealPersonaChat from DATASETS, pooled and per user)
#   make benchmarks-neural  results/benchmarks/neural/: LoCoMo with Universal Sentence Encoder lite
#                         served on 127.0.0.1 (scripts/benchmarks-neural.sh; needs node; not in CI)
#   make bench-datasets   CPU seconds and peak memory of convert + full protocol per public data set
#   make check-results    fail if results/ drift from what reproduce and robustness regenerate
#   make check-latex      compile every results/*.tex with pdflatex; fail on errors,
#                         overfull boxes over 1 pt, or a stale results/tables.pdf
#   make tables-pdf       rewrite results/tables.pdf from results/*.tex
#   make bench            benchmarks of every package
#   make fuzz             every fuzz target under lib/, a few seconds each (scripts/fuzz.sh; part of make test)
#   make adversarial      seeded hostile inputs, kills and concurrent runs of convert and benchmark, outcomes counted (scripts/adversarial; not in CI)
#   make mutants          mutation testing of the core and input packages (Gremlins; not in CI)
#   make bench-e2e        the command-line path at paper scale, step by step (scripts/bench-e2e.sh)
#   make bench-first-search  the first search after ingest at 10× paper scale, median of fresh processes (scripts/bench-first-search.sh)
#   make bench-mcp-sessions  RSS of `linemem mcp --http` after 4,000 abandoned sessions and their idle time
#   make all              ALL_STEPS one after another, each with its elapsed time
#                         (scripts/run-steps.sh; the main job)

DATA ?= data/synthetic
# Synthetic seeds of the committed results/robustness_seeds* files.
SEEDS ?= 1-20
# Public conversation data sets (locomo/, real-persona-chat/; see
# docs/real-conversations.md); `make datasets` (`linemem datasets fetch`)
# downloads them into build/datasets-cache when ../shared/datasets is absent.
DATASETS ?= $(if $(wildcard ../shared/datasets/locomo/locomo10.json),../shared/datasets,build/datasets-cache)
export DATASETS

# Steps depend on each other's files (results/, bin/): never run them in parallel.
.NOTPARALLEL:

.PHONY: all datasets test mutants setup-notebooks compile-notebooks execute-notebooks notebooks notebooks-outputs jupyter notebook-browser notebook-screenshots reproduce robustness benchmarks benchmarks-neural bench-datasets check-results check-latex tables-pdf bench bench-e2e bench-first-search bench-mcp-sessions

# make all's steps, in order; each runs as `make STEP`.
ALL_STEPS = datasets setup-notebooks compile-notebooks execute-notebooks notebook-browser benchmarks tables-pdf check-results check-latex

all:
	@scripts/run-steps.sh $(ALL_STEPS)

# go test runs even when go vet or the go.mod check complains, so the log
# always ends with its summary; the target fails if any of them does.
test:
	scripts/setup-test-deps.sh
	@echo "go mod tidy -diff"; go mod tidy -diff; tidy=$$?; \
	echo "go vet ./..."; go vet ./...; vet=$$?; \
	echo "go test ./..."; go test ./...; tests=$$?; \
	echo "scripts/fuzz.sh"; scripts/fuzz.sh; fuzz=$$?; \
	exit $$((tidy | vet | tests | fuzz))

setup-notebooks:
	scripts/setup-notebooks.sh

compile-notebooks:
	scripts/run-notebooks.sh --compile-only

execute-notebooks:
	scripts/run-notebooks.sh --no-compile

notebooks: setup-notebooks
	scripts/run-notebooks.sh

notebooks-outputs: setup-notebooks
	scripts/run-notebooks.sh --in-place

jupyter:
	JUPYTER_APT=jupyter-notebook scripts/setup-notebooks.sh
	scripts/jupyter.sh

notebook-browser:
	scripts/setup-test-deps.sh
	JUPYTER_APT=jupyter-notebook scripts/setup-notebooks.sh
	LINEMEM_NOTEBOOK_BROWSER=1 go test ./lib/notebook -run NotebooksRunInTheBrowser -count=1 -v -timeout 30m

notebook-screenshots:
	LINEMEM_SCREENSHOTS=docs/screenshots $(MAKE) --no-print-directory notebook-browser

reproduce:
	go run ./cmd/linemem reproduce --db build/synthetic.db --data $(DATA) --out results

# Each seed's data and database are kept in build/robustness/seed-N and reused.
robustness:
	go run ./cmd/linemem robustness --seeds $(SEEDS) --work build/robustness --out results

datasets:
	DATASETS=$(DATASETS) scripts/fetch-datasets.sh

# Converted text goes to build/datasets/ only (the data sets' licences).
benchmarks:
	DATASETS=$(DATASETS) scripts/benchmarks.sh --out results/benchmarks

benchmarks-neural:
	DATASETS=$(DATASETS) scripts/benchmarks-neural.sh --out results/benchmarks/neural

bench-datasets:
	DATASETS=$(DATASETS) scripts/bench-datasets.sh

check-results:
	DATA=$(DATA) SEEDS=$(SEEDS) DATASETS=$(DATASETS) scripts/check-results.sh

check-latex:
	scripts/check-latex.sh

tables-pdf:
	scripts/check-latex.sh --update

.PHONY: fuzz adversarial
fuzz:
	scripts/fuzz.sh

adversarial:
	go run ./scripts/adversarial

mutants:
	scripts/mutants.sh

bench:
	go test -run '^$$' -bench . -benchmem ./...

bench-e2e:
	scripts/bench-e2e.sh --out build/bench-e2e.md

bench-first-search:
	scripts/bench-first-search.sh

bench-mcp-sessions:
	mkdir -p build/bench-mcp-sessions
	go build -o build/bench-mcp-sessions/linemem ./cmd/linemem
	rm -f build/bench-mcp-sessions/fixture.db*
	build/bench-mcp-sessions/linemem ingest --db build/bench-mcp-sessions/fixture.db lib/mcpserver/testdata
	go run ./scripts/benchmcpsessions --linemem build/bench-mcp-sessions/linemem --db build/bench-mcp-sessions/fixture.db

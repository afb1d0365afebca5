# schedplan: the two commands of the README are `make run` and `make test`.
GO ?= go
BIN := bin/schedplan

.PHONY: deps deps-test build run test vet lint bench bench-lp bench-scale bench-startup bench-describe bench-tunequal bench-classqual fuzz clean docs

deps:
	@scripts/deps.sh

# The tests also need Chromium (the report's end-to-end test) and DuckDB's
# npm package (the Parquet outputs' independent reader).
deps-test:
	@scripts/deps.sh --browser --duckdb

build: deps
	$(GO) build -o $(BIN) ./cmd/schedplan

# The main job on the embedded default trace: the whole pipeline into ./schedplan-out.
run: build
	$(BIN) run --out schedplan-out

# The whole test suite (installs what it needs first).
test: deps-test
	$(GO) test -count=1 ./...

vet: deps
	$(GO) vet ./...

# Static checks: staticcheck and no non-test function over cyclomatic 30.
# Both are pinned as tool directives in go.mod, so after the first build
# (module cache) `make lint` downloads nothing.
lint: deps
	$(GO) tool staticcheck ./...
	@out=$$($(GO) tool gocyclo -over 30 -ignore "_test.go$$" . || true); \
	if [ -n "$$out" ]; then echo "functions over cyclomatic complexity 30:"; echo "$$out"; exit 1; fi

# Benchmarks named in the issues; prints the figures. Pick with
# BENCH (a -bench pattern) and PKG (packages), e.g.
# `make bench BENCH=CoshhLP PKG=./lp`; BENCHTIME as go test's -benchtime.
BENCH ?= .
PKG ?= ./...
BENCHTIME ?= 1x
bench: deps
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem $(PKG)

# Issue 30's LP table: the COSHH LP at 2,000 × 500 and 20,000 × 5,000
# (LP_SIZES), schedplan's column generation and full solve against the
# `clp` binary on the same MPS file (skipped with a note when not
# installed; LP_TIMEOUT bounds it), CPU seconds and |Δλ|; see TestBenchLP.
LP_SIZES ?= 2000x500,20000x5000
LP_TIMEOUT ?= 300s
bench-lp: deps
	SCHEDPLAN_BENCH_LP=1 SCHEDPLAN_BENCH_LP_SIZES=$(LP_SIZES) SCHEDPLAN_BENCH_LP_TIMEOUT=$(LP_TIMEOUT) \
		$(GO) test -run '^TestBenchLP$$' -count 1 -v -timeout 0 ./lp

# Issue 17's scale table: `run` on synthetic logs of 100 k, 1 M and 10 M jobs
# (generated on first use; SIZES="100000 1000000" for a shorter table;
# TASKS=1 on the same logs with Hadoop's map/reduce task counts, TASKS=both
# a row with and one without them per size).
bench-scale: deps
	@scripts/bench-scale.sh

# Issue 30's start-up figure: the median and p90 wall time of
# `schedplan --help` over RUNS (50) runs, the CPU time one start costs, and
# the binary's size, plain and stripped.
bench-startup: deps
	@scripts/bench-startup.sh

# Issue 30's Parquet figure: `schedplan describe` on a 5 M-job Parquet log
# (JOBS; generated into SCALE_DIR on first use) against DuckDB computing the
# same statistics with 2 threads (npm @duckdb/node-api), PAIRS (3)
# interleaved pairs: median wall time and peak RSS of each, and the ratios.
bench-describe: deps
	@scripts/bench-describe.sh

# Issue 17's accuracy items on a synthetic log of QUALITY_JOBS jobs (1 M by
# default; generated on first use into SCALE_DIR, as bench-scale does):
# the default (sampled) tuner against the unsampled one with the same
# budget, on the validation window's mean response (target: within 1%), and
# the default classification's inertia against a full k-means fit with the
# same k (target: within 1%), with the auto-k time.
SCALE_DIR ?= /tmp/schedplan-scale
QUALITY_JOBS ?= 1000000
QUALITY_LOG := $(SCALE_DIR)/log-$(QUALITY_JOBS).parquet
$(SCALE_DIR)/log-%.parquet:
	mkdir -p $(SCALE_DIR)
	$(GO) run ./cmd/synthlog -jobs $* -out $@

bench-tunequal: deps $(QUALITY_LOG)
	SCHEDPLAN_TUNEQUAL_TRACE=$(QUALITY_LOG) $(GO) test -run '^$$' -bench '^BenchmarkTuneQuality$$' -benchtime 1x -timeout 0 ./pipeline

bench-classqual: deps $(QUALITY_LOG)
	SCHEDPLAN_CLASSQUAL_TRACE=$(QUALITY_LOG) $(GO) test -run '^$$' -bench '^BenchmarkClassifyQuality$$' -benchtime 1x -timeout 0 ./pipeline

# A short session of every fuzz target (FUZZTIME each; PKG to pick
# packages), e.g. `make fuzz FUZZTIME=5s PKG=./data/spark` (`PKG=./data/...`:
# the readers' targets, each in its format's package).
FUZZTIME ?= 20s
fuzz: deps
	@for pkg in $$($(GO) list $(PKG)); do \
	  for t in $$($(GO) test -list 'Fuzz.*' $$pkg | grep '^Fuzz'); do \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

# Rewrites the transcripts (```console blocks) of README.md and docs/*.md
# with what their commands print now; `make test` fails while they differ.
docs: deps
	SCHEDPLAN_UPDATE_DOCS=1 $(GO) test -count=1 -run '^TestDocTranscripts$$' ./cmd/schedplan

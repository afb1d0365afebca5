# schedplan: the two commands of the README are `make run` and `make test`.
GO ?= go
BIN := bin/schedplan

.PHONY: deps deps-test build run test vet lint bench bench-scale bench-tunequal bench-classqual fuzz clean

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

# Static checks: staticcheck (pinned) and no non-test function over cyclomatic 30.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOCYCLO := github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0
lint: deps
	$(GO) run $(STATICCHECK) ./...
	@out=$$($(GO) run $(GOCYCLO) -over 30 -ignore "_test.go$$" . || true); \
	if [ -n "$$out" ]; then echo "functions over cyclomatic complexity 30:"; echo "$$out"; exit 1; fi

# Benchmarks named in the issues; prints the figures.
bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 1x -benchmem ./...

# Issue 17's scale table: `run` on synthetic logs of 100 k, 1 M and 10 M jobs
# (generated on first use; SIZES="100000 1000000" for a shorter table).
bench-scale: deps
	@scripts/bench-scale.sh

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

# A short session of every fuzz target.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list 'Fuzz.*' $$pkg | grep '^Fuzz'); do \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime 20s $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

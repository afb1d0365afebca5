#!/usr/bin/env bash
# make bench-startup: issue 30's start-up figure. Builds cmd/schedplan as
# `make build` does (or takes BIN), runs `BIN --help` RUNS times (50) after
# WARMUP untimed runs (5), and prints the median and p90 wall time of one
# start, the mean CPU time (user + system) of one start and the binary's
# size, plain and stripped (-ldflags='-s -w'). The same figures for a Go
# "hello, world" built on the spot are the floor on this machine at this
# load (on a busy machine wall times grow with the load; CPU times less).
# RT=1 runs the timed processes at real-time priority (chrt -f 50; needs
# root), so that they do not wait behind other processes' time slices: the
# wall times of an idle machine on a busy one.
# Times come from bash's $EPOCHREALTIME and `times`, so no timing process is
# forked.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-50}
warmup=${WARMUP:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
	bin=$dir/schedplan
	go build -o "$bin" ./cmd/schedplan
	go build -ldflags='-s -w' -o "$dir/stripped" ./cmd/schedplan
fi
mkdir "$dir/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("usage: hello\\n") }\n' >"$dir/hello/main.go"
(cd "$dir/hello" && go mod init hello >/dev/null 2>&1 && go build -o hello .)

# childcpu prints the CPU seconds (user + system) this shell's children
# used, from `times` written to the file $1 (times in a $(...) subshell
# would see the subshell's children only).
childcpu() {
	awk 'NR == 2 {
		n = split($1 " " $2, t, /[ ms]+/); s = 0
		for (i = 1; i < n; i += 2) s += t[i] * 60 + t[i + 1]
		print s }' "$1"
}

# measure NAME CMD...: RUNS timed runs of CMD --help; one line of figures.
measure() {
	local name=$1 i t0 t1 c0 c1
	shift
	for ((i = 0; i < warmup; i++)); do "$@" --help >/dev/null; done
	: >"$dir/ms"
	times >"$dir/cpu0"
	for ((i = 0; i < runs; i++)); do
		t0=$EPOCHREALTIME
		"$@" --help >/dev/null
		t1=$EPOCHREALTIME
		echo "$t0 $t1" >>"$dir/ms"
	done
	times >"$dir/cpu1"
	c0=$(childcpu "$dir/cpu0")
	c1=$(childcpu "$dir/cpu1")
	awk '{printf "%.3f\n", ($2 - $1) * 1000}' "$dir/ms" | sort -n | awk -v name="$name" -v runs="$runs" -v cpu="$(echo "$c0 $c1" | awk -v n="$runs" '{print ($2 - $1) * 1000 / n}')" '
		{ a[NR] = $1 }
		END {
			med = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			p90 = a[int(NR * 0.9 + 0.999999)]
			printf "%-22s %d runs: median %5.1f ms, p90 %5.1f ms, CPU %5.1f ms per start\n", name, runs, med, p90, cpu
		}'
}

mb() { awk -v b="$1" 'BEGIN {printf "%d bytes (%.1f MB)", b, b / 1e6}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
if [ "${RT:-0}" = 1 ]; then
	chrt -f -p 50 $$ # this shell and the processes it starts from here on
	echo "at real-time priority (RT=1: SCHED_FIFO 50)"
fi
measure "schedplan --help" "$bin"
measure "Go hello, world" "$dir/hello/hello"
if [ -z "${BIN:-}" ]; then
	echo "binary: $(mb "$(stat -c %s "$bin")"); stripped (-ldflags='-s -w'): $(mb "$(stat -c %s "$dir/stripped")")"
else
	echo "binary: $(mb "$(stat -c %s "$bin")")"
fi

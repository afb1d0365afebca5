#!/usr/bin/env bash
# make bench-scale: the whole `schedplan run` (defaults) on synthetic
# SWIM-like logs of 100 k, 1 M and 10 M jobs (generated once by
# cmd/synthlog into $SCALE_DIR), printing wall time, peak RSS and the
# seconds of each stage, then the fitted growth exponent of each stage
# between the two largest sizes. SIZES overrides the list. TASKS=1 runs
# the same sizes on logs with map_tasks/reduce_tasks (synthlog -tasks: the
# same jobs, with Hadoop's task counts from their bytes; rows "N-tasks");
# TASKS=both runs each size without and then with them. MEMLIMIT passes
# --memory-limit (MEMLIMIT=none: Go's collector alone, no soft limit).
# The "live heap" column is the largest heap live after a collection
# (GODEBUG=gctrace=1's third figure): the RSS runs to about twice it
# when no soft limit binds.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SCALE_DIR:-/tmp/schedplan-scale}
sizes=${SIZES:-"100000 1000000 10000000"}
case ${TASKS:-0} in
0) kinds=("") ;;
1) kinds=("-tasks") ;;
both) kinds=("" "-tasks") ;;
*)
	echo "bench-scale: TASKS=$TASKS: want 0, 1 or both" >&2
	exit 2
	;;
esac
mkdir -p "$dir"
go build -o "$dir/schedplan" ./cmd/schedplan
go build -o "$dir/synthlog" ./cmd/synthlog
memflag=()
[ -z "${MEMLIMIT:-}" ] || memflag=(--memory-limit "$MEMLIMIT")
printf '%16s %10s %12s %12s  %s\n' jobs "wall (s)" "peak RSS" "live heap" "stage seconds"
declare -A stagesec
rows=()
for n in $sizes; do
	for k in "${kinds[@]}"; do
		rows+=("$n$k")
	done
done
for n in "${rows[@]}"; do
	log="$dir/log-$n.parquet"
	flag=""
	[ "${n%-tasks}" = "$n" ] || flag="-tasks"
	[ -f "$log" ] || "$dir/synthlog" -jobs "${n%-tasks}" $flag -out "$log"
	out="$dir/out-$n"
	rm -rf "$out"
	set +e
	GODEBUG=gctrace=1 /usr/bin/time -f '%e %M' -o "$dir/time-$n" "$dir/schedplan" run --trace "$log" --out "$out" --log-format json "${memflag[@]}" 2>"$dir/log-$n.json" >/dev/null
	rc=$?
	set -e
	read -r wall rss <"$dir/time-$n"
	live=$(grep -E '^gc [0-9]+ @' "$dir/log-$n.json" | sed -E 's/.*->([0-9]+) MB,.*/\1/' | sort -n | tail -1 || true)
	stages=$(grep '"stage done"' "$dir/log-$n.json" | sed -E 's/.*"stage":"([a-z_-]+)".*"seconds":([0-9.e+-]+).*/\1=\2/' | awk -F= '{printf "%s %.1f  ", $1, $2}' || true)
	for kv in $(grep '"stage done"' "$dir/log-$n.json" | sed -E 's/.*"stage":"([a-z_-]+)".*"seconds":([0-9.e+-]+).*/\1=\2/' || true); do
		stagesec["$n,${kv%%=*}"]=${kv#*=}
	done
	status=""
	[ $rc -eq 0 ] || status="  (exit $rc: $(grep -o '"msg":"[^"]*"' "$dir/log-$n.json" | tail -1))"
	printf '%16s %10s %9d MB %9s MB  %s%s\n' "$n" "$wall" $((rss / 1024)) "${live:-?}" "$stages" "$status"
done
set -- $sizes
if [ $# -ge 2 ]; then
	a=${@: -2:1}
	b=${@: -1}
	for k in "${kinds[@]}"; do
		echo "growth exponent of each stage between $a$k and $b$k jobs (log t_b/t_a / log n_b/n_a; target ≤ 1.05):"
		for key in "${!stagesec[@]}"; do
			n=${key%%,*}
			s=${key#*,}
			[ "$n" = "$b$k" ] || continue
			ta=${stagesec["$a$k,$s"]:-}
			tb=${stagesec["$b$k,$s"]}
			[ -n "$ta" ] || continue
			awk -v s="$s" -v ta="$ta" -v tb="$tb" -v na="$a" -v nb="$b" 'BEGIN { if (ta > 0.05 && tb > 0) printf "  %-10s %.2f\n", s, log(tb/ta)/log(nb/na); else printf "  %-10s (too fast to fit)\n", s }'
		done
	done
fi

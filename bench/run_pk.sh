#!/usr/bin/env bash
# Benchmark: the merge read of a primary-key table next to a plain append scan of the
# same rows. bench/gen_pk_table.sh writes (with Apache Paimon Java) bench.pk_7col, a
# 7-column primary-key table whose buckets each hold a fully compacted base plus 4
# overlapping level-0 files of upserts (~10% of the keys each), and bench.pk_7col_flat,
# an append table holding the rows the merge must return. The script reads all 7
# columns of both through paimon_fdw,
#   SELECT count(id), count(a), ..., count(f) FROM bench.<table> WHERE id IS NOT NULL
# on one core (max_parallel_workers_per_gather = 0) and with 2 parallel workers, and
# prints the median wall time, rows/s and CPU seconds (user + system: the backend's
# executor from log_executor_stats, and the backend plus its parallel workers from the
# kernel; the machine may be shared, so wall time is noisy and CPU time is steadier). Before timing, it checks that
# both tables give the same sum(hashtext(d)), sum(b), count(*).
#
#   bash bench/run_pk.sh [--runs N] [--rows N] [--warehouse DIR] [--no-agg-pushdown]
#
# --no-agg-pushdown: Postgres computes the counts (paimon_fdw.enable_aggregate_pushdown
# off), so that the plan with workers is a parallel scan (a count pushed into the
# scan is not parallel) and the participants share the buckets.
#
# Needs the extension built and installed (make -j2 && make install). Without
# --warehouse the tables are generated once into bench/data/pk_warehouse_<rows>
# (not tracked).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=5
ROWS=10000000
WAREHOUSE=
PUSHDOWN=on
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--no-agg-pushdown) PUSHDOWN=off; shift ;;
		*) echo "usage: $0 [--runs N] [--rows N] [--warehouse DIR] [--no-agg-pushdown]" >&2; exit 2 ;;
	esac
done
if [ -z "$WAREHOUSE" ]; then
	WAREHOUSE=$(pwd)/bench/data/pk_warehouse_$ROWS
	if [ ! -d "$WAREHOUSE/bench.db/pk_7col_flat" ]; then
		rm -rf "$WAREHOUSE"
		mkdir -p "$WAREHOUSE"
		bash bench/gen_pk_table.sh "$WAREHOUSE" "$ROWS"
	fi
fi
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)
for t in pk_7col pk_7col_flat; do
	[ -d "$WAREHOUSE/bench.db/$t" ] || { echo "run_pk.sh: no table $WAREHOUSE/bench.db/$t (bench/gen_pk_table.sh writes it)" >&2; exit 1; }
done
chmod -R a+rX "$WAREHOUSE"

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
export PGPORT=${PGPORT:-$((55000 + RANDOM % 2000))}
pg_tmp_start
trap pg_tmp_stop EXIT
# every session of this script (psql reads PGOPTIONS)
export PGOPTIONS="${PGOPTIONS:-} -c paimon_fdw.enable_aggregate_pushdown=$PUSHDOWN"

psql -X -q -c "ALTER SYSTEM SET autovacuum = off" -c "SELECT pg_reload_conf()" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
CREATE SCHEMA bench;
IMPORT FOREIGN SCHEMA bench LIMIT TO (pk_7col, pk_7col_flat) FROM SERVER lake INTO bench;
SQL

echo "warehouse: $WAREHOUSE"
for t in pk_7col pk_7col_flat; do
	echo "  $t: $(du -sh "$WAREHOUSE/bench.db/$t" | cut -f1), $(find "$WAREHOUSE/bench.db/$t" -name '*.parquet' | wc -l) data files"
done

# correctness: the merge read must give the rows of the append table
CHECK="SELECT sum(hashtext(d)), sum(b), count(*) FROM bench.%s"
for w in 0 2; do
	pk=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SET max_parallel_workers_per_gather = $w" -c "$(printf "$CHECK" pk_7col)")
	flat=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SET max_parallel_workers_per_gather = $w" -c "$(printf "$CHECK" pk_7col_flat)")
	if [ "$pk" != "$flat" ]; then
		echo "run_pk.sh: MISMATCH with $w workers: pk_7col gives $pk, pk_7col_flat gives $flat" >&2
		exit 1
	fi
done
NROWS=${pk##*|}
echo "check: sum(hashtext(d)), sum(b), count(*) = $pk on both tables (0 and 2 workers)"

# (the WHERE, true of every row, keeps the append table's counts from the file
# metadata: both tables are read)
QUERY="SELECT count(id), count(a), count(b), count(c), count(d), count(e), count(f) FROM bench.%s WHERE id IS NOT NULL"

# One run: prints "<wall ms> <leader cpu s> <total cpu s>". The leader's CPU (user +
# system) is what log_executor_stats reports to the client; parallel workers do not send
# theirs, so the total is taken from the kernel instead: the backend and its workers are
# children of the postmaster, and once they have exited and been reaped their CPU time is
# in the postmaster's cutime + cstime (/proc/<pid>/stat). That total covers the whole
# session (connection start, SETs: a few ms).
PM_PID=$(head -1 "$PG_TMP_DIR/data/postmaster.pid")
TICK=$(getconf CLK_TCK)
reaped_ticks() { awk '{print $16 + $17}' "/proc/$PM_PID/stat"; }
one_run() {	# $1 = workers, $2 = table
	local before out after
	before=$(reaped_ticks)
	out=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SET max_parallel_workers_per_gather = $1" \
		-c "SET log_executor_stats = on" -c "SET client_min_messages = log" \
		-c '\timing on' -c "$(printf "$QUERY" "$2")" 2>&1)
	sleep 0.3	# let the postmaster reap the backend
	after=$(reaped_ticks)
	printf '%s\n' "$out" |
		awk -v total="$(( after - before ))" -v tick="$TICK" '
		     /^Time: / { ms = $2 }
		     /s user, .* s system, .* s elapsed/ && !seen { seen = 1; cpu = $2 + $5 }	# "!  <u> s user, <s> s system, ..."
		     END { printf "%s %.3f %.3f\n", ms, cpu, total / tick }'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

printf '\n%-13s %7s %7s %9s %11s %10s %9s %12s\n' table workers planned "wall ms" "rows/s" "leader cpu" "total cpu" "rows/cpu-s"
for w in 0 2; do
	for t in pk_7col pk_7col_flat; do
		planned=$(psql -X -q -At -c "SET max_parallel_workers_per_gather = $w" -c "EXPLAIN $(printf "$QUERY" "$t")" |
			sed -n 's/.*Workers Planned: \([0-9]*\).*/\1/p' | head -1)
		one_run "$w" "$t" >/dev/null	# warm the OS cache
		walls=() cpus=() totals=()
		for _ in $(seq "$RUNS"); do
			read -r ms cpu total < <(one_run "$w" "$t")
			walls+=("$ms"); cpus+=("$cpu"); totals+=("$total")
		done
		wall=$(printf '%s\n' "${walls[@]}" | median)
		cpu=$(printf '%s\n' "${cpus[@]}" | median)
		total=$(printf '%s\n' "${totals[@]}" | median)
		printf '%-13s %7s %7s %9.1f %11.0f %10.3f %9.2f %12.0f\n' "$t" "$w" "${planned:-0}" "$wall" \
			"$(awk -v n="$NROWS" -v ms="$wall" 'BEGIN {print n / (ms / 1000)}')" "$cpu" "$total" \
			"$(awk -v n="$NROWS" -v c="$total" 'BEGIN {print (c > 0 ? n / c : 0)}')"
	done
done
echo "($RUNS runs each, median; $NROWS rows. leader cpu: user + system seconds of the backend's executor"
echo " (log_executor_stats); total cpu: backend session + parallel workers (kernel, 10 ms ticks);"
echo " rows/cpu-s uses the total)"

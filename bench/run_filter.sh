#!/usr/bin/env bash
# Benchmark: selective WHERE clauses on a 10M-row Paimon append table (Parquet/zstd,
# written by Apache Paimon Java, bench/gen_filter_table.sh: 20 files of 500k rows, ids in
# order, a bloom filter file index on the random column b) through paimon_fdw, next to the
# same rows in a Postgres heap table with btree indexes on id and b, and DuckDB (1 thread)
# on the table's own Parquet files. Prints the median of several runs per query (ms):
#
#   range 1%:  count/sum/max over id BETWEEN 4000000 AND 4099999 (sorted column:
#              file statistics, then the page index)
#   equality:  SELECT * WHERE b = <the b of one row> (unsorted column: the bloom filter
#              drops files, then the page index or nothing)
#
# paimon_fdw is run with every stage on, with the page index off
# (paimon_fdw.enable_page_index), and with no pushdown at all (a full scan). Everything on
# one core (no parallel workers, DuckDB 1 thread). Every engine is timed as DuckDB is: in
# one session, after a warm-up run; paimon_fdw also on the first run of new sessions.
#
#   bash bench/run_filter.sh [--runs N] [--rows N] [--warehouse DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=5
ROWS=10000000
WAREHOUSE=
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		*) echo "usage: $0 [--runs N] [--rows N] [--warehouse DIR]" >&2; exit 2 ;;
	esac
done
if [ -z "$WAREHOUSE" ]; then
	WAREHOUSE=$(pwd)/bench/data/filter_warehouse_$ROWS
	if [ ! -d "$WAREHOUSE/bench.db" ]; then
		mkdir -p "$WAREHOUSE"
		bash bench/gen_filter_table.sh "$WAREHOUSE" "$ROWS"
	fi
fi
chmod -R a+rX "$WAREHOUSE"
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)
TABLE=filter_7col

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT
psql -X -q -c "ALTER SYSTEM SET shared_buffers = '4GB'" -c "ALTER SYSTEM SET work_mem = '256MB'"
_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null

psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION paimon_fdw;
CREATE EXTENSION pg_prewarm;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
CREATE SCHEMA p;
IMPORT FOREIGN SCHEMA bench LIMIT TO ($TABLE) FROM SERVER lake INTO p;
CREATE TABLE heap AS SELECT * FROM p.$TABLE;
CREATE INDEX ON heap (id);
CREATE INDEX ON heap (b);
VACUUM (FREEZE, ANALYZE) heap;
SELECT pg_prewarm('heap');
SELECT pg_prewarm(indexrelid) FROM pg_index WHERE indrelid = 'heap'::regclass;
SQL
MID=$((ROWS * 2 / 5))
HI=$((MID + ROWS / 100 - 1))
B=$(psql -X -At -c "SELECT b FROM heap WHERE id = $((ROWS * 3 / 4 + 4321))")
echo "table: $TABLE, $(psql -X -At -c 'SELECT count(*) FROM heap') rows," \
	"heap $(psql -X -At -c "SELECT pg_size_pretty(pg_table_size('heap'))")," \
	"Paimon files $(du -sh "$WAREHOUSE/bench.db/$TABLE" | cut -f1)"

declare -a NAMES QUERIES
NAMES+=("range 1% (sorted id)"); QUERIES+=("SELECT count(*), sum(a), sum(b), max(d) FROM %s WHERE id BETWEEN $MID AND $HI")
NAMES+=("equality (bloom b)");   QUERIES+=("SELECT * FROM %s WHERE b = $B")

if [ ! -x bench/.venv/bin/python ]; then
	python3 -m venv bench/.venv
	bench/.venv/bin/pip install -q duckdb
fi
FILES="$WAREHOUSE/bench.db/$TABLE/bucket-*/*.parquet"
duck_ms() {	# $1 = query over table t
	bench/.venv/bin/python bench/duckdb_query.py --files "$FILES" --threads 1 \
		--runs "$RUNS" --query "$1"
}

median() {	# the median of the numbers on stdin
	sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

median_ms() {	# $1 = settings, $2 = query: one session, a warm-up run, then RUNS timed runs
	{
		echo "SET max_parallel_workers_per_gather = 0;"
		echo "$1;"
		echo "$2;"
		echo '\timing on'
		for _ in $(seq "$RUNS"); do echo "$2;"; done
	} | psql -X -At | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | median
}

first_ms() {	# $1 = settings, $2 = query: its first run in each of RUNS new sessions
	for _ in $(seq "$RUNS"); do
		psql -X -At -c "SET max_parallel_workers_per_gather = 0" -c "$1" -c '\timing on' -c "$2" |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
	done | median
}

printf '\n%-22s %9s %12s %11s %11s %9s %10s %10s %12s %13s %10s\n' "query (median ms)" "fdw" "no page idx" "full scan" \
	"heap btree" "duckdb" "fdw/duck" "scan/fdw" "fdw new conn" "no page cache" "nopc/duck"
for i in "${!NAMES[@]}"; do
	fq=$(printf "${QUERIES[$i]}" "p.$TABLE")
	psql -X -At -c "$fq" >/dev/null		# warm the OS cache
	f=$(median_ms "SET paimon_fdw.enable_page_index = on" "$fq")
	np=$(median_ms "SET paimon_fdw.enable_page_index = off" "$fq")
	fs=$(median_ms "SET paimon_fdw.enable_pushdown = off" "$fq")
	h=$(median_ms "SET enable_seqscan = on" "$(printf "${QUERIES[$i]}" heap)")
	d=$(duck_ms "$(printf "${QUERIES[$i]}" t)")
	f1=$(first_ms "SET paimon_fdw.enable_page_index = on" "$fq")
	nc=$(median_ms "SET paimon_fdw.page_cache_size = 0" "$fq")
	printf '%-22s %9s %12s %11s %11s %9s %9sx %9sx %12s %13s %9sx\n' "${NAMES[$i]}" "$f" "$np" "$fs" "$h" "$d" \
		"$(awk -v a="$f" -v b="$d" 'BEGIN {printf "%.2f", a / b}')" \
		"$(awk -v a="$fs" -v b="$f" 'BEGIN {printf "%.1f", a / b}')" "$f1" "$nc" \
		"$(awk -v a="$nc" -v b="$d" 'BEGIN {printf "%.2f", a / b}')"
	psql -X -At -c "SET max_parallel_workers_per_gather = 0" \
		-c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $fq" |
		grep -E 'Data Files|Row Groups|Pages' | sed 's/^ */    /'
done
echo "(one core: no parallel workers, DuckDB 1 thread; $RUNS runs each, median; every engine"
echo " like DuckDB: one session, a warm-up run, then the timed runs; fdw new conn = the first"
echo " run in a new session (cold per-backend caches, the library loaded); no page cache ="
echo " paimon_fdw.page_cache_size = 0 (every page decompressed on every run, as DuckDB does);"
echo " fdw/duck = fdw time / DuckDB time; scan/fdw = full-scan time / fdw time)"

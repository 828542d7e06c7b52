#!/usr/bin/env bash
# Benchmark: read a Paimon append table (10M rows x 7 columns, Parquet/zstd,
# written by Apache Paimon Java) through paimon_fdw, next to the same rows in
# a Postgres heap table and DuckDB (from PyPI, in bench/.venv) reading the
# table's own Parquet files. Prints the median of several runs per query,
# each engine timed in one session after a warm-up run (as DuckDB is), and
# paimon_fdw also on the first query of new sessions.
#
#   bash bench/run.sh [--runs N] [--rows N] [--warehouse DIR]
#
# Needs the extension built and installed (scripts/test.sh or demo.sh do
# that). The warehouse is generated once with bench/gen_table.sh (cached in
# bench/data/, not tracked). A throwaway Postgres is started with
# shared_buffers large enough to keep the heap table cached, so the heap
# side is measured at its best. Both sides are measured with up to 2
# parallel workers and on one core.
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
	WAREHOUSE=$(pwd)/bench/data/warehouse_$ROWS
	if [ ! -d "$WAREHOUSE/bench.db" ]; then
		mkdir -p "$WAREHOUSE"
		bash bench/gen_table.sh "$WAREHOUSE" "$ROWS"
	fi
fi
chmod -R a+rX "$WAREHOUSE"
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)
TABLE=$(basename "$(ls -d "$WAREHOUSE"/bench.db/*/ | head -1)")

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
IMPORT FOREIGN SCHEMA bench FROM SERVER lake INTO p;
CREATE TABLE heap AS SELECT * FROM p."$TABLE";
VACUUM (FREEZE, ANALYZE) heap;
SELECT pg_prewarm('heap');
SQL
COLS=$(psql -X -At -c "SELECT string_agg(quote_ident(attname), ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'heap'::regclass AND attnum > 0")
IFS=, read -r -a C <<<"$COLS"
echo "table: $TABLE, $(psql -X -At -c 'SELECT count(*) FROM heap') rows, columns: $COLS"
echo "heap size: $(psql -X -At -c "SELECT pg_size_pretty(pg_table_size('heap'))"), Paimon files: $(du -sh "$WAREHOUSE/bench.db/$TABLE" | cut -f1)"

declare -a NAMES QUERIES
NAMES+=("count(*)");            QUERIES+=("SELECT count(*) FROM %s")
NAMES+=("sum(1 column)");       QUERIES+=("SELECT sum(${C[1]}) FROM %s")
NAMES+=("2-of-7 projection");   QUERIES+=("SELECT sum(${C[1]}), max(${C[4]}) FROM %s")
# (the WHERE, true of every row, keeps the counts from the file metadata: this
# query measures reading all 7 columns; without it paimon_fdw answers from the
# files' null counts)
NAMES+=("all 7 columns");       QUERIES+=("SELECT count(${C[0]}), count(${C[1]}), count(${C[2]}), count(${C[3]}), count(${C[4]}), count(${C[5]}), count(${C[6]}) FROM %s WHERE ${C[0]} IS NOT NULL")
NAMES+=("sum(decimal)");        QUERIES+=("SELECT sum(${C[6]}) FROM %s")
NAMES+=("group by int");        QUERIES+=("SELECT ${C[1]}, count(*), sum(${C[3]}) FROM %s GROUP BY ${C[1]}")
NAMES+=("order by limit 10");   QUERIES+=("SELECT * FROM %s ORDER BY ${C[3]} DESC LIMIT 10")

# DuckDB on the same files (an append table without deletion vectors: the
# files are the rows). Its venv is made once.
if [ ! -x bench/.venv/bin/python ]; then
	python3 -m venv bench/.venv
	bench/.venv/bin/pip install -q duckdb
fi
FILES="$WAREHOUSE/bench.db/$TABLE/bucket-*/*.parquet"
duck_ms() {	# $1 = threads, $2 = query over table t
	bench/.venv/bin/python bench/duckdb_query.py --files "$FILES" --threads "$1" \
		--runs "$RUNS" --query "$2"
}

median() {	# the median of the numbers on stdin
	sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

# Timed as bench/duckdb_query.py times DuckDB: in one session, a warm-up
# run, then $RUNS timed runs (median).
median_ms() {	# $1 = settings, $2 = query
	{
		echo "$1;"
		echo "$2;"
		echo '\timing on'
		for _ in $(seq "$RUNS"); do echo "$2;"; done
	} | psql -X -At -v ON_ERROR_STOP=1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | median
}

# The first run of new sessions (the library loaded, every per-backend
# cache cold): what a client that connects per query sees.
new_conn_ms() {	# $1 = settings, $2 = query
	for _ in $(seq "$RUNS"); do
		psql -X -At -c "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
	done | median
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

printf '\n%-20s %9s %10s %9s %9s %10s %9s %10s %9s %11s\n' "query (median ms)" "fdw" "fdw 1 core" "new conn" "heap" \
	"heap 1 core" "duckdb" "duck 1 th" "heap/fdw" "fdw/duck 1"
for i in "${!NAMES[@]}"; do
	q=${QUERIES[$i]}
	f=$(median_ms "SET max_parallel_workers_per_gather = 2" "$(printf "$q" "p.\"$TABLE\"")")
	f1=$(median_ms "SET max_parallel_workers_per_gather = 0" "$(printf "$q" "p.\"$TABLE\"")")
	fn=$(new_conn_ms "SET max_parallel_workers_per_gather = 0" "$(printf "$q" "p.\"$TABLE\"")")
	h=$(median_ms "SET max_parallel_workers_per_gather = 2" "$(printf "$q" heap)")
	h1=$(median_ms "SET max_parallel_workers_per_gather = 0" "$(printf "$q" heap)")
	d=$(duck_ms 2 "$(printf "$q" t)")
	d1=$(duck_ms 1 "$(printf "$q" t)")
	printf '%-20s %9s %10s %9s %9s %10s %9s %10s %8sx %10sx\n' "${NAMES[$i]}" "$f" "$f1" "$fn" "$h" "$h1" "$d" "$d1" \
		"$(ratio "$h" "$f")" "$(ratio "$f1" "$d1")"
done
echo "(fdw and heap: up to 2 parallel workers, Postgres' default; duckdb: 2 threads; '1 core' /"
echo " '1 th': no parallel workers / 1 thread; every engine timed in one session after a warm-up"
echo " run, as DuckDB is; 'new conn': paimon_fdw on one core, the first query of a new session;"
echo " heap/fdw = heap time / fdw time with workers; fdw/duck 1 = fdw 1 core / DuckDB 1 thread;"
echo " $RUNS runs each, median)"

#!/usr/bin/env bash
# Benchmark of top-N pushdown and of parallel scans (issue 10), on the table
# of bench/run.sh (10M rows x 7 columns, Parquet/zstd, written by Apache
# Paimon Java): medians of several runs, milliseconds.
#
#   - SELECT * ... ORDER BY c DESC LIMIT 10 with paimon_fdw.enable_topn_pushdown
#     on and off (one core), and a plain SELECT * ... LIMIT 10;
#   - sum(a) and the count of all 7 columns scanned by Postgres (aggregate
#     pushdown off, so that the scan is parallel) with 0 and 2 workers, data
#     files as units (paimon_fdw.parallel_split_size = 0) and shared by row
#     group (the default), and which rows each worker returned.
#
#   - the pushed top-N with its late materialization off
#     (paimon_fdw.enable_page_index = off: sort key and other columns decoded
#     for every row) and on, in alternating runs, and the CPU time of the
#     backend for each (user + system, from /proc, median);
#   - with --compare, the same ORDER BY ... LIMIT 10 on a heap table of the
#     same rows (one core) and in DuckDB (1 thread) on the table's files.
#
#   bash bench/run_topn.sh [--runs N] [--warehouse DIR] [--row-groups MB]
#                          [--topn-only] [--compare]
#
# Paimon Java writes row groups of up to 128 MB, so the 42 MB files of the
# benchmark table hold one row group each and a parallel scan can only
# hand out whole files. --row-groups MB also copies the table (INSERT ...
# SELECT through paimon_fdw, into the throwaway cluster's data directory)
# into files of about 40 MB with row groups of MB megabytes and measures the
# parallel scans there too.
#
# Needs the extension installed; generates bench/data/warehouse_10000000 with
# bench/gen_table.sh on first use, like bench/run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=5
WAREHOUSE=
RG_MB=
TOPN_ONLY=
COMPARE=
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--row-groups) RG_MB=$2; shift 2 ;;
		--topn-only) TOPN_ONLY=1; shift ;;
		--compare) COMPARE=1; shift ;;
		*) echo "usage: $0 [--runs N] [--warehouse DIR] [--row-groups MB] [--topn-only] [--compare]" >&2
		   exit 2 ;;
	esac
done
if [ -z "$WAREHOUSE" ]; then
	WAREHOUSE=$(pwd)/bench/data/warehouse_10000000
	if [ ! -d "$WAREHOUSE/bench.db" ]; then
		mkdir -p "$WAREHOUSE"
		bash bench/gen_table.sh "$WAREHOUSE" 10000000
	fi
fi
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)
TABLE=$(basename "$(ls -d "$WAREHOUSE"/bench.db/*/ | head -1)")

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
CREATE SCHEMA p;
IMPORT FOREIGN SCHEMA bench FROM SERVER lake INTO p;
SQL
T="p.\"$TABLE\""

median_ms() {	# $1 = settings, $2 = query
	local times=()
	psql -X -At -c "$1" -c "$2" >/dev/null	# warm the OS cache
	for _ in $(seq "$RUNS"); do
		t=$(psql -X -At -c "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
		times+=("$t")
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

row() {	# $1 = label, $2 = settings, $3 = query
	printf '%-58s %10s\n' "$1" "$(median_ms "$2" "$3")"
}

ONE="SET max_parallel_workers_per_gather = 0"
TWO="SET max_parallel_workers_per_gather = 2; SET paimon_fdw.enable_aggregate_pushdown = off"
echo "table $TABLE, $RUNS runs each, median ms"
row "ORDER BY c DESC LIMIT 10, top-N pushdown" "$ONE" "SELECT * FROM $T ORDER BY c DESC LIMIT 10"
row "ORDER BY c DESC LIMIT 10, enable_topn_pushdown off" "$ONE; SET paimon_fdw.enable_topn_pushdown = off" \
	"SELECT * FROM $T ORDER BY c DESC LIMIT 10"
row "LIMIT 10 (no ORDER BY)" "$ONE" "SELECT * FROM $T LIMIT 10"

# late materialization off and on, alternating; wall and backend CPU ms
cpu_ms() {	# $1 = settings, $2 = query: "wall cpu" of one run in one backend
	psql -X -At -c "$1" -c '\timing on' -c "$2" \
		-c "SELECT 'cpu ' || pg_read_file('/proc/' || pg_backend_pid() || '/stat')" |
		awk -v hz="$(getconf CLK_TCK)" '
			/^Time: / && w == "" {w = $2}
			/^cpu / {sub(/^cpu [0-9]+ \(.*\) /, ""); split($0, f, " "); c = (f[12] + f[13]) * 1000 / hz}
			END {print w, c}'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
Q="SELECT * FROM $T ORDER BY c DESC LIMIT 10"
psql -X -At -c "$ONE" -c "$Q" >/dev/null
declare -a W0 C0 W1 C1
for _ in $(seq "$RUNS"); do
	read -r w c < <(cpu_ms "$ONE; SET paimon_fdw.enable_page_index = off" "$Q"); W0+=("$w"); C0+=("$c")
	read -r w c < <(cpu_ms "$ONE" "$Q"); W1+=("$w"); C1+=("$c")
done
printf '%-58s %10s %10s\n' "ORDER BY c DESC LIMIT 10, top-N pushed (ms)" "wall" "CPU"
printf '%-58s %10s %10s\n' "  late materialization off (enable_page_index = off)" \
	"$(printf '%s\n' "${W0[@]}" | median)" "$(printf '%s\n' "${C0[@]}" | median)"
printf '%-58s %10s %10s\n' "  late materialization on" \
	"$(printf '%s\n' "${W1[@]}" | median)" "$(printf '%s\n' "${C1[@]}" | median)"
psql -X -At -c "$ONE" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $Q" |
	grep -E "Late Materialization" | sed 's/^ */  /'
if [ -n "$COMPARE" ]; then
	# shared_buffers that hold the heap table, as bench/run.sh
	psql -X -q -c "ALTER SYSTEM SET shared_buffers = '2GB'"
	_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null
	psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pg_prewarm" -c "CREATE TABLE heap AS SELECT * FROM $T" \
		-c "VACUUM (FREEZE, ANALYZE) heap" -c "SELECT pg_prewarm('heap')"
	row "the same on a heap table (one core)" "$ONE" "SELECT * FROM heap ORDER BY c DESC LIMIT 10"
	if [ ! -x bench/.venv/bin/python ]; then
		python3 -m venv bench/.venv
		bench/.venv/bin/pip install -q duckdb
	fi
	printf '%-58s %10s\n' "the same in DuckDB (1 thread, the table's Parquet files)" \
		"$(bench/.venv/bin/python bench/duckdb_query.py --files "$WAREHOUSE/bench.db/$TABLE/bucket-*/*.parquet" \
			--threads 1 --runs "$RUNS" --query "SELECT * FROM t ORDER BY c DESC LIMIT 10")"
fi
[ -n "$TOPN_ONLY" ] && exit 0
parallel() {	# $1 = table
	for q in "sum(a)|SELECT sum(a) FROM $1" \
		"7-column count|SELECT count(id), count(a), count(b), count(c), count(d), count(e), count(f) FROM $1 WHERE id IS NOT NULL"; do
		name=${q%%|*}
		sql=${q#*|}
		row "$name, scanned, 0 workers" "$ONE; SET paimon_fdw.enable_aggregate_pushdown = off" "$sql"
		row "$name, scanned, 2 workers, files as units" "$TWO; SET paimon_fdw.parallel_split_size = 0" "$sql"
		row "$name, scanned, 2 workers, row groups as units" "$TWO" "$sql"
		row "$name, pushed down (one process)" "$ONE" "$sql"
	done
	echo "rows per process of a parallel scan (sum(a), row groups as units):"
	psql -X -At -c "$TWO" -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT sum(a) FROM $1" |
		grep -E "Workers (Planned|Launched)|Parallel Foreign Scan|Worker [0-9]:.*rows|actual rows" | sed 's/^ */  /'
}
parallel "$T"
if [ -n "$RG_MB" ]; then
	psql -X -q -v ON_ERROR_STOP=1 <<SQL
SELECT current_setting('data_directory') || '/rg_warehouse' AS wh \gset
CREATE SERVER rgw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('rgw', 'rg');
SELECT paimon_create_table('rgw', 'rg', 'copy',
  'id BIGINT NOT NULL, a INT, b BIGINT, c DOUBLE, d STRING, e DATE, f DECIMAL(12, 2)',
  options => '{"parquet.block.size": "$RG_MB mb", "target-file-size": "40 mb",
               "file.compression": "zstd"}', foreign_table => 'p.rg_copy');
INSERT INTO p.rg_copy SELECT * FROM $T;
SQL
	ls -l "$PG_TMP_DIR"/data/rg_warehouse/rg.db/copy/bucket-0/ | awk 'NR > 1 {print "  " $5 " bytes"}'
	echo "the same rows with row groups of $RG_MB MB (written by paimon_fdw):"
	parallel p.rg_copy
fi

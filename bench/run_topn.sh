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
#   bash bench/run_topn.sh [--runs N] [--warehouse DIR] [--row-groups MB]
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
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--row-groups) RG_MB=$2; shift 2 ;;
		*) echo "usage: $0 [--runs N] [--warehouse DIR] [--row-groups MB]" >&2; exit 2 ;;
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
parallel() {	# $1 = table
	for q in "sum(a)|SELECT sum(a) FROM $1" \
		"7-column count|SELECT count(id), count(a), count(b), count(c), count(d), count(e), count(f) FROM $1"; do
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

#!/usr/bin/env bash
# Benchmark: ORC row groups skipped by the row index (issue 7). The same rows (id INT in
# order, a BIGINT, an md5 STRING, a DOUBLE, a DECIMAL) written through paimon_fdw into an
# ORC table (zstd, row groups of 10000 rows, orc.row.index.stride) and a Parquet table
# (zstd; page index), then, in one session after a warm-up run, the median wall time of
# --runs runs per query (ms, psql \timing):
#
#   range:   count(*), max(s) / sum(a) over WHERE id BETWEEN mid AND mid + 1000
#   lookup:  SELECT * WHERE id = <one id>, on an ORC primary-key table of the same rows
#            (1 bucket: the point-lookup path reads ORC files through the scan)
#
# ORC with paimon_fdw.enable_page_index on (row groups sought) and off (every row group
# of the stripes the statistics keep, as before the row index was read), Parquet with it
# on. One core (no parallel workers). DuckDB reads no ORC: no DuckDB column.
#
#   bash bench/run_orc_filter.sh [--runs N] [--rows N] [--warehouse DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=5
ROWS=3000000
WAREHOUSE=
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		*) echo "usage: $0 [--runs N] [--rows N] [--warehouse DIR]" >&2; exit 2 ;;
	esac
done
[ -n "$WAREHOUSE" ] || WAREHOUSE=$(pwd)/bench/data/orc_filter_warehouse_$ROWS
mkdir -p "$WAREHOUSE"
chmod 777 "$WAREHOUSE"
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT

psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
SQL
if [ ! -d "$WAREHOUSE/bench.db/orc_t" ]; then
	echo "writing $ROWS rows into ORC and Parquet tables (once) ..."
	psql -X -q -v ON_ERROR_STOP=1 -o /dev/null <<SQL
SELECT paimon_create_database('lake', 'bench');
SELECT paimon_create_table('lake', 'bench', t, 'id INT, a BIGINT, s STRING, d DOUBLE, dec DECIMAL(12,2)',
  primary_key => CASE WHEN t = 'orc_k' THEN ARRAY['id'] END,
  options => format('{"file.format": "%s", "bucket": "%s"}',
                    CASE WHEN t = 'parquet_t' THEN 'parquet' ELSE 'orc' END,
                    CASE WHEN t = 'orc_k' THEN '1' ELSE '-1' END)::jsonb)
  FROM unnest(ARRAY['orc_t', 'parquet_t', 'orc_k']) t;
SQL
fi
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
CREATE SCHEMA p;
IMPORT FOREIGN SCHEMA bench FROM SERVER lake INTO p;
SQL
if [ "$(psql -X -Atq -c 'SELECT count(*) FROM p.orc_t')" = 0 ]; then
	psql -X -q -v ON_ERROR_STOP=1 <<SQL
INSERT INTO p.orc_t SELECT g, g * 31, md5(g::text), g / 7.0, g * 0.25 FROM generate_series(1, $ROWS) g;
INSERT INTO p.parquet_t SELECT * FROM p.orc_t;
INSERT INTO p.orc_k SELECT * FROM p.orc_t;
SQL
fi

MID=$((ROWS / 2))
# median wall ms of query q ($2) under setting $1, RUNS runs after a warm-up, one session
median() {
	{
		echo "SET max_parallel_workers_per_gather = 0;"
		echo "SET paimon_fdw.enable_page_index = $1;"
		echo "$2"
		echo '\timing on'
		for _ in $(seq "$RUNS"); do echo "$2"; done
	} | psql -X -q -v ON_ERROR_STOP=1 -o /dev/null 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' |
		sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

range_s="SELECT count(*), max(s) FROM p.%s WHERE id BETWEEN $MID AND $((MID + 1000));"
range_a="SELECT count(*), sum(a) FROM p.%s WHERE id BETWEEN $MID AND $((MID + 1000));"
lookup="SELECT * FROM p.orc_k WHERE id = $((MID + 4321));"
printf '| query | ORC, row index | ORC, row index off | Parquet, page index |\n|---|---|---|---|\n'
for q in "$range_s" "$range_a"; do
	# shellcheck disable=SC2059
	printf '| `%s` | %s | %s | %s |\n' "$(printf "$q" t | sed 's/p\.t /t /')" \
		"$(median on "$(printf "$q" orc_t)")" "$(median off "$(printf "$q" orc_t)")" \
		"$(median on "$(printf "$q" parquet_t)")"
done
printf '| `%s` (PK table) | %s | %s | |\n' "$lookup" "$(median on "$lookup")" "$(median off "$lookup")"
psql -X -q -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $(printf "$range_s" orc_t)" |
	grep -E 'Stripes|ORC Row Groups' || true

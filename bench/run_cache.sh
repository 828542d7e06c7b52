#!/usr/bin/env bash
# Metadata cache benchmark: a small query repeated on a table with many
# manifests, with paimon_fdw.metadata_cache_size off and on.
#
# Two tables (append, Parquet/zstd, written through paimon_fdw) get N commits
# of 100 rows each, so N data files: `t` with Paimon's default manifest
# merging (manifest.merge-min-count 30: the snapshot keeps some 30
# manifests), `tm` with merge-min-count 100000 (one manifest per commit). The
# query `SELECT count(*) FROM <table> WHERE k = <one key>` keeps one data file
# after statistics pruning. pgbench runs it from one session (each run a new
# backend, so the first execution starts cold) and prints the mean latency
# and the queries per second of each setting.
#
#   bash bench/run_cache.sh [--commits N] [--queries M]
#
# Needs the extension built and installed (scripts/test.sh or demo.sh). One
# throwaway Postgres; the warehouse lives in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMITS=200
QUERIES=500
while [ $# -gt 0 ]; do
	case "$1" in
		--commits) COMMITS=$2; shift 2 ;;
		--queries) QUERIES=$2; shift 2 ;;
		*) echo "usage: $0 [--commits N] [--queries M]" >&2; exit 2 ;;
	esac
done
WORK=$(mktemp -d /tmp/paimon_bench_cache.XXXXXX)
chmod 777 "$WORK"
# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap 'pg_tmp_stop; rm -rf "$WORK"' EXIT

psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WORK/wh');
SELECT paimon_create_database('lake', 'bench');
SELECT paimon_create_table('lake', 'bench', 't', 'k BIGINT, v STRING',
       options => '{"file.format": "parquet", "file.compression": "zstd"}',
       foreign_table => 'public.t');
SELECT paimon_create_table('lake', 'bench', 'tm', 'k BIGINT, v STRING',
       options => '{"file.format": "parquet", "file.compression": "zstd",
                    "manifest.merge-min-count": "100000"}',
       foreign_table => 'public.tm');
SQL
for table in t tm; do
	for ((c = 0; c < COMMITS; c++)); do
		echo "INSERT INTO $table SELECT $c * 100 + g, 'value ' || g FROM generate_series(1, 100) g;"
	done
done | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
key=$((COMMITS * 50 + 42))

run() {	# table, cache setting -> "mean_ms tps"
	echo "SELECT count(*) FROM $1 WHERE k = $key;" > "$WORK/q.sql"
	PGOPTIONS="-c paimon_fdw.metadata_cache_size=$2" pgbench -n -f "$WORK/q.sql" -t "$QUERIES" \
		-h "$PGHOST" -p "$PGPORT" -U postgres postgres 2>/dev/null |
		awk '/latency average/ {lat = $4} /^tps/ {tps = $3} END {printf "%s %.0f\n", lat, tps}'
}
echo "$COMMITS commits of 100 rows per table; one session, $QUERIES queries of count(*) WHERE k = $key each"
printf '| table | manifests read | metadata cache | mean latency (ms) | queries/s |\n|---|---|---|---|---|\n'
for table in t tm; do
	[ "$(psql -X -At -c "SELECT count(*) FROM $table WHERE k = $key")" = 1 ] ||
		{ echo "wrong count" >&2; exit 1; }
	manifests=$(psql -X -At -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
		SELECT count(*) FROM $table WHERE k = $key" | sed -n 's/.*Metadata Cache: \([0-9]*\) hits.*/\1/p')
	# the executor hits the snapshot, the schema, 2 lists and the manifests (the footer is new)
	manifests=$((manifests - 4))
	run "$table" 0 >/dev/null	# warm the OS page cache
	read -r off_ms off_tps < <(run "$table" 0)
	read -r on_ms on_tps < <(run "$table" 64MB)
	printf '| %s | %s | off | %s | %s |\n| %s | %s | 64MB | %s | %s |\n' "$table" "$manifests" \
		"$off_ms" "$off_tps" "$table" "$manifests" "$on_ms" "$on_tps"
done

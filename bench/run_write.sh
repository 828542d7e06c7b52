#!/usr/bin/env bash
# Write benchmark: INSERT ... SELECT of N generated rows (the 7 columns of
# bench/gen_table.sh) into a Paimon append table through paimon_fdw, next to the
# same rows into a Postgres heap table with a primary key; then COPY FROM of
# the same rows as a CSV file into each. Prints wall times, rows/s and the size
# on disk of each side.
#
#   bash bench/run_write.sh [--rows N]
#
# Needs the extension built and installed (scripts/test.sh or demo.sh). One
# throwaway Postgres; the Paimon warehouse and the CSV live in a temporary
# directory removed at the end. Primary-key Paimon tables are not writable yet
# (issue 8): the Paimon side is an append table (bucket -1, Parquet/zstd).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=10000000
while [ $# -gt 0 ]; do
	case "$1" in
		--rows) ROWS=$2; shift 2 ;;
		*) echo "usage: $0 [--rows N]" >&2; exit 2 ;;
	esac
done
WORK=$(mktemp -d /tmp/paimon_bench_write.XXXXXX)
chmod 777 "$WORK"
# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap 'pg_tmp_stop; rm -rf "$WORK"' EXIT
psql -X -q -c "ALTER SYSTEM SET shared_buffers = '2GB'" -c "ALTER SYSTEM SET max_wal_size = '8GB'"
_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null

GEN="SELECT i, (i % 1000)::int, (i * 7919) % 1000000000, (i % 100000) / 100.0,
            'word' || (i % 97), DATE '2019-04-13' + (i % 3650)::int, ((i * 31) % 100000000) / 100.0
     FROM generate_series(1::bigint, $ROWS) AS i"
COLS="id bigint NOT NULL, a int, b bigint, c double precision, d text, e date, f numeric(12,2)"
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WORK/wh');
SELECT paimon_create_database('lake', 'bench');
SELECT paimon_create_table('lake', 'bench', 'w', 'id BIGINT NOT NULL, a INT, b BIGINT,
         c DOUBLE, d STRING, e DATE, f DECIMAL(12, 2)',
       options => '{"file.format": "parquet", "file.compression": "zstd"}',
       foreign_table => 'public.w');
SELECT paimon_create_table('lake', 'bench', 'wc', 'id BIGINT NOT NULL, a INT, b BIGINT,
         c DOUBLE, d STRING, e DATE, f DECIMAL(12, 2)', foreign_table => 'public.wc');
CREATE TABLE heap ($COLS, PRIMARY KEY (id));
CREATE TABLE heapc ($COLS, PRIMARY KEY (id));
SQL

ms() {	# wall milliseconds of one psql command
	psql -X -At -v ON_ERROR_STOP=1 -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}
psql -X -q -c "COPY ($GEN) TO '$WORK/rows.csv' (FORMAT csv)"
ins_p=$(ms "INSERT INTO w $GEN")
ins_h=$(ms "INSERT INTO heap $GEN")
copy_p=$(ms "COPY wc FROM '$WORK/rows.csv' (FORMAT csv)")
copy_h=$(ms "COPY heapc FROM '$WORK/rows.csv' (FORMAT csv)")
psql -X -q -c "CHECKPOINT"
[ "$(psql -X -At -c 'SELECT count(*) FROM w')" = "$ROWS" ] || { echo "row count mismatch" >&2; exit 1; }
[ "$(psql -X -At -c 'SELECT count(*) FROM wc')" = "$ROWS" ] || { echo "row count mismatch" >&2; exit 1; }
size_p=$(du -sb "$WORK/wh/bench.db/w" | cut -f1)
size_h=$(psql -X -At -c "SELECT pg_total_relation_size('heap')")
rate() { awk -v r="$ROWS" -v t="$1" 'BEGIN {printf "%.2f M rows/s", r / t / 1000}'; }
echo "rows: $ROWS (7 columns), one session, no parallelism"
printf '%-26s %12s %18s\n' "" "ms" "rate"
printf '%-26s %12s %18s\n' "INSERT ... SELECT, Paimon" "$ins_p" "$(rate "$ins_p")"
printf '%-26s %12s %18s\n' "INSERT ... SELECT, heap+PK" "$ins_h" "$(rate "$ins_h")"
printf '%-26s %12s %18s\n' "COPY FROM csv, Paimon" "$copy_p" "$(rate "$copy_p")"
printf '%-26s %12s %18s\n' "COPY FROM csv, heap+PK" "$copy_h" "$(rate "$copy_h")"
echo "size on disk: Paimon $((size_p / 1048576)) MiB (files, manifests, snapshot), heap with its index $((size_h / 1048576)) MiB ($(awk -v p="$size_p" -v h="$size_h" 'BEGIN {printf "%.1f%%", 100 * p / h}'))"

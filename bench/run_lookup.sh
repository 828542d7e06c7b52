#!/usr/bin/env bash
# Benchmark: point lookups and a lookup join on a primary-key table, next to a Postgres
# heap table with a btree on the same rows.
#
# bench/gen_pk_table.sh writes (with Apache Paimon Java) bench.pk_7col: 7 columns, key id
# BIGINT, 2 buckets, each a fully compacted base plus 4 overlapping level-0 files of
# upserts. Its rows are copied into a heap table with a primary key (btree), prewarmed.
#   1. single-key lookups/s: pgbench, 1 client, prepared statement (-M prepared),
#        SELECT * FROM <t> WHERE id = :id      (id random in 1..rows)
#      for the Paimon table and for the heap table (each run DURATION seconds; median
#      of RUNS runs);
#   2. a join of 100,000 Postgres rows (random keys) against the table on its key:
#        SELECT count(*), sum(t.b) FROM outer100k o JOIN <t> t ON t.id = o.id
#      median wall time of RUNS runs, the plans the planner picks, and the same join
#      with the Paimon side as a lookup per outer row (enable_hashjoin/mergejoin off) on
#      the first NL_ROWS (1000) outer rows, with JIT (the default) and without.
# Before timing, it checks that both sides give the same rows for sample keys and the
# same join result.
#
#   bash bench/run_lookup.sh [--runs N] [--rows N] [--duration S] [--nl-rows N] [--warehouse DIR]
#                            [--set NAME=VALUE ...] [--shared-pages]
#
# --shared-pages: the lookups/s of the Paimon table once more with the shared page store
# (paimon_fdw.shared_page_cache_dir, a new directory on /dev/shm removed at the end): each
# pgbench run is still a new backend, but its page cache maps the pages earlier runs
# decompressed and the files they made resident (the store fills during a warm-up run of
# twice the duration and the first runs; each run printed). The resident files of the
# 10M-row table take about 1 GB of the store: give it room, e.g.
# --set paimon_fdw.shared_page_cache_size=4GB (the default 1GB evicts them).
#
# --set: a setting for every session (e.g. paimon_fdw.key_cache_size=512MB,
# paimon_fdw.page_cache_size=2GB: caches big enough for the table's key pages
# and the pages lookups read; pgbench's one session warms them during its run).
# Each run prints ms/lookup = 1000 / tps (one client: the backend's time per
# lookup, CPU bound once the files are in the OS cache) and the backend's own
# CPU time per lookup (/proc/<pid>/stat of the pgbench session over the run:
# what to compare on a shared machine).
#
# Needs the extension built and installed (make -j2 && make install). Without
# --warehouse the table is generated once into bench/data/pk_warehouse_<rows> (not
# tracked; bench/run_pk.sh uses the same one).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=3
ROWS=10000000
DURATION=10
NL_ROWS=1000
WAREHOUSE=
SETTINGS=
SHARED_PAGES=
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--duration) DURATION=$2; shift 2 ;;
		--nl-rows) NL_ROWS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--set) SETTINGS="$SETTINGS -c $2"; shift 2 ;;
		--shared-pages) SHARED_PAGES=1; shift ;;
		*) echo "usage: $0 [--runs N] [--rows N] [--duration S] [--nl-rows N] [--warehouse DIR] [--set NAME=VALUE ...] [--shared-pages]" >&2; exit 2 ;;
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
WAREHOUSE=$(cd "$WAREHOUSE" && pwd -P)	# physical: no symbolic link in the path (table_cache.c)
[ -d "$WAREHOUSE/bench.db/pk_7col" ] ||
	{ echo "run_lookup.sh: no table $WAREHOUSE/bench.db/pk_7col (bench/gen_pk_table.sh writes it)" >&2; exit 1; }
chmod -R a+rX "$WAREHOUSE"

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
export PGPORT=${PGPORT:-$((55000 + RANDOM % 2000))}
pg_tmp_start
SHM=
if [ -n "$SHARED_PAGES" ]; then
	SHM=$(mktemp -u -d "${SHM_DIR:-/dev/shm}/paimon_bench_pages.XXXXXX")	# the server creates it (0700)
fi
cleanup() { pg_tmp_stop; [ -z "$SHM" ] || rm -rf "$SHM"; }
trap cleanup EXIT
psql -X -q -c "ALTER SYSTEM SET shared_buffers = '2GB'" -c "ALTER SYSTEM SET autovacuum = off" >/dev/null
_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null
PGBENCH="$PG_BIN/pgbench"

psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION paimon_fdw;
CREATE EXTENSION pg_prewarm;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
CREATE SCHEMA bench;
IMPORT FOREIGN SCHEMA bench LIMIT TO (pk_7col) FROM SERVER lake INTO bench;
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE heap AS SELECT * FROM bench.pk_7col;
ALTER TABLE heap ADD PRIMARY KEY (id);
VACUUM (FREEZE, ANALYZE) heap;
SELECT pg_prewarm('heap') >= 0, pg_prewarm('heap_pkey') >= 0;
CREATE TABLE outer100k AS SELECT (1 + floor(random() * $ROWS))::bigint AS id
  FROM generate_series(1, 100000);
ANALYZE outer100k;
SQL

export PGOPTIONS="${PGOPTIONS:-}$SETTINGS"
echo "warehouse: $WAREHOUSE"
echo "settings:${SETTINGS:- (defaults)}"
echo "  pk_7col: $(du -sh "$WAREHOUSE/bench.db/pk_7col" | cut -f1), $(find "$WAREHOUSE/bench.db/pk_7col" -name '*.parquet' | wc -l) data files;" \
	"heap: $(psql -X -q -At -c "SELECT pg_size_pretty(pg_table_size('heap'))"), btree $(psql -X -q -At -c "SELECT pg_size_pretty(pg_relation_size('heap_pkey'))")"

# correctness: sample keys (present, absent) and the join give the same rows
for id in 1 2 $((ROWS / 2)) "$ROWS" $((ROWS + 1)) 1234567 7654321; do
	a=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT t::text FROM bench.pk_7col t WHERE id = $id")
	b=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT t::text FROM heap t WHERE id = $id")
	if [ "$a" != "$b" ]; then
		echo "run_lookup.sh: MISMATCH for id $id: paimon '$a', heap '$b'" >&2
		exit 1
	fi
done
JOIN="SELECT count(*), sum(t.b) FROM outer100k o JOIN %s t ON t.id = o.id"
ja=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "$(printf "$JOIN" bench.pk_7col)")
jb=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "$(printf "$JOIN" heap)")
if [ "$ja" != "$jb" ]; then
	echo "run_lookup.sh: JOIN MISMATCH: paimon $ja, heap $jb" >&2
	exit 1
fi
echo "check: 7 sample keys equal; join count, sum(b) = $ja on both"
echo
echo "plan of one lookup:"
psql -X -q -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM bench.pk_7col WHERE id = 4242"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# 1. single-key lookups through pgbench, prepared statement, 1 client
script=$(mktemp)
out=$(mktemp)
# shellcheck source=lookup_pgbench.sh
. bench/lookup_pgbench.sh
one_pgbench() {	# one run: "tps cpu_ms_per_lookup"
	pgbench_backend_cpu "$script" "$DURATION" "$out"
}
tps_of() {	# $1 = table: median tps and median backend CPU ms/lookup of RUNS runs
	local runs
	printf '\\set id random(1, %d)\nSELECT * FROM %s WHERE id = :id;\n' "$ROWS" "$1" >"$script"
	"$PGBENCH" -n -M prepared -c 1 -j 1 -T 2 -f "$script" >/dev/null 2>&1	# warm
	runs=$(for _ in $(seq "$RUNS"); do one_pgbench; done)
	echo "$(echo "$runs" | cut -d' ' -f1 | median) $(echo "$runs" | cut -d' ' -f2 | median)"
}
read -r tps_paimon cpu_paimon <<<"$(tps_of bench.pk_7col)"
read -r tps_heap cpu_heap <<<"$(tps_of heap)"
if [ -n "$SHM" ]; then
	saved_opts=$PGOPTIONS
	export PGOPTIONS="$PGOPTIONS -c paimon_fdw.shared_page_cache_dir=$SHM"
	printf '\\set id random(1, %d)\nSELECT * FROM %s WHERE id = :id;\n' "$ROWS" bench.pk_7col >"$script"
	# warm: fills the store with pages and, once lookups came back to the files often
	# enough (rows / 256 probes each), with the resident files (README: resident files)
	"$PGBENCH" -n -M prepared -c 1 -j 1 -T $((2 * DURATION)) -f "$script" >/dev/null 2>&1
	shared_runs=$(for _ in $(seq "$RUNS"); do one_pgbench; done)
	tps_shared=$(echo "$shared_runs" | cut -d' ' -f1 | median)
	cpu_shared=$(echo "$shared_runs" | cut -d' ' -f2 | median)
	echo "shared page store runs (tps, backend CPU ms/lookup): $(echo "$shared_runs" | tr '\n' ';')" \
		"store $(du -sh "$SHM" | cut -f1), $(find "$SHM" -type f | wc -l) files"
	export PGOPTIONS=$saved_opts
fi
rm -f "$script" "$out"

# 2. the join of 100,000 rows
one_join() {	# $1 = table, $2 = more PGOPTIONS: wall ms
	PGOPTIONS="$PGOPTIONS $2" psql -X -q -At -v ON_ERROR_STOP=1 -c "SET max_parallel_workers_per_gather = 0" \
		-c '\timing on' -c "$(printf "$JOIN" "$1")" | sed -n 's/^Time: \([0-9.]*\).*/\1/p'
}
join_ms() {
	one_join "$@" >/dev/null
	for _ in $(seq "$RUNS"); do one_join "$@"; done | median
}
plan_of() {
	PGOPTIONS="$PGOPTIONS $2" psql -X -q -At -c "SET max_parallel_workers_per_gather = 0" -c "EXPLAIN (COSTS OFF) $(printf "$JOIN" "$1")" |
		grep -Eo '(Hash Join|Merge Join|Nested Loop|PaimonKeyJoin)' | head -1
}
NL="-c enable_hashjoin=off -c enable_mergejoin=off -c paimon_fdw.enable_key_join=off"
join_paimon=$(join_ms bench.pk_7col "")
join_heap=$(join_ms heap "")
# a lookup per outer row, on NL_ROWS of the outer rows (100,000 would take minutes)
JOIN_ALL=$JOIN
JOIN="SELECT count(*), sum(t.b) FROM (SELECT * FROM outer100k LIMIT $NL_ROWS) o JOIN %s t ON t.id = o.id"
join_lookup_nl=$(join_ms bench.pk_7col "$NL")
join_heap_nl=$(join_ms heap "$NL")
# the same without JIT: the lookups' cost puts the join over jit_above_cost (the heap's
# index scans do not), and compiling its expressions costs more than the lookups
join_lookup_nl_nojit=$(join_ms bench.pk_7col "$NL -c jit=off")
join_heap_nl_nojit=$(join_ms heap "$NL -c jit=off")
JOIN=$JOIN_ALL

echo
printf '%-42s %14s %14s %9s\n' "" "paimon_fdw" "heap + btree" "ratio"
printf '%-42s %14.0f %14.0f %9.3f\n' "lookups/s (pgbench -M prepared, 1 client)" "$tps_paimon" "$tps_heap" \
	"$(awk -v a="$tps_paimon" -v b="$tps_heap" 'BEGIN {print (b > 0 ? a / b : 0)}')"
printf '%-42s %14.3f %14.3f\n' "ms/lookup (1000 / tps)" \
	"$(awk -v a="$tps_paimon" 'BEGIN {print (a > 0 ? 1000 / a : 0)}')" \
	"$(awk -v b="$tps_heap" 'BEGIN {print (b > 0 ? 1000 / b : 0)}')"
printf '%-42s %14.3f %14.3f %9.1f\n' "backend CPU ms/lookup (/proc/<pid>/stat)" "$cpu_paimon" "$cpu_heap" \
	"$(awk -v a="$cpu_paimon" -v b="$cpu_heap" 'BEGIN {print (b > 0 ? a / b : 0)}')"
if [ -n "$SHM" ]; then
	printf '%-42s %14.0f %14.0f %9.3f\n' "lookups/s, shared page store" "$tps_shared" "$tps_heap" \
		"$(awk -v a="$tps_shared" -v b="$tps_heap" 'BEGIN {print (b > 0 ? a / b : 0)}')"
	printf '%-42s %14.3f %14.3f %9.1f\n' "backend CPU ms/lookup, shared page store" "$cpu_shared" "$cpu_heap" \
		"$(awk -v a="$cpu_shared" -v b="$cpu_heap" 'BEGIN {print (b > 0 ? a / b : 0)}')"
fi
printf '%-42s %14.1f %14.1f %9.2f\n' "join 100k outer rows, ms ($(plan_of bench.pk_7col "") / $(plan_of heap ""))" \
	"$join_paimon" "$join_heap" "$(awk -v a="$join_paimon" -v b="$join_heap" 'BEGIN {print (b > 0 ? a / b : 0)}')"
printf '%-42s %14.1f %14.1f %9.2f\n' "join $NL_ROWS outer rows as nested loop, ms" \
	"$join_lookup_nl" "$join_heap_nl" "$(awk -v a="$join_lookup_nl" -v b="$join_heap_nl" 'BEGIN {print (b > 0 ? a / b : 0)}')"
printf '%-42s %14.1f %14.1f %9.2f\n' "join $NL_ROWS outer rows as nested loop, jit off" \
	"$join_lookup_nl_nojit" "$join_heap_nl_nojit" "$(awk -v a="$join_lookup_nl_nojit" -v b="$join_heap_nl_nojit" 'BEGIN {print (b > 0 ? a / b : 0)}')"
echo "(median of $RUNS runs; pgbench runs of ${DURATION}s; $ROWS rows; one core: no parallel workers)"

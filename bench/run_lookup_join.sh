#!/usr/bin/env bash
# Benchmark: lookup joins. Postgres tables of OUTER rows (random keys; default 1000,
# 5000, 100000) joined on the key of the primary-key table bench.pk_7col (the
# table of bench/run_lookup.sh, bench/gen_pk_table.sh writes it), next to the same
# rows in a heap table with a btree:
#     SELECT count(*), sum(t.b) FROM outer<N> o JOIN <t> t ON t.id = o.id
# For each outer size, the backend CPU time (user + system, getrusage of the
# statement: log_statement_stats sent to the client) of:
#   - the plan the planner picks (its kind printed),
#   - a forced nested loop (a lookup per outer row) with JIT on (the default
#     jit_above_cost) and with jit=off,
#   - a forced hash join (the Paimon table read whole),
#   - a forced merge join (the Paimon table read whole in key order:
#     paimon_fdw.enable_key_order; the outer rows sorted),
#   - the key join (src/fdw/key_join.c: the outer keys handed to the scan,
#     which drops the other rows before they become tuples; forced by turning
#     Postgres' joins off),
#   - the heap: the planner's plan and a forced nested loop (btree probes).
# Each measurement is a new backend (psql -c): the backend's caches start empty,
# as for a new connection; the median of RUNS. One core (no parallel workers).
# Before timing, it checks that every plan gives the heap's result.
#
#   bash bench/run_lookup_join.sh [--runs N] [--rows N] [--outer "1000 5000 100000"]
#                                 [--warehouse DIR] [--set NAME=VALUE ...] [--no-nested-loop]
# (--no-nested-loop: not the forced nested loops of paimon_fdw, which take
# minutes for 100,000 outer rows)
#
# Needs the extension built and installed. Without --warehouse the table is
# bench/data/pk_warehouse_<rows> (generated once, as bench/run_lookup.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=3
ROWS=10000000
OUTER="1000 5000 100000"
WAREHOUSE=
SETTINGS=
NESTED=1
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) RUNS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--outer) OUTER=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--set) SETTINGS="$SETTINGS -c $2"; shift 2 ;;
		--no-nested-loop) NESTED=; shift ;;
		*) echo "usage: $0 [--runs N] [--rows N] [--outer \"N ...\"] [--warehouse DIR] [--set NAME=VALUE ...] [--no-nested-loop]" >&2; exit 2 ;;
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
	{ echo "run_lookup_join.sh: no table $WAREHOUSE/bench.db/pk_7col (bench/gen_pk_table.sh writes it)" >&2; exit 1; }
chmod -R a+rX "$WAREHOUSE"

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
export PGPORT=${PGPORT:-$((55000 + RANDOM % 2000))}
pg_tmp_start
trap pg_tmp_stop EXIT
psql -X -q -c "ALTER SYSTEM SET shared_buffers = '2GB'" -c "ALTER SYSTEM SET autovacuum = off" >/dev/null
_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null

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
SQL
for n in $OUTER; do
	psql -X -q -v ON_ERROR_STOP=1 -c "CREATE TABLE outer$n AS SELECT (1 + floor(random() * $ROWS))::bigint AS id FROM generate_series(1, $n)" \
		-c "ANALYZE outer$n" >/dev/null
done

export PGOPTIONS="${PGOPTIONS:-}$SETTINGS -c max_parallel_workers_per_gather=0"
echo "warehouse: $WAREHOUSE"
echo "settings:${SETTINGS:- (defaults)}"

JOIN="SELECT count(*), sum(t.b) FROM outer%s o JOIN %s t ON t.id = o.id"
NL="-c enable_hashjoin=off -c enable_mergejoin=off -c paimon_fdw.enable_key_join=off"
HJ="-c enable_nestloop=off -c enable_mergejoin=off -c paimon_fdw.enable_key_join=off"
MJ="-c enable_nestloop=off -c enable_hashjoin=off -c paimon_fdw.enable_key_join=off"
KJ="-c enable_nestloop=off -c enable_hashjoin=off -c enable_mergejoin=off"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
result_of() {	# $1 = outer size, $2 = table, $3 = more PGOPTIONS
	PGOPTIONS="$PGOPTIONS $3" psql -X -q -At -v ON_ERROR_STOP=1 -c "$(printf "$JOIN" "$1" "$2")"
}
plan_of() {
	PGOPTIONS="$PGOPTIONS $3" psql -X -q -At -c "EXPLAIN (COSTS OFF) $(printf "$JOIN" "$1" "$2")" |
		grep -Eo '(Hash Join|Merge Join|Nested Loop|PaimonKeyJoin)' | head -1
}
one_cpu() {	# a new backend: the statement's user + system CPU ms (getrusage)
	PGOPTIONS="$PGOPTIONS $3 -c log_statement_stats=on -c client_min_messages=log" \
		psql -X -q -At -v ON_ERROR_STOP=1 -c "$(printf "$JOIN" "$1" "$2")" 2>&1 >/dev/null |
		sed -n 's/^![[:space:]]*\([0-9.]*\) s user, \([0-9.]*\) s system, .*elapsed$/\1 \2/p' |
		awk '{printf "%.1f\n", ($1 + $2) * 1000}'
}
cpu_ms() {
	for _ in $(seq "$RUNS"); do one_cpu "$@"; done | median
}

printf '\n%-8s %-34s %-12s %12s\n' "outer" "plan" "table" "CPU ms"
for n in $OUTER; do
	want=$(result_of "$n" heap "")
	plans=("" "$HJ" "$MJ" "$KJ")
	[ -n "$NESTED" ] && plans+=("$NL" "$NL -c jit=off")
	for opts in "${plans[@]}"; do
		got=$(result_of "$n" bench.pk_7col "$opts")
		if [ "$got" != "$want" ]; then
			echo "run_lookup_join.sh: MISMATCH outer$n ($opts): paimon $got, heap $want" >&2
			exit 1
		fi
	done
	row() { printf '%-8s %-34s %-12s %12.1f\n' "$n" "$1" "$2" "$3"; }
	row "planner: $(plan_of "$n" bench.pk_7col "")" paimon "$(cpu_ms "$n" bench.pk_7col "")"
	if [ -n "$NESTED" ]; then
		row "nested loop, JIT on" paimon "$(cpu_ms "$n" bench.pk_7col "$NL")"
		row "nested loop, jit=off" paimon "$(cpu_ms "$n" bench.pk_7col "$NL -c jit=off")"
	fi
	row "hash join" paimon "$(cpu_ms "$n" bench.pk_7col "$HJ")"
	row "merge join ($(plan_of "$n" bench.pk_7col "$MJ"))" paimon "$(cpu_ms "$n" bench.pk_7col "$MJ")"
	row "key join ($(plan_of "$n" bench.pk_7col "$KJ"))" paimon "$(cpu_ms "$n" bench.pk_7col "$KJ")"
	row "planner: $(plan_of "$n" heap "")" heap "$(cpu_ms "$n" heap "")"
	row "nested loop (btree)" heap "$(cpu_ms "$n" heap "$NL")"
done
echo "(check: every plan gives the heap's count, sum(b); median of $RUNS runs, each a new backend;" \
	"$ROWS rows; one core: no parallel workers)"

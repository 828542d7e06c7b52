#!/usr/bin/env bash
# Write benchmark. N generated rows (the 7 columns of bench/gen_table.sh plus
# the BIGINT key id) written through paimon_fdw into a Paimon primary-key
# table (fixed 4 buckets, deduplicate, Parquet/zstd), next to the same rows
# into a Postgres heap table with a primary key:
#   - INSERT ... SELECT of generated rows (generate_series and expressions);
#   - COPY FROM a CSV file of the same rows;
#   - INSERT ... SELECT * FROM src, src a heap table already holding the rows
#     (separates generating the rows from writing them);
#   - INSERT ... SELECT of generated rows into a Paimon append table (bucket -1);
#   - the generating SELECT alone (gen_only: every column evaluated, nothing
#     written), what the INSERT ... SELECT of generated rows pays before any
#     write.
# Prints, per step, the wall time, the backend's CPU time (user + system,
# from /proc/<backend>/stat) and rows/s of the wall time; medians over --runs;
# then the size on disk of each side (first run).
#
#   bash bench/run_write.sh [--rows N] [--runs R] [--steps "pk_ins pk_src ..."]
#
# PERF_STEP=<step> PERF_OUT=<file>: record that step's backend with perf
# (perf record -g) into PERF_OUT.
# --steps: only these steps (of gen_only pk_ins heap_ins pk_copy heap_copy
# pk_src heap_src app_ins; all by default).
# --libs "A.so B.so": builds side by side in one session: each run measures
# every step with A installed, then with B, ... (a new backend per step loads
# the library installed then); rows printed per library. It replaces the
# installed paimon_fdw.so: hold the install lock (see bench/README.md), and
# reinstall your build afterwards.
#
# Needs the extension built and installed (scripts/test.sh or demo.sh; PG_BIN
# picks the server, as in scripts/pg-tmp.sh). One throwaway Postgres; the
# Paimon warehouse and the CSV live in a temporary directory removed at the
# end. Each run writes into new Paimon tables and truncated heap tables.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=10000000
RUNS=1
STEPS="gen_only pk_ins heap_ins pk_copy heap_copy pk_src heap_src app_ins"
LIBS=""
while [ $# -gt 0 ]; do
	case "$1" in
		--libs) LIBS=$2; shift 2 ;;
		--rows) ROWS=$2; shift 2 ;;
		--runs) RUNS=$2; shift 2 ;;
		--steps) STEPS=$2; shift 2 ;;
		*) echo "usage: $0 [--rows N] [--runs R] [--steps \"STEP ...\"] [--libs \"A.so B.so\"]" >&2; exit 2 ;;
	esac
done
has() { [[ " $STEPS " == *" $1 "* ]]; }
WORK=$(mktemp -d /tmp/paimon_bench_write.XXXXXX)
chmod 777 "$WORK"
# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start >/dev/null
trap 'pg_tmp_stop; rm -rf "$WORK"' EXIT
psql -X -q -c "ALTER SYSTEM SET shared_buffers = '2GB'" -c "ALTER SYSTEM SET max_wal_size = '8GB'"
_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -w restart >/dev/null

GEN="SELECT i, (i % 1000)::int, (i * 7919) % 1000000000, (i % 100000) / 100.0,
            'word' || (i % 97), DATE '2019-04-13' + (i % 3650)::int, ((i * 31) % 100000000) / 100.0
     FROM generate_series(1::bigint, $ROWS) AS i"
COLS="id bigint NOT NULL, a int, b bigint, c double precision, d text, e date, f numeric(12,2)"
PCOLS="id BIGINT NOT NULL, a INT, b BIGINT, c DOUBLE, d STRING, e DATE, f DECIMAL(12, 2)"
PK_OPTS='{"bucket": "4", "merge-engine": "deduplicate", "file.format": "parquet", "file.compression": "zstd"}'
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WORK/wh');
SELECT paimon_create_database('lake', 'bench');
CREATE TABLE heap_ins ($COLS, PRIMARY KEY (id));
CREATE TABLE heap_copy ($COLS, PRIMARY KEY (id));
CREATE TABLE heap_src ($COLS, PRIMARY KEY (id));
CREATE TABLE src ($COLS);
INSERT INTO src $GEN;
VACUUM ANALYZE src;
SQL
if has pk_copy || has heap_copy; then
	psql -X -q -v ON_ERROR_STOP=1 -c "COPY src TO '$WORK/rows.csv' (FORMAT csv)"
fi

# One statement in a new session: "wall_ms cpu_ms" (the backend's user + system CPU).
# PERF_STEP/PERF_OUT: perf records the session of that step (it stops when the backend exits).
perf_cmd() {
	[ "${PERF_STEP:-}" = "$1" ] || return 0
	echo "\\o $WORK/backend.pid"
	echo "SELECT pg_backend_pid();"
	echo "\\o"
	echo "\\! (perf record -q -F 999 -g -o $PERF_OUT -p \$(cat $WORK/backend.pid) >/dev/null 2>&1 &) ; sleep 1"
}
measure() {
	{ perf_cmd "$2"; cat; } <<SQL | psql -X -At -q -v ON_ERROR_STOP=1 | awk '
		/^Time: / { wall = $2; next }
		/^[0-9]+$/ { if (n++ == 0) c0 = $1; else c1 = $1 }
		END { printf "%s %d\n", wall, (c1 - c0) * 1000 / '"$(getconf CLK_TCK)"' }'
SELECT split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint FROM pg_read_file('/proc/self/stat') s;
\timing on
$1;
\timing off
SELECT split_part(s, ' ', 14)::bigint + split_part(s, ' ', 15)::bigint FROM pg_read_file('/proc/self/stat') s;
SQL
}
create_paimon() {	# name, options
	psql -X -q -v ON_ERROR_STOP=1 >/dev/null -c "SELECT paimon_create_table('lake', 'bench', '$1',
		'$PCOLS', primary_key => $2, options => '$3', foreign_table => 'public.$1')"
}
check_count() {
	[ "$(psql -X -At -c "SELECT count(*) FROM $1")" = "$ROWS" ] ||
		{ echo "row count mismatch in $1" >&2; exit 1; }
}

declare -A RES
LIBDIR=$(pg_config --pkglibdir)
for V in $LIBS; do [ -f "$V" ] || { echo "no library $V" >&2; exit 2; }; done
# a variant: a library to install ("" when --libs is not given), named by its file
VARIANTS=${LIBS:-installed}
vname() { [ -z "$LIBS" ] && echo "" || echo "_$(basename "$1" .so | tr -c 'a-zA-Z0-9_\n' '_')"; }
for run in $(seq 1 "$RUNS"); do
for V in $VARIANTS; do
	v=$(vname "$V")
	r=$run$v
	[ -z "$LIBS" ] || install -m 755 "$V" "$LIBDIR/paimon_fdw.so"
	create_paimon "pk_ins_$r" "ARRAY['id']" "$PK_OPTS"
	create_paimon "pk_copy_$r" "ARRAY['id']" "$PK_OPTS"
	create_paimon "pk_src_$r" "ARRAY['id']" "$PK_OPTS"
	create_paimon "app_ins_$r" "NULL" '{"file.format": "parquet", "file.compression": "zstd"}'
	psql -X -q -c "TRUNCATE heap_ins, heap_copy, heap_src" -c "CHECKPOINT"
	has gen_only && RES[gen_only$v]+="$(measure "SELECT count(*) FROM ($GEN) g WHERE g IS NOT NULL" gen_only)",
	has pk_ins && RES[pk_ins$v]+="$(measure "INSERT INTO pk_ins_$r $GEN" pk_ins)",
	has heap_ins && RES[heap_ins$v]+="$(measure "INSERT INTO heap_ins $GEN" heap_ins)",
	has pk_copy && RES[pk_copy$v]+="$(measure "COPY pk_copy_$r FROM '$WORK/rows.csv' (FORMAT csv)" pk_copy)",
	has heap_copy && RES[heap_copy$v]+="$(measure "COPY heap_copy FROM '$WORK/rows.csv' (FORMAT csv)" heap_copy)",
	has pk_src && RES[pk_src$v]+="$(measure "INSERT INTO pk_src_$r SELECT * FROM src" pk_src)",
	has heap_src && RES[heap_src$v]+="$(measure "INSERT INTO heap_src SELECT * FROM src" heap_src)",
	has app_ins && RES[app_ins$v]+="$(measure "INSERT INTO app_ins_$r $GEN" app_ins)",
	for t in pk_ins pk_copy pk_src app_ins; do ! has $t || check_count "${t}_$r"; done
	for t in heap_ins heap_copy heap_src; do ! has $t || check_count "$t"; done
done
done
psql -X -q -c "CHECKPOINT"
for V in $VARIANTS; do
	v=$(vname "$V")
	for t in pk_ins pk_src; do
		! has $t ||
			[ "$(psql -X -At -c "SELECT count(*) FROM (SELECT * FROM ${t}_1$v EXCEPT SELECT * FROM src) d")" = 0 ] ||
			{ echo "the Paimon table's rows differ from the source" >&2; exit 1; }
	done
done

median() {	# field (1: wall, 2: cpu) of the comma-separated "wall cpu" list
	tr ',' '\n' <<<"$2" | awk -v f="$1" 'NF { print $f }' | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.0f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
label() {
	case "$1" in
		gen_only) echo "SELECT gen only (no write)" ;;
		pk_ins) echo "INSERT SELECT gen, Paimon PK" ;;
		heap_ins) echo "INSERT SELECT gen, heap+PK" ;;
		pk_copy) echo "COPY FROM csv, Paimon PK" ;;
		heap_copy) echo "COPY FROM csv, heap+PK" ;;
		pk_src) echo "INSERT SELECT src, Paimon PK" ;;
		heap_src) echo "INSERT SELECT src, heap+PK" ;;
		app_ins) echo "INSERT SELECT gen, Paimon app" ;;
	esac
}
echo "rows: $ROWS (8 columns), one session, runs: $RUNS (medians)${LIBS:+, libraries alternated: $LIBS}"
printf '%-32s %10s %10s %14s %14s\n' "" "wall ms" "cpu ms" "M rows/s wall" "M rows/s cpu"
for s in $STEPS; do
	for V in $VARIANTS; do
		v=$(vname "$V")
		w=$(median 1 "${RES[$s$v]}")
		c=$(median 2 "${RES[$s$v]}")
		printf '%-32s %10s %10s %14s %14s\n' "$(label "$s")${v:+ [${v#_}]}" "$w" "$c" \
			"$(awk -v r="$ROWS" -v t="$w" 'BEGIN {printf "%.2f", r / t / 1000}')" \
			"$(awk -v r="$ROWS" -v t="$c" 'BEGIN {printf "%.2f", r / t / 1000}')"
		[ "$RUNS" -eq 1 ] || echo "    cpu ms of each run: $(tr ',' '\n' <<<"${RES[$s$v]}" | awk 'NF { printf "%s ", $2 }')"
	done
done
v1=$(vname "${VARIANTS%% *}")
if has pk_ins && has app_ins && has heap_ins; then
	size_p=$(du -sb "$WORK/wh/bench.db/pk_ins_1$v1" | cut -f1)
	size_a=$(du -sb "$WORK/wh/bench.db/app_ins_1$v1" | cut -f1)
	size_h=$(psql -X -At -c "SELECT pg_total_relation_size('heap_ins')")
	pct() { awk -v p="$1" -v h="$size_h" 'BEGIN {printf "%.1f%%", 100 * p / h}'; }
	echo "size on disk: Paimon PK $((size_p / 1048576)) MiB ($(pct "$size_p") of heap+PK)," \
		"Paimon append $((size_a / 1048576)) MiB ($(pct "$size_a")), heap with its index $((size_h / 1048576)) MiB"
fi
for V in $VARIANTS; do
	v=$(vname "$V")
	for t in pk_ins pk_src; do
		! has $t || echo "size on disk: ${t}_1$v $(du -sb "$WORK/wh/bench.db/${t}_1$v" | cut -f1) bytes"
	done
done

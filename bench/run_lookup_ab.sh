#!/usr/bin/env bash
# Benchmark: prepared single-key lookups with two or more builds of paimon_fdw.so
# alternately, in one server (what before/after comparisons need on a shared machine).
#
#   bash bench/run_lookup_ab.sh [--ids N] [--duration S] [--rounds R] [--warehouse DIR]
#                               [--set NAME=VALUE ...] A.so B.so[@NAME=VALUE,...] [...]
#
# A build named as B.so@NAME=VALUE,... runs with those settings too (e.g. the same .so with
# and without a setting); @shared_pages sets paimon_fdw.shared_page_cache_dir to a new
# directory on /dev/shm (created by the server, removed at the end; shared by every build
# that names it, so its first runs fill it).
#
# Each round runs, for each build in turn, pgbench -M prepared -c 1 for DURATION seconds
# (SELECT * FROM bench.pk_7col WHERE id = :id, id random in 1..IDS: 100000 keeps the
# caches warm, 10000000 spreads over the whole table) in a new session, after the build
# was copied over the installed paimon_fdw.so (a new backend loads it). Prints tps and the
# backend's CPU ms per lookup (/proc/<pid>/stat). The installed .so is put back at the end.
# Run it under the install lock (the installed .so is shared), e.g.
#   flock <install lock> bash -c 'make -s install && flock <bench lock> bash bench/run_lookup_ab.sh before.so paimon_fdw.so'
# The table is bench/gen_pk_table.sh's (bench/data/pk_warehouse_10000000 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
IDS=100000
DURATION=10
ROUNDS=2
WAREHOUSE=bench/data/pk_warehouse_10000000
SETTINGS=
SOS=()
while [ $# -gt 0 ]; do
	case "$1" in
		--ids) IDS=$2; shift 2 ;;
		--duration) DURATION=$2; shift 2 ;;
		--rounds) ROUNDS=$2; shift 2 ;;
		--warehouse) WAREHOUSE=$2; shift 2 ;;
		--set) SETTINGS="$SETTINGS -c $2"; shift 2 ;;
		-*) echo "run_lookup_ab.sh: unknown option $1" >&2; exit 2 ;;
		*) so=$(cd "$(dirname "${1%%@*}")" && pwd -P)/$(basename "${1%%@*}")
		   [[ "$1" == *@* ]] && so="$so@${1#*@}"
		   SOS+=("$so"); shift ;;
	esac
done
[ ${#SOS[@]} -ge 1 ] || { echo "usage: $0 [options] A.so B.so [...]" >&2; exit 2; }
for so in "${SOS[@]}"; do [ -r "${so%%@*}" ] || { echo "run_lookup_ab.sh: no ${so%%@*}" >&2; exit 1; }; done
SHM=$(mktemp -u -d "${SHM_DIR:-/dev/shm}/paimon_bench_pages.XXXXXX")
[ -d "$WAREHOUSE/bench.db/pk_7col" ] ||
	{ echo "run_lookup_ab.sh: no table $WAREHOUSE/bench.db/pk_7col (bench/gen_pk_table.sh writes it)" >&2; exit 1; }
WAREHOUSE=$(cd "$WAREHOUSE" && pwd -P)

# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
# shellcheck source=lookup_pgbench.sh
. bench/lookup_pgbench.sh
export PGPORT=${PGPORT:-$((55000 + RANDOM % 2000))}
LIBDIR=$(pg_config --pkglibdir)
saved=$(mktemp)
cp "$LIBDIR/paimon_fdw.so" "$saved"
script=$(mktemp)
out=$(mktemp)
restore() {
	# mode 755: $saved is mktemp's (0600), and the server runs as another user
	cp "$saved" "$LIBDIR/paimon_fdw.so.ab" && chmod 755 "$LIBDIR/paimon_fdw.so.ab" &&
		mv "$LIBDIR/paimon_fdw.so.ab" "$LIBDIR/paimon_fdw.so"
	rm -f "$saved" "$script" "$out"
	pg_tmp_stop
	rm -rf "$SHM"
}
pg_tmp_start >/dev/null
trap restore EXIT
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE');
CREATE SCHEMA bench;
IMPORT FOREIGN SCHEMA bench LIMIT TO (pk_7col) FROM SERVER lake INTO bench;
SQL
export PGOPTIONS="${PGOPTIONS:-}$SETTINGS"
printf '\\set id random(1, %d)\nSELECT * FROM bench.pk_7col WHERE id = :id;\n' "$IDS" >"$script"
echo "ids 1..$IDS, ${DURATION}s per run, settings:${SETTINGS:- (defaults)}"
for round in $(seq "$ROUNDS"); do
	for so in "${SOS[@]}"; do
		extra=
		if [[ "$so" == *@* ]]; then
			IFS=, read -ra kv <<<"${so#*@}"
			for x in "${kv[@]}"; do
				[ "$x" = shared_pages ] && x="paimon_fdw.shared_page_cache_dir=$SHM"
				extra="$extra -c $x"
			done
		fi
		cp "${so%%@*}" "$LIBDIR/paimon_fdw.so.ab" && chmod 755 "$LIBDIR/paimon_fdw.so.ab" &&
			mv "$LIBDIR/paimon_fdw.so.ab" "$LIBDIR/paimon_fdw.so"
		read -r tps cpu <<<"$(PGOPTIONS="$PGOPTIONS$extra" pgbench_backend_cpu "$script" "$DURATION" "$out")"
		awk -v r="$round" -v l="$(basename "$so")" -v t="$tps" -v c="$cpu" \
			-v load="$(cut -d' ' -f1 /proc/loadavg)" \
			'BEGIN {printf "round %d  %-44s tps %8.0f  backend CPU ms/lookup %.4f  (load %s)\n", r, l, t, c, load}'
	done
done

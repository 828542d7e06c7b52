#!/usr/bin/env bash
# Run the pg_regress suite once with every PostgreSQL process under valgrind
# memcheck, and fail when valgrind reports an error in any of them.
#
#   bash test/valgrind/run.sh [TEST...]   (from the repository root; default:
#                                          every sql/*.sql; PAIMON_CORPUS or
#                                          ../shared/corpus)
#
# Debian's PostgreSQL is not built with USE_VALGRIND, so memory contexts are
# not instrumented: pfree'd chunks and reset contexts stay "defined" to
# valgrind. What memcheck sees: reads of uninitialised bytes, reads and writes
# outside malloc'd blocks (the core's own allocations, CRoaring, jansson, the
# codecs, and memory-context blocks handed back to malloc when a context is
# deleted), invalid frees. The extension is built for this run in a copy of
# the tree with -DPMFDW_UNCACHED_CONTEXTS: its own memory contexts then go
# back to malloc when deleted (not to Postgres' context freelist), so a use
# of a deleted context's memory is an invalid read. See README.md here.
#
# No shared install and no lock: the server runs from a private copy of the
# PostgreSQL installation (it finds share/ and lib/ relative to its own
# binary), into which the extension is installed with DESTDIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=test/valgrind

command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
export PAIMON_CORPUS=${PAIMON_CORPUS:-$(cd .. && pwd)/shared/corpus}
[ -d "$PAIMON_CORPUS/tables" ] || { echo "corpus not found at $PAIMON_CORPUS" >&2; exit 2; }

bindir=$(pg_config --bindir)		# e.g. /usr/lib/postgresql/15/bin
pkglibdir=$(pg_config --pkglibdir)
sharedir=$(pg_config --sharedir)
work=$(mktemp -d /tmp/paimon_fdw_valgrind.XXXXXX)
chmod 755 "$work"
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_server() {
	[ -f "$work/data/postmaster.pid" ] || return 0
	as_pg "$root$bindir/pg_ctl" -D "$work/data" -m fast -w -t 600 stop >/dev/null 2>&1 || true
}
cleanup() {
	stop_server
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

root=$work/root
for d in "$(dirname "$bindir")" "$pkglibdir" "$sharedir"; do
	mkdir -p "$root$(dirname "$d")"
	[ -e "$root$d" ] || cp -a "$d" "$root$d"
done
build=$work/build
mkdir -p "$build"
cp -a Makefile ./*.control ./*.sql ./*.map src "$build/"
find "$build/src" \( -name '*.o' -o -name '*.bc' -o -name '*.d' \) -delete
make -s -C "$build" -j2 COPT=-DPMFDW_UNCACHED_CONTEXTS >"$work/build.log" 2>&1 ||
	{ cat "$work/build.log"; exit 1; }
make -s -C "$build" install DESTDIR="$root" >/dev/null

[ "$(id -u)" -eq 0 ] && chown -R postgres "$work"
as_pg "$root$bindir/initdb" -D "$work/data" -U postgres --locale=C -E UTF8 -A trust >"$work/initdb.log" 2>&1 ||
	{ cat "$work/initdb.log"; exit 1; }

port=$((50000 + RANDOM % 10000))
mkdir -p "$work/vg" && { [ "$(id -u)" -ne 0 ] || chown postgres "$work/vg"; }
as_pg valgrind --quiet --tool=memcheck --trace-children=no --child-silent-after-fork=no \
	--leak-check=no --num-callers=30 --error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END \
	--suppressions="$here/postgres.supp" --log-file="$work/vg/%p.log" \
	"$root$bindir/postgres" -D "$work/data" -k "$work" -c listen_addresses= -p "$port" \
	-c fsync=off -c jit=off -c paimon_fdw.enable_io_uring=off >"$work/server.log" 2>&1 &
export PGHOST=$work PGPORT=$port PGUSER=postgres PGDATABASE=postgres
for _ in $(seq 300); do pg_isready -q && break; sleep 1; done
pg_isready -q || { cat "$work/server.log"; exit 1; }

start=$(date +%s)
rc=0
if [ $# -gt 0 ]; then
	make -s installcheck REGRESS="$*" >"$work/regress.log" 2>&1 || rc=$?
else
	make -s installcheck >"$work/regress.log" 2>&1 || rc=$?
fi
echo "pg_regress under valgrind: exit $rc in $(( $(date +%s) - start )) s"
grep -E "^(ok|not ok|test|     )|tests passed|failed" "$work/regress.log" | tail -20 || true
[ $rc -eq 0 ] || head -80 regression.diffs 2>/dev/null || true

stop_server
errors=$(cat "$work"/vg/*.log | grep -c VALGRINDERROR-BEGIN || true)
echo "valgrind: $errors error(s) in $(ls "$work"/vg | wc -l) process logs"
if [ "$errors" -gt 0 ]; then
	mkdir -p "$here/out"
	grep -l VALGRINDERROR-BEGIN "$work"/vg/*.log | xargs -I{} cp {} "$here/out/"
	echo "logs with errors copied to $here/out/"
	exit 1
fi

# Source this file: start and stop a throwaway PostgreSQL cluster.
#   pg_tmp_start   initdb + start in a fresh temp dir (unix socket only), exports
#                  PGHOST, PGPORT, PGUSER, PGDATABASE for psql and pg_regress
#   pg_tmp_stop    stop it and remove the directory
# Runs the server as the 'postgres' user when invoked as root (postgres
# refuses to run as root). The cluster uses the C locale, so text compares
# byte-wise as Paimon does, unless PG_TMP_LOCALE names another one (e.g.
# en_US.UTF-8, see scripts/install-deps.sh).

PG_MAJOR=${PG_MAJOR:-15}
PG_BIN=${PG_BIN:-$(pg_config --bindir 2>/dev/null || echo "/usr/lib/postgresql/$PG_MAJOR/bin")}

_pg_as() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_tmp_start() {
	PG_TMP_DIR=$(mktemp -d /tmp/paimon_fdw_pg.XXXXXX)
	chmod 755 "$PG_TMP_DIR"
	[ "$(id -u)" -eq 0 ] && chown postgres "$PG_TMP_DIR"
	_pg_as "$PG_BIN/initdb" -D "$PG_TMP_DIR/data" -U postgres --locale="${PG_TMP_LOCALE:-C}" -E UTF8 -A trust >"$PG_TMP_DIR/initdb.log" 2>&1 ||
		{ cat "$PG_TMP_DIR/initdb.log"; return 1; }
	export PGPORT=${PGPORT:-54329}
	_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -l "$PG_TMP_DIR/server.log" -w \
		-o "-k $PG_TMP_DIR -c listen_addresses='' -p $PGPORT -c fsync=off" start >/dev/null ||
		{ cat "$PG_TMP_DIR/server.log"; return 1; }
	export PGHOST=$PG_TMP_DIR PGUSER=postgres PGDATABASE=postgres
	export PG_TMP_DIR
	echo "throwaway PostgreSQL running (socket $PGHOST, port $PGPORT, log $PG_TMP_DIR/server.log)"
}

pg_tmp_stop() {
	[ -n "${PG_TMP_DIR:-}" ] || return 0
	_pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP_DIR/data" -m fast stop >/dev/null 2>&1 || true
	rm -rf "$PG_TMP_DIR"
	unset PG_TMP_DIR
}

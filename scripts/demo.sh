#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine (as root): install what is
# missing, build and install paimon_fdw, start a throwaway PostgreSQL and
# query a Paimon warehouse from it.
#
#   scripts/demo.sh [WAREHOUSE]
#
# Without WAREHOUSE a sample warehouse is written by Apache Paimon itself
# (the Java reference implementation from Maven Central, test/oracle/).
# Every database (<name>.db) of the warehouse is imported into a Postgres
# schema of the same name, and each table is queried.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
make -s -j2
make -s install

WAREHOUSE=${1:-}
if [ -z "$WAREHOUSE" ]; then
	WAREHOUSE=$(mktemp -d /tmp/paimon_demo_warehouse.XXXXXX)
	chmod 755 "$WAREHOUSE"
	echo "== writing a sample warehouse with Apache Paimon (Java) into $WAREHOUSE"
	bash test/oracle/make_sample_warehouse.sh "$WAREHOUSE"
fi
WAREHOUSE=$(cd "$WAREHOUSE" && pwd)

# shellcheck source=pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT

run() { echo; echo "=> $1"; psql -X -v ON_ERROR_STOP=1 -c "$1"; }

run "CREATE EXTENSION paimon_fdw"
run "CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WAREHOUSE')"
for dbdir in "$WAREHOUSE"/*.db; do
	[ -d "$dbdir" ] || continue
	db=$(basename "$dbdir" .db)
	run "CREATE SCHEMA \"$db\""
	run "IMPORT FOREIGN SCHEMA \"$db\" FROM SERVER lake INTO \"$db\""
	for tdir in "$dbdir"/*/; do
		t=$(basename "$tdir")
		[ -d "$tdir/schema" ] || continue
		run "\\d \"$db\".\"$t\""
		run "SELECT count(*) FROM \"$db\".\"$t\""
		run "SELECT * FROM \"$db\".\"$t\" LIMIT 5"
		run "EXPLAIN SELECT * FROM \"$db\".\"$t\""
	done
done
echo
echo "done: the warehouse $WAREHOUSE was queried through paimon_fdw"

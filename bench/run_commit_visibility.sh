#!/usr/bin/env bash
# Commit visibility: the time from a COMMIT in Postgres (paimon_fdw INSERT into a Paimon
# table) to the row being readable by Apache Paimon's Java API in another process.
#
# A JVM (bench/CommitVisibility.java, compiled against the oracle's classpath) polls the
# table's latest snapshot id every --poll-us microseconds and, when it changes, reads the
# table with a filter on the new row's id. One psql session INSERTs row k and commits
# (autocommit), then reads clock_timestamp() in the next statement: the moment the COMMIT
# returned. The JVM prints the moment its read first returned row k (and the moment it
# first saw the new snapshot id). Latency = JVM moment - COMMIT moment (same machine,
# same clock); the next INSERT waits for the JVM.
# Prints median, p90, min and max over N commits, and the INSERT + COMMIT time itself.
# The snapshot is published in the COMMIT's pre-commit step, so the row can be visible
# a little before the COMMIT returns (a negative latency).
#
#   bash bench/run_commit_visibility.sh [--commits N] [--poll-us 1000] [--bucket -1|B]
#
# Needs the extension installed, java/mvn (the Java oracle's Maven build gives the
# classpath) and a throwaway Postgres (started here).
set -euo pipefail
cd "$(dirname "$0")/.."
COMMITS=50
POLL_US=1000
BUCKET=-1
while [ $# -gt 0 ]; do
	case "$1" in
		--commits) COMMITS=$2; shift 2 ;;
		--poll-us) POLL_US=$2; shift 2 ;;
		--bucket) BUCKET=$2; shift 2 ;;
		*) echo "usage: $0 [--commits N] [--poll-us US] [--bucket B]" >&2; exit 2 ;;
	esac
done
bash test/oracle/oracle.sh build
CP="$(cat test/oracle/java/target/classpath.txt)"
WORK=$(mktemp -d /tmp/paimon_bench_cv.XXXXXX)
chmod 777 "$WORK"
mkdir "$WORK/classes"
javac -nowarn -d "$WORK/classes" -cp "$CP" bench/CommitVisibility.java
# shellcheck source=../scripts/pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap 'pg_tmp_stop; rm -rf "$WORK"' EXIT

if [ "$BUCKET" = -1 ]; then OPTS='{"bucket": "-1"}'; else OPTS="{\"bucket\": \"$BUCKET\", \"bucket-key\": \"id\"}"; fi
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE EXTENSION paimon_fdw;
CREATE SERVER lake FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$WORK/wh');
SELECT paimon_create_database('lake', 'bench');
SELECT paimon_create_table('lake', 'bench', 'cv', 'id BIGINT NOT NULL, note STRING',
       options => '$OPTS', foreign_table => 'public.cv');
INSERT INTO cv VALUES (0, 'before the JVM starts');
SQL

COMMITS=$COMMITS POLL_US=$POLL_US WORK=$WORK CP="$WORK/classes:$CP" python3 - <<'PY'
import os, statistics, subprocess, sys
n = int(os.environ["COMMITS"])
jvm = subprocess.Popen(["java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", os.environ["CP"], "CommitVisibility",
                        os.environ["WORK"] + "/wh", "bench", "cv", str(n), os.environ["POLL_US"]],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
assert jvm.stdout.readline().strip() == "ready", "the JVM did not start"
sql = subprocess.Popen(["psql", "-X", "-At", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, text=True, bufsize=1)

def ask(q, tag):
    sql.stdin.write(q + "\nSELECT '%s', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;\n" % tag)
    sql.stdin.flush()
    while True:
        line = sql.stdout.readline()
        if not line:
            sys.exit("psql ended")
        if line.startswith(tag + "|"):
            return int(line.split("|")[1])

lat, snap, ins = [], [], []
for k in range(1, n + 1):
    t0 = ask("", "T")
    t1 = ask("INSERT INTO cv VALUES (%d, 'row %d');" % (k, k), "C")
    seen = jvm.stdout.readline().split()
    assert seen[0] == "seen" and int(seen[1]) == k, seen
    lat.append((int(seen[2]) - t1) / 1000.0)
    snap.append((int(seen[4]) - t1) / 1000.0)
    ins.append((t1 - t0) / 1000.0)
jvm.wait()
sql.stdin.close()
sql.wait()
q = statistics.quantiles(lat, n=10)
print("commit -> visible to Java over %d commits (JVM polling every %s us): median %.1f ms, "
      "p90 %.1f ms, min %.1f ms, max %.1f ms" % (n, os.environ["POLL_US"], statistics.median(lat), q[8],
                                                  min(lat), max(lat)))
print("  of which the new snapshot id seen by the JVM: median %.1f ms, max %.1f ms; the rest is "
      "Java planning and reading the table" % (statistics.median(snap), max(snap)))
print("  each (ms): " + " ".join("%.0f" % x for x in lat))
print("INSERT of one row + COMMIT in Postgres: median %.1f ms, max %.1f ms"
      % (statistics.median(ins), max(ins)))
PY

#!/usr/bin/env python3
"""Snapshot consistency through SQL: what each statement sees while commits land.

Copies the corpus table append_09 (snapshots 1-5: 5, 9, 10, 11, 11 rows) into
a temporary warehouse and hides its later snapshots; a "commit" is what a
Paimon commit is on disk: snapshot-N appears, then the LATEST hint says N.
The test commits from SQL (a superuser function copying the hidden files
back with COPY TO PROGRAM), so a commit lands exactly between two statements of a
transaction, or in the middle of one statement, or between a parallel
leader opening the table and its workers starting. Checks:
  - REPEATABLE READ / SERIALIZABLE: every statement of the transaction
    reads the snapshot of its first scan; the next transaction the new one
  - READ COMMITTED: the next statement reads the new snapshot, but all
    scans inside one statement (a function querying the table before and
    after a commit, two foreign tables on one Paimon table) read one
  - a table that had no snapshot at the first scan stays empty
  - a pinned snapshot that expiry deleted fails the statement with 40001
  - snapshot_id / tag / timestamp options are not affected
  - parallel workers read the leader's snapshot when a commit lands while
    they start (they used to fail with SQLSTATE 40001)

Usage: run_snapshot.py [--corpus DIR]   (psql on PATH, PG* variables set)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from input_required import missing_input

TABLE = "append_09"


def psql(sql):
    return subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-f", "-"],
                          input=sql, capture_output=True, text=True)


class Warehouse:
    """A copy of append_09 whose snapshots above `upto` are hidden."""

    def __init__(self, corpus):
        self.src = os.path.join(corpus, "tables", "parquet", TABLE + ".db")
        self.root = tempfile.mkdtemp(prefix="paimon_snapshot_")
        os.chmod(self.root, 0o755)
        self.wh = os.path.join(self.root, "wh")
        self.hidden = os.path.join(self.root, "hidden")
        self.snapdir = os.path.join(self.wh, TABLE + ".db", TABLE, "snapshot")

    def reset(self, upto):
        shutil.rmtree(self.wh, ignore_errors=True)
        shutil.rmtree(self.hidden, ignore_errors=True)
        shutil.copytree(self.src, os.path.join(self.wh, TABLE + ".db"))
        os.makedirs(self.hidden)
        for name in os.listdir(self.snapdir):
            m = re.fullmatch(r"snapshot-(\d+)", name)
            if m and int(m.group(1)) > upto:
                shutil.move(os.path.join(self.snapdir, name), os.path.join(self.hidden, name))
        os.remove(os.path.join(self.snapdir, "LATEST"))
        if upto > 0:
            with open(os.path.join(self.snapdir, "LATEST"), "w") as f:
                f.write(str(upto))
        subprocess.run(["chmod", "-R", "a+rX", self.root], check=True)
        os.chmod(self.snapdir, 0o777)		# the server writes commits here
        if upto > 0:
            os.chmod(os.path.join(self.snapdir, "LATEST"), 0o666)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def setup_sql(w):
    q = lambda s: "'" + s.replace("'", "''") + "'"
    return """
SET client_min_messages = warning;
DROP SERVER IF EXISTS snap_srv CASCADE;
DROP SCHEMA IF EXISTS snap CASCADE;
CREATE SERVER snap_srv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse %(wh)s);
CREATE SCHEMA snap;
CREATE FOREIGN TABLE snap.t (f0 text, f1 int, f2 int, f3 float8) SERVER snap_srv
  OPTIONS (database '%(t)s', table '%(t)s');
-- a second foreign table on the same Paimon table
CREATE FOREIGN TABLE snap.t_again (f0 text, f1 int, f2 int, f3 float8) SERVER snap_srv
  OPTIONS (database '%(t)s', table '%(t)s');
CREATE FOREIGN TABLE snap.t_at2 (f0 text, f1 int, f2 int, f3 float8) SERVER snap_srv
  OPTIONS (database '%(t)s', table '%(t)s', snapshot_id '2');
-- commit snapshot n: its file appears, then the LATEST hint (a shell
-- command run by the server: no transaction id needed, so it also works
-- inside a parallel query)
CREATE FUNCTION snap.commit(n int) RETURNS text LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %%L',
                 format('cat >/dev/null && cp %%s/snapshot-%%s %%s/ && printf %%s > %%s/LATEST',
                        %(hidden)s, n, %(snapdir)s, n, %(snapdir)s));
  RETURN 'commit ' || n;
END $$;
-- snapshot expiry deletes snapshot n
CREATE FUNCTION snap.expire(n int) RETURNS text LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %%L',
                 format('cat >/dev/null && rm %%s/snapshot-%%s', %(snapdir)s, n));
  RETURN 'expire ' || n;
END $$;
-- a query planned and run when called: a scan that starts mid-statement
CREATE FUNCTION snap.rows(tab regclass) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE n bigint;
BEGIN
  EXECUTE 'SELECT count(f0) FROM ' || tab INTO n;
  RETURN n;
END $$;
RESET client_min_messages;
""" % {"wh": q(w.wh), "t": TABLE, "hidden": q(w.hidden), "snapdir": q(w.snapdir)}


# (name, snapshots visible at the start, SQL, expected output lines)
CASES = [
    ("repeatable read: one snapshot per transaction", 3, """
PREPARE q AS SELECT 'prepared', count(f0) FROM snap.t;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'first', count(*), count(f0) FROM snap.t;
SELECT snap.commit(4);
SELECT 'after commit', count(*), count(f0) FROM snap.t;
SELECT 'partition', count(f0) FROM snap.t WHERE f1 = 10;
SELECT 'self join', count(*) FROM snap.t a JOIN snap.t_again b USING (f0, f1, f2);
EXECUTE q;
COMMIT;
SELECT 'next transaction', count(*), count(f0) FROM snap.t;
EXECUTE q;
""", ["first|10|10", "commit 4", "after commit|10|10", "partition|8", "self join|14",
      "prepared|10", "next transaction|11|11", "prepared|11"]),

    ("serializable: one snapshot per transaction", 3, """
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT 'first', count(f0) FROM snap.t;
SELECT snap.commit(4);
SELECT 'after commit', count(f0) FROM snap.t_again;
ROLLBACK;
SELECT 'next transaction', count(f0) FROM snap.t;
""", ["first|10", "commit 4", "after commit|10", "next transaction|11"]),

    ("read committed: one snapshot per statement", 3, """
PREPARE q AS SELECT 'prepared', count(f0) FROM snap.t;
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT 'first', count(*), count(f0) FROM snap.t;
EXECUTE q;
DECLARE c CURSOR FOR SELECT 'cursor', count(f0) FROM snap.t;
SELECT snap.commit(4);
SELECT 'next statement', count(*), count(f0) FROM snap.t;
EXECUTE q;
FETCH c;
COMMIT;
""", ["first|10|10", "prepared|10", "commit 4", "next statement|11|11", "prepared|11",
      "cursor|10"]),

    ("read committed: a commit inside one statement", 3, """
SELECT snap.rows('snap.t'), snap.commit(4), snap.rows('snap.t'), snap.rows('snap.t_again');
SELECT 'next statement', snap.rows('snap.t');
""", ["10|commit 4|10|10", "next statement|11"]),

    ("repeatable read: a table without snapshot stays empty", 0, """
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'empty', count(*), count(f0) FROM snap.t;
SELECT snap.commit(1);
SELECT 'after commit', count(*), count(f0) FROM snap.t;
COMMIT;
SELECT 'next transaction', count(f0) FROM snap.t;
""", ["empty|0|0", "commit 1", "after commit|0|0", "next transaction|5"]),

    ("repeatable read: an expired pinned snapshot is a serialization failure", 3, """
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'first', count(f0) FROM snap.t;
SELECT snap.commit(4);
SELECT snap.expire(3);
\\set ON_ERROR_STOP 0
SELECT 'after expiry', count(f0) FROM snap.t;
\\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT 'next transaction', count(f0) FROM snap.t;
""", ["first|10", "commit 4", "expire 3", "40001", "next transaction|11"]),

    ("time travel options are not pinned", 3, """
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'at 2', count(f0) FROM snap.t_at2;
SELECT 'latest', count(f0) FROM snap.t;
SELECT snap.commit(4);
SELECT 'at 2', count(f0) FROM snap.t_at2;
SELECT 'latest', count(f0) FROM snap.t;
COMMIT;
""", ["at 2|9", "latest|10", "commit 4", "at 2|9", "latest|10"]),
]

# Parallel workers start after the leader opened the table; the initplan
# commits in between (the leader evaluates a Gather's initplans before it
# sets up the workers' shared state).
PARALLEL_SETUP = """
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
"""
PARALLEL_QUERY = ("SELECT count(f0), sum(f2) FROM snap.t "
                  "WHERE f2 < (SELECT length(snap.commit(4)) * 1000)")
PARALLEL_CASES = [
    ("parallel workers read the leader's snapshot", 3,
     PARALLEL_SETUP + PARALLEL_QUERY + ";\nSELECT 'next statement', count(f0), sum(f2) FROM snap.t;\n",
     ["10|3", "next statement|11|3"]),
    # a plain (not parallel-aware) scan never runs in a worker: the workers
    # would each build this hash table from the latest snapshot
    ("no plain scan inside parallel workers", 3,
     PARALLEL_SETUP + """
SET enable_parallel_hash = off;
SET min_parallel_table_scan_size = 0;
CREATE TABLE snap.h AS
  SELECT n, (ARRAY['Alice', 'Bob', 'Lily', 'David'])[1 + n % 4] AS f0 FROM generate_series(1, 20000) n;
ANALYZE snap.h;
SELECT count(*) FROM snap.h JOIN snap.t USING (f0)
  WHERE h.n < (SELECT length(snap.commit(4)) * 100000);
SELECT 'next statement', count(*) FROM snap.h JOIN snap.t USING (f0);
""", ["20000", "next statement|25000"]),
    ("parallel plan launches workers", 3,
     PARALLEL_SETUP + "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + PARALLEL_QUERY + ";\n",
     None),
]


def run_case(w, name, upto, sql, expected):
    w.reset(upto)
    p = psql(setup_sql(w) + sql)
    got = p.stdout.strip().splitlines()
    if expected is None:	# the EXPLAIN case: workers started and the scan was parallel
        text = p.stdout
        m = re.search(r"Workers Launched: (\d+)", text)
        ok = p.returncode == 0 and "Parallel Foreign Scan" in text and m and int(m.group(1)) > 0
        detail = text.strip().replace("\n", " | ")
    else:
        ok = p.returncode == 0 and got == expected
        detail = "got %s, expected %s" % (got, expected)
    print("%-5s %s" % ("ok" if ok else "FAIL", name))
    if not ok:
        print("      " + detail[:600])
        if p.stderr.strip():
            print("      " + p.stderr.strip().replace("\n", " | ")[:600])
    return ok


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(os.path.join(corpus, "tables", "parquet", TABLE + ".db")):
        return missing_input("run_snapshot", "corpus table %s not found under %s (set PAIMON_CORPUS or --corpus)"
                             % (TABLE, corpus))
    psql("CREATE EXTENSION IF NOT EXISTS paimon_fdw")
    w = Warehouse(corpus)
    passed = failed = 0
    try:
        for name, upto, sql, expected in CASES + PARALLEL_CASES:
            if run_case(w, name, upto, sql, expected):
                passed += 1
            else:
                failed += 1
    finally:
        psql("SET client_min_messages = warning; DROP SERVER IF EXISTS snap_srv CASCADE; "
             "DROP SCHEMA IF EXISTS snap CASCADE")
        w.cleanup()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

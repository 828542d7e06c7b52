#!/usr/bin/env python3
"""The wide-table scenario: five sessions fill one partial-update table, Java reads it.

The use case of issue 8: instead of a multi-stream join, several streams each INSERT
their own columns of the same keys into one Paimon partial-update table, and a reader
sees the merged rows. Here five Postgres sessions (psql processes, running at the same
time) are the streams, over the same --keys keys (in a random order per session, several
transactions each):

  stream A  (id, seq, a_name, a_qty)  the sequence group of seq: every key gets three
                                      versions with seq values in a shuffled order (out of
                                      order on purpose); the one with the highest seq wins,
                                      whatever the order of arrival
  stream B  (id, b_status)            twice per key, in two rounds: the second round wins
  stream C  (id, c_amount)            once per key, some keys left out (stay NULL)
  stream D  (id, d_day)               once per key
  stream E  (id, e_note)              once per key, some keys left out

Table: id BIGINT primary key, bucket 2, merge-engine partial-update,
fields.seq.sequence-group = a_name,a_qty. Then the extension and Java (the oracle's
Paimon release) read exactly the expected merged rows. The last line is "N passed, N
failed[, N skipped]"; missing input (psql server, extension, java/mvn) is a loud skip, a
failure in CI (input_required.py).

--compact-at-commit on|off sets paimon_fdw.compact_at_commit in every session (default:
the GUC's default). With it on, the sessions compact the buckets as they commit, so the
sequence numbers of records of one key come from several writers and compactions: the
case of the sequence check at commit (README "Concurrency and failures").

Usage: run_wide.py [--keys 300] [--seed 8] [--compact-at-commit on|off] [--keep]
"""
import argparse
import datetime
import json
import os
import random
import shutil
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import difftest  # noqa: E402
from sql_session import java_and_sql, lit, psql as run_psql, scratch_warehouse  # noqa: E402

DB = "wide"
TABLE = "orders"
SRV = "wide_srv"
FT = "public.wide_orders"
COLUMNS = ["id", "seq", "a_name", "a_qty", "b_status", "c_amount", "d_day", "e_note"]


def psql(sql):
    return run_psql(sql).stdout


def statements(cols, rows, per_txn):
    """INSERTs of (cols) rows, per_txn rows per transaction."""
    out = []
    for i in range(0, len(rows), per_txn):
        chunk = rows[i:i + per_txn]
        out.append("BEGIN;\nINSERT INTO %s (%s) VALUES %s;\nCOMMIT;\n"
                   % (FT, ", ".join(cols), ", ".join("(%s)" % ", ".join(lit(v) for v in r) for r in chunk)))
    return "".join(out)


def build_streams(rnd, keys):
    """The SQL of each stream and the expected merged rows."""
    expected = {k: dict.fromkeys(COLUMNS[1:]) for k in keys}
    streams = {}

    # A: three versions per key, shuffled; the highest seq wins
    rows = []
    for k in keys:
        for seq in rnd.sample([10, 20, 30], 3):
            rows.append((k, seq, "name-%d-%d" % (k, seq), k * 1000 + seq))
    rnd.shuffle(rows)
    for k in keys:
        expected[k].update(seq=30, a_name="name-%d-30" % k, a_qty=k * 1000 + 30)
    streams["A"] = statements(["id", "seq", "a_name", "a_qty"], rows, 97)

    # B: two rounds; the second round (later transactions of the same session) wins
    sql = ""
    for rnd_no in (1, 2):
        order = list(keys)
        rnd.shuffle(order)
        sql += statements(["id", "b_status"], [(k, "status-%d-r%d" % (k, rnd_no)) for k in order], 113)
    for k in keys:
        expected[k]["b_status"] = "status-%d-r2" % k
    streams["B"] = sql

    # C: some keys left out
    order = [k for k in keys if k % 7 != 3]
    rnd.shuffle(order)
    streams["C"] = statements(["id", "c_amount"], [(k, "%d.25" % k) for k in order], 71)
    for k in order:
        expected[k]["c_amount"] = "%d.25" % k

    # D: every key
    order = list(keys)
    rnd.shuffle(order)
    day = datetime.date(2026, 1, 1)
    streams["D"] = statements(["id", "d_day"],
                              [(k, (day + datetime.timedelta(days=k % 365)).isoformat()) for k in order], 150)
    for k in keys:
        expected[k]["d_day"] = (day + datetime.timedelta(days=k % 365)).isoformat()

    # E: some keys left out, one INSERT ... SELECT per transaction of 50 keys
    order = [k for k in keys if k % 5 != 0]
    rnd.shuffle(order)
    streams["E"] = statements(["id", "e_note"], [(k, "note %d" % k) for k in order], 50)
    for k in order:
        expected[k]["e_note"] = "note %d" % k

    exp_rows = sorted([str(k)] + [None if expected[k][c] is None else str(expected[k][c])
                                  for c in COLUMNS[1:]] for k in keys)
    return streams, exp_rows


def normalize(rows):
    return sorted([None if v is None else str(v) for v in r] for r in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", type=int, default=300)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--compact-at-commit", choices=["on", "off"])
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    unusable = java_and_sql("wide table from five sessions")
    if unusable is not None:
        return unusable
    difftest.DB = DB

    rnd = random.Random(args.seed)
    keys = list(range(1, args.keys + 1))
    streams, expected = build_streams(rnd, keys)
    if args.compact_at_commit is not None:
        streams = {n: "SET paimon_fdw.compact_at_commit = %s;\n%s" % (args.compact_at_commit, sql)
                   for n, sql in streams.items()}

    tmproot, wh = scratch_warehouse("paimon_wide_")
    options = {"bucket": "2", "merge-engine": "partial-update",
               "fields.seq.sequence-group": "a_name,a_qty"}
    psql("SET client_min_messages = warning;\n"
         "CREATE EXTENSION IF NOT EXISTS paimon_fdw;\n"
         "DROP SERVER IF EXISTS %s CASCADE;\n"
         "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');\n"
         "SELECT paimon_create_database('%s', '%s');\n"
         "SELECT paimon_create_table('%s', '%s', '%s', 'id BIGINT, seq BIGINT, a_name STRING, "
         "a_qty INT, b_status STRING, c_amount DECIMAL(12, 2), d_day DATE, e_note STRING', "
         "primary_key => ARRAY['id'], options => '%s', foreign_table => '%s');\n"
         % (SRV, SRV, wh, SRV, DB, SRV, DB, TABLE, json.dumps(options), FT))

    # five sessions at once
    errors = []

    def session(name):
        try:
            psql(streams[name])
        except RuntimeError as e:
            errors.append("stream %s: %s" % (name, e))

    threads = [threading.Thread(target=session, args=(n,)) for n in sorted(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    msgs = list(errors)
    out = psql("SET DateStyle = 'ISO'; SELECT %s FROM %s;" % (", ".join(COLUMNS), FT))
    ours = normalize([None if v == "" else v for v in line.split("|")]
                     for line in out.splitlines() if line)
    # psql prints NULL and '' alike; no value here is ''
    if ours != expected:
        bad = [(e, o) for e, o in zip(expected, ours) if e != o][:3]
        msgs.append("the extension reads %d rows, %d expected; first differences (expected, read): %s"
                    % (len(ours), len(expected), bad))
    theirs = normalize(difftest.java_read(wh, TABLE))
    if theirs != expected:
        bad = [(e, o) for e, o in zip(expected, theirs) if e != o][:3]
        msgs.append("Java reads %d rows, %d expected; first differences (expected, read): %s"
                    % (len(theirs), len(expected), bad))
    nsnap = len([f for f in os.listdir(os.path.join(wh, DB + ".db", TABLE, "snapshot"))
                 if f.startswith("snapshot-")])
    passed = not msgs
    ncompact = 0
    for f in os.listdir(os.path.join(wh, DB + ".db", TABLE, "snapshot")):
        if f.startswith("snapshot-"):
            with open(os.path.join(wh, DB + ".db", TABLE, "snapshot", f)) as fh:
                ncompact += json.load(fh).get("commitKind") == "COMPACT"
    print("%s %d keys, five streams of column subsets from five sessions at once (%d snapshots, "
          "%d COMPACT): merged rows %s" % ("ok  " if passed else "FAIL", len(keys), nsnap, ncompact,
                                           "equal for us and Java" if passed else "differ"))
    for m in msgs:
        print("    " + m)
    if passed and not args.keep:
        psql("SET client_min_messages = warning; DROP SERVER %s CASCADE;" % SRV)
        shutil.rmtree(tmproot, ignore_errors=True)
    else:
        print("    kept %s" % tmproot)
    print("%d passed, %d failed" % (1 if passed else 0, 0 if passed else 1))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

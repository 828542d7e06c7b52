#!/usr/bin/env python3
"""Table options through SQL: a refused option ends the query with 0A000 naming it.

Copies a corpus table into a temporary warehouse, sets one option in its
schema file (as ALTER TABLE ... SET would), and checks that SELECT fails
with SQLSTATE 0A000 and a message naming the option and its value
(docs/table-options.md lists the options), that IMPORT FOREIGN SCHEMA still
imports the table, and that options which do not change reading leave the
rows as they were.

Usage: run_options.py [--corpus DIR]   (psql on PATH, PG* variables set)
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from input_required import missing_input

TABLE_DB = "append_10.db"
TABLE = "append_10"

# (option, value): refused
REFUSED = [
    ("scan.snapshot-id", "1"),
    ("scan.mode", "compacted-full"),
    ("data-evolution.enabled", "true"),
    ("row-tracking.enabled", "TRUE"),
    ("fields.f1.some-future-option", "x"),
    ("branch", "dev"),
]
# (option, value): read as before
ACCEPTED = [
    ("owner", "someone"),
    ("scan.mode", "latest-full"),
    ("data-evolution.enabled", "false"),
    ("record-level.expire-time", "1 d"),
    ("parquet.block.size", "4096"),
    ("orc.timestamp-ltz.legacy.type", "false"),
]


def psql(sql):
    return subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                           "-c", "\\set VERBOSITY verbose", "-c", sql],
                          capture_output=True, text=True)


def make_warehouse(src, option, value, db=TABLE):
    wh = tempfile.mkdtemp(prefix="paimon_options_")
    os.chmod(wh, 0o755)
    shutil.copytree(os.path.join(src, db + ".db"), os.path.join(wh, db + ".db"))
    if option is not None:
        schemas = glob.glob(os.path.join(wh, db + ".db", db, "schema", "schema-*"))
        latest = max(schemas, key=lambda p: int(p.rsplit("-", 1)[1]))
        with open(latest) as f:
            schema = json.load(f)
        schema.setdefault("options", {})[option] = value
        with open(latest, "w") as f:
            json.dump(schema, f)
    subprocess.run(["chmod", "-R", "a+rX", wh])
    return wh


def make_writer_schema_warehouse(src, db, table, option, value):
    """schema-0 (the one the data files were written with) gets the option;
    a new latest schema-1, identical but for the option and id, does not."""
    wh = tempfile.mkdtemp(prefix="paimon_options_")
    os.chmod(wh, 0o755)
    shutil.copytree(os.path.join(src, db + ".db"), os.path.join(wh, db + ".db"))
    sdir = os.path.join(wh, db + ".db", table, "schema")
    with open(os.path.join(sdir, "schema-0")) as f:
        schema = json.load(f)
    latest = dict(json.loads(json.dumps(schema)), id=1)
    schema.setdefault("options", {})[option] = value
    with open(os.path.join(sdir, "schema-0"), "w") as f:
        json.dump(schema, f)
    with open(os.path.join(sdir, "schema-1"), "w") as f:
        json.dump(latest, f)
    subprocess.run(["chmod", "-R", "a+rX", wh])
    return wh


def query(wh, sql, db=TABLE):
    return psql("SET client_min_messages = warning; DROP SERVER IF EXISTS options_srv CASCADE; "
                "CREATE SERVER options_srv FOREIGN DATA WRAPPER paimon_fdw "
                "OPTIONS (warehouse '%s'); DROP SCHEMA IF EXISTS opt CASCADE; CREATE SCHEMA opt; "
                "IMPORT FOREIGN SCHEMA \"%s\" FROM SERVER options_srv INTO opt; %s"
                % (wh, db, sql))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    args = ap.parse_args()
    src = os.path.join(os.path.abspath(args.corpus), "tables", "parquet")
    if not os.path.isdir(os.path.join(src, TABLE_DB)):
        return missing_input("run_options", "corpus table %s not found under %s (set PAIMON_CORPUS or --corpus)"
                             % (TABLE_DB, src))
    passed = failed = 0
    psql("CREATE EXTENSION IF NOT EXISTS paimon_fdw")

    def report(ok, name, detail):
        nonlocal passed, failed
        print("%-5s %-45s %s" % ("ok" if ok else "FAIL", name, detail))
        if ok:
            passed += 1
        else:
            failed += 1

    # the rows of the untouched copy
    wh = make_warehouse(src, None, None)
    p = query(wh, "SELECT count(*), sum(f1) FROM opt.%s" % TABLE)
    shutil.rmtree(wh, ignore_errors=True)
    baseline = p.stdout.strip()
    report(p.returncode == 0 and baseline not in ("", "0|"), "untouched table", baseline)

    for option, value in REFUSED:
        wh = make_warehouse(src, option, value)
        # IMPORT FOREIGN SCHEMA works, the query is refused
        p = query(wh, "SELECT count(*) FROM opt.%s" % TABLE)
        m = re.search(r"^ERROR:\s+([0-9A-Z]{5}):\s+(.*)$", p.stderr, re.M)
        state, message = (m.group(1), m.group(2)) if m else (None, p.stderr.strip())
        ok = (p.returncode != 0 and state == "0A000" and
              '"%s"' % option in message and '"%s"' % value in message and
              "IMPORT" not in p.stderr)
        report(ok, "refused %s = %s" % (option, value), message[:200])
        shutil.rmtree(wh, ignore_errors=True)

    # an option of the schema the files were written with (not the latest one);
    # the same copy with a harmless option reads as the original
    db = "pk_table_scan_and_read_mor"
    wh = make_writer_schema_warehouse(src, db, db, "owner", "someone")
    p = query(wh, "SELECT count(*), sum(f1) FROM opt.%s" % db, db)
    shutil.rmtree(wh, ignore_errors=True)
    wh = make_warehouse(src, None, None, db)
    q = query(wh, "SELECT count(*), sum(f1) FROM opt.%s" % db, db)
    shutil.rmtree(wh, ignore_errors=True)
    report(p.returncode == 0 and q.returncode == 0 and p.stdout == q.stdout and p.stdout.strip(),
           "two schemas, files of schema 0", p.stdout.strip() or p.stderr.strip()[:200])
    # thin-mode on the files' schema: their keys come from the value columns
    # (the same values as their _KEY_ columns), so the rows are the same
    wh = make_writer_schema_warehouse(src, db, db, "data-file.thin-mode", "true")
    p = query(wh, "SELECT count(*), sum(f1), count(DISTINCT (f0, f2)) FROM opt.%s" % db, db)
    shutil.rmtree(wh, ignore_errors=True)
    wh = make_warehouse(src, None, None, db)
    q = query(wh, "SELECT count(*), sum(f1), count(DISTINCT (f0, f2)) FROM opt.%s" % db, db)
    shutil.rmtree(wh, ignore_errors=True)
    report(p.returncode == 0 and q.returncode == 0 and p.stdout == q.stdout and p.stdout.strip(),
           "thin-mode of the files' schema: keys from the value columns",
           p.stdout.strip() or p.stderr.strip()[:200])

    for option, value in ACCEPTED:
        wh = make_warehouse(src, option, value)
        p = query(wh, "SELECT count(*), sum(f1) FROM opt.%s" % TABLE)
        got = p.stdout.strip()
        report(p.returncode == 0 and got == baseline, "accepted %s = %s" % (option, value),
               got if p.returncode == 0 else p.stderr.strip()[:200])
        shutil.rmtree(wh, ignore_errors=True)

    psql("DROP SERVER IF EXISTS options_srv CASCADE; DROP SCHEMA IF EXISTS opt CASCADE")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

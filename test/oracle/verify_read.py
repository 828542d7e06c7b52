#!/usr/bin/env python3
"""verify_read.py - reverse-direction check: a table that paimon_fdw WROTE must read back,
through Apache Paimon itself, as exactly the expected rows.

  verify_read.py <warehouse> <db> <table> <expected> [--snapshot N] [--no-java] [--pypaimon]

<expected> is either a JSON object with a "rows" array (the format of
shared/corpus/expected/*.json), a JSON array of rows, or JSON lines (one row array per
line); values use that README's encoding. Rows are compared as multisets after the same
normalisation as difftest.py, using the column types Java reports for the table.
Java (test/oracle/oracle.sh) is always asked unless --no-java; pypaimon too with
--pypaimon (skipped loudly if it is not installed). Exit status 0 when every reader
returned exactly the expected rows, 1 otherwise; prints "N passed, N failed".
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402


def load_expected(path):
    with open(path) as f:
        text = f.read()
    s = text.lstrip()
    if s.startswith("{") and "\n{" not in s.strip() and '"rows"' in s:
        return json.loads(text, parse_int=str, parse_float=str)["rows"]
    if s.startswith("[") and s.rstrip().endswith("]"):
        try:
            v = json.loads(text, parse_int=str, parse_float=str)
            if not v or isinstance(v[0], list):
                return v
        except ValueError:
            pass
    return [json.loads(l, parse_int=str, parse_float=str) for l in text.splitlines() if l.strip()]


def verify(warehouse, db, table, expected_rows, snapshot=None, java=True, pypaimon=False):
    """Returns (passed, failed, messages)."""
    difftest.DB = db
    warehouse = os.path.abspath(warehouse)
    schema = difftest.java_schema(warehouse, table, snapshot)
    types = [c["type"] for c in schema["columns"]]
    passed = failed = 0
    msgs = []
    legs = []
    if java:
        legs.append(("java", lambda: difftest.java_read(warehouse, table, snapshot)))
    if pypaimon:
        why = difftest.pypaimon_available()
        if why:
            msgs.append("SKIPPING the pypaimon reader: " + why)
        else:
            legs.append(("pypaimon", lambda: difftest.py_read(warehouse, table, snapshot)))
    for name, reader in legs:
        try:
            rows = reader()
            diff = difftest.compare("%s-vs-expected" % name, types, expected_rows, rows)
        except Exception as e:  # noqa: BLE001
            diff = ["%s: read failed: %s" % (name, str(e).strip()[-2000:])]
        if diff:
            failed += 1
            msgs += diff
        else:
            passed += 1
            msgs.append("%s read exactly the %d expected rows" % (name, len(expected_rows)))
    return passed, failed, msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("warehouse")
    ap.add_argument("db")
    ap.add_argument("table")
    ap.add_argument("expected")
    ap.add_argument("--snapshot", type=int)
    ap.add_argument("--no-java", action="store_true")
    ap.add_argument("--pypaimon", action="store_true")
    a = ap.parse_args()
    passed, failed, msgs = verify(a.warehouse, a.db, a.table, load_expected(a.expected),
                                  a.snapshot, not a.no_java, a.pypaimon)
    for m in msgs:
        print(m)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())

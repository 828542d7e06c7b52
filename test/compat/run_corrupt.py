#!/usr/bin/env python3
"""Damaged Paimon files through SQL: a clear ERROR with a SQLSTATE, never a crash.

Copies a corpus table into a temporary warehouse, damages one file at a time
(truncated or overwritten data file, manifest, snapshot, schema; a missing
data file; a deletion vector rewritten with a good checksum but a position
past its data file or a malformed bitmap) and checks that a query fails with the expected SQLSTATE, that
the message names the damaged file where one is at fault, and that the
server is still up afterwards.

Usage: run_corrupt.py [--corpus DIR]   (psql on PATH, PG* variables set)
"""
import argparse
import glob
import re
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from input_required import missing_input


def psql(sql):
    return subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                           "-v", "VERBOSITY=verbose", "-c", "\\set VERBOSITY verbose", "-c", sql],
                          capture_output=True, text=True)


def damage_truncate(path):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(max(1, size // 2))


def damage_garbage(path):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.seek(size // 3)
        f.write(b"\xff\x00\x13\x37" * 64)
        f.seek(max(0, size - 12))
        f.write(b"\x7f" * 12)


def dv_rewrite(values):
    """Replace the first 32-bit deletion vector of an index file (version byte,
    then [BE length][magic][portable bitmap][BE CRC]) by an array container of
    `values` in stored order, with a correct length and CRC."""
    def damage(path):
        with open(path, "rb") as f:
            data = f.read()
        length = struct.unpack(">I", data[1:5])[0]
        bitmap = struct.pack("<IIHHI", 12346, 1, 0, len(values) - 1, 16) + \
            b"".join(struct.pack("<H", v) for v in values)
        body = data[5:9] + bitmap
        assert len(body) == length, "the new bitmap must keep the blob's length"
        blob = struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))
        with open(path, "wb") as f:
            f.write(data[:1] + blob + data[1 + 8 + length:])
    return damage


# the tables the cases damage: (database, table, columns)
APPEND_10 = ("append_10", "f0 text, f1 int, f2 int, f3 float8")
PK_BITMAP_DV = ("pk_with_bitmap_dv", "key int, f0 text, f1 int, f2 int, f3 float8")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    args = ap.parse_args()
    tables = os.path.join(os.path.abspath(args.corpus), "tables", "parquet")
    for db in (APPEND_10[0], PK_BITMAP_DV[0]):
        if not os.path.isdir(os.path.join(tables, db + ".db")):
            return missing_input("run_corrupt", "corpus table not found at %s (set PAIMON_CORPUS or --corpus)"
                                 % os.path.join(tables, db + ".db"))
    # (name, table, which file, damage, accepted SQLSTATEs, file must be named)
    cases = [
        ("truncated data file", APPEND_10, "**/data-*.parquet", damage_truncate, {"XX001"}, True),
        ("garbage in data file", APPEND_10, "**/data-*.parquet", damage_garbage, {"XX001"}, True),
        ("missing data file", APPEND_10, "**/data-*.parquet", os.remove, {"58P01"}, True),
        ("truncated manifest", APPEND_10, "manifest/manifest-[!l]*", damage_truncate, {"XX001"}, True),
        ("garbage in manifest list", APPEND_10, "manifest/manifest-list-*", damage_garbage,
         {"XX001"}, True),
        ("truncated snapshot", APPEND_10, "snapshot/snapshot-*", damage_truncate, {"XX001"}, True),
        ("truncated schema", APPEND_10, "schema/schema-*", damage_truncate, {"XX001"}, True),
        # {0, 4} of a file of 5 rows becomes {0, 1000}, then {4, 0}: good CRC, wrong content
        ("DV position past the file", PK_BITMAP_DV, "index/index-*", dv_rewrite([0, 1000]),
         {"XX001"}, True),
        ("DV unsorted array", PK_BITMAP_DV, "index/index-*", dv_rewrite([4, 0]), {"XX001"}, True),
    ]
    passed = failed = 0
    psql("CREATE EXTENSION IF NOT EXISTS paimon_fdw")
    for name, (table, columns), pattern, damage, states, names_file in cases:
        wh = tempfile.mkdtemp(prefix="paimon_corrupt_")
        os.chmod(wh, 0o755)
        shutil.copytree(os.path.join(tables, table + ".db"), os.path.join(wh, table + ".db"))
        targets = sorted(glob.glob(os.path.join(wh, table + ".db", table, pattern),
                                   recursive=True))
        for t in targets:
            damage(t)
        subprocess.run(["chmod", "-R", "a+rX", wh])
        p = psql("SET client_min_messages = warning; DROP SERVER IF EXISTS corrupt_srv CASCADE; "
                 "CREATE SERVER corrupt_srv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s'); "
                 "DROP SCHEMA IF EXISTS corrupt CASCADE; CREATE SCHEMA corrupt; "
                 "CREATE FOREIGN TABLE corrupt.t (%s) SERVER corrupt_srv "
                 "OPTIONS (database '%s', table '%s'); "
                 "SELECT * FROM corrupt.t" % (wh, columns, table, table))
        err = p.stderr
        m = re.search(r"^ERROR:\s+([0-9A-Z]{5}):", err, re.M)
        state = m.group(1) if m else None
        alive = subprocess.run(["psql", "-X", "-Atc", "SELECT 1"], capture_output=True).returncode == 0
        named = any(os.path.basename(t) in err for t in targets) if names_file else True
        ok = p.returncode != 0 and state in states and alive and named and targets
        print("%-5s %-26s %s %s" % ("ok" if ok else "FAIL", name, state,
                                    "" if ok else err.strip().replace("\n", " | ")[:300]))
        if ok:
            passed += 1
        else:
            failed += 1
            if not alive:
                subprocess.run("for i in $(seq 60); do pg_isready -q && exit 0; sleep 1; done", shell=True)
        shutil.rmtree(wh, ignore_errors=True)
    psql("DROP SERVER IF EXISTS corrupt_srv CASCADE; DROP SCHEMA IF EXISTS corrupt CASCADE")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

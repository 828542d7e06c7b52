#!/usr/bin/env python3
"""Damaged Paimon files through SQL: a clear ERROR with a SQLSTATE, never a crash.

Copies a corpus table into a temporary warehouse, damages one file at a time
(truncated or overwritten data file, manifest, snapshot, schema; a missing
data file; a deletion vector rewritten with a good checksum but a position
past its data file or a malformed bitmap; values outside PostgreSQL's ranges or
invalid UTF-8 written into an Avro data file) and checks that a query fails with the expected SQLSTATE, that
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

from avro_craft import read_avro, write_avro
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


def avro_set(field, value):
    """Set `field` of every record of an Avro data file to the raw `value`
    (a union branch: (1, v) is the non-null branch of Paimon's ["null", T])."""
    def damage(path):
        records, schema, meta = read_avro(path)
        for r in records:
            r[field] = value
        write_avro(path, schema, records, meta)
    return damage


def retype_then(field, old, new, damage):
    """Change `field`'s type in the table's schema files from old to new
    (same physical values, e.g. INT to TIME), then damage the data file."""
    def both(path):
        root = path
        while not os.path.isdir(os.path.join(root, "schema")):
            root = os.path.dirname(root)
        for sf in glob.glob(os.path.join(root, "schema", "schema-*")):
            with open(sf) as f:
                text = f.read()
            text, n = re.subn(r'("name"\s*:\s*"%s",\s*"type"\s*:\s*)"%s"' % (field, old), r'\1"%s"' % new,
                              text)
            assert n == 1 or re.search(r'"type"\s*:\s*"%s"' % new, text), \
                "field %s of type %s not found in %s" % (field, old, sf)
            os.chmod(sf, 0o644)
            with open(sf, "w") as f:
                f.write(text)
        damage(path)
    return both


# the tables the cases damage: (database, table, columns)
APPEND_10 = ("append_10", "f0 text, f1 int, f2 int, f3 float8")
PK_BITMAP_DV = ("pk_with_bitmap_dv", "key int, f0 text, f1 int, f2 int, f3 float8")
MULTI_COLUMNS = ("f0 smallint, f1 smallint, %s, f3 bigint, f4 real, f5 float8, f6 text, f7 bytea, "
                 "f8 date, f9 numeric(5,2), f10 timestamp, f11 timestamp, f12 timestamp, "
                 "f13 timestamptz, f14 timestamptz, f15 timestamptz, f16 jsonb")
# Avro, every type: DATE f8, DECIMAL(5,2) f9, TIMESTAMP(0/3/6) f10-f12, LTZ f13-f15, ROW f16
AVRO_MULTI = ("append_multiple", MULTI_COLUMNS % "f2 int", "avro")
AVRO_MULTI_TIME = ("append_multiple", MULTI_COLUMNS % "f2 time", "avro")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    args = ap.parse_args()
    corpus_tables = os.path.join(os.path.abspath(args.corpus), "tables")
    for db, _, *fmt in (APPEND_10, PK_BITMAP_DV, AVRO_MULTI):
        tables = os.path.join(corpus_tables, fmt[0] if fmt else "parquet")
        if not os.path.isdir(os.path.join(tables, db + ".db")):
            return missing_input("run_corrupt", "corpus table not found at %s (set PAIMON_CORPUS or --corpus)"
                                 % os.path.join(tables, db + ".db"))
    tables = None
    data = "**/data-*.avro"
    int64_min = -(1 << 63)
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
        # values the format can hold but PostgreSQL cannot: an ERROR naming the column and file
        ("DATE of INT32_MAX days", AVRO_MULTI, data, avro_set("f8", (1, 2**31 - 1)), {"22008"}, True),
        ("DATE before 4714 BC", AVRO_MULTI, data, avro_set("f8", (1, -2**31)), {"22008"}, True),
        ("TIMESTAMP(6) at INT64_MIN", AVRO_MULTI, data, avro_set("f12", (1, int64_min)),
         {"22008"}, True),
        ("TIMESTAMP_LTZ(0) 9500 BC", AVRO_MULTI, data, avro_set("f13", (1, -300000000000000)),
         {"22008"}, True),
        ("TIME of 25 hours", AVRO_MULTI_TIME, data,
         retype_then("f2", "INT", "TIME", avro_set("f2", (1, 25 * 3600 * 1000))), {"22008"}, True),
        ("TIME negative", AVRO_MULTI_TIME, data,
         retype_then("f2", "INT", "TIME", avro_set("f2", (1, -1))), {"22008"}, True),
        ("DECIMAL(5,2) of 8 digits", AVRO_MULTI, data,
         avro_set("f9", (1, (10**7).to_bytes(4, "big", signed=True))), {"22003"}, True),
        ("STRING invalid UTF-8", AVRO_MULTI, data, avro_set("f6", (1, b"ok\xff\xfe")), {"22021"}, True),
        ("STRING with a NUL byte", AVRO_MULTI, data, avro_set("f6", (1, b"a\x00b")), {"22021"}, True),
        ("MAP key invalid UTF-8", AVRO_MULTI, data,
         avro_set("f16", (1, {"f0": (1, {b"\xc3(": (1, 1)}), "f1": (0, None)})), {"22021"}, True),
    ]
    passed = failed = 0
    psql("CREATE EXTENSION IF NOT EXISTS paimon_fdw")
    for name, (table, columns, *fmt), pattern, damage, states, names_file in cases:
        tables = os.path.join(corpus_tables, fmt[0] if fmt else "parquet")
        wh = tempfile.mkdtemp(prefix="paimon_corrupt_")
        os.chmod(wh, 0o755)
        shutil.copytree(os.path.join(tables, table + ".db"), os.path.join(wh, table + ".db"))
        subprocess.run(["chmod", "-R", "u+w", wh])
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
        # a bad value: the message names its column too
        if state is not None and state.startswith("22") and 'column "' not in err:
            named = False
        ok = p.returncode != 0 and state in states and alive and named and targets
        if os.environ.get("RUN_CORRUPT_VERBOSE"):
            print(err)
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

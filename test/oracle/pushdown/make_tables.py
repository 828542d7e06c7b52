#!/usr/bin/env python3
"""Write the Paimon tables of sql/pushdown.sql with the Java oracle (oracle.sh).

Usage: make_tables.py <warehouse> [table ...]   (the directory is replaced; database "pd";
       without table names: every table but pr and the rg_* tables)

Prints nothing on success (pg_regress compares the output); on failure prints one
line "make_tables: FAILED (<table>)" and the oracle's output goes to <warehouse>.log.

Tables:
  pd.dec      DECIMAL(38,30) / DECIMAL(10,2) / small integers / TIMESTAMP(9) / DATE /
              TIMESTAMP(6);
              two files (the second holds one row with sub-microsecond nanos)
  pd.fl_<fmt> DOUBLE and FLOAT with NaN, +-Infinity, -0.0 (parquet, orc, avro): file 1
              has values below 0.1 and a NaN that is not its first value, file 2 above
  pd.bk       bucket key (x DOUBLE, ts TIMESTAMP(9)) over 8 buckets: -0.0 and 0.0,
              sub-microsecond nanos
  pd.bkf      bucket key x DOUBLE over 8 buckets: -0.0 and 0.0
  pd.parts    partitioned by p (1, 2), 60 rows each in two commits, a text column
  pd.pr       (sql/pushdown_params.sql) partitioned by p (0..3), one file per partition
              in four commits; file c holds k, s in [100c, 100c+9], names by file
              "apple", "apricot", "banana", "\u00e9t\u00e9" + digit, dt in month c+1 of
              2021, ts in that month at 06:00, flag true in files 0 and 2, bytes
              0xc0+c, 0xff, digit
  pd.rg_parquet (sql/row_groups.sql) one Parquet file of 3000 rows in row groups of about
              100 rows (parquet.block.size): id 0..2999 in order, g = id / 100, s = "k" + id
              in 4 digits, x = id / 2 DOUBLE with NaN at id % 1000 = 999, n = id INT but
              NULL for ids 1000..1999, d = id + 0.25 DECIMAL(20,2) (fixed bytes),
              m = id + 0.5 DECIMAL(10,2) (int64), ts = 2021-01-01 + id seconds, dt =
              2021-01-01 + id / 100 days
  pd.rg_orc   the same rows in an ORC file of small stripes (orc.stripe.size)
  pd.rg_pk    the same columns, primary key id, deletion vectors, 1 bucket: rows written,
              then x and n updated for ids 0..299 (x = -1, n = -1) and a full compaction
              so that the file is read without a merge
  pd.rg_mor   primary key id, 1 bucket, no deletion vectors: the same rows in one commit
              and the ids 0..299 updated in a second one (x = -1, n = -1), not compacted:
              the two files are merged on read
  pd.rg_mor4  as rg_mor, over 4 buckets (sql/parallel_pk.sql: buckets not cut)
  pd.pg_parquet (sql/page_index.sql) one Parquet file, one row group of 20000 rows in
              pages of about 1 KiB (parquet.page.size): id 0..19999 in order, u = id * 7919
              mod 20000 (unsorted, distinct), s = "k" + id in 5 digits, cat = "rare" for ids
              5000..5009 and 15000..15009, else "a" (odd ids) or "z" (so every page spans
              "rare"), n = id but NULL where id mod 10 = 0; a bitmap index on cat, a bloom
              filter on u
  pd.ri_orc, pd.ri_orc_none (sql/orc_row_index.sql) one ORC file, one stripe of 20500 rows
              in row groups of 1000 (orc.row.index.stride), ids 1..20500 in order and every
              flat type, each column NULL every k-th row (k a prime per column): zstd in
              1 KiB compression chunks (orc.compress.size: a run of values spans
              several), and uncompressed
"""
import datetime
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle.sh")


def dec_rows():
    rows = []
    for i in range(16):
        rows.append([i, "%d.%s" % (i % 8, "0" * 30), "%d.%02d" % (i, (i * 25) % 100),
                     i % 5, 100 + i, 1000 * i, 10 ** 12 * i,
                     "2020-01-%02dT00:00:00.000000000" % (i + 1), "2020-02-%02d" % (i + 1),
                     "2020-03-%02dT00:00:00.000001" % (i + 1)])
    return [rows, [[100, "7.%s" % ("0" * 30), "1.00", 0, 0, 0, 0,
                    "2021-06-01T12:00:00.000000500", "2021-06-01", "2021-06-01T12:00:00.000001"]]]


def fl_rows():
    return [[[1, 0.05, 0.05], [2, "NaN", "NaN"], [3, -1.0, -1.0], [4, "-0.0", "-0.0"],
             [5, "-Infinity", "-Infinity"], [6, None, None]],
            [[7, 0.5, 0.5], [8, "Infinity", "Infinity"], [9, 0.0, 0.0]]]


def parts_rows():
    names = ["Alice", "bob", "Carol", "dave"]
    commits = []
    for c in range(2):
        rows = []
        for p in (1, 2):
            for k in range(30):
                i = c * 30 + k
                rows.append([p * 1000 + i, p, names[i % 4], i])
        commits.append(rows)
    return commits


def bk_rows():
    rows = [[i, v, "2021-06-01T12:00:00.000000%03d" % n]
            for i, (v, n) in enumerate([("-0.0", 500), (0.0, 0), (1.5, 999), (-2.5, 1)])]
    return [rows]


def pr_rows():
    names = ["apple", "apricot", "banana", "\u00e9t\u00e9"]
    commits = []
    for c in range(4):
        commits.append([[c * 100 + i, c, c * 100 + i, c * 100 + i, "%s%d" % (names[c], i),
                         "2021-%02d-%02d" % (c + 1, i + 1),
                         "2021-%02d-%02dT06:00:00.000000" % (c + 1, i + 1),
                         c % 2 == 0, bytes([0xc0 + c, 0xff, i]).hex()]
                        for i in range(10)])
    return commits


def rg_row(i):
    x = "NaN" if i % 1000 == 999 else i / 2
    n = None if 1000 <= i < 2000 else i
    return [i, i // 100, "k%04d" % i, x, n, "%d.25" % i, "%d.50" % i,
            "2021-01-01T%02d:%02d:%02d.000000" % (i // 3600, (i // 60) % 60, i % 60),
            "2021-%02d-%02d" % (1 + (i // 100) // 28, 1 + (i // 100) % 28)]


def rg_columns(pk):
    return [{"name": "id", "type": "INT NOT NULL" if pk else "INT"},
            {"name": "g", "type": "INT"}, {"name": "s", "type": "STRING"},
            {"name": "x", "type": "DOUBLE"}, {"name": "n", "type": "INT"},
            {"name": "d", "type": "DECIMAL(20, 2)"}, {"name": "m", "type": "DECIMAL(10, 2)"},
            {"name": "ts", "type": "TIMESTAMP(6)"}, {"name": "dt", "type": "DATE"}]


def rg_updates():
    rows = []
    for i in range(300):
        r = rg_row(i)
        r[3] = -1.0
        r[4] = -1
        rows.append(r)
    return rows


# Small row groups / stripes: parquet-mr checks the size every 10..100 rows here
RG_PARQUET = {"parquet.block.size": "2048", "parquet.block.size.row.check.min": "10",
              "parquet.block.size.row.check.max": "100", "parquet.page.size": "512"}
RG_ORC = {"orc.stripe.size": "4096", "orc.rows.between.memory.checks": "50",
          "orc.row.index.stride": "1000"}


def pg_cat(i):
    if 5000 <= i < 5010 or 15000 <= i < 15010:
        return "rare"
    return "a" if i % 2 else "z"


def pg_row(i):
    return [i, i * 7919 % 20000, "k%05d" % i, pg_cat(i), None if i % 10 == 0 else i]


def ri_row(g):
    def nul(k, v):
        return None if g % k == 0 else v
    ts = datetime.datetime(2021, 6, 1) + datetime.timedelta(minutes=g, microseconds=123 * g)
    ts3 = datetime.datetime(2021, 6, 1) + datetime.timedelta(milliseconds=1500 * g)
    return [g, nul(11, g % 3 == 0), nul(13, g % 200 - 100), nul(17, g % 30000),
            nul(19, g * 2654435761 % 4294967311 * 1048573), nul(23, g / 8.0), nul(29, g / 3.0),
            nul(31, "%d.%02d" % (g * 125 // 100, g * 125 % 100)), nul(37, "cat%d" % (g % 5)),
            nul(41, "%032x" % (g * 2654435761 % (1 << 128))), nul(43, "%08x" % g),
            nul(47, (datetime.date(2020, 1, 1) + datetime.timedelta(days=g)).isoformat()),
            nul(53, ts.strftime("%Y-%m-%dT%H:%M:%S.%f")),
            nul(59, ts3.strftime("%Y-%m-%dT%H:%M:%S.%f"))]


RI_COLUMNS = [{"name": n, "type": t} for n, t in [
    ("id", "INT"), ("b", "BOOLEAN"), ("t", "TINYINT"), ("sm", "SMALLINT"), ("big", "BIGINT"),
    ("f", "FLOAT"), ("d", "DOUBLE"), ("dec", "DECIMAL(12, 2)"), ("ds", "STRING"),
    ("s", "STRING"), ("bin", "BYTES"), ("dt", "DATE"), ("ts", "TIMESTAMP(6)"),
    ("ts3", "TIMESTAMP(3)")]]


def tables():
    yield "dec", {"columns": [
        {"name": "id", "type": "INT"}, {"name": "d", "type": "DECIMAL(38, 30)"},
        {"name": "m", "type": "DECIMAL(10, 2)"}, {"name": "t", "type": "TINYINT"},
        {"name": "s", "type": "SMALLINT"}, {"name": "i", "type": "INT"},
        {"name": "b", "type": "BIGINT"}, {"name": "ts", "type": "TIMESTAMP(9)"},
        {"name": "dt", "type": "DATE"}, {"name": "ts6", "type": "TIMESTAMP(6)"}],
        "options": {"file.format": "parquet", "bucket": "-1"}}, dec_rows()
    for fmt in ("parquet", "orc", "avro"):
        yield "fl_" + fmt, {"columns": [
            {"name": "id", "type": "INT"}, {"name": "x", "type": "DOUBLE"},
            {"name": "y", "type": "FLOAT"}],
            "options": {"file.format": fmt, "bucket": "-1"}}, fl_rows()
    yield "bk", {"columns": [
        {"name": "id", "type": "INT"}, {"name": "x", "type": "DOUBLE"},
        {"name": "ts", "type": "TIMESTAMP(9)"}],
        "options": {"file.format": "parquet", "bucket": "8", "bucket-key": "x,ts"}}, bk_rows()
    yield "bkf", {"columns": [{"name": "id", "type": "INT"}, {"name": "x", "type": "DOUBLE"}],
        "options": {"file.format": "parquet", "bucket": "8", "bucket-key": "x"}}, \
        [[[i, v] for i, v in enumerate(["-0.0", 0.0, 1.0, 2.0, 3.0, 4.0])]]
    yield "parts", {"columns": [
        {"name": "id", "type": "INT"}, {"name": "p", "type": "INT"},
        {"name": "name", "type": "STRING"}, {"name": "v", "type": "INT"}],
        "partition_keys": ["p"],
        "options": {"file.format": "parquet", "bucket": "-1"}}, parts_rows()
    yield "pr", {"columns": [
        {"name": "id", "type": "INT"}, {"name": "p", "type": "INT"},
        {"name": "k", "type": "INT"}, {"name": "s", "type": "SMALLINT"},
        {"name": "name", "type": "STRING"}, {"name": "dt", "type": "DATE"},
        {"name": "ts", "type": "TIMESTAMP(6)"}, {"name": "flag", "type": "BOOLEAN"},
        {"name": "bin", "type": "BYTES"}],
        "partition_keys": ["p"],
        "options": {"file.format": "parquet", "bucket": "-1"}}, pr_rows()
    rows = [rg_row(i) for i in range(3000)]
    yield "rg_parquet", {"columns": rg_columns(False),
        "options": dict(RG_PARQUET, **{"file.format": "parquet", "bucket": "-1"})}, [rows]
    yield "rg_orc", {"columns": rg_columns(False),
        "options": dict(RG_ORC, **{"file.format": "orc", "bucket": "-1"})}, [rows]
    yield "rg_pk", {"columns": rg_columns(True), "primary_keys": ["id"],
        "options": dict(RG_PARQUET, **{"file.format": "parquet", "bucket": "1",
                                       "deletion-vectors.enabled": "true"})}, \
        [rows, rg_updates(), "compact"]
    yield "rg_mor", {"columns": rg_columns(True), "primary_keys": ["id"],
        "options": dict(RG_PARQUET, **{"file.format": "parquet", "bucket": "1",
                                       "num-sorted-run.compaction-trigger": "10"})}, \
        [rows, rg_updates()]
    yield "rg_mor4", {"columns": rg_columns(True), "primary_keys": ["id"],
        "options": dict(RG_PARQUET, **{"file.format": "parquet", "bucket": "4",
                                       "num-sorted-run.compaction-trigger": "10"})}, \
        [rows, rg_updates()]
    yield "pg_parquet", {"columns": [
        {"name": "id", "type": "INT"}, {"name": "u", "type": "INT"},
        {"name": "s", "type": "STRING"}, {"name": "cat", "type": "STRING"},
        {"name": "n", "type": "INT"}],
        "options": {"file.format": "parquet", "bucket": "-1", "parquet.page.size": "1024",
                    "parquet.page.size.row.check.min": "10",
                    "parquet.page.size.row.check.max": "100",
                    "file-index.bitmap.columns": "cat",
                    "file-index.bloom-filter.columns": "u"}}, \
        [[pg_row(i) for i in range(20000)]]
    ri = [ri_row(g) for g in range(1, 20501)]
    for name, comp in (("ri_orc", {"file.compression": "zstd", "orc.compress.size": "1024"}),
                       ("ri_orc_none", {"file.compression": "none"})):
        yield name, {"columns": RI_COLUMNS,
            "options": dict(comp, **{"file.format": "orc", "bucket": "-1",
                                     "orc.row.index.stride": "1000"})}, [ri]


def main():
    wh = os.path.abspath(sys.argv[1])
    shutil.rmtree(wh, ignore_errors=True)
    os.makedirs(os.path.join(wh, "_spec"))
    os.chmod(wh, 0o755)
    log = open(wh + ".log", "w")
    only = sys.argv[2:]
    for name, spec, commits in tables():
        if (name not in only) if only else (name == "pr" or name.startswith(("rg_", "pg_", "ri_"))):
            continue
        tj = os.path.join(wh, "_spec", name + ".table.json")
        oj = os.path.join(wh, "_spec", name + ".ops.jsonl")
        with open(tj, "w") as f:
            json.dump(spec, f)
        with open(oj, "w") as f:
            for rows in commits:
                if rows == "compact":
                    f.write('{"op": "compact"}\n')
                    continue
                for r in rows:
                    f.write(json.dumps({"op": "+I", "row": r}) + "\n")
                f.write('{"op": "commit"}\n')
        rc = subprocess.call([ORACLE, "scenario", wh, "pd", name, tj, oj],
                             stdout=log, stderr=log)
        if rc != 0:
            print("make_tables: FAILED (%s)" % name)
            return 1
    shutil.rmtree(os.path.join(wh, "_spec"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

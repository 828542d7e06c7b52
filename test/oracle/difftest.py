#!/usr/bin/env python3
"""difftest.py - randomized differential test of paimon_fdw against Apache Paimon itself.

From a seed it generates a table description (scalar types incl. decimal, timestamp, date,
bytes; nulls; partitions; bucket counts; parquet/orc/avro; compressions; schema changes
between commits) and a sequence of commits. The Java oracle (test/oracle/oracle.sh, i.e.
Paimon's own Java API) writes it into a temporary warehouse. Then, for the latest snapshot
and every snapshot:

  1. java-vs-model  Java's `read` against the rows the generator knows it wrote
                    (append tables only; checks the harness and the oracle);
  2. sql-vs-java    our extension's rows (IMPORT FOREIGN SCHEMA ... [OPTIONS (snapshot_id)],
                    SELECT to_json(t) via psql, connection from PGHOST/PGPORT/PGUSER/
                    PGDATABASE) against Java's;
  3. py-vs-java     pypaimon's rows (test/oracle/python/oracle_py.py), when pypaimon is
                    installed (--pypaimon);

all compared as multisets after normalising values (see normalise()). A failure prints the
seed and the replay command. The SQL leg is skipped loudly when no server is reachable or
the extension is not installed (--require-sql turns that into a failure).

  difftest.py                      # CI default: 10 seeds, append tables
  difftest.py --seeds 200 --start 1000
  difftest.py --long               # 3000 seeds
  difftest.py --seed 17 --keep     # replay one seed, keep its warehouse
  difftest.py --pk                 # also primary-key tables (merge engines, DV, ...)
  difftest.py --seed 11 --writer-tz Asia/Shanghai --reader-tz America/New_York \
              --pg-tz Asia/Kolkata --paimon-version 1.4.2     # zones, another Paimon release
"""

import argparse
import collections
import datetime as dt
import decimal
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

decimal.getcontext().prec = 200  # DECIMAL(38, s) needs more than the default 28 digits
HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "oracle.sh")
PY_ORACLE = os.path.join(HERE, "python", "oracle_py.py")
DB = "difft"

# ---------------------------------------------------------------------------- types

INT_RANGES = {"TINYINT": (-128, 127), "SMALLINT": (-32768, 32767),
              "INT": (-2**31, 2**31 - 1), "BIGINT": (-2**63, 2**63 - 1)}

COMPRESSIONS = {"parquet": ["zstd", "snappy", "gzip", "lz4", "uncompressed"],
                "orc": ["zstd", "snappy", "lz4", "zlib", "none"],
                "avro": ["zstd", "snappy", "deflate", "null"]}


def base_type(t):
    """'DECIMAL(10, 2) NOT NULL' -> ('DECIMAL', [10, 2])."""
    t = t.strip()
    if t.upper().endswith(" NOT NULL"):
        t = t[:-9].strip()
    up = t.upper()
    for nested in ("ARRAY<", "MAP<", "ROW<", "MULTISET<"):
        if up.startswith(nested):
            return nested[:-1], [t[t.index("<") + 1:t.rindex(">")]]
    if up.endswith("WITH LOCAL TIME ZONE"):
        head = t[:len(t) - len("WITH LOCAL TIME ZONE")].strip()
        p = int(head[head.index("(") + 1:head.index(")")]) if "(" in head else 6
        return "TIMESTAMP_LTZ", [p]
    if "(" in t:
        name = t[:t.index("(")].strip().upper()
        args = [int(x) for x in t[t.index("(") + 1:t.rindex(")")].split(",")]
        return name, args
    name = up
    if name == "TIMESTAMP":
        return "TIMESTAMP", [6]
    if name in ("DECIMAL",):
        return name, [10, 0]
    return name, []


def split_top(s):
    out, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[start:i].strip())
            start = i + 1
    out.append(s[start:].strip())
    return out


def random_type(rnd, nested):
    choices = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
               "DECIMAL", "STRING", "VARCHAR", "CHAR", "BYTES", "VARBINARY", "DATE", "TIMESTAMP",
               "TIMESTAMP_LTZ"]
    if nested:
        choices += ["ARRAY", "MAP", "ROW"]
    k = rnd.choice(choices)
    if k == "DECIMAL":
        p = rnd.choice([1, 5, 9, 10, 18, 19, 28, 38])
        s = rnd.randint(0, min(p, 6))
        return "DECIMAL(%d, %d)" % (p, s)
    if k == "VARCHAR":
        return "VARCHAR(%d)" % rnd.choice([1, 10, 100])
    if k == "CHAR":
        return "CHAR(%d)" % rnd.choice([1, 5, 20])
    if k == "VARBINARY":
        return "VARBINARY(%d)" % rnd.choice([4, 20])
    if k == "TIMESTAMP":
        # p=9 values are whole microseconds (PostgreSQL has no nanoseconds)
        return "TIMESTAMP(%d)" % rnd.choice([0, 1, 3, 6, 9])
    if k == "TIMESTAMP_LTZ":
        return "TIMESTAMP(%d) WITH LOCAL TIME ZONE" % rnd.choice([3, 6])
    if k == "ARRAY":
        return "ARRAY<%s>" % rnd.choice(["INT", "STRING", "DOUBLE", "DECIMAL(10, 2)"])
    if k == "MAP":
        return "MAP<%s, %s>" % (rnd.choice(["STRING", "INT"]), rnd.choice(["INT", "STRING"]))
    if k == "ROW":
        return "ROW<a INT, b STRING>"
    return k


FLOAT_SPECIALS = ("NaN", "Infinity", "-Infinity")


def random_value(rnd, t, null_rate=0.15):
    if rnd.random() < null_rate and not t.upper().endswith("NOT NULL"):
        return None
    name, args = base_type(t)
    edge = rnd.random() < 0.2
    if name == "BOOLEAN":
        return rnd.random() < 0.5
    if name in INT_RANGES:
        lo, hi = INT_RANGES[name]
        if edge:
            return rnd.choice([lo, hi, 0, -1, 1])
        return rnd.randint(max(lo, -100000), min(hi, 100000))
    if name in ("FLOAT", "DOUBLE") and edge and rnd.random() < 0.25:
        return rnd.choice(FLOAT_SPECIALS)  # JSON strings, as the oracles read and print them
    if name == "FLOAT":
        if edge:
            return repr_f32(rnd.choice([0.0, -0.0, 1.0, -1.5, 3.4028235e38, 1.4e-45, 1.17549435e-38]))
        return float(repr_f32(rnd.uniform(-1e6, 1e6)))
    if name == "DOUBLE":
        if edge:
            return rnd.choice([0.0, -0.0, 1e300, -1e-300, 5e-324, 1.7976931348623157e308, 0.1,
                               2.0 ** 53, 123456789012345680.0])
        return rnd.uniform(-1e9, 1e9) if rnd.random() < 0.7 else rnd.random()
    if name == "DECIMAL":
        p, s = args
        if edge:
            unscaled = rnd.choice([10 ** p - 1, -(10 ** p - 1), 0, 1, -1])
        else:
            unscaled = rnd.randint(-(10 ** min(p, 12)) + 1, 10 ** min(p, 12) - 1)
        digits = str(abs(unscaled)).rjust(s + 1, "0")
        text = digits[:len(digits) - s] + ("." + digits[len(digits) - s:] if s else "")
        return ("-" if unscaled < 0 else "") + text
    if name in ("STRING", "VARCHAR", "CHAR"):
        maxlen = args[0] if args else 40
        if edge:
            cands = ["", "a", "ü", "日本語", "emoji 🙂", "tab\tnl\nq\"\\", "x" * maxlen]
            return rnd.choice([c for c in cands if len(c) <= maxlen] or [""])
        n = rnd.randint(0, min(maxlen, 20))
        return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789 _-") for _ in range(n))
    if name in ("BYTES", "VARBINARY", "BINARY"):
        n = rnd.randint(0, min(12, args[0]) if args else 12)
        return bytes(rnd.randrange(256) for _ in range(n)).hex()
    if name == "DATE":
        if edge:
            return rnd.choice(["1970-01-01", "1969-12-31", "2000-02-29", "0001-01-01", "9999-12-31",
                               "1582-10-04"])
        return (dt.date(1970, 1, 1) + dt.timedelta(days=rnd.randint(-30000, 40000))).isoformat()
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        p = args[0]
        if edge:
            base = rnd.choice([dt.datetime(1970, 1, 1), dt.datetime(1969, 12, 31, 23, 59, 59),
                               dt.datetime(1900, 1, 1), dt.datetime(2262, 4, 11)])
        else:
            base = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=rnd.randint(-10 ** 9, 3 * 10 ** 9))
        micros = rnd.randrange(10 ** 6) if p > 0 else 0
        micros -= micros % (10 ** (6 - min(p, 6)))
        v = base.replace(microsecond=micros)
        return fmt_ts(v, p) + ("Z" if name == "TIMESTAMP_LTZ" else "")
    if name == "ARRAY":
        return [random_value(rnd, args[0], 0.1) for _ in range(rnd.randint(0, 4))]
    if name == "MAP":
        kt, vt = split_top(args[0])
        keys = []
        for _ in range(rnd.randint(0, 3)):
            k = random_value(rnd, kt, 0)
            if k not in keys:
                keys.append(k)
        return [[k, random_value(rnd, vt, 0.1)] for k in keys]
    if name == "ROW":
        return {"a": random_value(rnd, "INT"), "b": random_value(rnd, "STRING")}
    raise ValueError("no generator for " + t)


def repr_f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def fmt_ts(v, p):
    s = v.strftime("%Y-%m-%dT%H:%M:%S")
    if len(s) < 19:  # years < 1000 on some platforms
        s = "%04d%s" % (v.year, s[s.index("-"):])
    if p > 0:
        s += "." + ("%06d" % v.microsecond + "000")[:p]
    return s


def cast_value(old, new, v):
    """Model of Paimon's cast of a stored value when a column's type was changed."""
    if v is None or old == new:
        return v
    oname, oargs = base_type(old)
    nname, _ = base_type(new)
    if nname in ("STRING", "VARCHAR"):
        if oname == "BOOLEAN":
            return "true" if v else "false"
        return str(v)  # integers, DATE text, DECIMAL text with its scale
    if oname == "FLOAT" and nname == "DOUBLE":
        return v if v in FLOAT_SPECIALS else float(v)  # the float32 value, printed as a double
    return v  # integer widening, DECIMAL(p) -> DECIMAL(p+2) with the same scale


# ---------------------------------------------------------------------------- generation

class Case:
    """A generated table and its operations, plus a model of the expected rows."""

    def __init__(self, seed, pk=False, nested=False, simple=False, writer_tz=None,
                 bucket_functions=()):
        self.seed = seed
        self.simple = simple  # only inserts and commits (for the pypaimon writer)
        self.predicates_run = 0
        rnd = random.Random(seed)
        self.rnd = rnd
        self.pk = pk
        ncols = rnd.randint(1, 8)
        cols = [{"name": "id", "type": "BIGINT NOT NULL"}]
        for i in range(ncols):
            cols.append({"name": "c%d" % i, "type": random_type(rnd, nested)})
        self.next_col = ncols
        # partitions: 0..2 keys, each a low-cardinality column
        part = []
        for j in range(rnd.choice([0, 0, 1, 1, 2])):
            pt = rnd.choice(["INT", "STRING", "DATE", "BIGINT"])
            cols.append({"name": "p%d" % j, "type": pt})
            part.append("p%d" % j)
        fmt = rnd.choice(["parquet", "orc", "avro"])
        if simple and fmt == "avro" and any("<" in c["type"] for c in cols):
            # pypaimon's Avro writer takes no MAP and no null array element (seeds
            # 30700-30734 --writer py --nested): Parquet or ORC, drawn from a generator
            # of its own (the tables of the other seeds stay as they were)
            fmt = random.Random("py-nested-format/%d" % seed).choice(["parquet", "orc"])
        self.fmt = fmt
        for c in cols:
            c["type"] = self.fit_type(c["type"])
        options = {"file.format": fmt, "file.compression": rnd.choice(COMPRESSIONS[fmt])}
        if simple:
            # pypaimon hands file.compression to pyarrow, which spells "no compression"
            # "none" for Parquet and "uncompressed" for ORC (Java takes either); swapped
            # after the draw, so the rest of the seed's table is unchanged
            options["file.compression"] = {("parquet", "uncompressed"): "none",
                                           ("orc", "none"): "uncompressed"}.get(
                (fmt, options["file.compression"]), options["file.compression"])
        if fmt == "orc":
            # how ORC files hold TIMESTAMP_LTZ (default true: the UTC wall clock as a
            # writer-zone time; false: the instant). Drawn from its own generator so that
            # the rest of the seed's table is the same as before the option was drawn.
            ltz = random.Random("ltz-legacy/%d" % seed).choice([None, "true", "false", "false"])
            if ltz is not None:
                options["orc.timestamp-ltz.legacy.type"] = ltz
        # A legacy-encoded LTZ value in ORC is the instant minus the writer zone's offset,
        # and ORC records the writer's zone only in files with a TIMESTAMP column: without
        # one (and a writer outside UTC) the instant is lost to every reader but one in the
        # writer's zone (Java assumes its JVM's zone, the extension UTC). Such tables get a
        # TIMESTAMP column that is never dropped.
        self.anchor = None
        if fmt == "orc" and writer_tz not in (None, "UTC", "Etc/UTC") and \
                options.get("orc.timestamp-ltz.legacy.type", "true").lower() != "false":
            self.anchor = "zone_anchor"
            cols.insert(len(cols) - len(part), {"name": self.anchor, "type": "TIMESTAMP(3)"})
        if pk:
            # primary key = id + partition keys (Paimon requires the partition in the key)
            pkeys = ["id"] + part
            for c in cols:
                if c["name"] in pkeys and not c["type"].endswith("NOT NULL"):
                    c["type"] += " NOT NULL"
            options["bucket"] = str(rnd.choice([1, 2, 3]))
            engine = rnd.choice(["deduplicate", "deduplicate", "partial-update", "first-row",
                                 "aggregation"])
            if simple and engine == "first-row":
                # pypaimon never compacts: batch reads of first-row tables (and of
                # deletion-vector ones) skip level 0, so nothing would be visible
                engine = "deduplicate"
            options["merge-engine"] = engine
            if engine == "deduplicate" and rnd.random() < 0.5 and not simple:
                options["deletion-vectors.enabled"] = "true"
            # thin files (no _KEY_ columns) in a third of the tables; a generator
            # of its own, so the rest of the seed's table stays as it was
            if random.Random(seed * 31 + 7).random() < 0.34:
                options["data-file.thin-mode"] = "true"
            if engine in ("deduplicate", "partial-update", "aggregation") and rnd.random() < 0.4 \
                    and not simple:
                options["changelog-producer"] = rnd.choice(["input", "lookup"])
            self.sum_columns = []
            if engine == "aggregation":
                # integer columns summed (wrapping like Java), the rest last_non_null_value
                for c in cols:
                    if c["name"] not in pkeys and base_type(c["type"])[0] in INT_RANGES \
                            and rnd.random() < 0.7:
                        options["fields.%s.aggregate-function" % c["name"]] = "sum"
                        self.sum_columns.append(c["name"])
            self.primary_keys = pkeys
        else:
            bucket = rnd.choice([-1, -1, 1, 2, 4])
            options["bucket"] = str(bucket)
            if bucket > 0:
                options["bucket-key"] = "id"
            elif rnd.random() < 0.5:
                options["compaction.min.file-num"] = "2"  # lets "compact" find work
            self.primary_keys = []
        # bucket-function.type on some fixed-bucket tables (a generator of its own, so
        # the rest of the seed's table stays as it was): Java's buckets, our pruning and
        # point lookups by the same function (the key "id" is BIGINT: mod and hive take it)
        frnd = random.Random("bucket-function/%d" % seed)
        if int(options["bucket"]) > 0 and bucket_functions and frnd.random() < 0.3:
            options["bucket-function.type"] = frnd.choice(list(bucket_functions))
        if rnd.random() < 0.2 and fmt == "parquet":
            options["parquet.block.size"] = "4096"
        # File indexes on some columns (their own generator: the rest of the seed's table
        # stays as it was). Indexed columns keep their name and type (no schema change).
        self.index_columns = set()
        irnd = random.Random("file-index/%d" % seed)
        if irnd.random() < 0.4:
            # bsi: not on BIGINT, which the generator fills with Long.MIN_VALUE at times:
            # Java's BitSliceIndexBitmapFileIndex.Writer takes Math.abs of it and fails
            # ("values should be non-negative")
            kinds = (("bloom-filter", ("INT", "BIGINT", "STRING")),
                     ("bitmap", ("INT", "BIGINT", "STRING")),
                     ("range-bitmap", ("INT", "BIGINT")), ("bsi", ("INT",)))
            for kind, ok in kinds:
                fit = [c["name"] for c in cols
                       if c["name"] not in part and base_type(c["type"])[0] in ok]
                if fit and irnd.random() < 0.6:
                    chosen = irnd.sample(fit, irnd.randint(1, min(2, len(fit))))
                    options["file-index.%s.columns" % kind] = ",".join(chosen)
                    self.index_columns.update(chosen)
        # Several row groups / stripes per file (own generator, as above), so that the
        # pushed-down predicates prune inside files (paimon_fdw.enable_row_group_pruning):
        # parquet-mr checks the row group size every 10 rows with these settings
        grnd = random.Random("row-groups/%d" % seed)
        if grnd.random() < 0.35:
            if fmt == "parquet":
                options.update({"parquet.block.size": "1024", "parquet.page.size": "256",
                                "parquet.block.size.row.check.min": "10",
                                "parquet.block.size.row.check.max": "10"})
            elif fmt == "orc":
                options.update({"orc.stripe.size": "1024", "orc.rows.between.memory.checks": "1"})
        for i, c in enumerate(cols):
            c["fid"] = i  # stable identity across renames/widenings (like Paimon field ids)
        self.next_fid = len(cols)
        self.columns = cols
        self.partition_keys = part
        self.options = options
        self.part_values = {}
        for c in cols:
            if c["name"] in part:
                self.part_values[c["name"]] = [random_value(rnd, c["type"], 0) for _ in range(3)]
        self.ops = []          # list of commits; a commit is a list of op dicts
        self.model = []        # expected rows (lists) after each snapshot: [(snap_id, rows)]
        self.snapshot_schemas = []
        self._generate()

    def fit_type(self, t):
        """Avro files hold timestamps of precision <= 6 only; pypaimon pads CHAR(n) values
        with spaces (and stores them as plain strings), so its tables get VARCHAR(n).
        pypaimon (pyarrow) stores TIMESTAMP(9) in Parquet as INT64 nanoseconds, which
        Java (1.3.1, 1.4.2: ParquetVectorUpdaterFactory.LongTimestampUpdater) takes for
        epoch milliseconds whatever the column's unit (seeds 30436, 30451 --writer py;
        the extension and pypaimon read them right), so those tables get TIMESTAMP(6)."""
        if self.fmt == "avro" or (self.simple and self.fmt == "parquet"):
            t = t.replace("TIMESTAMP(9)", "TIMESTAMP(6)")
        if self.simple:
            t = re.sub(r"(?<!VAR)CHAR\(", "VARCHAR(", t)
        return t

    def zone_dependent(self, types):
        """Columns whose values Java reads differently in another JVM zone than the
        writer's, by design: TIMESTAMP_LTZ in ORC files of the legacy encoding (Java adds
        its own zone's offset to a value stored as the writer zone's wall clock)."""
        legacy = self.options.get("orc.timestamp-ltz.legacy.type", "true").lower() != "false"
        return [i for i, t in enumerate(types) if self.fmt == "orc" and legacy
                and base_type(t)[0] == "TIMESTAMP_LTZ"]

    def table_json(self):
        return {"columns": [{"name": c["name"], "type": c["type"]} for c in self.initial_columns],
                "primary_keys": self.primary_keys, "partition_keys": self.partition_keys,
                "options": self.options}

    def _row(self, next_id):
        row = []
        for c in self.columns:
            if c["name"] == "id":
                row.append(next_id)
            elif c["name"] in self.part_values:
                row.append(self.rnd.choice(self.part_values[c["name"]]))
            elif c["name"] in getattr(self, "sum_columns", ()):
                # small values: Paimon 1.3.1 wraps on overflow, newer Paimon raises an error
                lim = 2 if base_type(c["type"])[0] == "TINYINT" else 100
                row.append(None if self.rnd.random() < 0.15 else self.rnd.randint(-lim, lim))
            else:
                row.append(random_value(self.rnd, c["type"]))
        if self.options["file.format"] == "orc":
            # Paimon 1.3.1's ORC writer stores pre-1970 timestamps with a fraction one
            # second late (pyarrow/pypaimon read the same +1s back): keep them whole seconds
            # (up to a day later: what is stored is shifted by the writer JVM's zone)
            for i, c in enumerate(self.columns):
                v = row[i]
                if base_type(c["type"])[0].startswith("TIMESTAMP") and isinstance(v, str) \
                        and v < "1970-01-02" and "." in v:
                    head, frac = v.split(".", 1)
                    row[i] = head + "." + "".join("0" if ch.isdigit() else ch for ch in frac)
        return row

    def _key(self, row):
        return tuple(row[i] for i, c in enumerate(self.columns) if c["name"] in self.primary_keys)

    def _apply_pk(self, keyed, kind, row):
        """Model of the merge engines for one record (in commit order = sequence order)."""
        key = self._key(row)
        engine = self.options.get("merge-engine", "deduplicate")
        if kind == "-D":
            keyed.pop(key, None)
        elif key not in keyed:
            keyed[key] = list(row)
        elif engine == "deduplicate":
            keyed[key] = list(row)
        elif engine == "partial-update":
            keyed[key] = [n if n is not None else o for n, o in zip(row, keyed[key])]
        elif engine == "aggregation":
            merged = []
            for c, n, o in zip(self.columns, row, keyed[key]):
                if c["name"] in self.sum_columns and n is not None and o is not None:
                    lo, hi = INT_RANGES[base_type(c["type"])[0]]
                    span = hi - lo + 1
                    merged.append((int(o) + int(n) - lo) % span + lo)
                else:
                    merged.append(n if n is not None else o)
            keyed[key] = merged
        # first-row: the first record of a key wins

    def _generate(self):
        rnd = self.rnd
        self.initial_columns = [dict(c) for c in self.columns]
        rows = []        # current model (append tables), aligned with self.columns
        keyed = collections.OrderedDict()  # pk tables: key -> merged row
        next_id = 0
        snap = 0
        dedup = self.options.get("merge-engine", "deduplicate") == "deduplicate"
        for _ in range(rnd.randint(1, 5)):
            if snap > 0 and rnd.random() < 0.45 and not self.simple:
                changes = self._schema_change(list(keyed.values()) if self.pk else rows)
                if changes:
                    self.ops.append([{"op": "alter", "changes": changes}])
            commit = []
            n = rnd.choice([0, 1, 3, 10, 30, 60]) if rnd.random() < 0.9 else 400
            for _ in range(max(n, 1)):
                if self.pk and keyed and rnd.random() < 0.3:
                    key = rnd.choice(list(keyed.keys()))
                    if rnd.random() < 0.3 and dedup and not self.simple:
                        op = {"op": "-D", "row": list(keyed[key])}
                    else:
                        row = self._row(key[0])
                        for i, c in enumerate(self.columns):
                            if c["name"] in self.primary_keys:
                                row[i] = keyed[key][i]
                        op = {"op": "+U" if dedup and rnd.random() < 0.5 and not self.simple
                              else "+I", "row": row}
                else:
                    op = {"op": "+I", "row": self._row(next_id)}
                    next_id += 1
                commit.append({"op": op["op"], "row": list(op["row"])})
                if self.pk:
                    self._apply_pk(keyed, op["op"], op["row"])
                else:
                    rows.append(list(op["row"]))
            self.ops.append(commit)
            snap += 1
            if rnd.random() < 0.2 and not self.simple:
                self.ops.append([{"op": "tag", "name": "tag%d" % snap}])
            if self.simple:
                pass
            elif (not self.pk and rnd.random() < 0.2) or \
                    (self.pk and rnd.random() < 0.3):
                self.ops.append([{"op": "compact"}])
            state = list(keyed.values()) if self.pk else rows
            self.model.append(([c["name"] for c in self.columns], [c["fid"] for c in self.columns],
                               [c["type"] for c in self.columns], [list(r) for r in state]))

    def state(self, k_layout, k_rows):
        """Rows of model state k_rows, projected (and cast) onto the columns of k_layout."""
        names, fids, types, _ = self.model[k_layout]
        _, old_fids, old_types, rows = self.model[k_rows]
        pos = {f: i for i, f in enumerate(old_fids)}
        out = []
        # ORC stores CHAR(n) padded and Java's ORC reader strips the trailing spaces
        orc_char = [self.options["file.format"] == "orc" and base_type(t)[0] == "CHAR"
                    for t in types]
        for r in rows:
            row = [cast_value(old_types[pos[f]], t, r[pos[f]]) if f in pos else None
                   for f, t in zip(fids, types)]
            out.append([v.rstrip(" ") if strip and v is not None else v
                        for v, strip in zip(row, orc_char)])
        return names, out

    def _schema_change(self, rows):
        rnd = self.rnd
        protected = set(self.partition_keys) | {"id", self.anchor} | set(self.primary_keys) | \
            set(getattr(self, "sum_columns", [])) | self.index_columns
        free = [i for i, c in enumerate(self.columns) if c["name"] not in protected]
        kind = rnd.choice(["add", "add", "drop", "rename", "widen"])
        if kind == "add" or not free:
            t = self.fit_type(random_type(rnd, False))
            name = "c%d" % self.next_col
            self.next_col += 1
            self.columns.append({"name": name, "type": t, "fid": self.next_fid})
            self.next_fid += 1
            for r in rows:
                r.append(None)
            # keep partition/other order: Paimon appends new columns at the end
            return [{"add": name, "type": t}]
        i = rnd.choice(free)
        c = self.columns[i]
        if kind == "drop":
            if len(self.columns) <= 2:
                return None
            del self.columns[i]
            for r in rows:
                del r[i]
            return [{"drop": c["name"]}]
        if kind == "rename":
            new = c["name"] + "r"
            c["name"] = new
            return [{"rename": new[:-1], "to": new}]
        name, args = base_type(c["type"])
        targets = {"TINYINT": ["SMALLINT", "STRING"], "SMALLINT": ["INT", "STRING"],
                   "INT": ["BIGINT", "STRING"], "BIGINT": ["STRING"], "FLOAT": ["DOUBLE"],
                   "BOOLEAN": ["STRING"], "DATE": ["STRING"]}.get(name, [])
        if name == "DECIMAL" and args[0] <= 36:
            targets = ["DECIMAL(%d, %d)" % (args[0] + 2, args[1]), "STRING"]
        if not targets:
            return None
        new = rnd.choice(targets)
        old = c["type"]
        c["type"] = new
        for r in rows:
            r[i] = cast_value(old, new, r[i])
        return [{"update_type": c["name"], "type": new}]

    def write_files(self, d):
        with open(os.path.join(d, "table.json"), "w") as f:
            json.dump(self.table_json(), f)
        with open(os.path.join(d, "ops.jsonl"), "w") as f:
            for commit in self.ops:
                for op in commit:
                    f.write(json.dumps(op, ensure_ascii=False) + "\n")
                f.write('{"op":"commit"}\n')


# ---------------------------------------------------------------------------- normalisation

def norm_float(v, f32):
    if v is None:
        return None
    if v in ("NaN", "Infinity", "-Infinity"):
        return v
    x = float(v)
    if f32:
        x = repr_f32(x)
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    return repr(x)


TS_OFFSET = re.compile(r"([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?$")


def parse_ts(s):
    """ISO-ish timestamp text (Java, PG to_json, or psql) -> (text up to the seconds, frac),
    in UTC when the text carries an offset (to_json of timestamptz in a non-UTC session)."""
    s = s.replace(" ", "T")
    if s.endswith("Z"):
        s = s[:-1]
    date, _, time_ = s.partition("T")
    m = TS_OFFSET.search(time_)
    off = 0
    if m:
        time_ = time_[:m.start()]
        off = int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60 + int(m.group(4) or 0)
        off = -off if m.group(1) == "-" else off
    head, _, frac = (date + "T" + time_).partition(".")
    if off:
        v = dt.datetime.strptime(head, "%Y-%m-%dT%H:%M:%S") - dt.timedelta(seconds=off)
        head = fmt_ts(v, 0)
    return head, frac


def normalise(t, v):
    """Canonical form of one value of Paimon type t, from Java JSON or Postgres to_json."""
    if v is None:
        return None
    name, args = base_type(t)
    if name == "BOOLEAN":
        return v if isinstance(v, bool) else str(v).lower() in ("true", "t", "1")
    if name in INT_RANGES:
        return int(v)
    if name == "FLOAT":
        return norm_float(v, True)
    if name == "DOUBLE":
        return norm_float(v, False)
    if name == "DECIMAL":
        return "{0:.{1}f}".format(decimal.Decimal(str(v)), args[1])
    if name in ("BYTES", "VARBINARY", "BINARY"):
        v = v[2:] if v.startswith("\\x") else v
        return v.lower()
    # CHAR(n): compared exactly (Paimon does not pad; the extension maps CHAR to text)
    if name == "DATE":
        return v
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        head, frac = parse_ts(v)
        p = args[0]
        frac = (frac + "0" * 9)[:p]
        return head + ("." + frac if p > 0 else "")
    if name == "ARRAY":
        return [normalise(args[0], x) for x in v]
    if name == "MAP":
        kt, vt = split_top(args[0])
        if isinstance(v, dict):  # jsonb object form (string keys)
            v = [[k, x] for k, x in v.items()]
        return sorted(([normalise(kt, k), normalise(vt, x)] for k, x in v),
                      key=lambda p: json.dumps(p, sort_keys=True))
    if name == "ROW":
        fields = split_top(args[0])
        out = {}
        for f in fields:
            fname, ftype = f.split(" ", 1)
            fname = fname.strip("`")
            out[fname] = normalise(ftype, v.get(fname) if isinstance(v, dict) else None)
        return out
    return v


def canon(types, row, zero_sign=True):
    vals = [normalise(t, v) for t, v in zip(types, row)]
    if not zero_sign:
        vals = ["0" if v == "-0" and base_type(t)[0] in ("FLOAT", "DOUBLE") else v
                for t, v in zip(types, vals)]
    return json.dumps(vals, sort_keys=True, ensure_ascii=False)


def compare(label, types, expected, actual, limit=5, zero_sign=True):
    """Multiset comparison of two row lists; returns a list of messages (empty = equal).
    zero_sign=False treats -0.0 and 0.0 alike (for the model: Paimon's PK compaction
    rewrites a FLOAT -0.0 as 0.0)."""
    e = collections.Counter(canon(types, r, zero_sign) for r in expected)
    a = collections.Counter(canon(types, r, zero_sign) for r in actual)
    if e == a:
        return []
    msgs = ["%s: %d expected rows, %d actual rows" % (label, sum(e.values()), sum(a.values()))]
    missing = list((e - a).elements())
    extra = list((a - e).elements())
    for r in missing[:limit]:
        msgs.append("  missing: " + r)
    for r in extra[:limit]:
        msgs.append("  extra:   " + r)
    return msgs


# ---------------------------------------------------------------------------- predicates

PRED_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "STRING", "VARCHAR", "CHAR",
              "DATE", "DOUBLE", "FLOAT", "BOOLEAN", "TIMESTAMP", "TIMESTAMP_LTZ")


def sort_value(t, v):
    """Python value ordering like PostgreSQL's for a normalised value of type t."""
    name, _ = base_type(t)
    if name in INT_RANGES:
        return int(v)
    if name == "DECIMAL":
        return decimal.Decimal(v)
    if name in ("DOUBLE", "FLOAT"):
        # PostgreSQL: NaN equals NaN and is above every number (Infinity too); -0 = 0
        return (1, 0.0) if v == "NaN" else (0, float(v))
    return v  # strings (C collation = code point order), ISO dates/timestamps, booleans


def sql_literal(t, v):
    name, _ = base_type(t)
    if name in INT_RANGES or name == "DECIMAL":
        return str(v)
    if name == "DOUBLE":
        return "'%s'::float8" % v
    if name == "FLOAT":
        return "'%s'::real" % v
    if name == "BOOLEAN":
        return "true" if v else "false"
    if name == "DATE":
        return "DATE '%s'" % v
    if name == "TIMESTAMP":
        return "TIMESTAMP '%s'" % v.replace("T", " ")
    if name == "TIMESTAMP_LTZ":
        return "TIMESTAMPTZ '%s+00'" % v.replace("T", " ")
    return "'%s'" % v.replace("'", "''")


def random_predicate(rnd, columns, types, rows, strings_ordered=True, string_order=None):
    """(SQL text, python filter over normalised rows) of a random WHERE clause, or None.
    Strings compare by code point when strings_ordered (C collation), else through
    string_order(op, literal, values) -> the values v with `v op literal` in the server's
    collation; without either, no range comparisons of strings."""
    cands = [i for i, t in enumerate(types) if base_type(t)[0] in PRED_TYPES]
    if not cands:
        return None
    parts = []
    for _ in range(2 if rnd.random() < 0.3 else 1):
        i = rnd.choice(cands)
        t = types[i]
        name = base_type(t)[0]
        col = '"%s"' % columns[i].replace('"', '""')
        present = [r[i] for r in rows if r[i] is not None]
        ops = ["=", "<>", "<", "<=", ">", ">=", "IS NULL", "IS NOT NULL", "IN"]
        collated = name in ("STRING", "VARCHAR", "CHAR") and not strings_ordered
        if name == "BOOLEAN" or (collated and string_order is None):
            ops = ["=", "<>", "IS NULL", "IS NOT NULL", "IN"]
        op = rnd.choice(ops)
        if op in ("IS NULL", "IS NOT NULL"):
            parts.append(("%s %s" % (col, op),
                          (lambda i, neg: lambda r: (r[i] is None) != neg)(i, op == "IS NOT NULL")))
            continue
        if not present:
            continue
        lits = [rnd.choice(present) for _ in range(rnd.randint(2, 3) if op == "IN" else 1)]
        if collated and op in ("<", "<=", ">", ">="):
            sqlp = "%s %s %s" % (col, op, sql_literal(t, lits[0]))
            holds = string_order(op, lits[0], sorted(set(present)))
            fn = (lambda i, holds: lambda r: r[i] is not None and r[i] in holds)(i, holds)
        elif op == "IN":
            sqlp = "%s IN (%s)" % (col, ", ".join(sql_literal(t, v) for v in lits))
            keys = [sort_value(t, v) for v in lits]
            fn = (lambda i, t, keys: lambda r: r[i] is not None and sort_value(t, r[i]) in keys)(i, t, keys)
        else:
            sqlp = "%s %s %s" % (col, op, sql_literal(t, lits[0]))
            key = sort_value(t, lits[0])
            cmp = {"=": lambda a, b: a == b, "<>": lambda a, b: a != b, "<": lambda a, b: a < b,
                   "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]
            fn = (lambda i, t, key, cmp: lambda r: r[i] is not None and
                  cmp(sort_value(t, r[i]), key))(i, t, key, cmp)
        parts.append((sqlp, fn))
    if not parts:
        return None
    text = " AND ".join(p[0] for p in parts)
    fns = [p[1] for p in parts]
    return text, (lambda r: all(f(r) for f in fns))


def key_lookups(rnd, schema, names, types, nrows, prev):
    """Point lookups (every primary-key column pinned by "="): the keys of two rows of
    this snapshot and of two of the snapshot read before it (prev: its names, types and
    normalised rows; a key deleted since looks up nothing), as random_predicate's
    (SQL text, filter) pairs."""
    pks = schema.get("primary_keys") or []
    if not pks or any(p not in names for p in pks):
        return []
    idx = [names.index(p) for p in pks]
    if any(base_type(types[i])[0] not in PRED_TYPES for i in idx):
        return []
    keys = [[r[i] for i in idx] for r in rnd.sample(nrows, min(2, len(nrows)))]
    if prev is not None and prev[0] == names and prev[1] == types and prev[2]:
        keys += [[r[i] for i in idx] for r in rnd.sample(prev[2], min(2, len(prev[2])))]
    out = []
    for key in keys:
        if any(v is None for v in key):
            continue
        text = " AND ".join('"%s" = %s' % (names[i].replace('"', '""'), sql_literal(types[i], v))
                            for i, v in zip(idx, key))
        want = [sort_value(types[i], v) for i, v in zip(idx, key)]
        out.append((text, (lambda idx, want: lambda r: all(
            r[i] is not None and sort_value(types[i], r[i]) == w
            for i, w in zip(idx, want)))(idx, want)))
    return out


# ---------------------------------------------------------------------------- legs

def run(cmd, timeout=600, input_text=None, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, input=input_text,
                       env=env)
    if p.returncode != 0:
        # keep Java stack traces short: the exception lines and the first frames
        lines = p.stderr.splitlines()
        keep = [l for l in lines if not l.startswith("\tat ")][:12] + \
            [l for l in lines if l.startswith("\tat ")][:4]
        raise RuntimeError("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd),
                                                            "\n".join(keep)[-3000:]))
    return p.stdout


def java_read(wh, table, snapshot=None):
    cmd = [ORACLE, "read", wh, DB, table] + (["--snapshot", str(snapshot)] if snapshot else [])
    return [json.loads(l, parse_int=str, parse_float=str) for l in run(cmd).splitlines() if l.strip()]


def java_schema(wh, table, snapshot=None):
    cmd = [ORACLE, "schema", wh, DB, table] + (["--snapshot", str(snapshot)] if snapshot else [])
    return json.loads(run(cmd))


def java_dump(wh, table, scenario=None, tz=None):
    """[(snapshot or None, schema, rows, commit_kind)] for latest + every snapshot, one JVM
    (in time zone tz when given). With scenario=(table.json, ops.jsonl) the same JVM first
    creates and writes the table."""
    out = []
    cmd = [ORACLE, "scenario", wh, DB, table] + list(scenario) if scenario else \
        [ORACLE, "dump", wh, DB, table]
    env = dict(os.environ, ORACLE_TZ=tz) if tz else None
    for line in run(cmd, env=env).splitlines():
        if not line.strip():
            continue
        v = json.loads(line, parse_int=str, parse_float=str)
        if isinstance(v, dict):
            snap = v["snapshot"]
            out.append([int(snap) if snap is not None else None, v["schema"], [],
                        v.get("commit_kind")])
        else:
            out[-1][2].append(v)
    return out


def java_snapshots(wh, table):
    return json.loads(run([ORACLE, "snapshots", wh, DB, table]))


class Sql:
    """psql-based access to the extension; available() says why not when it is not."""

    def __init__(self, timezone="UTC"):
        self.reason = None
        self.c_collation = False
        self.timezone = timezone  # the session's TimeZone for every read
        try:
            out = run(["psql", "-X", "-Atq", "-v", "ON_ERROR_STOP=1", "-c",
                       "select count(*) from pg_available_extensions where name='paimon_fdw'"],
                      timeout=30)
            if out.strip() != "1":
                self.reason = "extension paimon_fdw is not installed in the server"
            else:
                coll = run(["psql", "-X", "-Atq", "-c", "SHOW lc_collate"], timeout=30).strip()
                self.c_collation = coll in ("C", "POSIX")
        except Exception as e:  # noqa: BLE001 - any failure means: no SQL leg
            self.reason = "cannot connect with psql (%s)" % str(e).strip().splitlines()[-1]

    def psql(self, sql):
        # after a backend crash the server restarts: wait for it instead of failing every
        # following query; a crash itself is reported as such
        for attempt in range(20):
            try:
                return run(["psql", "-X", "-Atq", "-v", "ON_ERROR_STOP=1"], input_text=sql,
                           timeout=300)
            except RuntimeError as e:
                msg = str(e)
                if "server closed the connection unexpectedly" in msg:
                    raise RuntimeError("THE SERVER CRASHED on this query (see the server log):\n"
                                       + sql.strip().splitlines()[-1])
                if ("not yet accepting connections" in msg or "in recovery mode" in msg
                        or "shutting down" in msg) and attempt < 19:
                    time.sleep(0.5)
                    continue
                raise

    def setup(self, seed, wh, snapshots):
        """One server per seed; schema dt<seed>_latest and dt<seed>_s<N> per snapshot."""
        srv = "difft_%d" % seed
        sql = ["SET client_min_messages = warning;",
               "CREATE EXTENSION IF NOT EXISTS paimon_fdw;",
               "DROP SERVER IF EXISTS %s CASCADE;" % srv,
               "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');"
               % (srv, wh)]
        for name, snap in [("latest", None)] + [("s%d" % s, s) for s in snapshots]:
            schema = "dt%d_%s" % (seed, name)
            sql.append("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s;" % (schema, schema))
            opt = " OPTIONS (snapshot_id '%d')" % snap if snap else ""
            sql.append('IMPORT FOREIGN SCHEMA "%s" FROM SERVER %s INTO %s%s;' % (DB, srv, schema, opt))
        self.psql("\n".join(sql))

    def read(self, seed, table, snap, where=None, pushdown=True):
        schema = "dt%d_%s" % (seed, "s%d" % snap if snap else "latest")
        out = self.psql("SET timezone = '%s';\nSET extra_float_digits = 1;\n%s"
                        "SELECT to_json(t) FROM %s.%s t%s;" % (
                            self.timezone,
                            "" if pushdown else "SET paimon_fdw.enable_pushdown = off;\n",
                            schema, table, " WHERE " + where if where else ""))
        rows = []
        for line in out.splitlines():
            if line.strip():
                obj = json.loads(line, parse_int=str, parse_float=str)
                rows.append(list(obj.values()))
        return rows

    def string_order(self, op, literal, values):
        """The values v (strings) for which `v op literal` holds in the server's default
        collation (to compute expected rows when it is not C)."""
        arr = json.dumps(values, ensure_ascii=False).replace("'", "''")
        out = self.psql("SELECT to_json(v) FROM json_array_elements_text('%s') v WHERE v %s '%s';"
                        % (arr, op, literal.replace("'", "''")))
        return {json.loads(l) for l in out.splitlines() if l.strip()}

    def cleanup(self, seed, snapshots):
        srv = "difft_%d" % seed
        sql = ["SET client_min_messages = warning;", "DROP SERVER IF EXISTS %s CASCADE;" % srv]
        for name in ["latest"] + ["s%d" % s for s in snapshots]:
            sql.append("DROP SCHEMA IF EXISTS dt%d_%s CASCADE;" % (seed, name))
        self.psql("\n".join(sql))


def py_read(wh, table, snapshot=None):
    py = os.environ.get("PYPAIMON_PYTHON", os.path.expanduser("~/.cache/paimon_fdw/pyvenv/bin/python"))
    cmd = [py, PY_ORACLE, "read", wh, DB, table] + (["--snapshot", str(snapshot)] if snapshot else [])
    return [json.loads(l, parse_int=str, parse_float=str) for l in run(cmd).splitlines() if l.strip()]


def py_dump(wh, table):
    """{snapshot or None: rows} read by pypaimon, one process."""
    py = os.environ.get("PYPAIMON_PYTHON", os.path.expanduser("~/.cache/paimon_fdw/pyvenv/bin/python"))
    out, cur = {}, None
    for line in run([py, PY_ORACLE, "dump", wh, DB, table]).splitlines():
        if not line.strip():
            continue
        v = json.loads(line, parse_int=str, parse_float=str)
        if isinstance(v, dict):
            cur = int(v["snapshot"]) if v["snapshot"] is not None else None
            out[cur] = [] if "error" not in v else RuntimeError(v["error"])
        else:
            out[cur].append(v)
    return out


def pypaimon_available():
    py = os.environ.get("PYPAIMON_PYTHON", os.path.expanduser("~/.cache/paimon_fdw/pyvenv/bin/python"))
    if not os.path.exists(py):
        return "no pypaimon venv at %s (run test/oracle/python/setup.sh)" % py
    try:
        run([py, "-c", "import pypaimon"], timeout=120)
    except Exception as e:  # noqa: BLE001
        return "pypaimon does not import: %s" % str(e).strip().splitlines()[-1]
    return None


# ---------------------------------------------------------------------------- driver

def run_seed(seed, args, sql, use_py, tmproot):
    # mod came with Paimon 1.3, hive with 1.4 (the oracle's default version: its pom's,
    # 1.3.1); pypaimon writes and reads only the default
    ver = tuple(int(x) for x in re.findall(r"\d+", args.paimon_version or "1.3.1")[:2])
    funcs = () if args.writer == "py" or use_py or ver < (1, 3) else \
        ("mod",) if ver < (1, 4) else ("mod", "hive")
    case = Case(seed, pk=args.pk, nested=args.nested, simple=args.writer == "py",
                writer_tz=args.writer_tz if args.writer == "java" else None,
                bucket_functions=funcs)
    d = tempfile.mkdtemp(prefix="seed%d_" % seed, dir=tmproot)
    os.chmod(d, 0o755)  # the server (user postgres) must read the warehouse
    wh = os.path.join(d, "wh")
    table = "t%d" % seed
    case.write_files(d)
    failures = []
    if args.writer == "py":
        # pypaimon writes (create + "+I" commits); Java, the extension and the model read
        py = os.environ.get("PYPAIMON_PYTHON",
                            os.path.expanduser("~/.cache/paimon_fdw/pyvenv/bin/python"))
        run([py, PY_ORACLE, "create", wh, DB, table, os.path.join(d, "table.json")])
        run([py, PY_ORACLE, "write", wh, DB, table, os.path.join(d, "ops.jsonl")])
        dump = java_dump(wh, table)
    else:
        dump = java_dump(wh, table, (os.path.join(d, "table.json"), os.path.join(d, "ops.jsonl")),
                         tz=args.writer_tz)
    subprocess.run(["chmod", "-R", "a+rX", d], check=False)
    # Java reading in another JVM zone than the writer's (--reader-tz)
    rdump = None
    if args.reader_tz:
        try:
            rdump = {snap: rows for snap, _, rows, _ in java_dump(wh, table, tz=args.reader_tz)}
        except Exception as e:  # noqa: BLE001
            failures.append("java@%s: read failed: %s" % (args.reader_tz, str(e).strip()[-1500:]))
    snaps = [d[0] for d in dump if d[0] is not None]
    if sql is not None:
        sql.setup(seed, wh, snaps)
    # APPEND snapshots map 1:1 onto model states, COMPACT snapshots repeat the last state.
    # Tables whose batch reads skip level-0 files (deletion vectors, first-row) show at an
    # APPEND snapshot only what the last COMPACT made visible.
    skip_l0 = args.pk and (case.options.get("deletion-vectors.enabled") == "true" or
                           case.options.get("merge-engine") == "first-row")
    state_of = {}
    k_append = k_visible = -1
    for snap, _, _, kind in dump[1:]:
        if kind == "APPEND":
            k_append += 1
        elif kind == "COMPACT":
            k_visible = k_append
        state_of[snap] = (k_append, k_visible if skip_l0 else k_append)
    state_of[None] = state_of[dump[-1][0]] if len(dump) > 1 else (-1, -1)
    pdump = None
    if use_py:
        try:
            pdump = py_dump(wh, table)
        except Exception as e:  # noqa: BLE001
            failures.append("py-vs-java: pypaimon failed: %s" % str(e).strip()[-1500:])
    prev_keys = None
    for snap, schema, jrows, _ in dump:
        types = [c["type"] for c in schema["columns"]]
        label = "snapshot %s" % (snap or "latest")
        # 1. java-vs-model
        k_layout, k = state_of[snap]
        if k < 0 and jrows:
            failures.append("%s: java returned %d rows where none were written" % (label, len(jrows)))
        if k >= 0:
            mcols, mrows = case.state(k_layout, k)
            if mcols != [c["name"] for c in schema["columns"]]:
                failures.append("%s: model columns %s != java columns %s" % (
                    label, mcols, [c["name"] for c in schema["columns"]]))
            else:
                failures += compare("java-vs-model " + label, types, mrows, jrows,
                                    zero_sign=not args.pk)
        # 2. sql-vs-java, whole table and with random WHERE clauses. ORC tables: -0.0
        # and 0.0 alike, since ORC-Java's float/double reader marks a batch whose values
        # all compare == as repeating (FloatTreeReader/DoubleTreeReader.nextVector: f1 ==
        # f2 holds for -0.0 and 0.0), so Java returns the batch's first zero for every
        # row of it (seed 12013: a stored 0.0 read as -0.0); we return the stored value
        zs = case.options.get("file.format") != "orc"
        if sql is not None:
            try:
                srows = sql.read(seed, table, snap)
                failures += compare("sql-vs-java " + label, types, jrows, srows, zero_sign=zs)
                if rdump is not None:
                    # against Java in the reader zone, leaving out the columns Java reads
                    # differently there by design (the writer zone's rows are the truth)
                    keep = [i for i in range(len(types)) if i not in case.zone_dependent(types)]
                    proj = lambda rows: [[r[i] for i in keep] for r in rows]  # noqa: E731
                    failures += compare("sql-vs-java@%s %s%s" % (
                        args.reader_tz, label, " (zone-dependent columns %s left out)" % [
                            schema["columns"][i]["name"] for i in case.zone_dependent(types)]
                        if len(keep) < len(types) else ""),
                        [types[i] for i in keep], proj(rdump.get(snap, [])), proj(srows),
                        zero_sign=zs)
                names = [c["name"] for c in schema["columns"]]
                nrows = [[normalise(t, v) for t, v in zip(types, r)] for r in jrows]
                prnd = random.Random("%d/%s" % (seed, snap))
                preds = [random_predicate(prnd, names, types, nrows, sql.c_collation,
                                          None if sql.c_collation else sql.string_order)
                         for _ in range(args.predicates)]
                preds += key_lookups(prnd, schema, names, types, nrows, prev_keys)
                prev_keys = (names, types, nrows)
                for pred in preds:
                    if pred is None:
                        continue
                    where, fn = pred
                    expected = [r for r, n in zip(jrows, nrows) if fn(n)]
                    case.predicates_run += 1
                    if args.verbose:
                        print("    %s WHERE %s -> %d rows" % (label, where, len(expected)))
                    # with pruning, then with no qual pushed (paimon_fdw.enable_pushdown)
                    for pushdown in (True, False):
                        leg = "" if pushdown else " (pushdown off)"
                        try:
                            failures += compare("sql-vs-java %s WHERE %s%s" % (label, where, leg),
                                                types, expected,
                                                sql.read(seed, table, snap, where, pushdown),
                                                zero_sign=zs)
                        except Exception as e:  # noqa: BLE001
                            failures.append("sql-vs-java %s WHERE %s%s: query failed: %s" % (
                                label, where, leg, str(e).strip()[-1500:]))
            except Exception as e:  # noqa: BLE001
                failures.append("sql-vs-java %s: query failed: %s" % (label, str(e).strip()[-2000:]))
        # 3. py-vs-java
        if pdump is not None:
            try:
                prows = pdump.get(snap, RuntimeError("snapshot missing from pypaimon's dump"))
                if isinstance(prows, Exception):
                    raise prows
                failures += compare("py-vs-java " + label, types, jrows, prows)
            except Exception as e:  # noqa: BLE001
                failures.append("py-vs-java %s: pypaimon failed: %s" % (label, str(e).strip()[-1500:]))
    if sql is not None and not failures and not args.keep:
        sql.cleanup(seed, snaps)
    if not failures and not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    return failures, d, case


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=10, help="number of seeds (default 10)")
    ap.add_argument("--start", type=int, default=1, help="first seed")
    ap.add_argument("--seed", type=int, help="run exactly this seed (replay)")
    ap.add_argument("--long", action="store_true", help="3000 seeds")
    ap.add_argument("--pk", action="store_true", help="primary-key tables instead of append tables")
    ap.add_argument("--nested", action="store_true", help="also ARRAY/MAP/ROW columns")
    ap.add_argument("--no-sql", action="store_true", help="skip the extension leg")
    ap.add_argument("--require-sql", action="store_true", help="fail if the SQL leg cannot run")
    ap.add_argument("--pypaimon", action="store_true", help="also compare pypaimon's reads")
    ap.add_argument("--writer", choices=["java", "py"], default="java",
                    help="who writes the tables (py: pypaimon, inserts and commits only; with "
                         "--pk upserts into deduplicate, partial-update and aggregation tables "
                         "without deletion vectors or a changelog producer)")
    ap.add_argument("--predicates", type=int, default=3,
                    help="random WHERE clauses per snapshot in the SQL leg (default 3)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each WHERE clause")
    ap.add_argument("--keep", action="store_true", help="keep warehouses (always kept on failure)")
    ap.add_argument("--tmp", default=None, help="directory for warehouses (default: a new temp dir)")
    ap.add_argument("--writer-tz", default=None,
                    help="time zone of the JVM that writes (default: the machine's)")
    ap.add_argument("--reader-tz", default=None,
                    help="also read with Java in a JVM in this zone and compare the SQL rows "
                    "with those (except the columns Java reads differently there by design)")
    ap.add_argument("--pg-tz", default="UTC", help="the SQL session's TimeZone (default UTC)")
    ap.add_argument("--paimon-version", default=None,
                    help="the Paimon release of the Java oracle (default: java/pom.xml's)")
    args = ap.parse_args()
    if args.paimon_version:
        os.environ["ORACLE_PAIMON_VERSION"] = args.paimon_version

    seeds = [args.seed] if args.seed is not None else \
        list(range(args.start, args.start + (3000 if args.long else args.seeds)))
    sql = None
    if not args.no_sql:
        s = Sql(args.pg_tz)
        if s.reason:
            print("difftest: SKIPPING the SQL leg (extension vs Java): %s" % s.reason, flush=True)
            if args.require_sql:
                print("difftest: --require-sql given: failing")
                return 1
        else:
            sql = s
    use_py = False
    if args.writer == "py":
        why = pypaimon_available()
        if why:
            print("difftest: SKIPPING everything: --writer py needs pypaimon: %s" % why)
            print("0 passed, 0 failed, %d skipped" % len(seeds))
            return 0
    if args.pypaimon:
        why = pypaimon_available()
        if why:
            print("difftest: SKIPPING the pypaimon leg: %s" % why, flush=True)
        else:
            use_py = True
    tmproot = args.tmp or tempfile.mkdtemp(prefix="paimon_difftest_")
    os.makedirs(tmproot, exist_ok=True)
    os.chmod(tmproot, 0o755)
    passed = failed = 0
    t0 = time.time()
    for seed in seeds:
        t1 = time.time()
        try:
            failures, d, case = run_seed(seed, args, sql, use_py, tmproot)
        except Exception as e:  # noqa: BLE001 - an oracle failure is a failure of the seed
            failures, d, case = ["error: %s" % str(e).strip()[-3000:]], tmproot, None
        legs = "model"
        legs += "+sql(%d where)" % case.predicates_run if sql and case is not None else ""
        legs += "+py" if use_py else ""
        desc = ""
        if case is not None:
            desc = "%s/%s bucket=%s parts=%d cols=%d commits=%d" % (
                case.options["file.format"], case.options["file.compression"],
                case.options["bucket"], len(case.partition_keys), len(case.columns), len(case.ops))
            if "orc.timestamp-ltz.legacy.type" in case.options:
                desc += " ltz-legacy=" + case.options["orc.timestamp-ltz.legacy.type"]
            if "bucket-function.type" in case.options:
                desc += " bucket-function=" + case.options["bucket-function.type"]
            idx = [k.split(".")[1] + "(" + v + ")" for k, v in sorted(case.options.items())
                   if k.startswith("file-index.") and k.endswith(".columns")]
            if idx:
                desc += " index=" + "+".join(idx)
            if args.paimon_version:
                desc += " paimon-" + args.paimon_version
            if args.pk:
                desc += " %s%s%s%s" % (
                    case.options["merge-engine"],
                    "+dv" if case.options.get("deletion-vectors.enabled") else "",
                    "+changelog-" + case.options["changelog-producer"]
                    if "changelog-producer" in case.options else "",
                    "+sum(%s)" % ",".join(case.sum_columns) if case.sum_columns else "")
        if failures:
            failed += 1
            print("FAIL seed %d (%s) [%.1fs]" % (seed, desc, time.time() - t1))
            for m in failures:
                print("  " + m)
            print("  warehouse kept at %s" % d)
            print("  replay: python3 %s --seed %d%s%s%s%s%s --keep" % (
                os.path.relpath(__file__), seed, " --writer py" if args.writer == "py" else "",
                " --pk" if args.pk else "",
                " --nested" if args.nested else "", " --pypaimon" if args.pypaimon else "",
                "".join(" --%s %s" % (k.replace("_", "-"), v) for k, v in (
                    ("writer_tz", args.writer_tz), ("reader_tz", args.reader_tz),
                    ("pg_tz", args.pg_tz if args.pg_tz != "UTC" else None),
                    ("paimon_version", args.paimon_version)) if v)))
        else:
            passed += 1
            print("ok   seed %d (%s; %s) [%.1fs]" % (seed, desc, legs.strip("+"), time.time() - t1),
                  flush=True)
    if not args.keep and failed == 0:
        shutil.rmtree(tmproot, ignore_errors=True)
    print("difftest: %d seeds in %.0fs%s" % (len(seeds), time.time() - t0,
                                             "" if sql else " (SQL leg skipped)"))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

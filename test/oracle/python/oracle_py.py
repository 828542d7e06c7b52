#!/usr/bin/env python3
"""oracle_py.py - second reference oracle for paimon_fdw, over pypaimon (Apache Paimon's
Python API, from PyPI). Same commands and row encoding as the Java oracle where pypaimon
supports them (see ../README.md):

  create <warehouse> <db> <table> <table.json>
  write  <warehouse> <db> <table> <ops.jsonl>   (only "+I" rows and "commit": appends, or
                                                upserts into primary-key tables)
  read   <warehouse> <db> <table> [--snapshot N]
  dump   <warehouse> <db> <table>               (latest + every snapshot, one process)
  schema <warehouse> <db> <table> [--snapshot N]

Run it with the interpreter of the venv made by setup.sh
(~/.cache/paimon_fdw/pyvenv/bin/python, or $PYPAIMON_PYTHON).
"""

import decimal
decimal.getcontext().prec = 200  # DECIMAL(38, s) needs more than the default 28 digits
import json
import os
import re
import struct
import sys


def die(msg):
    print("oracle_py: " + msg, file=sys.stderr)
    sys.exit(2)


def catalog(warehouse):
    from pypaimon import CatalogFactory
    return CatalogFactory.create({"warehouse": os.path.abspath(warehouse)})


def paimon_type_args(t):
    m = re.search(r"\(([^)]*)\)", t)
    return [int(x) for x in m.group(1).split(",")] if m else []


def is_ltz(t):
    """pypaimon spells LTZ as TIMESTAMP_LTZ(p), Java as TIMESTAMP(p) WITH LOCAL TIME ZONE."""
    up = t.upper()
    return "LOCAL TIME ZONE" in up or up.startswith("TIMESTAMP_LTZ")


def ts_precision(t):
    a = paimon_type_args(t)
    return a[0] if a else 6


def shortest_f32(x):
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        if struct.unpack("f", struct.pack("f", float(s)))[0] == x:
            return float(s)
    return x


class Raw(float):
    """A float that json.dumps writes with repr (shortest round trip)."""


def encode(ptype, v):
    """pyarrow python value -> JSON value per shared/corpus/expected/README.md."""
    if v is None:
        return None
    up = ptype.upper().replace(" NOT NULL", "")
    if up.startswith("ARRAY<"):
        inner = ptype[ptype.index("<") + 1:ptype.rindex(">")]
        return [encode(inner, x) for x in v]
    if up.startswith("MAP<"):
        inner = ptype[ptype.index("<") + 1:ptype.rindex(">")]
        depth, cut = 0, None
        for i, c in enumerate(inner):
            if c in "<(":
                depth += 1
            elif c in ">)":
                depth -= 1
            elif c == "," and depth == 0:
                cut = i
                break
        kt, vt = inner[:cut].strip(), inner[cut + 1:].strip()
        return [[encode(kt, k), encode(vt, x)] for k, x in v]
    if up.startswith("ROW<"):
        inner = ptype[ptype.index("<") + 1:ptype.rindex(">")]
        out = {}
        for part in split_top(inner):
            name, ft = split_field(part)
            out[name] = encode(ft.strip(), v.get(name))
        return out
    if up.startswith("DECIMAL"):
        s = paimon_type_args(ptype)[1] if len(paimon_type_args(ptype)) > 1 else 0
        return "{0:.{1}f}".format(decimal.Decimal(v), s)
    if up.startswith("TIMESTAMP"):
        p = ts_precision(ptype)
        ns = getattr(v, "nanosecond", 0)
        if getattr(v, "tzinfo", None) is not None:
            import datetime as dt
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        s = "%04d-%02d-%02dT%02d:%02d:%02d" % (v.year, v.month, v.day, v.hour, v.minute, v.second)
        if p > 0:
            s += "." + ("%06d%03d" % (v.microsecond, ns))[:p]
        return s + ("Z" if is_ltz(up) else "")
    if up.startswith("DATE"):
        return "%04d-%02d-%02d" % (v.year, v.month, v.day)
    if up.startswith("TIME"):
        p = ts_precision(ptype) if "(" in up else 0
        s = "%02d:%02d:%02d" % (v.hour, v.minute, v.second)
        return s + ("." + ("%06d" % v.microsecond)[:p] if p > 0 else "")
    if up.startswith(("BYTES", "BINARY", "VARBINARY")):
        return bytes(v).hex()
    if up.startswith("FLOAT"):
        if v != v or v in (float("inf"), float("-inf")):
            return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
        return shortest_f32(v)
    if up.startswith("DOUBLE"):
        if v != v or v in (float("inf"), float("-inf")):
            return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
        return v
    return v


def split_field(part):
    """'a INT' or 'a: INT' or '`a` INT' -> ('a', 'INT')."""
    head = part.split(" ", 1)[0]
    if head.endswith(":"):
        name, ft = part.split(":", 1)
    else:
        name, ft = part.split(" ", 1)
    return name.strip().strip("`"), ft.strip()


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


def table_at(cat, db, name, snapshot):
    t = cat.get_table("%s.%s" % (db, name))
    if snapshot is not None:
        t = t.copy({"scan.snapshot-id": str(snapshot)})
    return t


def cmd_dump(cat, db, name):
    """Like the Java oracle's dump: latest, then every snapshot: a header object + rows."""
    t = cat.get_table("%s.%s" % (db, name))
    sm = t.snapshot_manager() if callable(getattr(t, "snapshot_manager", None)) else None
    latest = sm.get_latest_snapshot() if sm else None
    ids = list(range(1, latest.id + 1)) if latest else []
    for snap in [None] + ids:
        try:
            tt = table_at(cat, db, name, snap)
        except Exception as e:  # noqa: BLE001 - expired snapshot
            print(json.dumps({"snapshot": snap, "error": str(e)}))
            continue
        print(json.dumps({"snapshot": snap}))
        sys.stdout.flush()
        cmd_read(cat, db, name, snap)


def cmd_read(cat, db, name, snapshot):
    t = table_at(cat, db, name, snapshot)
    fields = t.table_schema.fields
    rb = t.new_read_builder()
    at = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    out = sys.stdout
    cols = [at.column(f.name).to_pylist() for f in fields]
    for i in range(at.num_rows):
        out.write(json.dumps([encode(str(f.type), c[i]) for f, c in zip(fields, cols)],
                             ensure_ascii=False) + "\n")


def cmd_schema(cat, db, name, snapshot):
    t = table_at(cat, db, name, snapshot)
    s = t.table_schema
    print(json.dumps({"schema_id": s.id,
                      "columns": [{"name": f.name, "type": str(f.type)} for f in s.fields],
                      "primary_keys": s.primary_keys, "partition_keys": s.partition_keys,
                      "options": s.options}))


# ------------------------------------------------------------------ create / write

def arrow_type(t):
    import pyarrow as pa
    t = t.strip()
    nullable = not t.upper().endswith("NOT NULL")
    if not nullable:
        t = t[:-len("NOT NULL")].strip()
    up = t.upper()
    if up.startswith("ARRAY<"):
        return pa.list_(arrow_type(t[t.index("<") + 1:t.rindex(">")])[0]), nullable
    if up.startswith("MAP<"):
        k, v = split_top(t[t.index("<") + 1:t.rindex(">")])
        return pa.map_(arrow_type(k)[0], arrow_type(v)[0]), nullable
    if up.startswith("ROW<"):
        fs = []
        for part in split_top(t[t.index("<") + 1:t.rindex(">")]):
            n, ft = split_field(part)
            at, nl = arrow_type(ft)
            fs.append(pa.field(n.strip("`"), at, nl))
        return pa.struct(fs), nullable
    simple = {"BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(),
              "INTEGER": pa.int32(), "BIGINT": pa.int64(), "FLOAT": pa.float32(), "DOUBLE": pa.float64(),
              "STRING": pa.string(), "BYTES": pa.binary(), "DATE": pa.date32()}
    if up in simple:
        return simple[up], nullable
    if up.startswith(("VARCHAR", "CHAR")):
        return pa.string(), nullable
    if up.startswith(("VARBINARY", "BINARY")):
        return pa.binary(), nullable
    if up.startswith("DECIMAL"):
        a = paimon_type_args(t) or [10, 0]
        return pa.decimal128(a[0], a[1] if len(a) > 1 else 0), nullable
    if up.startswith("TIMESTAMP"):
        p = ts_precision(t)
        unit = "s" if p == 0 else "ms" if p <= 3 else "us" if p <= 6 else "ns"
        return pa.timestamp(unit, tz="UTC" if is_ltz(up) else None), nullable
    die("type not supported by the pypaimon oracle: " + t)


def to_py(t, v):
    import datetime as dt
    if v is None:
        return None
    up = t.upper().replace(" NOT NULL", "")
    if up.startswith("ARRAY<"):
        inner = t[t.index("<") + 1:t.rindex(">")]
        return [to_py(inner, x) for x in v]
    if up.startswith("MAP<"):
        kt, vt = split_top(t[t.index("<") + 1:t.rindex(">")])
        return [(to_py(kt, k), to_py(vt, x)) for k, x in v]
    if up.startswith("ROW<"):
        out = {}
        for part in split_top(t[t.index("<") + 1:t.rindex(">")]):
            n, ft = split_field(part)
            out[n] = to_py(ft, v.get(n))
        return out
    if up.startswith("DECIMAL"):
        return decimal.Decimal(v)
    if up.startswith(("BYTES", "VARBINARY", "BINARY")):
        return bytes.fromhex(v)
    if up.startswith("DATE"):
        return dt.date.fromisoformat(v)
    if up.startswith("TIMESTAMP"):
        s = v[:-1] if v.endswith("Z") else v
        d = dt.datetime.fromisoformat(s[:26])
        return d.replace(tzinfo=dt.timezone.utc) if is_ltz(up) else d
    if up.startswith(("FLOAT", "DOUBLE")) and isinstance(v, str):
        return float(v.replace("Infinity", "inf"))
    return v


def cmd_create(cat, db, name, desc_path):
    import pyarrow as pa
    from pypaimon import Schema
    desc = json.load(open(desc_path))
    fields = []
    for c in desc["columns"]:
        at, nl = arrow_type(c["type"])
        fields.append(pa.field(c["name"], at, nl))
    schema = Schema.from_pyarrow_schema(pa.schema(fields),
                                        partition_keys=desc.get("partition_keys") or None,
                                        primary_keys=desc.get("primary_keys") or None,
                                        options={k: str(v) for k, v in (desc.get("options") or {}).items()})
    cat.create_database(db, True)
    cat.create_table("%s.%s" % (db, name), schema, False)


def cmd_write(cat, db, name, ops_path):
    import pyarrow as pa
    pending = []

    def flush():
        if not pending:
            return
        t = cat.get_table("%s.%s" % (db, name))
        fields = t.table_schema.fields
        arrays = []
        for i, f in enumerate(fields):
            ft = str(f.type)
            at, _ = arrow_type(ft)
            vals = [to_py(ft, r[i] if isinstance(r, list) else r.get(f.name)) for r in pending]
            arrays.append(pa.array(vals, type=at))
        schema = pa.schema([pa.field(f.name, arrow_type(str(f.type))[0], arrow_type(str(f.type))[1])
                            for f in fields])
        tbl = pa.Table.from_arrays(arrays, schema=schema)
        wb = t.new_batch_write_builder()
        w = wb.new_write()
        c = wb.new_commit()
        w.write_arrow(tbl)
        c.commit(w.prepare_commit())
        w.close()
        c.close()
        pending.clear()

    for line in open(ops_path):
        line = line.strip()
        if not line:
            continue
        op = json.loads(line)
        if op["op"] == "+I":
            pending.append(op["row"])
        elif op["op"] == "commit":
            flush()
        else:
            die("op %r is not supported by the pypaimon oracle" % op["op"])
    flush()


def main(argv):
    if len(argv) < 5:
        die("usage: oracle_py.py create|write|read|schema <warehouse> <db> <table> [args]")
    cmd, wh, db, name = argv[1:5]
    rest = argv[5:]
    snapshot = None
    if "--snapshot" in rest:
        snapshot = int(rest[rest.index("--snapshot") + 1])
    cat = catalog(wh)
    if cmd == "read":
        cmd_read(cat, db, name, snapshot)
    elif cmd == "dump":
        cmd_dump(cat, db, name)
    elif cmd == "schema":
        cmd_schema(cat, db, name, snapshot)
    elif cmd == "create":
        cmd_create(cat, db, name, rest[0])
    elif cmd == "write":
        cmd_write(cat, db, name, rest[0])
    else:
        die("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)

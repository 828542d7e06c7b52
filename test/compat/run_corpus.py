#!/usr/bin/env python3
"""Run every case of the shared Paimon corpus through SQL and compare rows.

For each ../shared/corpus/expected/<case>.json: IMPORT FOREIGN SCHEMA the
table's database (LIMIT TO the table, with snapshot_id for time travel) into
a schema of its own, run SELECT <columns> FROM t WHERE <predicate>, and
compare the rows with the expected ones as a multiset.

Values are compared after normalising both sides to Python values by the
case's Paimon type: the expected encoding is the corpus README's; ours is
Postgres' json_build_array() of the columns (json for scalars, the jsonb
text for ROW/MAP, which use the corpus encoding already). TIMESTAMP(p > 6)
expectations are truncated to microseconds, the FDW's documented rule.

Usage: run_corpus.py [--corpus DIR] [--require KIND[,KIND]] [--case NAME]...
  --require: table kinds whose failures fail the run (default: append);
             other kinds are run and reported as informational.
Needs psql on PATH and PGHOST/PGPORT/PGUSER/PGDATABASE of a server with
paimon_fdw installed.
"""
import argparse
import datetime as dt
import decimal
import glob
import json
import os
import re
import struct
import subprocess
import sys

from input_required import missing_input

# Tables whose external paths were recorded on the writer's machine:
# recorded prefix -> directory relative to the table's .db directory.
EXTERNAL_PREFIXES = {
    "FILE:/tmp/external": "external",
}


def psql(sql, check=True):
    p = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                       capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return p


def qi(name):
    return '"' + name.replace('"', '""') + '"'


def ql(s):
    return "'" + s.replace("'", "''") + "'"


# ---- normalisation -------------------------------------------------------

def split_top(s):
    """Split 'a, b<c, d>, e' at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def base_type(t):
    t = t.strip()
    if t.upper().endswith(" NOT NULL"):
        t = t[: -len(" NOT NULL")].strip()
    return t


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def parse_ts(s):
    """ISO timestamp (T or space, optional fraction, optional zone) -> (naive dt micros, zone?)."""
    s = s.strip().replace(" ", "T", 1)
    m = re.match(r"^(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$", s)
    if not m:
        raise ValueError("bad timestamp " + s)
    y, mo, d, h, mi, se, frac, zone = m.groups()
    frac = (frac or "")[:6].ljust(6, "0")
    v = dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(se), int(frac))
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        zh, zm = int(zone[1:3]), int(zone[-2:]) if len(zone) > 3 else 0
        v = v - sign * dt.timedelta(hours=zh, minutes=zm)
    return v.isoformat()


def norm(t, v, ours):
    """Normalise a value of Paimon type t (expected encoding or ours)."""
    if v is None:
        return None
    b = base_type(t)
    u = b.upper()
    if u.startswith("ARRAY<"):
        inner = b[b.index("<") + 1: b.rindex(">")]
        return tuple(norm(inner, x, ours) for x in v)
    if u.startswith("MULTISET<") and ours:
        # ours: the elements, each as often as its count; expected: [element, count] pairs
        pairs = []
        for x in v:
            for p in pairs:
                if p[0] == x:
                    p[1] += 1
                    break
            else:
                pairs.append([x, 1])
        v = pairs
    if u.startswith("MAP<") or u.startswith("MULTISET<"):
        kt, vt = split_top(b[b.index("<") + 1: b.rindex(">")]) if u.startswith("MAP<") else (b[b.index("<") + 1: b.rindex(">")], "INT")
        return tuple(sorted(((norm(kt, k, ours), norm(vt, x, ours)) for k, x in v), key=repr))
    if u.startswith("ROW<"):
        fields = split_top(b[b.index("<") + 1: b.rindex(">")])
        out = []
        for f in fields:
            name, ft = f.split(" ", 1) if " " in f else (f, "STRING")
            name = name.strip('`"')
            out.append((name, norm(ft, v.get(name) if isinstance(v, dict) else None, ours)))
        return tuple(out)
    if u.startswith("DECIMAL") or u.startswith("NUMERIC"):
        return decimal.Decimal(str(v))
    if u == "FLOAT":
        return f32(v)
    if u.startswith("DOUBLE"):
        return float(v)
    if u.startswith("TIMESTAMP"):
        return parse_ts(v)
    if u in ("BYTES",) or u.startswith("BINARY") or u.startswith("VARBINARY"):
        if ours and isinstance(v, str) and v.startswith("\\x"):
            return v[2:].lower()
        return v.lower()
    if u.startswith("TIME"):
        return v[:15]
    return v


def norm_row(types, row, ours):
    return tuple(norm(t, v, ours) for t, v in zip(types, row))


def ours_value(t, v):
    """Our json_build_array element -> expected-encoding-compatible value."""
    u = base_type(t).upper()
    if v is None:
        return None
    if u.startswith("ARRAY<") and isinstance(v, list):
        inner = base_type(t)[base_type(t).index("<") + 1: base_type(t).rindex(">")]
        return [ours_value(inner, x) for x in v]
    return v


# ---- running ---------------------------------------------------------------

def run_case(corpus, path, servers):
    case = json.load(open(path))
    table_dir = os.path.join(corpus, case["table"])
    db_dir = os.path.dirname(table_dir)
    warehouse = os.path.dirname(db_dir)
    db = os.path.basename(db_dir)[: -len(".db")]
    table = os.path.basename(table_dir)
    key = (warehouse, db_dir)
    if key not in servers:
        name = "corpus_srv_%d" % len(servers)
        maps = ",".join("%s=%s" % (k, os.path.join(db_dir, v)) for k, v in EXTERNAL_PREFIXES.items())
        psql("CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse %s, external_path_map %s)"
             % (name, ql(warehouse), ql(maps)))
        servers[key] = name
    schema = "c_" + case["case"]
    opts = ""
    if case.get("snapshot") is not None:
        opts = " OPTIONS (snapshot_id '%d')" % case["snapshot"]
    cols = ", ".join(qi(c) for c in case["columns"])
    where = (" WHERE " + case["predicate"]) if case.get("predicate") else ""
    sql = ("SET TimeZone = 'UTC'; DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s; "
           "IMPORT FOREIGN SCHEMA %s LIMIT TO (%s) FROM SERVER %s INTO %s%s; "
           "SELECT json_build_array(%s)::text FROM %s.%s%s;"
           % (qi(schema), qi(schema), qi(db), qi(table), servers[key], qi(schema), opts,
              cols, qi(schema), qi(table), where))
    p = psql(sql, check=False)
    if p.returncode != 0 and "connection to server was lost" in p.stderr:
        # the backend crashed: wait for recovery so later cases still run
        subprocess.run("for i in $(seq 60); do pg_isready -q && exit 0; sleep 1; done", shell=True)
    if p.returncode != 0:
        return False, "ERROR: " + p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "psql failed"
    types = case["types"]
    got = []
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        row = json.loads(line, parse_float=decimal.Decimal)
        row = [ours_value(t, v) for t, v in zip(types, row)]
        got.append(norm_row(types, [float(v) if isinstance(v, decimal.Decimal) and base_type(t).upper() in ("FLOAT", "DOUBLE") else v for t, v in zip(types, row)], True))
    want = [norm_row(types, r, False) for r in case["rows"]]
    got_s = sorted(got, key=repr)
    want_s = sorted(want, key=repr)
    if got_s == want_s:
        psql("DROP SCHEMA %s CASCADE" % qi(schema), check=False)
        return True, "%d rows" % len(got)
    missing = [r for r in want_s if r not in got_s][:3]
    extra = [r for r in got_s if r not in want_s][:3]
    return False, "got %d rows, want %d; missing %s; unexpected %s" % (len(got), len(want), missing, extra)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    ap.add_argument("--require", default="append,pk")
    ap.add_argument("--case", action="append")
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    required = set(k for k in args.require.split(",") if k)
    if not os.path.isdir(os.path.join(corpus, "expected")):
        return missing_input("run_corpus", "Paimon corpus not found at %s (set PAIMON_CORPUS or --corpus)"
                             % corpus)
    psql("CREATE EXTENSION IF NOT EXISTS paimon_fdw")
    psql("DO $$DECLARE s text; BEGIN FOR s IN SELECT srvname FROM pg_foreign_server WHERE srvname LIKE 'corpus_srv_%' "
         "LOOP EXECUTE format('DROP SERVER %I CASCADE', s); END LOOP; END$$")
    servers = {}
    counts = {}
    failed_required = 0
    for path in sorted(glob.glob(os.path.join(corpus, "expected", "*.json"))):
        try:
            case = json.load(open(path))
            name, kind = case["case"], case["table_kind"]
        except Exception as e:  # noqa: BLE001 - a case we cannot read is a failure
            print("FAIL  ?      %-48s unreadable case file: %s" % (os.path.basename(path), e))
            counts.setdefault("?", [0, 0])[1] += 1
            failed_required += 1
            continue
        if args.case and name not in args.case:
            continue
        try:
            ok, msg = run_case(corpus, path, servers)
        except Exception as e:  # noqa: BLE001 - report and go on
            ok, msg = False, "harness: %s" % e
        c = counts.setdefault(kind, [0, 0])
        c[0 if ok else 1] += 1
        status = "ok  " if ok else ("FAIL" if kind in required else "xfail")
        print("%-5s %-6s %-48s %s" % (status, kind, name, msg))
        if not ok and kind in required:
            failed_required += 1
    for kind, (p, f) in sorted(counts.items()):
        print("corpus %-6s: %d passed, %d failed%s" % (kind, p, f, "" if kind in required else " (not required yet)"))
    total_p = sum(c[0] for k, c in counts.items() if k in required)
    total_f = sum(c[1] for k, c in counts.items() if k in required or k == "?")
    # zero cases is not a pass: every required kind has cases, --case names one
    if args.case:
        missing = [] if counts else ["--case"]
    else:
        missing = sorted(required - set(counts))
    for what in missing:
        print("FAIL  %-6s no case ran" % what)
        total_f += 1
        failed_required += 1
    print("%d passed, %d failed" % (total_p, total_f))
    return 1 if failed_required else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Random WHERE clauses over Paimon tables: every pruning path must give the rows a scan
without pushdown gives.

For each table of ../shared/corpus/tables (latest snapshot), or of the warehouses given,
the script samples values of its scalar columns (with paimon_fdw.enable_pushdown off) and
builds random predicates from them: comparisons, BETWEEN, IN lists, = ANY(array), IS [NOT]
NULL, NOT, <>, LIKE 'prefix%', widening casts of integer columns, text comparisons in
another collation (en_US, ICU), timestamps against instants and instants' local dates
(the table's queries run in a random TimeZone), and AND/OR of two or three of those. Each
predicate gives two queries, the rows and count/min/max aggregates; joins of a VALUES list
with the table on an integer or text column (hash join and nested loop) come on top; each
query runs

  off      with paimon_fdw.enable_pushdown off (the reference: every row, Postgres filters),
  on       with every pruning stage on (the default),
  stages   with a random subset of the stage settings off (statistics, file index, row
           groups, page index, point lookup, top-N),
  generic  as a prepared statement whose literals are parameters, with
           plan_cache_mode = force_generic_plan (the values pushed at run time),

and the rows (as text, a multiset) must be the same in all four; an ERROR in one but not
in the reference is a failure too. A seed makes the run repeatable.

Usage: run_pruning_fuzz.py [--corpus DIR] [--warehouse DIR ...] [--seed N] [--per-table N]
                           [--table SUBSTR]
Needs psql on PATH and PGHOST/PGPORT/PGUSER/PGDATABASE of a server with paimon_fdw.
"""
import argparse
import glob
import os
import random
import subprocess
import sys

from input_required import missing_input

EXTERNAL_PREFIXES = {"FILE:/tmp/external": "external"}
STAGES = ["enable_stats_pruning", "enable_file_index", "enable_row_group_pruning",
          "enable_page_index", "enable_point_lookup", "enable_resident_lookup",
          "enable_topn_pushdown"]
# Postgres types a predicate may compare, and the cast a literal of each takes
SCALAR = {"smallint": "int2", "integer": "int4", "bigint": "int8", "real": "float4",
          "double precision": "float8", "text": "text", "character varying": "varchar",
          "boolean": "bool", "date": "date", "timestamp without time zone": "timestamp",
          "timestamp with time zone": "timestamptz", "bytea": "bytea"}
MARK = "@@pruning_fuzz@@"
ERR_MARK = "@@pruning_fuzz_error@@"
# a table's queries all run in one of these (timestamptz literals are absolute)
ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin"]


def psql(sql, check=True):
    p = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"], input=sql,
                       capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise RuntimeError(p.stderr.strip()[-2000:])
    return p


def qi(name):
    return '"' + name.replace('"', '""') + '"'


def ql(s):
    return "'" + s.replace("'", "''") + "'"


def tables(corpus, warehouses):
    """Table directories: the corpus's, or those of the given warehouses."""
    pats = ([os.path.join(w, "*.db", "*") for w in warehouses] if warehouses else
            [os.path.join(corpus, "tables", "*", "*.db", "*")])
    for pat in pats:
        for d in sorted(glob.glob(pat)):
            if os.path.isdir(os.path.join(d, "snapshot")):
                yield d


def columns(schema, table):
    """(name, sql type, cast name) of the foreign table's scalar columns."""
    out = psql("SELECT attname, format_type(atttypid, atttypmod), t.typname FROM pg_attribute a "
               "JOIN pg_type t ON t.oid = atttypid WHERE attrelid = '%s.%s'::regclass "
               "AND attnum > 0 AND NOT attisdropped ORDER BY attnum;" % (qi(schema), qi(table))
               ).stdout
    cols = []
    for line in out.splitlines():
        name, fmt, typname = line.split("|")
        base = fmt.split("(")[0]
        if base in SCALAR or base == "numeric":
            cols.append((name, fmt, fmt if base == "numeric" else SCALAR[base]))
    return cols


def literal(v, cast):
    return "%s::%s" % (ql(v), cast)


class Gen:
    """Random predicates over one table's sampled values."""

    def __init__(self, rnd, cols, samples, collations):
        self.rnd = rnd
        self.collations = collations
        self.cols = [c for c in cols if samples.get(c[0])]
        self.nullable = cols
        self.samples = samples

    def value(self, col):
        return self.rnd.choice(self.samples[col[0]])

    def atom(self, params):
        """(sql, [(value, cast)]): one predicate; literals as $n when params."""
        rnd = self.rnd
        col = rnd.choice(self.cols) if self.cols else rnd.choice(self.nullable)
        name, fmt, cast = col
        c = qi(name)
        vals = []

        def lit(v, ty=cast):
            vals.append((v, ty))
            return "{P}" if params else literal(v, ty)

        if not self.cols or rnd.random() < 0.08:
            return "%s IS %sNULL" % (c, rnd.choice(["", "NOT "])), vals
        kind = rnd.choice(["cmp", "cmp", "eq", "eq", "between", "in", "any", "not", "ne",
                           "like", "cast", "collate", "zone"])
        if kind == "collate" and cast in ("text", "varchar") and self.collations:
            # a comparison in another collation: decided by Postgres, never by byte order
            return "%s COLLATE %s %s %s" % (c, qi(rnd.choice(self.collations)),
                                            rnd.choice(["<", "<=", ">", ">=", "="]),
                                            lit(self.value(col), "text")), vals
        if kind == "zone" and cast == "timestamptz":
            # the local date of an instant: depends on TimeZone
            return "%s::date %s %s" % (c, rnd.choice(["=", "<", ">="]),
                                       lit(self.value(col)[:10], "date")), vals
        if kind == "zone" and cast in ("timestamp", "date"):
            # against an instant: the local time is read in TimeZone
            v = self.value(col)
            v = v if cast == "timestamp" else v + " 00:00:00"
            return "%s %s %s" % (c, rnd.choice(["<", ">=", "="]),
                                 lit(v + rnd.choice(["+00", "+05:30", "-08"]), "timestamptz")), vals
        if kind == "like" and cast in ("text", "varchar"):
            v = self.value(col)
            pre = v[: rnd.randint(0, min(3, len(v)))].replace("%", "").replace("_", "")
            return "%s LIKE %s" % (c, lit(pre + "%", "text")), vals
        if kind == "cast" and cast in ("int2", "int4"):
            return "%s::int8 %s %s" % (c, rnd.choice(["=", "<", ">=", "<>"]),
                                      lit(self.value(col), "int8")), vals
        if kind == "between":
            a, b = sorted([self.value(col), self.value(col)], key=lambda x: x)
            return "%s BETWEEN %s AND %s" % (c, lit(a), lit(b)), vals
        if kind == "in":
            k = rnd.randint(1, 4)
            return "%s IN (%s)" % (c, ", ".join(lit(self.value(col)) for _ in range(k))), vals
        if kind == "any":
            k = rnd.randint(1, 4)
            arr = "{%s}" % ",".join('"%s"' % self.value(col).replace("\\", "\\\\")
                                    .replace('"', '\\"') for _ in range(k))
            return "%s = ANY(%s)" % (c, lit(arr, cast + "[]" if "(" not in cast else
                                             "numeric[]")), vals
        if kind == "not":
            return "NOT (%s = %s)" % (c, lit(self.value(col))), vals
        if kind == "ne":
            return "%s <> %s" % (c, lit(self.value(col))), vals
        if kind == "eq" or cast == "bool":
            return "%s = %s" % (c, lit(self.value(col))), vals
        return "%s %s %s" % (c, rnd.choice(["<", "<=", ">", ">="]), lit(self.value(col))), vals

    def predicate(self, params):
        rnd = self.rnd
        n = rnd.choice([1, 1, 2, 2, 3])
        parts = []
        vals = []
        for _ in range(n):
            sql, vs = self.atom(params)
            parts.append(sql)
            vals.extend(vs)
        op = rnd.choice([" AND ", " AND ", " OR "])
        sql = op.join("(%s)" % p for p in parts)
        for i in range(len(vals)):
            sql = sql.replace("{P}", "$%d" % (i + 1), 1)  # the parameters in order
        return sql, vals


def run_block(prologue, queries):
    """Each query's (sorted rows as text, whether it failed), through one psql session. A
    query is (before, statement, after): psql's ERROR variable is read right after the
    statement, so what comes after (DEALLOCATE, COMMIT) does not count."""
    script = [prologue, "\\set ON_ERROR_STOP 0"]
    for before, stmt, after in queries:
        script += ["\\echo %s" % MARK, before, stmt, "\\echo %s :ERROR" % ERR_MARK, after]
    script.append("\\echo %s" % MARK)
    p = subprocess.run(["psql", "-X", "-q", "-At"], input="\n".join(script) + "\n",
                       capture_output=True, text=True, timeout=1200)
    out = []
    for chunk in p.stdout.split(MARK + "\n")[1:-1]:
        lines = chunk.splitlines()
        err = [ln for ln in lines if ln.startswith(ERR_MARK + " ")]
        rows = [ln for ln in lines if not ln.startswith(ERR_MARK + " ")]
        out.append((sorted(rows), err[-1].split()[-1] if err else "missing"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                     "..", "shared", "corpus"))
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--per-table", type=int, default=40)
    ap.add_argument("--table", default="")
    ap.add_argument("--warehouse", action="append", default=[],
                    help="the tables of this warehouse instead of the corpus's (repeatable)")
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    if not args.warehouse and not os.path.isdir(os.path.join(corpus, "tables")):
        return missing_input("pruning fuzz", "no corpus at %s" % corpus)
    rnd = random.Random(args.seed)
    passed = failed = nonempty = 0
    collations = [c for c in ("en_US.utf8", "de-x-icu") if psql(
        "SELECT 1 FROM pg_collation WHERE collname = %s;" % ql(c)).stdout.strip()]
    for n, tdir in enumerate(tables(corpus, [os.path.abspath(w) for w in args.warehouse])):
        if args.table not in tdir:
            continue
        db_dir = os.path.dirname(tdir)
        warehouse = os.path.dirname(db_dir)
        db = os.path.basename(db_dir)[: -len(".db")]
        table = os.path.basename(tdir)
        label = os.path.relpath(tdir, corpus if tdir.startswith(corpus + os.sep) else
                                os.path.dirname(warehouse))
        maps = ",".join("%s=%s" % (k, os.path.join(db_dir, v)) for k, v in EXTERNAL_PREFIXES.items())
        srv = "fuzz_srv_%d" % n
        schema = "fz_%d" % n
        try:
            psql("DROP SCHEMA IF EXISTS %s CASCADE; DROP SERVER IF EXISTS %s CASCADE; "
                 "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse %s, "
                 "external_path_map %s); CREATE SCHEMA %s; "
                 "IMPORT FOREIGN SCHEMA %s LIMIT TO (%s) FROM SERVER %s INTO %s;"
                 % (schema, srv, srv, ql(warehouse), ql(maps), schema, qi(db), qi(table), srv,
                    schema))
            cols = columns(schema, table)
        except RuntimeError as e:
            print("skip %s: %s" % (label, str(e).splitlines()[-1]))
            continue
        if not cols:
            continue
        ft = "%s.%s" % (schema, qi(table))
        samples = {}
        for name, fmt, cast in cols:
            p = psql("SET TimeZone = 'UTC'; SET paimon_fdw.enable_pushdown = off; "
                     "SELECT v FROM (SELECT DISTINCT %s::text AS v FROM %s WHERE %s IS NOT NULL) s "
                     "ORDER BY md5(v) LIMIT 50;"  # spread over the whole range, repeatably
                     % (qi(name), ft, qi(name)), check=False)
            samples[name] = p.stdout.splitlines() if p.returncode == 0 else []
        gen = Gen(rnd, cols, samples, collations)
        select = "SELECT %s FROM %s" % (", ".join("%s::text" % qi(c[0]) for c in cols), ft)
        # the aggregates a scan may compute on batches or answer from metadata
        aggcols = [c for c in cols if c[2] not in ("bool", "bytea")][:3]
        aggregate = "SELECT count(*)%s FROM %s" % ("".join(
            ", min(%s)::text, max(%s)::text" % (qi(c[0]), qi(c[0])) for c in aggcols), ft)
        zone = rnd.choice(ZONES)
        preds = []
        for _ in range(args.per_table):
            # the same random choices for the literal and the parameter form
            state = rnd.getstate()
            lit_sql, _ = gen.predicate(False)
            rnd.setstate(state)
            par_sql, vals = gen.predicate(True)
            preds.append((lit_sql, par_sql, vals))
        # each predicate twice: the rows, then the aggregates
        shown = []
        literal_q = []
        generic_q = []
        for i, (lit_sql, par_sql, vals) in enumerate(preds):
            for j, head in enumerate((select, aggregate)):
                shown.append(("" if j == 0 else "[aggregates] ") + lit_sql)
                literal_q.append(("", "%s WHERE %s;" % (head, lit_sql), ""))
                name = "q%d_%d" % (i, j)
                generic_q.append(("PREPARE %s(%s) AS %s WHERE %s;"
                                  % (name, ", ".join(v[1] for v in vals), head, par_sql),
                                  "EXECUTE %s(%s);"
                                  % (name, ", ".join(literal(v[0], v[1]) for v in vals)),
                                  "DEALLOCATE %s;" % name)
                                 if vals else ("", "%s WHERE %s;" % (head, par_sql), ""))
        # joins on a column: the table inner, probed per outer row (nested loop) or not
        for name, fmt, cast in [c for c in cols if c[2] in ("int2", "int4", "int8", "text")
                                and samples.get(c[0])][:2]:
            for j in range(max(1, args.per_table // 10)):
                keys = [rnd.choice(samples[name]) for _ in range(rnd.randint(1, 20))]
                if cast != "text":
                    keys.append(str(rnd.randint(-5, 10 ** 6)))  # perhaps in no file
                outer = ", ".join("(%s)" % literal(k, cast) for k in keys)
                join = ("%s t JOIN (VALUES %s) v(k) ON t.%s = v.k" % (ft, outer, qi(name)))
                q = select.replace("FROM %s" % ft, "FROM " + join, 1).replace("SELECT ", "SELECT v.k::text, ", 1)
                for loop in (False, True):
                    sql = ("BEGIN; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;"
                           if loop else "", q + ";", "COMMIT;" if loop else "")
                    shown.append("[join%s] %s = %s" % (" as nested loop" if loop else "", name,
                                                       keys))
                    literal_q.append(sql)
                    generic_q.append(sql)
        tz = "SET TimeZone = %s; " % ql(zone)
        off = tz + "SET paimon_fdw.enable_pushdown = off;"
        stages = tz + " ".join(
            "SET paimon_fdw.%s = off;" % s for s in STAGES if rnd.random() < 0.5)
        runs = {
            "off": run_block(off, literal_q),
            "on": run_block(tz, literal_q),
            "stages": run_block(stages, literal_q),
            "generic": run_block(tz + "SET plan_cache_mode = force_generic_plan;", generic_q),
        }
        ref = runs["off"]
        for i, lit_sql in enumerate(shown):
            # the same rows, and an error only where the reference has one
            bad = [k for k, res in runs.items()
                   if k != "off" and (i >= len(res) or i >= len(ref) or res[i] != ref[i])]
            if bad:
                failed += 1
                print("FAIL %s [%s] (TimeZone %s): WHERE %s" % (label,
                                                               ",".join(bad), zone, lit_sql))
                for k in ["off"] + bad:
                    res = runs[k]
                    print("   %-8s %s" % (k, "error %s, rows %s" % (res[i][1], res[i][0][:6])
                                          if i < len(res) else "(missing)"))
            else:
                passed += 1
                nonempty += bool(ref[i][0])
        psql("DROP SCHEMA %s CASCADE; DROP SERVER %s CASCADE;" % (schema, srv), check=False)
    print("%d queries returned rows (the others none)" % nonempty)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

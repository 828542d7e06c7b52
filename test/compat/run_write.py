#!/usr/bin/env python3
"""Round trips of writing through SQL with Apache Paimon (Java) as the reader and writer.

For each case (a fixed seed each): a random append table (1-8 scalar columns of every
type the writer takes, NOT NULL columns, 0-2 partition keys with a few values each (NULL
among them), bucket -1 or a fixed count
with a bucket key) is created with paimon_create_table() in a temporary warehouse;
random rows (difftest's generator: edge values, ~15% NULLs) are written through SQL in
several transactions (INSERT ... SELECT of thousands of rows, so several batches per
statement; small INSERTs), and then:

  1. the extension reads back exactly the rows written;
  2. Java (the releases of --paimon-versions take turns by seed) writes more rows on top
     (oracle.sh write) and the extension reads all rows, ours and Java's, exactly;
  3. we write again on top of Java's commit and read everything again;
  4. every release of --paimon-versions (default 1.3.1 and 1.4.2) reads every snapshot
     (oracle.sh dump): snapshot N holds exactly the rows of the first N commits, and the
     rolled-back transaction made none.

Rows are compared as multisets after difftest's normalisation. Missing input (no java,
mvn, psql server or extension) is a loud skip, a failure in CI (input_required.py).
The last line is "N passed, N failed[, N skipped]" (per case).

Default cases (seeds picked for their tables): 7005 partitioned, bucket -1, seven types;
7012 eight columns (decimals, TIMESTAMP_LTZ NOT NULL, TIMESTAMP(1)), one bucket; 7017
partitioned with two buckets, TIMESTAMP(9) and LTZ; 7021 two partition keys (one a DATE),
two buckets, bytes.

Usage: run_write.py [--seeds "7005 7012"] [--cases N --start SEED] [--seed S] [--keep]
                    [--paimon-versions "1.3.1 1.4.2"]
"""
import argparse
import json
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
from input_required import missing_input  # noqa: E402
import difftest  # noqa: E402

DB = "wr"
# the scalar types the writer takes (difftest's generator knows them all)
TYPES = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL",
         "STRING", "VARCHAR", "CHAR", "BYTES", "VARBINARY", "DATE", "TIMESTAMP",
         "TIMESTAMP_LTZ"]


def random_table(rnd):
    """(columns [(name, type)], partition_keys, options)."""
    ncols = rnd.randint(1, 8)
    cols = []
    for i in range(ncols):
        while True:
            t = difftest.random_type(rnd, False)
            if difftest.base_type(t)[0] in TYPES:
                break
        if rnd.random() < 0.15:
            t += " NOT NULL"
        cols.append(("c%d" % i, t))
    # partition keys: columns of types with a stable text form in paths
    part_ok = [n for n, t in cols if difftest.base_type(t)[0] in
               ("INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "VARCHAR", "DATE", "BOOLEAN")]
    nparts = min(len(part_ok), rnd.choice([0, 0, 1, 2]))
    parts = rnd.sample(part_ok, nparts) if nparts < len(cols) else []
    options = {}
    bucket = rnd.choice([-1, -1, 1, 2, 4])
    options["bucket"] = str(bucket)
    if bucket > 0:
        keys = [n for n, _ in cols if n not in parts]
        if not keys:
            options["bucket"] = "-1"
        else:
            options["bucket-key"] = rnd.choice(keys)
    return cols, parts, options


def partition_pools(rnd, cols, parts):
    """A few values per partition column (rows pick among them), so partitions hold many
    rows: one partition per row would make a data file per row. NULL is one of them
    (Paimon's default partition); "" is not (Paimon reads it back as NULL)."""
    pools = {}
    for i, (name, t) in enumerate(cols):
        if name in parts:
            pool = []
            while len(pool) < 3:
                v = difftest.random_value(rnd, t, 0)
                if v != "" and v not in pool:
                    pool.append(v)
            if not t.upper().endswith("NOT NULL"):
                pool.append(None)
            pools[i] = pool
    return pools


def random_rows(rnd, cols, pools, n):
    rows = []
    for _ in range(n):
        row = [difftest.random_value(rnd, t) for _, t in cols]
        for i, pool in pools.items():
            row[i] = rnd.choice(pool)
        rows.append(row)
    return rows


def pg_value(t, v):
    """A row value as json_populate_recordset's input for the column's Postgres type."""
    if v is None:
        return None
    name, _ = difftest.base_type(t)
    if name in ("BYTES", "VARBINARY", "BINARY"):
        return "\\x" + v
    return v


def sql_insert(table, cols, rows):
    data = [{name: pg_value(t, v) for (name, t), v in zip(cols, row)} for row in rows]
    text = json.dumps(data, ensure_ascii=False).replace("'", "''")
    return ("INSERT INTO %s SELECT * FROM json_populate_recordset(NULL::%s, '%s');\n"
            % (table, table, text))


def run_case(seed, args, sql, tmproot, versions):
    rnd = random.Random(seed)
    cols, parts, options = random_table(rnd)
    pools = partition_pools(rnd, cols, parts)
    types = [t for _, t in cols]
    table = "t%d" % seed
    srv = "wr_%d" % seed
    schema = "wr%d" % seed
    wh = os.path.join(tmproot, "wh%d" % seed)
    os.makedirs(wh)
    os.chmod(wh, 0o777)
    difftest.DB = DB
    msgs = []
    desc = "seed %d: %s%s %s" % (seed, ", ".join("%s %s" % c for c in cols),
                                 " PARTITIONED BY (%s)" % ", ".join(parts) if parts else "",
                                 json.dumps(options))
    columns = ", ".join("%s %s" % c for c in cols)
    setup = ["SET client_min_messages = warning;",
             "CREATE EXTENSION IF NOT EXISTS paimon_fdw;",
             "DROP SERVER IF EXISTS %s CASCADE;" % srv,
             "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s;" % (schema, schema),
             "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');" % (srv, wh),
             "SELECT paimon_create_database('%s', '%s');" % (srv, DB),
             "SELECT paimon_create_table('%s', '%s', '%s', '%s', partition_keys => %s, "
             "options => '%s', foreign_table => '%s.%s');"
             % (srv, DB, table, columns,
                "ARRAY[%s]::text[]" % ", ".join("'%s'" % p for p in parts) if parts else "NULL",
                json.dumps(options), schema, table)]
    sql.psql("\n".join(setup))
    qualified = "%s.%s" % (schema, table)

    passed = True

    def check(label, rows, expected):
        nonlocal passed
        diff = difftest.compare(label, types, expected, rows)
        if diff:
            passed = False
            msgs.extend(diff)
        else:
            msgs.append("%s: %d rows equal" % (label, len(expected)))

    # our writes, one snapshot per transaction: a big INSERT ... SELECT (several
    # batches), a transaction of two statements, two single-row INSERTs; a rolled-back
    # transaction adds nothing. commits[i] = the rows of snapshot i + 1.
    commits = []
    big = random_rows(rnd, cols, pools, rnd.randint(5000, 9000))
    sql.psql("SET paimon_fdw.write_batch_size = 1000;\n" + sql_insert(qualified, cols, big))
    commits.append(big)
    a = random_rows(rnd, cols, pools, rnd.randint(1, 300))
    b = random_rows(rnd, cols, pools, rnd.randint(1, 300))
    sql.psql("BEGIN;\n" + sql_insert(qualified, cols, a) + sql_insert(qualified, cols, b) + "COMMIT;\n")
    commits.append(a + b)
    for _ in range(2):
        one = random_rows(rnd, cols, pools, 1)
        sql.psql(sql_insert(qualified, cols, one))
        commits.append(one)
    junk = random_rows(rnd, cols, pools, 50)
    sql.psql("BEGIN;\n" + sql_insert(qualified, cols, junk) + "ROLLBACK;\n")
    check("sql-vs-model", sql_read(sql, qualified), sum(commits, []))

    # Java writes on top (the releases take turns), we read everything
    java_writer = versions[seed % len(versions)]
    os.environ["ORACLE_PAIMON_VERSION"] = java_writer
    more = random_rows(rnd, cols, pools, rnd.randint(1, 500))
    ops = os.path.join(tmproot, "ops%d.jsonl" % seed)
    with open(ops, "w") as f:
        for row in more:
            f.write(json.dumps({"op": "+I", "row": row}, ensure_ascii=False) + "\n")
        f.write('{"op": "commit"}\n')
    difftest.run([difftest.ORACLE, "write", wh, DB, table, ops])
    commits.append(more)
    check("sql-after-java-write", sql_read(sql, qualified), sum(commits, []))

    # we write again after Java
    last = random_rows(rnd, cols, pools, rnd.randint(1, 100))
    sql.psql(sql_insert(qualified, cols, last))
    commits.append(last)
    check("sql-after-second-sql-write", sql_read(sql, qualified), sum(commits, []))

    # every release reads every snapshot (one JVM each): the i-th APPEND snapshot holds
    # commits[:i]; a COMPACT snapshot (Java's writer compacts small files of a bucket)
    # holds what the snapshot before it held
    for v in versions:
        os.environ["ORACLE_PAIMON_VERSION"] = v
        dump = difftest.java_dump(wh, table)
        appended = 0
        kinds = []
        for snap, _, rows, kind in sorted((d for d in dump if d[0] is not None),
                                          key=lambda d: d[0]):
            kinds.append(kind)
            if kind == "APPEND":
                appended += 1
            check("java%s-snapshot-%d" % (v, snap), rows, sum(commits[:appended], []))
        if appended != len(commits):
            passed = False
            msgs.append("java%s: snapshot kinds %s: %d APPEND snapshots, %d commits"
                        % (v, kinds, appended, len(commits)))
        check("java%s-latest" % v, [d for d in dump if d[0] is None][0][2], sum(commits, []))
    written = sum(commits[:4], []) + last

    print("%s %s (%d rows: %d by SQL, %d by Java %s)"
          % ("ok  " if passed else "FAIL", desc, len(written) + len(more),
             len(written), len(more), java_writer))
    for m in msgs:
        print("    " + m)
    if passed and not args.keep:
        sql.psql("SET client_min_messages = warning; DROP SCHEMA %s CASCADE; DROP SERVER %s CASCADE;"
                 % (schema, srv))
        shutil.rmtree(wh, ignore_errors=True)
    elif not passed:
        print("    kept %s; replay: python3 test/compat/run_write.py --seed %d --keep" % (wh, seed))
    return passed


def sql_read(sql, qualified):
    out = sql.psql("SET timezone = 'UTC';\nSET extra_float_digits = 1;\n"
                   "SELECT to_json(t) FROM %s t;" % qualified)
    rows = []
    for line in out.splitlines():
        if line.strip():
            rows.append(list(json.loads(line, parse_int=str, parse_float=str).values()))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="7005 7012 7017 7021")
    ap.add_argument("--cases", type=int, help="random cases from --start instead of --seeds")
    ap.add_argument("--start", type=int, default=7000)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--paimon-versions", default=os.environ.get("ORACLE_PAIMON_VERSIONS",
                                                                 "1.3.1 1.4.2"))
    args = ap.parse_args()
    what = "writing through SQL, read by Java"
    if not shutil.which("java") or not shutil.which("mvn"):
        return missing_input(what, "java or mvn is not installed")
    sql = difftest.Sql()
    if sql.reason:
        return missing_input(what, sql.reason)
    versions = args.paimon_versions.split()
    for v in versions:
        env = dict(os.environ, ORACLE_PAIMON_VERSION=v)
        try:
            difftest.run([difftest.ORACLE, "build"], env=env)
        except RuntimeError as e:
            print("the Java oracle does not build for Paimon %s: %s" % (v, e))
            print("0 passed, 1 failed")
            return 1
    if args.seed is not None:
        seeds = [args.seed]
    elif args.cases:
        seeds = range(args.start, args.start + args.cases)
    else:
        seeds = [int(x) for x in args.seeds.split()]
    tmproot = tempfile.mkdtemp(prefix="paimon_write_")
    os.chmod(tmproot, 0o755)
    passed = failed = 0
    for seed in seeds:
        try:
            ok = run_case(seed, args, sql, tmproot, versions)
        except Exception as e:  # noqa: BLE001 - a failing case, not a failing run
            print("FAIL seed %d: %s" % (seed, str(e).strip()[-3000:]))
            ok = False
        if ok:
            passed += 1
        else:
            failed += 1
    if failed == 0 and not args.keep:
        shutil.rmtree(tmproot, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

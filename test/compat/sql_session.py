"""sql_session.py - what the compat scripts that write through SQL and read with Java share:
psql runs, SQL literals, the "Java and SQL are both here" check with the oracle build, and a
scratch warehouse the server's user can write into.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
from input_required import missing_input  # noqa: E402
import difftest  # noqa: E402

# what psql prints while a crashed server restarts
RESTARTING = ("not yet accepting connections", "in recovery mode", "shutting down",
              "No such file or directory", "Connection refused")


def psql(sql, check=True, timeout=600, wait_restart=False):
    """Run sql through psql (-Atq, stop on error); the CompletedProcess. With wait_restart,
    retry while the server restarts after a crash."""
    for _ in range(120 if wait_restart else 1):
        p = subprocess.run(["psql", "-X", "-Atq", "-v", "ON_ERROR_STOP=1"], input=sql,
                           capture_output=True, text=True, timeout=timeout)
        if wait_restart and p.returncode != 0 and any(m in p.stderr for m in RESTARTING):
            time.sleep(0.5)
            continue
        break
    if check and p.returncode != 0:
        raise RuntimeError("psql failed: %s\n%s" % (p.stderr.strip()[-2000:], sql[-500:]))
    return p


def lit(v):
    """v as an SQL literal."""
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'%s'" % v.replace("'", "''")
    return str(v)


def java_and_sql(what):
    """None when Java (built oracle) and the SQL server are both usable, else the exit code
    of the script (a loud skip, or a failure where input is required)."""
    if not shutil.which("java") or not shutil.which("mvn"):
        return missing_input(what, "java or mvn is not installed")
    sql = difftest.Sql()
    if sql.reason:
        return missing_input(what, sql.reason)
    try:
        difftest.run([difftest.ORACLE, "build"])
    except RuntimeError as e:
        print("the Java oracle does not build: %s" % e)
        print("0 passed, 1 failed")
        return 1
    return None


def scratch_warehouse(prefix):
    """(root, warehouse): a new temp directory and a world-writable warehouse in it, so that
    the server's user and this script's can both write."""
    root = tempfile.mkdtemp(prefix=prefix)
    os.chmod(root, 0o755)
    wh = os.path.join(root, "wh")
    os.makedirs(wh)
    os.chmod(wh, 0o777)
    return root, wh


def scratch_table(srv, wh, db, name, columns, ft, options, primary_key=(), partition_keys=()):
    """A server srv on warehouse wh (made afresh), database db and the table db.name (Paimon
    columns, options) with foreign table ft, through paimon_create_table."""
    extra = "".join(", %s => ARRAY[%s]" % (k, ", ".join(lit(x) for x in v))
                    for k, v in (("primary_key", primary_key), ("partition_keys", partition_keys))
                    if v)
    psql("SET client_min_messages = warning;\n"
         "CREATE EXTENSION IF NOT EXISTS paimon_fdw;\n"
         "DROP SERVER IF EXISTS %s CASCADE;\n"
         "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse %s);\n"
         "SELECT paimon_create_database(%s, %s);\n"
         "SELECT paimon_create_table(%s, %s, %s, %s%s, options => %s, foreign_table => %s);\n"
         % (srv, srv, lit(wh), lit(srv), lit(db), lit(srv), lit(db), lit(name), lit(columns),
            extra, lit(json.dumps(options)), lit(ft)))


def java_ops(tmproot, wh, db, name, lines):
    """Java (the oracle's write command) applies ops lines (dicts) to table db.name."""
    ops = os.path.join(tmproot, "ops.jsonl")
    with open(ops, "w") as f:
        f.write("\n".join(json.dumps(x) for x in lines) + "\n")
    difftest.run([difftest.ORACLE, "write", wh, db, name, ops])


def end_case(passed, msgs, srv, wh, keep, replay):
    """After a case's summary line: its messages, then its server and warehouse dropped
    when it passed (and keep is off), or kept with the command that replays it."""
    for m in msgs:
        print("    " + m)
    if passed and not keep:
        psql("SET client_min_messages = warning; DROP SERVER %s CASCADE;" % srv)
        shutil.rmtree(wh, ignore_errors=True)
    elif not passed:
        print("    kept %s; replay: %s" % (wh, replay))
    return passed

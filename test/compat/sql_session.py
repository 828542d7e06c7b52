"""sql_session.py - what the compat scripts that write through SQL and read with Java share:
psql runs, SQL literals, the "Java and SQL are both here" check with the oracle build, and a
scratch warehouse the server's user can write into.
"""
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

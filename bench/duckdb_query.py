"""Time SQL queries in DuckDB over a Paimon table's own Parquet data files.

    python3 bench/duckdb_query.py --files 'DIR/bucket-*/*.parquet' --threads 1 --runs 5 \
        --query 'SELECT sum(f) FROM t' [--query ...]

Prints one line per query: the median wall time in milliseconds. The table `t` is a
view over read_parquet(files), so DuckDB reads the very bytes paimon_fdw reads (an
append table without deletion vectors: its data files are its rows).
"""
import argparse
import statistics
import time

import duckdb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--query", action="append", required=True)
    a = ap.parse_args()
    con = duckdb.connect()
    con.execute(f"SET threads = {a.threads}")
    con.execute(f"CREATE VIEW t AS SELECT * FROM read_parquet('{a.files}')")
    for q in a.query:
        con.execute(q).fetchall()  # warm the OS cache and DuckDB's metadata
        times = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            con.execute(q).fetchall()
            times.append((time.perf_counter() - t0) * 1000)
        print(f"{statistics.median(times):.1f}")


if __name__ == "__main__":
    main()

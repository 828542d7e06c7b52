#!/usr/bin/env bash
# make_sample_warehouse.sh - writes a small sample Paimon warehouse with Apache Paimon's own
# Java writer (test/oracle/oracle.sh), for the README's demo:
#   database "demo", table "events": an append table partitioned by "region", 1000 rows in
#   2 commits (snapshots 1 and 2), Parquet/zstd, columns
#   id BIGINT, region STRING, ts TIMESTAMP(3), amount DECIMAL(10,2), score DOUBLE,
#   kind STRING, day DATE
#
#   bash test/oracle/make_sample_warehouse.sh <dir>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:?usage: make_sample_warehouse.sh <dir>}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
if [[ -d "$dir/demo.db/events" ]]; then
    echo "make_sample_warehouse.sh: $dir/demo.db/events already exists" >&2
    exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/table.json" <<'JSON'
{"columns": [{"name": "id", "type": "BIGINT NOT NULL"}, {"name": "region", "type": "STRING"},
             {"name": "ts", "type": "TIMESTAMP(3)"}, {"name": "amount", "type": "DECIMAL(10, 2)"},
             {"name": "score", "type": "DOUBLE"}, {"name": "kind", "type": "STRING"},
             {"name": "day", "type": "DATE"}],
 "primary_keys": [], "partition_keys": ["region"],
 "options": {"bucket": "-1", "file.format": "parquet", "file.compression": "zstd"}}
JSON
python3 - "$tmp/ops.jsonl" <<'PY'
import datetime as dt, json, random, sys
rnd = random.Random(7)
regions = ["eu", "us", "apac"]
kinds = ["click", "view", "purchase", "refund"]
with open(sys.argv[1], "w") as f:
    for i in range(1000):
        ts = dt.datetime(2026, 12, 1) + dt.timedelta(seconds=i * 37, milliseconds=rnd.randrange(1000))
        row = [i, regions[i % 3], ts.isoformat(timespec="milliseconds"),
               "%.2f" % (rnd.randrange(100000) / 100), round(rnd.random() * 100, 3),
               None if i % 17 == 0 else rnd.choice(kinds), ts.date().isoformat()]
        f.write(json.dumps({"op": "+I", "row": row}) + "\n")
        if i == 599:
            f.write('{"op":"commit"}\n')
PY
"$here/oracle.sh" create "$dir" demo events "$tmp/table.json"
"$here/oracle.sh" write "$dir" demo events "$tmp/ops.jsonl"
echo "make_sample_warehouse.sh: wrote $dir/demo.db/events (1000 rows, snapshots 1-2)" >&2

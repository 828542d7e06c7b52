#!/usr/bin/env bash
# gen_table.sh - writes the benchmark table with Apache Paimon's own Java writer
# (test/oracle/oracle.sh gen-bench): database "bench", table "append_7col", an append
# table (bucket -1) stored as Parquet/zstd with the columns
#   id BIGINT, a INT, b BIGINT, c DOUBLE, d STRING (short), e DATE, f DECIMAL(12,2)
# in a few large commits. Values are deterministic (seeded).
#
#   bash bench/gen_table.sh <warehouse> [rows=10000000] [commits=4] [seed=42]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
oracle="$here/../test/oracle/oracle.sh"
wh="${1:?usage: gen_table.sh <warehouse> [rows] [commits] [seed]}"
rows="${2:-10000000}"
commits="${3:-4}"
seed="${4:-42}"
mkdir -p "$wh"
wh="$(cd "$wh" && pwd)"
if [[ -d "$wh/bench.db/append_7col" ]]; then
    echo "gen_table.sh: $wh/bench.db/append_7col exists; remove it first" >&2
    exit 1
fi
desc="$(mktemp)"
trap 'rm -f "$desc"' EXIT
cat >"$desc" <<'JSON'
{"columns": [{"name": "id", "type": "BIGINT NOT NULL"}, {"name": "a", "type": "INT"},
             {"name": "b", "type": "BIGINT"}, {"name": "c", "type": "DOUBLE"},
             {"name": "d", "type": "STRING"}, {"name": "e", "type": "DATE"},
             {"name": "f", "type": "DECIMAL(12, 2)"}],
 "primary_keys": [], "partition_keys": [],
 "options": {"bucket": "-1", "file.format": "parquet", "file.compression": "zstd",
             "target-file-size": "256 mb"}}
JSON
start=$(date +%s)
"$oracle" create "$wh" bench append_7col "$desc"
ORACLE_JAVA_OPTS="${ORACLE_JAVA_OPTS:--Xmx3g -XX:+UseParallelGC}" \
    "$oracle" gen-bench "$wh" bench append_7col "$rows" "$commits" "$seed"
echo "gen_table.sh: $rows rows in $commits commits -> $wh/bench.db/append_7col" \
     "($(du -sh "$wh/bench.db/append_7col" | cut -f1), $(( $(date +%s) - start ))s)" >&2

#!/usr/bin/env bash
# gen_filter_table.sh - writes the filter benchmark table with Apache Paimon's own Java
# writer (test/oracle/oracle.sh gen-bench): database "bench", table "filter_7col", the
# rows and columns of gen_table.sh (id BIGINT in order, a INT = id mod 1000, b BIGINT
# random, c DOUBLE, d STRING, e DATE, f DECIMAL(12,2)), Parquet/zstd, with a bloom
# filter file index on b, in many commits (one data file each, ids in order across
# files), so that file statistics, the bloom filter and the page index each have
# something to do.
#
#   bash bench/gen_filter_table.sh <warehouse> [rows=10000000] [commits=20] [seed=42]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
oracle="$here/../test/oracle/oracle.sh"
wh="${1:?usage: gen_filter_table.sh <warehouse> [rows] [commits] [seed]}"
rows="${2:-10000000}"
commits="${3:-20}"
seed="${4:-42}"
mkdir -p "$wh"
wh="$(cd "$wh" && pwd)"
if [[ -d "$wh/bench.db/filter_7col" ]]; then
    echo "gen_filter_table.sh: $wh/bench.db/filter_7col exists; remove it first" >&2
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
             "target-file-size": "256 mb", "file-index.bloom-filter.columns": "b"}}
JSON
start=$(date +%s)
"$oracle" create "$wh" bench filter_7col "$desc"
ORACLE_JAVA_OPTS="${ORACLE_JAVA_OPTS:--Xmx3g -XX:+UseParallelGC}" \
    "$oracle" gen-bench "$wh" bench filter_7col "$rows" "$commits" "$seed"
echo "gen_filter_table.sh: $rows rows in $commits commits -> $wh/bench.db/filter_7col" \
     "($(du -sh "$wh/bench.db/filter_7col" | cut -f1), $(( $(date +%s) - start ))s)" >&2

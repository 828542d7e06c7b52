#!/usr/bin/env bash
# gen_pk_table.sh - writes the primary-key benchmark tables with Apache Paimon's own Java
# writer (test/oracle/java/.../GenPkBench.java): in database "bench",
#   pk_7col       id BIGINT NOT NULL primary key, a INT, b BIGINT, c DOUBLE, d STRING,
#                 e DATE, f DECIMAL(12,2); Parquet/zstd, deduplicate, no deletion vectors,
#                 write-only. One commit of every key, a full compaction (the base, at the
#                 highest level), then 4 commits each upserting a pseudo-random ~10% of the
#                 keys: per bucket 4 overlapping level-0 files over the base.
#   pk_7col_flat  the same final rows as an append table (one file per PK bucket).
# Prints the data files (bucket, level, rows) of both tables at the end.
#
#   bash bench/gen_pk_table.sh <warehouse> [rows=10000000] [buckets=2] [updates=4] [fraction=0.1] [seed=42]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proj="$here/../test/oracle/java"
wh="${1:?usage: gen_pk_table.sh <warehouse> [rows] [buckets] [updates] [fraction] [seed]}"
rows="${2:-10000000}"
buckets="${3:-2}"
updates="${4:-4}"
fraction="${5:-0.1}"
seed="${6:-42}"
mkdir -p "$wh"
wh="$(cd "$wh" && pwd)"
for t in pk_7col pk_7col_flat; do
	if [[ -d "$wh/bench.db/$t" ]]; then
		echo "gen_pk_table.sh: $wh/bench.db/$t exists; remove it first" >&2
		exit 1
	fi
done

# The Maven build gives the classpath; GenPkBench is compiled on its own into
# target/bench-classes so that it does not depend on the state of Oracle.java.
cp_file="$proj/target/classpath.txt"
if [[ ! -f "$cp_file" || "$proj/pom.xml" -nt "$cp_file" ]]; then
	echo "gen_pk_table.sh: building the Java oracle (mvn package)" >&2
	( cd "$proj" && { mvn -q -o package -DskipTests >/dev/null 2>&1 || mvn -q package -DskipTests >&2; } )
fi
src="$proj/src/main/java/org/paimonfdw/oracle/GenPkBench.java"
out="$proj/target/bench-classes"
if [[ ! -f "$out/org/paimonfdw/oracle/GenPkBench.class" || "$src" -nt "$out/org/paimonfdw/oracle/GenPkBench.class" ]]; then
	mkdir -p "$out"
	javac -nowarn -d "$out" -cp "$(cat "$cp_file")" "$src"
fi

start=$(date +%s)
# shellcheck disable=SC2086
java ${ORACLE_JAVA_OPTS:--Xmx3g -XX:+UseParallelGC} -cp "$out:$(cat "$cp_file")" \
	org.paimonfdw.oracle.GenPkBench "$wh" "$rows" "$buckets" "$updates" "$fraction" "$seed"
echo "gen_pk_table.sh: $rows keys, $buckets buckets, $updates update commits -> $wh/bench.db/pk_7col" \
	"($(du -sh "$wh/bench.db/pk_7col" | cut -f1)) and pk_7col_flat ($(du -sh "$wh/bench.db/pk_7col_flat" | cut -f1))," \
	"$(( $(date +%s) - start ))s" >&2

#!/usr/bin/env bash
# check.sh - Java reads what the metadata writers write (issue 8, helper metaw).
#
# For each table: the latest snapshot N of a table Java wrote becomes snapshot
# N+1 with every manifest, both manifest lists and the snapshot JSON written by
# our writers and every Avro data file copied by our Avro writer
# (rewrite_metadata.c); Java (each release of ORACLE_PAIMON_VERSIONS) must read
# N+1 exactly as N. Tables: two written here by Java 1.4.2 (table.json/ops.jsonl:
# an append table with every Avro-writable type, NULL partition; pk_table.json:
# a partitioned primary-key table with fixed buckets, -U/-D and a compaction)
# and copies of the corpus tables whose manifests are Avro.
#
# Usage: test/oracle/metadata/check.sh [corpus dir]   (default ../shared/corpus)
# Env: ORACLE_PAIMON_VERSIONS (default "1.3.1 1.4.2"), METADATA_TABLES (a regex:
# only the corpus tables it matches; about 10 minutes for all of them).
# Prints "N passed, N failed, N skipped" last; exits non-zero on any failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../check_prologue.sh"
repo=$root
corpus="${1:-${PAIMON_CORPUS:-$repo/../shared/corpus}}"
read -r -a versions <<<"${ORACLE_PAIMON_VERSIONS:-1.3.1 1.4.2}"
passed=0
failed=0
skipped=0
check_warehouse metadata
work=$wh
check_tool "$here/rewrite_metadata.c"

# check <warehouse> <db> <table>
check() {
    local wh="$1" db="$2" t="$3" old new v
    old=$(ls "$wh/$db.db/$t/snapshot" | sed -n 's/^snapshot-//p' | sort -n | tail -1)
    if ! new=$("$tool" "$wh/$db.db/$t" 2>"$work/err"); then
        echo "FAILED $db.$t: rewrite: $(cat "$work/err")"; failed=$((failed + 1)); return
    fi
    for v in "${versions[@]}"; do
        ORACLE_PAIMON_VERSION=$v "$repo/test/oracle/oracle.sh" read "$wh" "$db" "$t" --snapshot "$old" \
            2>"$work/err" | sort >"$work/a"
        ORACLE_PAIMON_VERSION=$v "$repo/test/oracle/oracle.sh" read "$wh" "$db" "$t" --snapshot "$new" \
            2>>"$work/err" | sort >"$work/b"
        if [[ ! -s "$work/a" ]] && grep -q 'Exception' "$work/err"; then
            # Java cannot read the original either (e.g. external paths of another machine)
            echo "skip   $db.$t (Paimon $v): Java cannot read snapshot $old: $(grep -m1 Exception "$work/err" | cut -c1-160)"
            skipped=$((skipped + 1))
        elif [[ -s "$work/a" ]] && cmp -s "$work/a" "$work/b"; then
            echo "ok     $db.$t (Paimon $v): snapshot $new = snapshot $old, $(wc -l <"$work/a") rows"
            passed=$((passed + 1))
        else
            echo "FAILED $db.$t (Paimon $v): $(wc -l <"$work/a") rows at $old, $(wc -l <"$work/b") at $new"
            grep -m2 -E 'Exception|Caused' "$work/err"
            failed=$((failed + 1))
        fi
    done
}

ORACLE_PAIMON_VERSION=1.4.2 "$repo/test/oracle/oracle.sh" scenario "$work/wh" db t \
    "$here/table.json" "$here/ops.jsonl" >/dev/null || { echo "FAILED: Java could not write db.t"; exit 1; }
ORACLE_PAIMON_VERSION=1.4.2 "$repo/test/oracle/oracle.sh" scenario "$work/wh" db pk \
    "$here/pk_table.json" "$here/pk_ops.jsonl" >/dev/null || { echo "FAILED: Java could not write db.pk"; exit 1; }
check "$work/wh" db t
check "$work/wh" db pk

# corpus tables with Avro manifests (the default manifest.format)
for schema in "$corpus"/tables/*/*.db/*/schema/schema-0; do
    tdir="${schema%/schema/schema-0}"
    grep -q '"manifest.format" : "\(orc\|parquet\)"' "$tdir"/schema/schema-* && continue
    ls "$tdir/snapshot" 2>/dev/null | grep -q '^snapshot-' || continue
    t="$(basename "$tdir")"
    [[ "$t" =~ ${METADATA_TABLES:-.} ]] || continue
    dbdir="$(dirname "$tdir")"
    db="$(basename "$dbdir" .db)"
    wh="$work/corpus/$(basename "$(dirname "$dbdir")")"
    mkdir -p "$wh"
    cp -r "$dbdir" "$wh/"
    check "$wh" "$db" "$t"
done
echo "metadata writers read by Java: $passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]

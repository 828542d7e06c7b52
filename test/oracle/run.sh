#!/usr/bin/env bash
# run.sh - the reference-oracle tests (called by scripts/test.sh with PGHOST/PGPORT/
# PGUSER/PGDATABASE of a running server that has paimon_fdw installed):
#   1. build the Java oracle (Apache Paimon from Maven Central; offline when ~/.m2 has it)
#   2. make the optional pypaimon venv (skipped loudly if pip cannot install it)
#   3. difftest.py: random tables written by Java, read back through the extension (SQL)
#      and, when available, pypaimon; compared with Java's own reads; then a few tables
#      written by pypaimon (when available)
#   4. verify_read.py self-check on the sample warehouse
#   5. the writers: Java reads data files and metadata the core wrote
#      (write/write_check.sh, write/write_pk_check.sh, write/changelog_check.sh,
#      write/changelog_lookup_check.sh, write/changelog_full_check.sh,
#      write/write_dynamic_check.sh,
#      write/write_cross_partition_check.sh, write/write_orc_check.sh,
#      write/append_dv_check.sh, write/nested_check.sh, metadata/check.sh), and tables after the core's
#      maintenance (maintenance/check.sh) and full compaction
#      (compact/compact_check.sh; also deletion-vector, first-row and
#      dynamic-bucket tables), the postpone-bucket compaction
#      (compact/postpone_check.sh), and a compaction race with Java
#      (compact/lsm_race.sh), record-level expiry in compaction
#      (compact/record_expire_check.sh), and the merge read of Java-written
#      scenario tables in every format (merge_check.sh)
#   6. zones and locale, per Paimon release (ORACLE_PAIMON_VERSIONS): a few seeds
#      written by a JVM in Asia/Shanghai, also read by Java in America/New_York,
#      read through SQL in a session in Asia/Kolkata (+05:30) of a second throwaway
#      cluster initialised with --locale=en_US.UTF-8 (scripts/pg-tmp.sh)
# Env: ORACLE_SEEDS (default 10), ORACLE_PY_SEEDS (default 3), ORACLE_PK_SEEDS (default 5;
#      ORACLE_PK=0 leaves out primary-key tables),
#      ORACLE_REQUIRE_SQL=1 fails when the SQL leg cannot run,
#      ORACLE_PAIMON_VERSIONS (default "1.3.1 1.4.2"; the legs 3-4 use the first),
#      ORACLE_ZONE_SEEDS / ORACLE_ZONE_PK_SEEDS (the seeds of leg 5), ORACLE_ZONES=0
#      leaves leg 5 out.
#      CI=true: nothing may be skipped (no Java, no pypaimon, no SQL leg fail the run).
# Prints "N passed, N failed, N skipped" last; exits non-zero on any failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
passed=0
failed=0
skipped=0
# a leg that cannot run: a loud skip, or a failure in CI
skip() {
    if [[ "${CI:-}" == true ]]; then
        echo "run.sh: FAILED (CI=true, nothing may be skipped): $*"
        failed=$((failed + 1))
    else
        echo "run.sh: SKIPPING $*"
        skipped=$((skipped + 1))
    fi
}
step() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "run.sh: FAILED: $*"; fi; }

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    skip "the reference oracle: java or mvn is not installed"
    echo "oracle: $passed passed, $failed failed, $skipped skipped"
    [[ $failed -eq 0 ]]
    exit
fi
read -r -a versions <<<"${ORACLE_PAIMON_VERSIONS:-1.3.1 1.4.2}"
export ORACLE_PAIMON_VERSION="${versions[0]}"
for v in "${versions[@]}"; do
    echo "-- building the Java oracle (paimon-bundle $v from Maven Central)"
    t0=$(date +%s)
    if ! ORACLE_PAIMON_VERSION="$v" "$here/oracle.sh" build; then
        echo "run.sh: the Java oracle does not build for Paimon $v"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "   built in $(( $(date +%s) - t0 ))s"
done

py_flag=()
echo "-- pypaimon (optional)"
if bash "$here/python/setup.sh"; then
    py_flag=(--pypaimon)
else
    skip "the pypaimon legs: pypaimon is NOT available"
fi

sql_flag=()
[[ "${ORACLE_REQUIRE_SQL:-0}" == 1 || "${CI:-}" == true ]] && sql_flag=(--require-sql)
tmp="$(mktemp -d /tmp/paimon_oracle.XXXXXX)"
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

echo "-- difftest: append tables, ${ORACLE_SEEDS:-10} seeds"
step python3 "$here/difftest.py" --seeds "${ORACLE_SEEDS:-10}" --tmp "$tmp/dt" "${py_flag[@]}" "${sql_flag[@]}"
if [[ ${#py_flag[@]} -gt 0 ]]; then
    echo "-- difftest: tables written by pypaimon, ${ORACLE_PY_SEEDS:-3} seeds"
    step python3 "$here/difftest.py" --writer py --seeds "${ORACLE_PY_SEEDS:-3}" --start 500 --tmp "$tmp/dtpy" "${sql_flag[@]}"
    echo "-- difftest: primary-key tables written by pypaimon (upserts), ${ORACLE_PY_PK_SEEDS:-4} seeds"
    step python3 "$here/difftest.py" --writer py --pk --seeds "${ORACLE_PY_PK_SEEDS:-4}" --start 117 --tmp "$tmp/dtpypk" "${sql_flag[@]}"
fi
if [[ "${ORACLE_PK:-1}" == 1 ]]; then
    echo "-- difftest: primary-key tables, ${ORACLE_PK_SEEDS:-5} seeds"
    step python3 "$here/difftest.py" --pk --seeds "${ORACLE_PK_SEEDS:-5}" --tmp "$tmp/dtpk" "${sql_flag[@]}"
fi
# Seeds that once found a bug in the reader (kept as regression cases; a
# change to the generator changes what they produce, so re-pick them then):
#   101, 110  CHAR(n) min/max pruning dropped matching ORC files
#   12024     ORC CHAR(n) values returned space-padded
#   2021 (pk) lookup-changelog aggregation merged levels twice
echo "-- difftest: regression seeds"
for s in 101 110 12024; do
    step python3 "$here/difftest.py" --seed "$s" --tmp "$tmp/dtreg" "${sql_flag[@]}"
done
if [[ "${ORACLE_PK:-1}" != "0" ]]; then
    step python3 "$here/difftest.py" --pk --seed 2021 --tmp "$tmp/dtreg" "${sql_flag[@]}"
fi

echo "-- verify_read self-check (Java-written sample warehouse, Java's own rows)"
if bash "$here/make_sample_warehouse.sh" "$tmp/sample" >/dev/null 2>&1; then
    "$here/oracle.sh" read "$tmp/sample" demo events > "$tmp/sample_rows.jsonl"
    step python3 "$here/verify_read.py" "$tmp/sample" demo events "$tmp/sample_rows.jsonl" "${py_flag[@]}"
else
    echo "run.sh: make_sample_warehouse.sh failed"
    failed=$((failed + 1))
fi

# The writers (issue 8): Java reads what the core writes. write_check.sh: our
# Parquet and Avro copies of Java's tables (value stats byte for byte, Java 1.3.1
# and 1.4.2 read them, Java appends), plus random difftest tables copied by us;
# metadata/check.sh: our manifests, manifest lists and snapshot JSON on top of
# Java's tables (a few corpus tables here; METADATA_TABLES=. for all of them).
echo "-- writers: Java reads the core's data files, manifests and snapshots"
step bash "$here/write/write_check.sh" "$tmp/write" --difftest "${ORACLE_WRITE_SEEDS:-8}"
echo "-- writers: the core's file indexes are Java's bytes, and Java's filtered reads use them"
step bash "$here/write/index_check.sh" "$tmp/write_index"
echo "-- writers: our Parquet page index (ColumnIndex/OffsetIndex), used by Java's filtered reads to skip pages"
step bash "$here/write/page_index_check.sh" "$tmp/write_page_index"
echo "-- writers: Java reads the core's primary-key tables and compacts them"
step bash "$here/write/write_pk_check.sh" "$tmp/write_pk"
echo "-- writers: changelog-producer = input; Java reads our changelog files as its own"
step bash "$here/write/changelog_check.sh" "$tmp/write_changelog"
echo "-- writers: changelog-producer = lookup; Java reads the lookup compaction's changelog as its own"
step bash "$here/write/changelog_lookup_check.sh" "$tmp/write_changelog_lookup"
echo "-- writers: changelog-producer = full-compaction; Java reads our full compactions' changelog as its own"
step bash "$here/write/changelog_full_check.sh" "$tmp/write_changelog_full"
echo "-- writers: dynamic-bucket tables, our hash index against Java's assigner"
step bash "$here/write/write_dynamic_check.sh" "$tmp/write_dyn"
echo "-- writers: cross-partition upsert tables, our key index against Java's GlobalIndexAssigner"
step bash "$here/write/write_cross_partition_check.sh" "$tmp/write_xpart"
echo "-- writers: deletion-vector and first-row tables, compacted at commit as Java's writer does"
step bash "$here/write/write_dv_check.sh" "$tmp/write_dv"
echo "-- writers: DELETE/UPDATE through SQL on append tables with deletion vectors; Java reads and compacts them"
step bash "$here/write/append_dv_check.sh" "$tmp/write_append_dv"
echo "-- writers: nested columns (ROW, MAP, ARRAY<ROW>) written through SQL from jsonb, read by Java"
step bash "$here/write/nested_check.sh" "$tmp/write_nested"
echo "-- writers: ORC data files (append and primary-key tables; stats, reads and compaction by Java)"
step bash "$here/write/write_orc_check.sh" "$tmp/write_orc"
echo "-- writers: column default values written as Java's TableWriteImpl writes them"
step bash "$here/write/default_value_check.sh" "$tmp/write_default_value"
step env METADATA_TABLES="${METADATA_TABLES:-^(append_with_bitmap|append_complex_data|pk_table_partial_update|pk_dv_index_in_data_no_external)\$}" \
    bash "$here/metadata/check.sh"
# Maintenance (issue 8): Java reads tables (and their tags) after the core's
# snapshot expiry, tags, rollback and orphan-file removal, and commits on top.
echo "-- maintenance: Java reads tables after our expire / tag / rollback / orphan clean"
step bash "$here/maintenance/check.sh"
echo "-- compaction: Java reads tables after our full compaction, compacts on top, we compact on top of Java's"
step bash "$here/compact/compact_check.sh" "$tmp/compact"
echo "-- postpone buckets: our compaction moves Java's postpone files into real buckets as Java's does"
step bash "$here/compact/postpone_check.sh" "$tmp/postpone"
echo "-- compaction race: Java and the core compact one bucket at once; one wins (LSM key-range check)"
step bash "$here/compact/lsm_race.sh" "$tmp/lsm_race"
echo "-- record-level expiry: our compaction and Java's drop the same expired records"
step bash "$here/compact/record_expire_check.sh" "$tmp/record_expire"
echo "-- the LSM merge read (sections, engines, formats) against Java's rows"
step bash "$here/merge_check.sh"

# Zones and locale: the writer JVM, Java's reader and the SQL session in three different
# non-UTC zones, text compared under en_US.UTF-8. Seeds: ORC tables with TIMESTAMP_LTZ in
# both encodings of orc.timestamp-ltz.legacy.type (11: false, 45: legacy, with TIMESTAMP
# columns; PK 16 and 53: false), ORC TIMESTAMP (5), Parquet LTZ + TIMESTAMP(9) (12), Avro
# LTZ (3); each against every Paimon release.
if [[ "${ORACLE_ZONES:-1}" == 1 ]]; then
    echo "-- difftest: writer JVM Asia/Shanghai, reader JVM America/New_York, SQL session Asia/Kolkata, cluster en_US.UTF-8"
    zone_flags=(--writer-tz Asia/Shanghai --reader-tz America/New_York --pg-tz Asia/Kolkata --require-sql)
    # shellcheck source=../../scripts/pg-tmp.sh
    if ! ( . "$here/../../scripts/pg-tmp.sh"
           unset PG_TMP_DIR
           export PGPORT=$(( ${PGPORT:-54329} + 1 ))
           PG_TMP_LOCALE=en_US.UTF-8 pg_tmp_start || exit 1
           trap pg_tmp_stop EXIT
           [[ "$(psql -XAtc 'SHOW lc_collate')" == en_US.UTF-8 ]] || exit 1
           zp=0; zf=0
           for v in "${versions[@]}"; do
               for s in ${ORACLE_ZONE_SEEDS:-3 5 11 12 45}; do
                   if python3 "$here/difftest.py" --seed "$s" --paimon-version "$v" --tmp "$tmp/dtz" "${zone_flags[@]}"; then
                       zp=$((zp + 1)); else zf=$((zf + 1)); fi
               done
               for s in ${ORACLE_ZONE_PK_SEEDS:-16 53}; do
                   if python3 "$here/difftest.py" --pk --seed "$s" --paimon-version "$v" --tmp "$tmp/dtz" "${zone_flags[@]}"; then
                       zp=$((zp + 1)); else zf=$((zf + 1)); fi
               done
           done
           echo "$zp $zf" > "$tmp/zone_counts" ); then
        echo "run.sh: FAILED: the en_US.UTF-8 cluster did not start (is the locale generated? scripts/install-deps.sh)"
        failed=$((failed + 1))
    fi
    if [[ -f "$tmp/zone_counts" ]]; then
        read -r zp zf < "$tmp/zone_counts"
        passed=$((passed + zp)); failed=$((failed + zf))
        [[ $zf -eq 0 ]] || echo "run.sh: FAILED: $zf zone/locale seeds"
    fi
fi

echo "oracle: $passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]

#!/usr/bin/env bash
# Run every test of paimon_fdw on this machine (Debian 12, as root):
#   1. install missing packages, build the extension and install it
#   2. core unit tests + fuzz corpus replay (no server; ASan/UBSan)
#   3. a throwaway PostgreSQL: pg_regress tests, then every case of the
#      shared Paimon corpus through SQL (../shared/corpus, or $PAIMON_CORPUS),
#      random WHERE clauses and joins with every pruning path against a scan
#      without pushdown (the corpus tables and pg_regress's Java-written ones),
#      damaged copies of a corpus table (clear errors, no crash), copies
#      carrying table options this reader refuses (0A000 naming the option),
#      and commits landing between and inside statements (snapshot consistency),
#      and tables written through SQL that Java reads and writes on top of,
#      concurrent writers (no row lost, consecutive snapshots), a backend
#      killed during COPY (the committed rows only), the wide table (five
#      sessions filling one partial-update table), random UPDATE/DELETE on
#      primary-key tables
#   4. the reference oracle (Apache Paimon Java from Maven Central) writing
#      random tables that we read back (test/oracle/), when Java is usable
# Exits non-zero if anything required fails. Missing input (no ../shared
# corpus, no Java, no pypaimon) is a loud skip, counted in the closing line;
# in CI (CI=true) it is a failure, and so is any skipped check.
set -eo pipefail
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PAIMON_CORPUS=${PAIMON_CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}
# the unit tests and test/compat read it: missing input fails instead of skipping
[ "${CI:-}" = true ] && export PAIMON_REQUIRE_CORPUS=1

bash scripts/install-deps.sh
# from scratch with -Werror: a compiler warning fails the run
make -s clean
make -s -j2 WERROR=1
make -s install

status=0
LOGS=$(mktemp -d /tmp/paimon_fdw_test.XXXXXX)
echo "== unit tests (core, no server)"
make -s check-unit 2>&1 | tee "$LOGS/unit.log" || status=1

# shellcheck source=pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT

echo "== pg_regress"
if ! make -s installcheck 2>&1 | tee "$LOGS/regress.log"; then
	status=1
	[ -f regression.diffs ] && head -200 regression.diffs
fi

echo "== Paimon corpus through SQL"
python3 test/compat/run_corpus.py --corpus "$PAIMON_CORPUS" 2>&1 | tee "$LOGS/corpus.log" || status=1

echo "== random WHERE clauses: every pruning stage and run-time parameters give the rows of a scan without pushdown"
python3 test/compat/run_pruning_fuzz.py --corpus "$PAIMON_CORPUS" --per-table 40 2>&1 | tee "$LOGS/pruning.log" || status=1
# pg_regress's tables written by Java (row groups, pages, ORC row indexes, merges, partitions)
pz_wh=()
for d in results/*_wh; do [ -d "$d" ] && pz_wh+=(--warehouse "$d"); done
if [ ${#pz_wh[@]} -gt 0 ]; then
	python3 test/compat/run_pruning_fuzz.py "${pz_wh[@]}" --per-table 40 2>&1 | tee "$LOGS/pruningwh.log" || status=1
else
	echo "FAILED: run_pruning_fuzz found no Java-written warehouse of pg_regress in results/" | tee "$LOGS/pruningwh.log"
	status=1
fi

echo "== damaged Paimon files through SQL"
python3 test/compat/run_corrupt.py --corpus "$PAIMON_CORPUS" 2>&1 | tee "$LOGS/corrupt.log" || status=1

echo "== table options through SQL (refused options end with 0A000)"
python3 test/compat/run_options.py --corpus "$PAIMON_CORPUS" 2>&1 | tee "$LOGS/options.log" || status=1

echo "== snapshot consistency through SQL (commits between and inside statements)"
python3 test/compat/run_snapshot.py --corpus "$PAIMON_CORPUS" 2>&1 | tee "$LOGS/snapshot.log" || status=1

echo "== statement_timeout while the core plans (a table of 50000 manifests)"
python3 test/compat/run_cancel.py --corpus "$PAIMON_CORPUS" 2>&1 | tee "$LOGS/cancel.log" || status=1

echo "== writing through SQL, read back and written on top by Apache Paimon Java"
python3 test/compat/run_write.py 2>&1 | tee "$LOGS/write.log" || status=1

echo "== concurrent writers through SQL (no row lost, consecutive snapshots, Java reads them)"
python3 test/compat/run_concurrent.py 2>&1 | tee "$LOGS/concurrent.log" || status=1

echo "== kill -9 of a backend during COPY (committed rows only, for us and Java; orphans listed)"
python3 test/compat/run_kill_copy.py 2>&1 | tee "$LOGS/killcopy.log" || status=1

echo "== the wide table: five sessions INSERT column subsets into one partial-update table, Java reads it"
python3 test/compat/run_wide.py 2>&1 | tee "$LOGS/wide.log" || status=1

echo "== two writers of one bucket interleaved: the later commit wins (sequence check at commit), Java reads it"
python3 test/compat/run_seq_interleave.py 2>&1 | tee "$LOGS/seqinterleave.log" || status=1

echo "== random INSERT/UPDATE/DELETE on primary-key tables through SQL: model, Java, Java's compaction"
python3 test/compat/run_pk_dml.py 2>&1 | tee "$LOGS/pkdml.log" || status=1

echo "== every primary-key table kind, random SQL with Java writes and compactions in between"
python3 test/compat/run_pk_kinds.py 2>&1 | tee "$LOGS/pkkinds.log" || status=1
ORACLE_PAIMON_VERSION=1.4.2 python3 test/compat/run_pk_kinds.py 2>&1 | tee "$LOGS/pkkinds142.log" || status=1

echo "== process-time auto tags made by our commits and Java's: model of TagAutoCreation, Java reads the tags"
python3 test/compat/run_auto_tags.py 2>&1 | tee "$LOGS/autotags.log" || status=1
ORACLE_PAIMON_VERSION=1.4.2 python3 test/compat/run_auto_tags.py 2>&1 | tee "$LOGS/autotags142.log" || status=1

echo "== reference oracle (Apache Paimon Java)"
bash test/oracle/run.sh 2>&1 | tee "$LOGS/oracle.log" || status=1

# one closing line over all suites: cmocka tests, pg_regress tests, corpus
# cases and oracle checks
sum_passed=0
sum_failed=0
sum_skipped=0
add() {
	sum_passed=$((sum_passed + ${1:-0}))
	sum_failed=$((sum_failed + ${2:-0}))
	sum_skipped=$((sum_skipped + ${3:-0}))
}
add "$(grep -ho '\[  PASSED  \] [0-9]*' "$LOGS/unit.log" | awk '{s += $4} END {print s + 0}')" \
	"$(grep -ho '\[  FAILED  \] [0-9]* test' "$LOGS/unit.log" | awk '{s += $4} END {print s + 0}')" \
	"$(grep -ho '\[  SKIPPED \] [0-9]* test' "$LOGS/unit.log" | awk '{s += $4} END {print s + 0}')"
add "$(sed -n 's/.*All \([0-9]*\) tests passed.*/\1/p' "$LOGS/regress.log" | head -1)" \
	"$(sed -n 's/.* \([0-9]*\) of [0-9]* tests failed.*/\1/p' "$LOGS/regress.log" | head -1)"
for f in corpus pruning pruningwh corrupt options snapshot cancel write concurrent killcopy wide seqinterleave pkdml pkkinds pkkinds142 autotags autotags142 oracle; do
	[ -f "$LOGS/$f.log" ] || continue
	line=$(grep -E '^([A-Za-z_]+: )?[0-9]+ passed, [0-9]+ failed' "$LOGS/$f.log" | tail -1 | sed 's/^[A-Za-z_]*: //')
	# "P passed, F failed[, S skipped]"
	add "$(echo "$line" | awk '{print $1}')" "$(echo "$line" | awk '{print $3}')" \
		"$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')"
done
# the lines that name a failure, repeated last: a long run's log is often read from its tail
fails=$(cat "$LOGS"/*.log | grep -aE '^(run\.sh: FAILED|FAIL(ED)?\b|not ok\b|\[  FAILED  \] [^0-9]|.*ERROR: AddressSanitizer|.*runtime error:|.*\.\.\. FAILED)' | head -40 || true)
if [ -n "$fails" ]; then
	echo "== what failed (the first 40 lines naming a failure)"
	echo "$fails"
fi
rm -rf "$LOGS"
if [ "${CI:-}" = true ] && [ $sum_skipped -gt 0 ]; then
	echo "CI: $sum_skipped checks were skipped: a skip is a failure here"
	status=1
fi
[ $status -eq 0 ] || [ $sum_failed -gt 0 ] || [ $sum_skipped -gt 0 ] || sum_failed=1	# a suite failed without counting
if [ $status -eq 0 ]; then echo "ALL TESTS PASSED"; else echo "SOME TESTS FAILED"; fi
echo "$sum_passed passed, $sum_failed failed, $sum_skipped skipped"
exit $status

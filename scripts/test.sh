#!/usr/bin/env bash
# Run every test of paimon_fdw on this machine (Debian 12, as root):
#   1. install missing packages, build the extension and install it
#   2. core unit tests + fuzz corpus replay (no server; ASan/UBSan)
#   3. a throwaway PostgreSQL: pg_regress tests, then every case of the
#      shared Paimon corpus through SQL (../shared/corpus, or $PAIMON_CORPUS)
#   4. the reference oracle (Apache Paimon Java from Maven Central) writing
#      random tables that we read back (test/oracle/), when Java is usable
# Exits non-zero if anything required fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PAIMON_CORPUS=${PAIMON_CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}

bash scripts/install-deps.sh
make -s -j2
make -s install

status=0
echo "== unit tests (core, no server)"
make -s check-unit || status=1

# shellcheck source=pg-tmp.sh
. scripts/pg-tmp.sh
pg_tmp_start
trap pg_tmp_stop EXIT

echo "== pg_regress"
if ! make -s installcheck; then
	status=1
	[ -f regression.diffs ] && head -200 regression.diffs
fi

echo "== Paimon corpus through SQL"
python3 test/compat/run_corpus.py --corpus "$PAIMON_CORPUS" || status=1

if [ -x test/oracle/run.sh ]; then
	echo "== reference oracle (Apache Paimon Java)"
	bash test/oracle/run.sh || status=1
fi

if [ $status -eq 0 ]; then echo "ALL TESTS PASSED"; else echo "SOME TESTS FAILED"; fi
exit $status

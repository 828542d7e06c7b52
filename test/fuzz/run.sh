#!/usr/bin/env bash
# Fuzz the libFuzzer harnesses one after the other (never two at once), each
# from a throwaway copy of its checked-in seeds (test/fuzz/corpus/<target>/).
#
#   bash test/fuzz/run.sh [-t SECONDS] [TARGET...]     (default: 600 s, every harness)
#
# Runs under `nice -n 19` in libFuzzer's fork mode, so one crash or UB report
# (the harnesses are built with -fno-sanitize-recover=all) does not end the
# run: every finding is kept in the work directory printed per target. Keep
# only the new findings, under a descriptive name, as seeds in
# test/fuzz/corpus/<target>/ (make check-unit replays them), not the whole
# generated corpus. Prints one summary line per target: executions, seconds,
# findings.
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=600
if [ "${1:-}" = "-t" ]; then
	secs=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	set -- $(ls test/fuzz/fuzz_*.c | sed 's|test/fuzz/fuzz_\(.*\)\.c|\1|')
fi

for t in "$@"; do
	make -s "build/fuzz/fuzz_$t"
	work=$(mktemp -d "/tmp/paimon_fuzz_$t.XXXXXX")
	mkdir -p "$work/corpus" "$work/findings"
	cp test/fuzz/corpus/"$t"/* "$work/corpus/"
	echo "== fuzz_$t for ${secs}s in $work"
	start=$(date +%s)
	nice -n 19 "build/fuzz/fuzz_$t" -max_total_time="$secs" -fork=1 -ignore_crashes=1 \
		-timeout=30 -rss_limit_mb=2048 -artifact_prefix="$work/findings/" \
		"$work/corpus" >"$work/log" 2>&1 || true
	took=$(($(date +%s) - start))
	execs=$(grep -o '^#[0-9]*' "$work/log" | tail -1 | tr -d '#')
	findings=$(find "$work/findings" -type f | wc -l)
	echo "fuzz_$t: ${execs:-0} executions, ${took}s, $findings findings ($work/findings)"
done

# Sourced by bench/run_lookup.sh and bench/run_lookup_ab.sh: one pgbench run of
# prepared single-key lookups, measured by the backend's own CPU time.
#
# pgbench_backend_cpu SCRIPT DURATION OUT: pgbench -M prepared, 1 client, SCRIPT for
# DURATION seconds against the running server (psql's environment), its output in
# OUT; prints "tps cpu_ms_per_lookup", the CPU time (user + system) of the pgbench
# session's backend over the run (/proc/<pid>/stat) divided by the transactions.
# Needs PG_BIN (scripts/pg-tmp.sh sets it).
pgbench_backend_cpu() {
	local script=$1 duration=$2 out=$3 bp pid='' cpu=0 s n
	"$PG_BIN/pgbench" -n -M prepared -c 1 -j 1 -T "$duration" -f "$script" >"$out" 2>&1 &
	bp=$!
	for _ in $(seq 200); do
		pid=$(psql -X -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'" 2>/dev/null || true)
		[ -n "$pid" ] && break
		sleep 0.05
	done
	while [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; do
		s=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
		[ -n "$s" ] && cpu=$s
		sleep 0.1
	done
	wait "$bp" || true
	n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out")
	awk -v t="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$out")" -v c="$cpu" -v n="${n:-0}" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%s %.4f\n", t, (n > 0 ? c * 1000 / hz / n : 0)}'
}

# check_prologue.sh - the common start of the oracle check scripts; sourced, not run:
#     . "$(cd "$(dirname "$0")" && pwd)/../check_prologue.sh"   (from test/oracle/<dir>/)
# Sets root (the repository), cc (UNIT_CC, default clang), oracle (oracle.sh), and builds
# the Java oracle up front, once (the checks' later oracle.sh calls find it built).
#   check_warehouse <name> [dir]   wh: dir (created, kept), or a new scratch directory
#                                  $TMPDIR/pm_<name>_XXXXXX, removed at exit when the check
#                                  exits 0, kept (and named on stderr) when it fails
#   check_tool <file.c> [dir]      builds the unit libpaimon.a and the tool <dir, default
#                                  $wh>/<file name without .c> against it (ASan/UBSan, so
#                                  LeakSanitizer checks the tool's every run); tool: its path
# Exits the check (status 1) when a build fails.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cc=${UNIT_CC:-clang}
oracle="$root/test/oracle/oracle.sh"
"$oracle" build || { echo "the Java oracle did not build" >&2; exit 1; }

check_warehouse() {
	if [ -n "${2:-}" ]; then
		wh=$2
		mkdir -p "$wh"
		return
	fi
	wh=$(mktemp -d -t "pm_$1_XXXXXX")
	# shellcheck disable=SC2064
	trap "check_cleanup '$wh'" EXIT
}

check_cleanup() {
	local rc=$?
	if [ "$rc" -eq 0 ]; then
		rm -rf "$1"
	else
		echo "check failed ($rc): its warehouse is kept in $1" >&2
	fi
	return "$rc"
}

check_tool() {
	local src=$1 dir=${2:-$wh}
	tool="$dir/$(basename "$src" .c)"
	make -s -C "$root" -j2 "build/unit-$cc/libpaimon.a" >/dev/null || exit 1
	$cc -std=gnu11 -O1 -g -fsanitize=address,undefined -I"$root/src" "$src" \
		"$root/build/unit-$cc/libpaimon.a" -lzstd -lsnappy -llz4 -lz -ljansson -luring -lroaring -lm \
		-o "$tool" || exit 1
}

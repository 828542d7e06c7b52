# java_twin.sh - sourced by the compaction checks (after check_prologue.sh): tables kept in
# pairs, java_<t> (Java's writes and compactions) and ours_<t> (the core's), in database $db
# of warehouse $wh; the caller sets db and fail.
#   files T             the files of T's scan: (partition, bucket, level, rows, sequence
#                       range), sorted
#   same T WHAT V...    Java V (each version given) reads the same rows from java_T and
#                       ours_T, and both have the same files; otherwise FAIL and fail=1

files() {
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$wh" "$db" "$1" | python3 -c '
import json, sys
for f in sorted((json.dumps(f["partition"]), f["bucket"], f["level"], f["row_count"],
                 f["min_sequence_number"], f["max_sequence_number"]) for f in json.load(sys.stdin)):
    print(*f)'
}

same() {
	local t=$1 what=$2
	shift 2
	for v in "$@"; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" "$db" "java_$t" | sort > "$wh/java_$t.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" "$db" "ours_$t" | sort > "$wh/ours_$t.rows"
		if [ -s "$wh/java_$t.rows" ] && cmp -s "$wh/java_$t.rows" "$wh/ours_$t.rows"; then
			echo "$t: $what: Java $v reads the same $(wc -l < "$wh/ours_$t.rows") rows"
		else
			echo "FAIL $t: $what: Java $v reads other rows"
			diff "$wh/java_$t.rows" "$wh/ours_$t.rows" | head -6; fail=1
		fi
	done
	files "java_$t" > "$wh/java_$t.files"
	files "ours_$t" > "$wh/ours_$t.files"
	if cmp -s "$wh/java_$t.files" "$wh/ours_$t.files"; then
		echo "$t: $what: the same $(wc -l < "$wh/ours_$t.files") files (level, rows, sequence range)"
	else
		echo "FAIL $t: $what: other files than Java's"
		diff "$wh/java_$t.files" "$wh/ours_$t.files" | head -6; fail=1
	fi
}

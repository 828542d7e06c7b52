# java_twin.sh - sourced by the compaction checks (after check_prologue.sh): tables kept in
# pairs, java_<t> (Java's writes and compactions) and ours_<t> (the core's), in database $db
# of warehouse $wh; the caller sets db and fail.
#   files T             the files of T's scan: (partition, bucket, level, rows, sequence
#                       range), sorted
#   same_rows A B T WHAT V...  Java V (each version given) reads the same rows from
#                       tables A and B; otherwise FAIL (naming T and WHAT) and fail=1
#   same T WHAT V...    same_rows of java_T and ours_T, and both have the same files

files() {
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$wh" "$db" "$1" | python3 -c '
import json, sys
for f in sorted((json.dumps(f["partition"]), f["bucket"], f["level"], f["row_count"],
                 f["min_sequence_number"], f["max_sequence_number"]) for f in json.load(sys.stdin)):
    print(*f)'
}

same_rows() {
	local a=$1 b=$2 t=$3 what=$4
	shift 4
	for v in "$@"; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" "$db" "$a" | sort > "$wh/$a.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" "$db" "$b" | sort > "$wh/$b.rows"
		if [ -s "$wh/$a.rows" ] && cmp -s "$wh/$a.rows" "$wh/$b.rows"; then
			echo "$t: $what: Java $v reads the same $(wc -l < "$wh/$b.rows") rows"
		else
			echo "FAIL $t: $what: Java $v reads other rows"
			diff "$wh/$a.rows" "$wh/$b.rows" | head -6; fail=1
		fi
	done
}

same() {
	local t=$1 what=$2
	shift 2
	same_rows "java_$t" "ours_$t" "$t" "$what" "$@"
	files "java_$t" > "$wh/java_$t.files"
	files "ours_$t" > "$wh/ours_$t.files"
	if cmp -s "$wh/java_$t.files" "$wh/ours_$t.files"; then
		echo "$t: $what: the same $(wc -l < "$wh/ours_$t.files") files (level, rows, sequence range)"
	else
		echo "FAIL $t: $what: other files than Java's"
		diff "$wh/java_$t.files" "$wh/ours_$t.files" | head -6; fail=1
	fi
}

#!/usr/bin/env bash
# check.sh - Java reads tables after the core's maintenance (issue 8, helper maint).
#
# Java 1.4.2 writes two tables with several commits, compactions and a tag t2
# (pk_*: a partitioned primary-key table with deletion vectors, so index files;
# append_*: a partitioned append table with file-index sidecars, compacted).
# maint_tool.c then runs the core's maintenance on them, and after each step Java
# (each release of ORACLE_PAIMON_VERSIONS) must read what it read before:
#   1. expire (retain min 1, max 3): the latest rows and the tag's rows unchanged,
#      an expired snapshot refused; Java commits on top;
#   2. a tag created by us reads as the latest snapshot;
#   3. rollback to t2 (whose snapshot expired: written back from the tag): the
#      latest rows are t2's; Java commits on top;
#   4. orphan files (older than now): some are removed (the files of the
#      snapshots rollback dropped), Java still reads the latest and the tag;
#   5. tag t2 deleted: the latest still reads;
#   6. (pk) tags with a retention time: ours (tagCreateTime, tagTimeRetained)
#      read by Java, laid out as Java's tag of the same snapshot and retention
#      (but the create time); Java's expiry at its commit deletes ours once
#      past, and ours deletes Java's (TagTimeExpire), the others stay;
#   7. (pk) tag.create-success-file: Java's tag-success-file directory does not
#      break our tag listing; our tag writes <tag>_SUCCESS as Java's does, and
#      deleting it removes that file.
# Also: every data file Java lists for the latest snapshot and the tag exists.
#
# Usage: test/oracle/maintenance/check.sh
# Env: ORACLE_PAIMON_VERSIONS (default "1.3.1 1.4.2").
# Prints "N passed, N failed" last; exits non-zero on any failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../check_prologue.sh"
repo=$root
read -r -a versions <<<"${ORACLE_PAIMON_VERSIONS:-1.3.1 1.4.2}"
passed=0
failed=0
check_warehouse maintenance
work=$wh
check_tool "$here/maint_tool.c"
maint() { "$tool" "$@"; }

ok() { echo "ok     $*"; passed=$((passed + 1)); }
bad() { echo "FAILED $*"; failed=$((failed + 1)); }

# read <version> <table> [flags...] -> sorted rows on stdout ("" and status 1 on error)
read_rows() {
    local v="$1" t="$2"
    shift 2
    ORACLE_PAIMON_VERSION=$v "$oracle" read "$work/wh" db "$t" "$@" 2>"$work/err" | sort
    return "${PIPESTATUS[0]}"
}

# expect_rows <table> <expected file> <what> [read flags...]: every version reads the same
expect_rows() {
    local t="$1" want="$2" what="$3" v
    shift 3
    for v in "${versions[@]}"; do
        if read_rows "$v" "$t" "$@" >"$work/got" && cmp -s "$want" "$work/got"; then
            ok "$t (Paimon $v): $what: $(wc -l <"$want") rows"
        else
            bad "$t (Paimon $v): $what: $(wc -l <"$work/got") rows, want $(wc -l <"$want")"
            grep -m2 -E 'Exception|Caused' "$work/err"
        fi
    done
}

# the data files Java plans for a read exist
expect_files() {
    local t="$1" what="$2" missing=0 found=0 f
    shift 2
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$work/wh" db "$t" "$@" >"$work/files" 2>"$work/err"
    for f in $(grep -o '"[^"]*\.\(parquet\|orc\|avro\)"' "$work/files" | tr -d '"'); do
        [[ "$f" == /* ]] || f="$(find "$work/wh/db.db/$t" -name "$f" | head -1)"
        found=$((found + 1))
        [[ -n "$f" && -e "$f" ]] || missing=$((missing + 1))
    done
    if [[ $missing -eq 0 && $found -gt 0 ]]; then ok "$t: $what: $found data files exist"
    else bad "$t: $what: $missing data files missing"; fi
}

for t in pk append; do
    tbl="$t"
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" scenario "$work/wh" db "$tbl" \
        "$here/${t}_table.json" "$here/${t}_ops.jsonl" >/dev/null 2>"$work/err" \
        || { bad "Java could not write db.$tbl"; cat "$work/err"; continue; }
    tp="$work/wh/db.db/$tbl"
    read_rows 1.4.2 "$tbl" >"$work/latest" && read_rows 1.4.2 "$tbl" --tag t2 >"$work/t2" \
        || { bad "$tbl: Java cannot read its own table"; continue; }
    [[ -s "$work/latest" && -s "$work/t2" ]] || { bad "$tbl: no rows"; continue; }

    # 1. expire
    out=$(maint "$tp" expire 1 3 0) || { bad "$tbl: expire: $out"; continue; }
    n=$(ls "$tp/snapshot" | grep -c '^snapshot-')
    if [[ "$out" == "expired "* && $n -eq 3 && ! -e "$tp/snapshot/snapshot-1" ]]; then
        ok "$tbl: $out, 3 snapshots left, EARLIEST=$(cat "$tp/snapshot/EARLIEST")"
    else bad "$tbl: expire: '$out', $n snapshots left"; fi
    expect_rows "$tbl" "$work/latest" "latest after expire"
    expect_rows "$tbl" "$work/t2" "tag t2 after expire" --tag t2
    expect_files "$tbl" "latest after expire"
    expect_files "$tbl" "tag t2 after expire" --tag t2
    if read_rows 1.4.2 "$tbl" --snapshot 1 >/dev/null; then bad "$tbl: Java read expired snapshot 1"
    else ok "$tbl: expired snapshot 1 refused by Java"; fi
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$work/wh" db "$tbl" "$here/${t}_more.jsonl" \
        >/dev/null 2>"$work/err" || { bad "$tbl: Java cannot commit after expire"; cat "$work/err"; }
    read_rows 1.4.2 "$tbl" >"$work/latest2"
    if [[ $(wc -l <"$work/latest2") -eq $(( $(wc -l <"$work/latest") + 1 )) ]]; then
        ok "$tbl: Java commits on top after expire"
    else bad "$tbl: after Java's commit: $(wc -l <"$work/latest2") rows"; fi

    # 2. our tag of the latest snapshot
    maint "$tp" tag-create mine >/dev/null || bad "$tbl: tag-create"
    expect_rows "$tbl" "$work/latest2" "tag created by us" --tag mine

    # 3. rollback to t2, whose snapshot expired
    maint "$tp" rollback t2 >/dev/null || bad "$tbl: rollback"
    expect_rows "$tbl" "$work/t2" "latest after rollback to t2"
    [[ -e "$tp/tag/tag-mine" ]] && bad "$tbl: rollback kept the later tag 'mine'"
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$work/wh" db "$tbl" "$here/${t}_more.jsonl" \
        >/dev/null 2>"$work/err" || { bad "$tbl: Java cannot commit after rollback"; cat "$work/err"; }
    read_rows 1.4.2 "$tbl" >"$work/latest3"
    if [[ $(wc -l <"$work/latest3") -eq $(( $(wc -l <"$work/t2") + 1 )) ]]; then
        ok "$tbl: Java commits on top after rollback"
    else bad "$tbl: after Java's commit on the rollback: $(wc -l <"$work/latest3") rows"; fi

    # 4. orphan files
    sleep 1
    removed=$(maint "$tp" orphans now) || bad "$tbl: orphans"
    if [[ $(printf '%s\n' "$removed" | grep -c .) -gt 0 ]]; then
        ok "$tbl: $(printf '%s\n' "$removed" | grep -c .) orphan files removed"
    else bad "$tbl: no orphan files found after a rollback"; fi
    expect_rows "$tbl" "$work/latest3" "latest after orphan removal"
    expect_rows "$tbl" "$work/t2" "tag t2 after orphan removal" --tag t2
    expect_files "$tbl" "latest after orphan removal"
    removed=$(maint "$tp" orphans now)
    [[ -z "$removed" ]] && ok "$tbl: a second orphan clean finds nothing" \
        || bad "$tbl: a second orphan clean found: $removed"

    # 5. delete t2
    maint "$tp" tag-delete t2 >/dev/null || bad "$tbl: tag-delete"
    [[ ! -e "$tp/tag/tag-t2" ]] || bad "$tbl: tag t2 still there"
    expect_rows "$tbl" "$work/latest3" "latest after deleting t2"

    # 6. tags with a retention time
    [[ $t == pk ]] || continue
    maint "$tp" tag-create-retained keep "1 d" >/dev/null || bad "$tbl: tag-create-retained"
    maint "$tp" tag-create-retained brief "2 s" >/dev/null || bad "$tbl: tag-create-retained"
    expect_rows "$tbl" "$work/latest3" "our tag with a retention" --tag keep
    printf '%s\n' '{"op": "alter", "changes": [{"set": "tag.default-time-retained", "value": "1 d"}]}' \
        '{"op": "tag", "name": "jkeep"}' \
        '{"op": "alter", "changes": [{"set": "tag.default-time-retained", "value": "2 s"}]}' \
        '{"op": "tag", "name": "jbrief"}' > "$work/tags.jsonl"
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$work/wh" db "$tbl" "$work/tags.jsonl" \
        >/dev/null 2>"$work/err" || { bad "$tbl: Java cannot tag"; cat "$work/err"; }
    if diff <(grep -v tagCreateTime "$tp/tag/tag-keep") <(grep -v tagCreateTime "$tp/tag/tag-jkeep") >/dev/null &&
        grep -Eq '"tagCreateTime" : \[ [0-9]{4}(, [0-9]+){4,6} \],$' "$tp/tag/tag-keep" &&
        grep -q '"tagTimeRetained" : 86400.000000000$' "$tp/tag/tag-keep"; then
        ok "$tbl: our tag with a retention is laid out as Java's"
    else bad "$tbl: our tag with a retention differs from Java's"; diff "$tp/tag/tag-keep" "$tp/tag/tag-jkeep"; fi
    sleep 3
    # ours expires Java's brief tag; Java's commit then expires ours
    out=$(maint "$tp" tag-expire)
    if [[ "$out" == "expired 2 tags" && ! -e "$tp/tag/tag-jbrief" && -e "$tp/tag/tag-jkeep" ]]; then
        ok "$tbl: our TagTimeExpire deletes the tags past their retention (Java's too)"
    else bad "$tbl: our tag expiry: '$out'"; ls "$tp/tag"; fi
    maint "$tp" tag-create-retained brief2 "1 s" >/dev/null || bad "$tbl: tag-create-retained"
    sleep 2
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$work/wh" db "$tbl" "$here/${t}_more.jsonl" \
        >/dev/null 2>"$work/err" || { bad "$tbl: Java cannot commit"; cat "$work/err"; }
    if [[ ! -e "$tp/tag/tag-brief2" && -e "$tp/tag/tag-keep" && -e "$tp/tag/tag-jkeep" ]]; then
        ok "$tbl: Java's commit expires our tag past its retention, keeps the others"
    else bad "$tbl: after Java's commit the tags are: $(ls "$tp/tag" | tr '\n' ' ')"; fi
    expect_rows "$tbl" "$work/latest3" "our tag with a retention after the expiries" --tag keep

    # 7. success files
    printf '%s\n' '{"op": "alter", "changes": [{"set": "tag.create-success-file", "value": "true"}]}' \
        '{"op": "tag", "name": "jsuccess"}' > "$work/success.jsonl"
    ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$work/wh" db "$tbl" "$work/success.jsonl" \
        >/dev/null 2>"$work/err" || { bad "$tbl: Java cannot tag with a success file"; cat "$work/err"; }
    sd="$tp/tag/tag-success-file"
    # listing the tags (TagTimeExpire) skips that directory, as Java's TagManager does
    if out=$(maint "$tp" tag-expire 2>&1) && [[ "$out" == "expired "* ]]; then
        ok "$tbl: our tag listing skips Java's tag-success-file directory"
    else bad "$tbl: our tag listing beside tag-success-file: $out"; fi
    if out=$(maint "$tp" tag-create ours_ok 2>&1) && [[ -f "$sd/jsuccess_SUCCESS" && -f "$sd/ours_ok_SUCCESS" ]] &&
        diff <(sed 's/[0-9]\{13\}/T/' "$sd/jsuccess_SUCCESS") <(sed 's/[0-9]\{13\}/T/' "$sd/ours_ok_SUCCESS") >/dev/null; then
        ok "$tbl: our tag writes its success file as Java's, beside Java's tag-success-file directory"
    else bad "$tbl: success files: $out $(ls "$sd" 2>&1 | tr '\n' ' ')"; fi
    expect_rows "$tbl" "$work/latest3" "our tag beside success files" --tag ours_ok
    if maint "$tp" tag-delete ours_ok >/dev/null && [[ ! -e "$sd/ours_ok_SUCCESS" && -e "$sd/jsuccess_SUCCESS" ]]; then
        ok "$tbl: deleting our tag removes its success file"
    else bad "$tbl: after deleting our tag: $(ls "$sd" | tr '\n' ' ')"; fi
done

echo "maintenance: $passed passed, $failed failed"
[[ $failed -eq 0 ]]

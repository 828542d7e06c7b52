#!/usr/bin/env bash
# oracle.sh - runs the Java reference oracle (Apache Paimon's own Java API, see
# test/oracle/README.md). Builds it with Maven on first use (offline when ~/.m2 already
# holds the dependencies, else online).
#   Usage: oracle.sh <command> <warehouse> <db> <table> ...
#          oracle.sh build                 (only build; exit status says whether it built)
# Env: ORACLE_PAIMON_VERSION  the Paimon release to run (default: java/pom.xml's
#                             paimon.version; others build into java/target/paimon-<version>)
#      ORACLE_JAVA_OPTS       JVM options
#      ORACLE_TZ              the JVM's default time zone (-Duser.timezone), e.g. Asia/Shanghai
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proj="$here/java"
default_version=$(sed -n 's:.*<paimon.version>\(.*\)</paimon.version>.*:\1:p' "$proj/pom.xml")
version="${ORACLE_PAIMON_VERSION:-$default_version}"
if [[ ! "$version" =~ ^[0-9A-Za-z.-]+$ ]]; then
    echo "oracle.sh: bad ORACLE_PAIMON_VERSION '$version'" >&2
    exit 2
fi
build="$proj/target"
[[ "$version" == "$default_version" ]] || build="$proj/target/paimon-$version"
cp_file="$build/classpath.txt"
main_class="$build/classes/org/paimonfdw/oracle/Oracle.class"
src="$proj/src/main/java/org/paimonfdw/oracle/Oracle.java"
if [[ ! -f "$cp_file" || ! -f "$main_class" || "$src" -nt "$main_class" || "$proj/pom.xml" -nt "$cp_file" ]]; then
    echo "oracle.sh: building the Java oracle for Paimon $version (mvn package)" >&2
    mvn_args=(-q package -DskipTests "-Dpaimon.version=$version" "-Doracle.build.dir=$build")
    ( cd "$proj" && { mvn -o "${mvn_args[@]}" >/dev/null 2>&1 || mvn "${mvn_args[@]}" >&2; } )
fi
[[ "${1:-}" == build ]] && exit 0
JAVA_OPTS="${ORACLE_JAVA_OPTS:--Xmx2g -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
[[ -z "${ORACLE_TZ:-}" ]] || JAVA_OPTS+=" -Duser.timezone=$ORACLE_TZ"
# shellcheck disable=SC2086
exec java $JAVA_OPTS -cp "$build/classes:$(cat "$cp_file")" org.paimonfdw.oracle.Oracle "$@"

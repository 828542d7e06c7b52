#!/usr/bin/env bash
# oracle.sh - runs the Java reference oracle (Apache Paimon's own Java API, see
# test/oracle/README.md). Builds it with Maven on first use (offline when ~/.m2 already
# holds the dependencies, else online).  Usage: oracle.sh <command> <warehouse> <db> <table> ...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proj="$here/java"
cp_file="$proj/target/classpath.txt"
main_class="$proj/target/classes/org/paimonfdw/oracle/Oracle.class"
src="$proj/src/main/java/org/paimonfdw/oracle/Oracle.java"
if [[ ! -f "$cp_file" || ! -f "$main_class" || "$src" -nt "$main_class" || "$proj/pom.xml" -nt "$cp_file" ]]; then
    echo "oracle.sh: building the Java oracle (mvn package)" >&2
    ( cd "$proj" && { mvn -q -o package -DskipTests >/dev/null 2>&1 || mvn -q package -DskipTests >&2; } )
fi
JAVA_OPTS="${ORACLE_JAVA_OPTS:--Xmx2g -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
# shellcheck disable=SC2086
exec java $JAVA_OPTS -cp "$proj/target/classes:$(cat "$cp_file")" org.paimonfdw.oracle.Oracle "$@"

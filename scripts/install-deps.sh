#!/usr/bin/env bash
# Install what paimon_fdw needs on Debian 12 (as root): PostgreSQL 15 and its
# server headers, the compression/JSON/io_uring/roaring libraries, cmocka,
# clang (unit tests and fuzzers), Java 17 + Maven and Python 3 (the reference oracle), the
# zstd tool (test/compat/avro_craft.py reads Paimon's zstd Avro files), and
# the en_US.UTF-8 locale (the oracle's second cluster: text under a real
# collation) and tzdata (ORC timestamps and process-time tags in named zones).
# Idempotent: packages already present are not reinstalled, a locale already
# generated is not generated again.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
pkgs=(build-essential pkg-config
      "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" postgresql-client
      libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libjansson-dev liburing-dev
      libroaring-dev libcmocka-dev clang libclang-rt-14-dev
      python3 zstd locales tzdata)
# Java and Maven are only installed when missing (the machine may have its own JDK)
command -v java >/dev/null 2>&1 || pkgs+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || pkgs+=(maven)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps.sh: run as root to install packages" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! locale -a 2>/dev/null | grep -qix 'en_US\.utf-\?8'; then
	echo "generating the en_US.UTF-8 locale"
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps.sh: run as root to generate the en_US.UTF-8 locale" >&2
		exit 1
	fi
	if grep -q '^# *en_US.UTF-8 UTF-8' /etc/locale.gen; then
		sed -i 's/^# *\(en_US.UTF-8 UTF-8\)/\1/' /etc/locale.gen
	elif ! grep -q '^en_US.UTF-8 UTF-8' /etc/locale.gen; then
		echo 'en_US.UTF-8 UTF-8' >>/etc/locale.gen
	fi
	locale-gen >/dev/null
fi
echo "dependencies present"

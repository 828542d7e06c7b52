#!/usr/bin/env bash
# setup.sh - makes the optional pypaimon venv used by the oracle tests
# (~/.cache/paimon_fdw/pyvenv, python3.11, pypaimon from PyPI). Safe to re-run.
# Exit status 0 when pypaimon imports afterwards, 1 (with a loud message) when not.
set -uo pipefail
venv="${PYPAIMON_VENV:-$HOME/.cache/paimon_fdw/pyvenv}"
py="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if [[ ! -x "$venv/bin/python" ]]; then
    "$py" -m venv "$venv" || { echo "setup.sh: cannot create venv $venv" >&2; exit 1; }
fi
if ! "$venv/bin/python" -c 'import pypaimon' 2>/dev/null; then
    "$venv/bin/pip" install -q "pypaimon${PYPAIMON_VERSION:+==$PYPAIMON_VERSION}" >&2 || {
        echo "setup.sh: WARNING: pip install pypaimon FAILED: the pypaimon legs will be skipped" >&2
        exit 1
    }
fi
"$venv/bin/python" -c 'import pypaimon, importlib.metadata as m; print("pypaimon", m.version("pypaimon"))'

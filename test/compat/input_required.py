"""Whether missing test input is a failure or a loud skip.

In CI (CI=true) or with PAIMON_REQUIRE_CORPUS=1 (scripts/test.sh sets it in
CI) missing input fails the run; otherwise it is skipped, saying why, and
counted as skipped in the "N passed, N failed, N skipped" line.
"""
import os


def input_required():
    return os.environ.get("CI") == "true" or os.environ.get("PAIMON_REQUIRE_CORPUS") == "1"


def missing_input(what, reason):
    """Report missing input; returns the exit status (1 when required)."""
    if input_required():
        print("%s: FAILED: %s (input is required: CI=true or PAIMON_REQUIRE_CORPUS=1)" % (what, reason))
        print("0 passed, 1 failed")
        return 1
    print("%s: SKIPPING: %s" % (what, reason))
    print("0 passed, 0 failed, 1 skipped")
    return 0

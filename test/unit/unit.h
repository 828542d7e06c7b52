/*-------------------------------------------------------------------------
 * unit.h
 *	  Shared helpers of the core unit tests (cmocka).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_UNIT_H
#define PM_TEST_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/*
 * Path of a file in the shared corpus ($PAIMON_CORPUS, else
 * ../shared/corpus relative to the repository), in a static buffer
 * overwritten by the next call.
 */
extern const char *unit_corpus_path(const char *relative);

/*
 * Whether missing input is an error: in CI (CI=true) or with
 * PAIMON_REQUIRE_CORPUS=1 (scripts/test.sh sets it in CI).
 */
extern bool unit_input_required(void);

/*
 * When the corpus is absent: fail the current test if input is required,
 * else skip it (cmocka skip(), counted as skipped) saying why.
 */
extern void unit_require_corpus(void);

/* The same for any missing input: fail or skip with `reason`. */
extern void unit_missing_input(const char *reason);

#endif

/*-------------------------------------------------------------------------
 * unit.h
 *	  Shared helpers of the core unit tests (cmocka).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_UNIT_H
#define PM_TEST_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/*
 * Path of a file in the shared corpus ($PAIMON_CORPUS, else
 * ../shared/corpus relative to the repository), in a static buffer
 * overwritten by the next call.
 */
extern const char *unit_corpus_path(const char *relative);

/* Skip the current test (cmocka skip()) when the corpus is absent. */
extern void unit_require_corpus(void);

#endif

/*-------------------------------------------------------------------------
 * corpus_case.h
 *	  Shared by the tests that replay ../shared/corpus/expected cases in C
 *	  (test_table_append.c: append tables through pm_scan_reader;
 *	  test_merge_table.c: primary-key tables through pm_table_read).
 *
 * Canonical JSON text of expected and decoded values, the predicate text
 * of a case parsed into a pm_predicate (and evaluated on batches), and row
 * sets compared as multisets.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_CORPUS_CASE_H
#define PM_TEST_CORPUS_CASE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/vector.h"
#include "table/predicate.h"
#include "table/table.h"

typedef struct sbuf
{
	char	   *s;
	size_t		len;
	size_t		cap;
} sbuf;

extern void sb_add(sbuf *b, const char *s, size_t n);
extern void sb_str(sbuf *b, const char *s);
/* Canonical text of a JSON value (expected rows). */
extern void canon_json(sbuf *b, const json_t *j);
/* The same canonical text for value i of a vector. */
extern void fmt_value(sbuf *b, const pm_vector *v, int64_t i);

typedef struct pparser
{
	const char *s;
	const pm_type *row;
	pm_arena   *arena;
	bool		ok;
} pparser;

extern void pp_space(pparser *p);
/* Parse the SQL predicate text of a case; p->ok false if it could not. */
extern pm_predicate *pp_or(pparser *p);
extern void collect_fields(const pm_predicate *p, int *fields, int *n);
extern pm_value vector_value(const pm_vector *v, int64_t i);
extern bool eval(const pm_predicate *p, const pm_type *row, const pm_batch *b,
				 const int *col_of_field, int64_t i);

typedef struct rowset
{
	char	  **rows;
	int			n;
	int			cap;
} rowset;

extern void rowset_add(rowset *r, char *s);
extern void rowset_free(rowset *r);
extern int	cmp_str(const void *a, const void *b);

/* external_path_map for a corpus table (malloc'd), or NULL. */
extern char *external_map_for(const char *table_dir);

/*
 * Plan the table with plan_filter, read `fields` (through pm_table_read
 * when merged, else pm_scan_reader), keep the rows pred accepts, and add
 * their canonical text (the first ncase_cols fields) to out.
 */
extern void read_rows(pm_table *table, const pm_predicate *plan_filter, const pm_predicate *pred,
					  const int *fields, int nfields, int ncase_cols, rowset *out,
					  pm_scan_stats *stats, bool merged);
/* Assert that two row sets are equal as multisets (sorts both). */
extern void compare_rows(const char *name, rowset *got, rowset *want);

/*
 * Check one expected-case file: open its table (snapshot, external paths),
 * read its columns planned without and with its predicate (through
 * pm_table_read when merged, else pm_scan_reader) and compare the rows
 * with the expected ones; the funnel must add up.
 */
extern void corpus_case_check(const char *case_path, bool merged);

/*
 * The cmocka tests of every expected case of table_kind `kind` (test
 * function fn, state = the case file's path, name = its file name), in
 * file name order, followed by the nextra extra tests. Returns the count.
 * Never zero cases silently: an absent corpus is one skipped (or, when input
 * is required, failed) test, an unparsable case file a failed one.
 */
extern int	corpus_case_tests(const char *kind, void (*fn) (void **state),
							  const struct CMUnitTest *extra, int nextra,
							  struct CMUnitTest **tests);

#endif

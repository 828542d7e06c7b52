/*-------------------------------------------------------------------------
 * test_merge_table.c
 *	  Every primary-key case of the shared corpus (expected/<case>.json with
 *	  table_kind "pk") read through pm_table_open -> pm_table_scan_plan
 *	  -> pm_table_read (the LSM merge of src/lsm/) and compared, as a
 *	  multiset, with the expected rows; the case machinery (predicate
 *	  translation, canonical values, both plans) is corpus_case.c's.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "corpus_case.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/env.h"
#include "io/fileio.h"
#include "row/value.h"
#include "table/split.h"
#include "table/table.h"
#include "lsm/table_read.h"


static void
test_case(void **state)
{
	corpus_case_check(*state, true);
}

int
main(void)
{
	struct CMUnitTest *tests;
	int			n = corpus_case_tests("pk", test_case, NULL, 0, &tests);

	return _cmocka_run_group_tests("merge_table", tests, n, NULL, NULL);
}

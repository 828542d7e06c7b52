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
	char	   *dir = strdup(unit_corpus_path("expected"));
	DIR		   *d = opendir(dir);
	struct dirent *de;
	struct CMUnitTest *tests = NULL;
	int			n = 0,
				cap = 0;
	int			rc;

	if (d != NULL)
	{
		char	  **names = NULL;
		int			nn = 0;

		while ((de = readdir(d)) != NULL)
		{
			size_t		len = strlen(de->d_name);

			if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0)
			{
				names = realloc(names, sizeof(char *) * (nn + 1));
				names[nn++] = strdup(de->d_name);
			}
		}
		closedir(d);
		qsort(names, nn, sizeof(char *), cmp_str);
		for (int i = 0; i < nn; i++)
		{
			char		path[4096];
			json_t	   *c;
			json_error_t jerr;

			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			c = json_load_file(path, 0, &jerr);
			if (c != NULL && json_is_string(json_object_get(c, "table_kind")) &&
				strcmp(json_string_value(json_object_get(c, "table_kind")), "pk") == 0)
			{
				if (n == cap)
				{
					cap = cap ? cap * 2 : 64;
					tests = realloc(tests, sizeof(*tests) * cap);
				}
				memset(&tests[n], 0, sizeof(tests[n]));
				tests[n].name = strdup(names[i]);
				tests[n].test_func = test_case;
				tests[n].initial_state = strdup(path);
				n++;
			}
			json_decref(c);
			free(names[i]);
		}
		free(names);
	}
	rc = _cmocka_run_group_tests("merge_table", tests, n, NULL, NULL);
	free(dir);
	return rc;
}

/*-------------------------------------------------------------------------
 * table_read.c
 *	  The read facade: append tables through pm_scan_reader_*, primary-key
 *	  tables through the LSM merge (see table_read.h).
 *
 * XXX: for now a pure pass-through to pm_scan_reader_*; the merge of
 * primary-key splits is being added behind the same signature.
 *-------------------------------------------------------------------------
 */
#include "lsm/table_read.h"

#include "common/env.h"
#include "table/split.h"

struct pm_table_read
{
	const pm_env *env;
	pm_scan_reader *reader;
};

pm_code
pm_table_read_open(pm_scan *scan, const int *fields, int nfields,
				   pm_table_read **out, pm_error *err)
{
	const pm_env *env = pm_table_env(pm_scan_table(scan));
	pm_table_read *read;
	pm_code		rc;

	*out = NULL;
	read = pm_alloc(env, sizeof(*read));
	if (read == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	read->env = env;
	read->reader = NULL;
	rc = pm_scan_reader_open(scan, fields, nfields, &read->reader, err);
	if (rc != PM_OK)
	{
		pm_free(env, read);
		return rc;
	}
	*out = read;
	return PM_OK;
}

pm_code
pm_table_read_next(pm_table_read *read, pm_batch **batch, pm_error *err)
{
	return pm_scan_reader_next(read->reader, batch, err);
}

void
pm_table_read_close(pm_table_read *read)
{
	if (read == NULL)
		return;
	pm_scan_reader_close(read->reader);
	pm_free(read->env, read);
}

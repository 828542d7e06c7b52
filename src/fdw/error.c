/*-------------------------------------------------------------------------
 * error.c
 *	  Turning core errors (pm_error) into Postgres ereport().
 *
 * The one place that maps pm_code to SQLSTATE (style.md §5). Messages come
 * from the core already formatted, hence errmsg_internal.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <errno.h>

#include "miscadmin.h"

int
pmfdw_sqlstate(pm_code code)
{
	switch (code)
	{
		case PM_ERR_CORRUPT:
			return ERRCODE_DATA_CORRUPTED;
		case PM_ERR_UNSUPPORTED:
			return ERRCODE_FEATURE_NOT_SUPPORTED;
		case PM_ERR_NOT_FOUND:
			return ERRCODE_UNDEFINED_FILE;
		case PM_ERR_NOMEM:
			return ERRCODE_OUT_OF_MEMORY;
		case PM_ERR_CANCELED:
			return ERRCODE_QUERY_CANCELED;
		case PM_ERR_CONFLICT:
			return ERRCODE_T_R_SERIALIZATION_FAILURE;
		case PM_ERR_INVALID:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case PM_ERR_IO:
			return ERRCODE_IO_ERROR;
		case PM_OK:
			break;
	}
	return ERRCODE_INTERNAL_ERROR;
}

void
pmfdw_report(int elevel, const pm_error *err)
{
	errno = err->sys_errno;
	ereport(elevel,
			(err->code == PM_ERR_IO && err->sys_errno != 0 ? errcode_for_file_access() :
			 errcode(pmfdw_sqlstate(err->code)),
			 err->sys_errno ? errmsg_internal("%s: %m", err->message) :
			 errmsg_internal("%s", err->message),
			 err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
			 err->path[0] ? errcontext("Paimon file \"%s\"", err->path) : 0));
}

void
pmfdw_error(const pm_error *err)
{
	/* the core stopped for a pending cancel: let Postgres raise it as its own */
	if (err->code == PM_ERR_CANCELED)
		CHECK_FOR_INTERRUPTS();
	pmfdw_report(ERROR, err);
	pg_unreachable();
}

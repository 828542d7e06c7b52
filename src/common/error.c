/*-------------------------------------------------------------------------
 * error.c
 *	  Recording core errors into caller-owned pm_error buffers.
 *-------------------------------------------------------------------------
 */
#include "common/error.h"

#include <stdio.h>
#include <string.h>

void
pm_error_clear(pm_error *err)
{
	err->code = PM_OK;
	err->sys_errno = 0;
	err->message[0] = '\0';
	err->detail[0] = '\0';
	err->path[0] = '\0';
}

static pm_code vfail(pm_error *err, pm_code code, int sys_errno, const char *fmt, va_list ap)
			__attribute__((format(printf, 4, 0)));

static pm_code
vfail(pm_error *err, pm_code code, int sys_errno, const char *fmt, va_list ap)
{
	err->code = code;
	err->sys_errno = sys_errno;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	err->detail[0] = '\0';
	return code;
}

pm_code
(pm_fail) (pm_error *err, pm_code code, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfail(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

pm_code
(pm_fail_errno) (pm_error *err, int sys_errno, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfail(err, PM_ERR_IO, sys_errno, fmt, ap);
	va_end(ap);
	return PM_ERR_IO;
}

void
pm_error_detail(pm_error *err, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void
pm_error_set_path(pm_error *err, const char *path)
{
	if (err->path[0] == '\0' && path != NULL)
		snprintf(err->path, sizeof(err->path), "%s", path);
}

const char *
pm_code_name(pm_code code)
{
	switch (code)
	{
		case PM_OK:
			return "ok";
		case PM_ERR_IO:
			return "io";
		case PM_ERR_NOT_FOUND:
			return "not found";
		case PM_ERR_CORRUPT:
			return "corrupt";
		case PM_ERR_UNSUPPORTED:
			return "unsupported";
		case PM_ERR_INVALID:
			return "invalid";
		case PM_ERR_CONFLICT:
			return "conflict";
		case PM_ERR_NOMEM:
			return "out of memory";
		case PM_ERR_CANCELED:
			return "canceled";
	}
	return "unknown";
}

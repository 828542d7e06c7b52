/*-------------------------------------------------------------------------
 * error.h
 *	  Status codes and error messages of the paimon_fdw core (libpaimon).
 *
 * Fallible core functions return a pm_code and fill a caller-owned pm_error.
 * The buffers are fixed so that reporting out-of-memory needs no memory.
 * src/fdw/ turns a pm_error into ereport(); nothing below it knows Postgres.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_ERROR_H
#define PM_COMMON_ERROR_H

#include <stdarg.h>

#if defined(__GNUC__)
#define PM_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PM_PRINTF(fmt, args)
#endif

typedef enum pm_code
{
	PM_OK = 0,
	PM_ERR_IO,					/* read/write failed; sys_errno set */
	PM_ERR_NOT_FOUND,			/* file, snapshot or schema missing */
	PM_ERR_CORRUPT,				/* bytes contradict the spec */
	PM_ERR_UNSUPPORTED,			/* valid Paimon, not implemented here */
	PM_ERR_INVALID,				/* bad argument or option value */
	PM_ERR_CONFLICT,			/* another writer committed first */
	PM_ERR_NOMEM,
	PM_ERR_CANCELED
} pm_code;

typedef struct pm_error
{
	pm_code		code;
	int			sys_errno;		/* errno behind PM_ERR_IO, else 0 */
	char		message[256];	/* one line, lower case, no final period */
	char		detail[512];	/* optional; full sentences */
	char		path[1024];		/* file concerned, if any */
} pm_error;

/* Reset err to "no error". */
extern void pm_error_clear(pm_error *err);

/*
 * Record an error and return its code:
 *		return pm_fail(err, PM_ERR_CORRUPT, "bad magic %x", m);
 * Keeps an already recorded path (set it with pm_error_set_path).
 */
extern pm_code pm_fail(pm_error *err, pm_code code, const char *fmt,...) PM_PRINTF(3, 4);

/* Like pm_fail, with the errno that caused an I/O failure. */
extern pm_code pm_fail_errno(pm_error *err, int sys_errno, const char *fmt,...) PM_PRINTF(3, 4);

/*
 * The calls above return their code through a macro, so the compiler sees
 * that a failure path returns non-OK: after PM_TRY(f(..., &out)), out was
 * set (no false -Wmaybe-uninitialized where f's failure is a pm_fail).
 * `code` is evaluated twice: pass a constant or a plain expression.
 */
static inline pm_code
pm_code_of_(pm_code code, pm_code recorded)
{
	(void) recorded;
	return code;
}
#define pm_fail(err, code, ...) pm_code_of_((code), pm_fail((err), (code), __VA_ARGS__))
#define pm_fail_errno(err, sys_errno, ...) \
	pm_code_of_(PM_ERR_IO, pm_fail_errno((err), (sys_errno), __VA_ARGS__))

/* Set the detail line of an error already recorded. */
extern void pm_error_detail(pm_error *err, const char *fmt,...) PM_PRINTF(2, 3);

/* Set the file an error concerns, unless one is already set. */
extern void pm_error_set_path(pm_error *err, const char *path);

/* Name of a code, for messages and tests ("corrupt", "unsupported", ...). */
extern const char *pm_code_name(pm_code code);

#define PM_TRY(expr) \
	do { pm_code pm_rc_ = (expr); if (pm_rc_ != PM_OK) return pm_rc_; } while (0)

#endif							/* PM_COMMON_ERROR_H */

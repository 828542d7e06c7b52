/*-------------------------------------------------------------------------
 * random.c
 *	  Random bytes from getrandom(2) (random.h). Retries on EINTR and on
 *	  short reads, which getrandom may return for large requests or when a
 *	  signal arrives.
 *-------------------------------------------------------------------------
 */
#include "common/random.h"

#include <errno.h>
#include <sys/random.h>

pm_code
pm_random_bytes(void *buf, size_t n, pm_error *err)
{
	uint8_t    *b = buf;
	size_t		got = 0;

	while (got < n)
	{
		ssize_t		r = getrandom(b + got, n - got, 0);

		if (r < 0)
		{
			if (errno == EINTR)
				continue;
			return pm_fail_errno(err, errno, "could not draw random bytes");
		}
		got += (size_t) r;
	}
	return PM_OK;
}

pm_code
pm_random_u32(uint32_t *out, pm_error *err)
{
	return pm_random_bytes(out, sizeof(*out), err);
}

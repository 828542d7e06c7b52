/*-------------------------------------------------------------------------
 * tz.c
 *	  Read time-zone rules from TZif files (RFC 8536) for offset lookups.
 *
 * Hand-written: libc's localtime_r works only on the process-wide TZ and is
 * not thread- or reentrancy-friendly inside a Postgres backend, and no
 * installed library reads TZif into a queryable object. This is a small
 * reader: transitions and their UTC offsets (64-bit data block of version 2+
 * files), nothing else.
 *
 * XXX: instants after the last transition use the last offset; the POSIX TZ
 * rule in the file's footer is not evaluated. Debian's "fat" files list
 * transitions up to 2037, so only later DST instants are affected.
 *
 * The files are system files, not table data, so they are read with POSIX
 * calls rather than a pm_fileio. Zone names come from data files and are
 * checked (no "..", no leading '/') before they become paths.
 *-------------------------------------------------------------------------
 */
#include "common/tz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TZIF_SIZE (1 << 20)

struct pm_tz
{
	const char *name;
	int32_t		initial;		/* offset before the first transition */
	int			ntrans;
	const int64_t *trans;		/* UTC seconds, ascending */
	const int32_t *offsets;		/* offset from trans[i] on */
};

static const pm_tz utc_zone = {"UTC", 0, 0, NULL, NULL};

const pm_tz *
pm_tz_utc(void)
{
	return &utc_zone;
}

const char *
pm_tz_name(const pm_tz *tz)
{
	return tz->name;
}

int32_t
pm_tz_offset(const pm_tz *tz, int64_t t)
{
	int			lo = 0,
				hi = tz->ntrans;

	if (tz->ntrans == 0 || t < tz->trans[0])
		return tz->initial;
	/* last i with trans[i] <= t */
	while (hi - lo > 1)
	{
		int			mid = lo + (hi - lo) / 2;

		if (tz->trans[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return tz->offsets[lo];
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t		q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

int64_t
pm_tz_offset_millis(const pm_tz *tz, int64_t utc_millis)
{
	return (int64_t) pm_tz_offset(tz, floor_div(utc_millis, 1000)) * 1000;
}

int64_t
pm_tz_local_to_utc(const pm_tz *tz, int64_t local)
{
	/* guess with the offset at `local` read as UTC, then correct once */
	int64_t		t0 = local - pm_tz_offset(tz, local);
	int64_t		t1 = local - pm_tz_offset(tz, t0);

	if (t1 != t0 && local - pm_tz_offset(tz, t1) == t1)
		return t1 < t0 ? t1 : t0;
	return t1;
}

bool
pm_tz_same_rules(const pm_tz *a, const pm_tz *b)
{
	if (a == b)
		return true;
	if (a->initial != b->initial || a->ntrans != b->ntrans)
		return false;
	for (int i = 0; i < a->ntrans; i++)
		if (a->trans[i] != b->trans[i] || a->offsets[i] != b->offsets[i])
			return false;
	return true;
}

/* "GMT+8", "GMT-08:30", "UTC+0800" (Java custom ids); true if parsed */
static bool
parse_custom(const char *name, int32_t *offset)
{
	const char *p;
	int			sign,
				h = 0,
				m = 0,
				nd = 0;

	if (strncmp(name, "GMT", 3) != 0 && strncmp(name, "UTC", 3) != 0)
		return false;
	p = name + 3;
	if (*p == '\0')
	{
		*offset = 0;
		return true;
	}
	if (*p != '+' && *p != '-')
		return false;
	sign = *p++ == '-' ? -1 : 1;
	while (*p >= '0' && *p <= '9' && nd < 4)
	{
		h = h * 10 + (*p++ - '0');
		nd++;
	}
	if (nd == 0)
		return false;
	if (nd > 2)
	{
		m = h % 100;
		h /= 100;
	}
	else if (*p == ':')
	{
		p++;
		if (!(p[0] >= '0' && p[0] <= '9' && p[1] >= '0' && p[1] <= '9'))
			return false;
		m = (p[0] - '0') * 10 + (p[1] - '0');
		p += 2;
	}
	if (*p != '\0' || h > 23 || m > 59)
		return false;
	*offset = sign * (h * 3600 + m * 60);
	return true;
}

static bool
safe_name(const char *name)
{
	if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") != NULL ||
		strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			  (*p >= '0' && *p <= '9') || *p == '/' || *p == '_' || *p == '-' ||
			  *p == '+'))
			return false;
	return true;
}

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

static int64_t
be64(const uint8_t *p)
{
	return (int64_t) (((uint64_t) be32(p) << 32) | be32(p + 4));
}

/* Read a whole (small) system file; NULL with *missing if absent. */
static uint8_t *
read_file(pm_arena *arena, const char *path, size_t *len, bool *missing, pm_error *err)
{
	int			fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t    *buf;
	size_t		got = 0;

	*missing = false;
	if (fd < 0)
	{
		*missing = true;
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_TZIF_SIZE)
	{
		close(fd);
		*missing = true;
		return NULL;
	}
	buf = pm_arena_alloc(arena, (size_t) st.st_size + 1);
	if (buf == NULL)
	{
		close(fd);
		pm_fail(err, PM_ERR_NOMEM, "out of memory reading time zone file");
		return NULL;
	}
	while (got < (size_t) st.st_size)
	{
		ssize_t		r = read(fd, buf + got, (size_t) st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t) r;
	}
	close(fd);
	*len = got;
	return buf;
}

static pm_code
parse_tzif(const uint8_t *buf, size_t len, pm_arena *arena, pm_tz *tz, pm_error *err)
{
	const uint8_t *p = buf;
	const uint8_t *end = buf + len;
	uint32_t	isut, isstd, leap, timecnt, typecnt, charcnt;
	int			tsize = 4;
	uint64_t	body;
	int64_t    *trans;
	int32_t    *offs;
	const uint8_t *idx,
			   *types;

	for (int pass = 0; pass < 2; pass++)
	{
		if (end - p < 44 || memcmp(p, "TZif", 4) != 0)
			return pm_fail(err, PM_ERR_CORRUPT, "invalid time zone file");
		isut = be32(p + 20);
		isstd = be32(p + 24);
		leap = be32(p + 28);
		timecnt = be32(p + 32);
		typecnt = be32(p + 36);
		charcnt = be32(p + 40);
		if (timecnt > 100000 || typecnt == 0 || typecnt > 256 || charcnt > 100000 ||
			leap > 100000 || isut > 256 || isstd > 256)
			return pm_fail(err, PM_ERR_CORRUPT, "invalid time zone file");
		body = (uint64_t) timecnt * tsize + timecnt + typecnt * 6 + charcnt +
			leap * (uint64_t) (tsize + 4) + isstd + isut;
		if ((uint64_t) (end - p - 44) < body)
			return pm_fail(err, PM_ERR_CORRUPT, "truncated time zone file");
		if (pass == 0 && p[4] >= '2')
		{
			p += 44 + body;
			tsize = 8;
			continue;
		}
		break;
	}
	p += 44;
	idx = p + (size_t) timecnt * tsize;
	types = idx + timecnt;
	trans = pm_arena_alloc(arena, sizeof(int64_t) * (timecnt + 1));
	offs = pm_arena_alloc(arena, sizeof(int32_t) * (timecnt + 1));
	if (trans == NULL || offs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading time zone file");
	for (uint32_t i = 0; i < timecnt; i++)
	{
		trans[i] = tsize == 8 ? be64(p + 8 * i) : (int32_t) be32(p + 4 * i);
		if (idx[i] >= typecnt || (i > 0 && trans[i] <= trans[i - 1]))
			return pm_fail(err, PM_ERR_CORRUPT, "invalid time zone file");
		offs[i] = (int32_t) be32(types + 6 * idx[i]);
	}
	tz->initial = (int32_t) be32(types);
	tz->ntrans = (int) timecnt;
	tz->trans = trans;
	tz->offsets = offs;
	return PM_OK;
}

pm_code
pm_tz_load(pm_arena *arena, const char *name, pm_tz **out, pm_error *err)
{
	pm_tz	   *tz = pm_arena_zalloc(arena, sizeof(pm_tz));
	int32_t		fixed;
	const char *dir = getenv("TZDIR");
	char	   *path;
	uint8_t    *buf;
	size_t		len = 0;
	bool		missing;

	*out = NULL;
	if (tz == NULL || (tz->name = pm_arena_strdup(arena, name ? name : "UTC")) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory loading time zone");
	*out = tz;
	if (name == NULL || name[0] == '\0' || strcmp(name, "Z") == 0)
		return PM_OK;
	if (parse_custom(name, &fixed))
	{
		tz->initial = fixed;
		return PM_OK;
	}
	if (!safe_name(name))
		return PM_OK;			/* unknown: UTC, as java.util.TimeZone */
	path = pm_arena_sprintf(arena, "%s/%s", dir && dir[0] ? dir : "/usr/share/zoneinfo",
							name);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory loading time zone");
	buf = read_file(arena, path, &len, &missing, err);
	if (buf == NULL)
		return missing ? PM_OK : err->code;
	return parse_tzif(buf, len, arena, tz, err);
}

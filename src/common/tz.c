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
 * Instants after the last transition follow the POSIX TZ rule of the
 * version 2+ footer ("EST5EDT,M3.2.0,M11.1.0"): "slim" files (the zic
 * default since 2020) list transitions only up to the last rule change.
 * Rule forms Mm.w.d, Jn and n with optional /time are understood; an
 * unparsable rule falls back to the last transition's offset.
 *
 * Offsets are java.util.TimeZone's (the readers to match are Java's), which
 * knows no history before 1900-01-01T00:00Z: before it a zone has its raw
 * offset (the current standard one; with a negative DST rule, as Europe/
 * Dublin's, the lower one, as in the rearguard data Java compiles), from it
 * the offset then in force. Java's own tz data version may differ from the
 * system's.
 *
 * The files are system files, not table data, so they are read with POSIX
 * calls rather than a pm_fileio. Zone names come from data files and are
 * checked (no "..", no leading '/') before they become paths.
 *-------------------------------------------------------------------------
 */
#include "common/tz.h"

#include "common/civil_date.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_TZIF_SIZE (1 << 20)

/* One end of a POSIX DST rule: a day of the year and a local time. */
typedef struct tz_rule_end
{
	char		form;			/* 'M', 'J' (1..365, no Feb 29) or 'n' (0..365) */
	int			month,
				week,
				wday,
				day;
	int32_t		secs;			/* local time of day of the change */
} tz_rule_end;

typedef struct tz_rule
{
	bool		valid;
	bool		has_dst;
	int32_t		std_off;		/* seconds east of UTC */
	int32_t		dst_off;
	tz_rule_end start,
				end;
} tz_rule;

struct pm_tz
{
	const char *name;
	int32_t		initial;		/* offset before the first transition */
	int			ntrans;
	const int64_t *trans;		/* UTC seconds, ascending */
	const int32_t *offsets;		/* offset from trans[i] on */
	tz_rule		rule;			/* after the last transition, if valid */
};

static const pm_tz utc_zone = {"UTC", 0, 0, NULL, NULL, {0}};

static int32_t rule_offset(const tz_rule *r, int64_t t);

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

	if (tz->rule.valid && (tz->ntrans == 0 || t >= tz->trans[tz->ntrans - 1]))
		return rule_offset(&tz->rule, t);
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
	if (a->initial != b->initial || a->ntrans != b->ntrans ||
		a->rule.valid != b->rule.valid ||
		(a->rule.valid && memcmp(&a->rule, &b->rule, sizeof(tz_rule)) != 0))
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

/* ---------------------------------------------------------------------
 * POSIX TZ rules (the TZif footer)
 * ---------------------------------------------------------------------
 */

/* UTC seconds at which a rule end happens in year y (local offset `off` before it) */
static int64_t
rule_end_utc(const tz_rule_end *e, int64_t y, int32_t off)
{
	int64_t		day;

	if (e->form == 'M')
	{
		int64_t		first = pm_days_from_civil(y, e->month, 1);
		int			wd1 = (int) (((first % 7) + 7 + 4) % 7);	/* 1970-01-01 was a Thursday */
		int			dim = pm_month_days(y, e->month);
		int			d = 1 + (e->wday - wd1 + 7) % 7 + (e->week - 1) * 7;

		while (d > dim)
			d -= 7;
		day = first + d - 1;
	}
	else if (e->form == 'J')
		day = pm_days_from_civil(y, 1, 1) + e->day - 1 +
			(pm_leap_year(y) && e->day >= 60 ? 1 : 0);
	else
		day = pm_days_from_civil(y, 1, 1) + e->day;
	return day * 86400 + e->secs - off;
}

static int32_t
rule_offset(const tz_rule *r, int64_t t)
{
	int64_t		days,
				y,
				start,
				end;

	if (!r->has_dst)
		return r->std_off;
	/* the year of the local standard time (civil_from_days, year only) */
	days = (t + r->std_off) / 86400 - ((t + r->std_off) % 86400 < 0);
	{
		int64_t		z = days + 719468;
		int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
		int64_t		doe = z - era * 146097;
		int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
		int64_t		mp = (5 * doy + 2) / 153;

		y = yoe + era * 400 + (mp >= 10);
	}
	start = rule_end_utc(&r->start, y, r->std_off);
	end = rule_end_utc(&r->end, y, r->dst_off);
	if (start < end)
		return t >= start && t < end ? r->dst_off : r->std_off;
	/* southern hemisphere: DST spans the new year */
	return t >= end && t < start ? r->std_off : r->dst_off;
}

/* [+-]hh[:mm[:ss]] */
static bool
parse_hms(const char **pp, int32_t *secs)
{
	const char *p = *pp;
	int			sign = 1,
				part[3] = {0, 0, 0};

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	for (int i = 0; i < 3; i++)
	{
		int			nd = 0;

		while (*p >= '0' && *p <= '9' && nd < 3)
		{
			part[i] = part[i] * 10 + (*p++ - '0');
			nd++;
		}
		if (nd == 0)
			return false;
		if (i < 2 && *p == ':')
			p++;
		else
			break;
	}
	if (part[0] > 167 || part[1] > 59 || part[2] > 59)
		return false;
	*secs = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
	*pp = p;
	return true;
}

static bool
parse_zone_name(const char **pp)
{
	const char *p = *pp;
	int			n = 0;

	if (*p == '<')
	{
		while (*++p && *p != '>')
			n++;
		if (*p != '>')
			return false;
		p++;
	}
	else
		while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
		{
			p++;
			n++;
		}
	*pp = p;
	return n >= 3;
}

static bool
parse_number(const char **pp, int lo, int hi, int *out)
{
	const char *p = *pp;
	int			v = 0,
				nd = 0;

	while (*p >= '0' && *p <= '9' && nd < 4)
	{
		v = v * 10 + (*p++ - '0');
		nd++;
	}
	if (nd == 0 || v < lo || v > hi)
		return false;
	*out = v;
	*pp = p;
	return true;
}

static bool
parse_rule_end(const char **pp, tz_rule_end *e)
{
	const char *p = *pp;

	memset(e, 0, sizeof(*e));
	e->secs = 7200;
	if (*p == 'M')
	{
		p++;
		e->form = 'M';
		if (!parse_number(&p, 1, 12, &e->month) || *p++ != '.' ||
			!parse_number(&p, 1, 5, &e->week) || *p++ != '.' ||
			!parse_number(&p, 0, 6, &e->wday))
			return false;
	}
	else if (*p == 'J')
	{
		p++;
		e->form = 'J';
		if (!parse_number(&p, 1, 365, &e->day))
			return false;
	}
	else
	{
		e->form = 'n';
		if (!parse_number(&p, 0, 365, &e->day))
			return false;
	}
	if (*p == '/' && (p++, !parse_hms(&p, &e->secs)))
		return false;
	*pp = p;
	return true;
}

/* "STDoff[DST[off][,start[/time],end[/time]]]"; POSIX offsets are west-positive */
static void
parse_posix(const char *s, tz_rule *r)
{
	const char *p = s;
	int32_t		off;

	memset(r, 0, sizeof(*r));
	if (!parse_zone_name(&p) || !parse_hms(&p, &off))
		return;
	r->std_off = -off;
	if (*p == '\0')
	{
		r->valid = true;
		return;
	}
	if (!parse_zone_name(&p))
		return;
	r->dst_off = r->std_off + 3600;
	if (*p != ',' && *p != '\0')
	{
		if (!parse_hms(&p, &off))
			return;
		r->dst_off = -off;
	}
	if (*p != ',')
		return;					/* DST without rules: leave it to the table */
	p++;
	if (!parse_rule_end(&p, &r->start) || *p++ != ',' || !parse_rule_end(&p, &r->end) ||
		*p != '\0')
		return;
	r->has_dst = true;
	r->valid = true;
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

/* 1900-01-01T00:00:00Z: sun.util.calendar.ZoneInfo's first instant */
#define JAVA_TZ_FLOOR INT64_C(-2208988800)

/* Cut the history before JAVA_TZ_FLOOR off as java.util.TimeZone does (file header). */
static pm_code
java_floor(pm_arena *arena, pm_tz *tz, pm_error *err)
{
	int32_t		at_floor,
				raw;
	int			before = 0,
				n;
	int64_t    *trans;
	int32_t    *offs;

	if (tz->ntrans == 0)
		return PM_OK;
	at_floor = pm_tz_offset(tz, JAVA_TZ_FLOOR);
	if (tz->rule.valid)
		raw = tz->rule.has_dst && tz->rule.dst_off < tz->rule.std_off ?
			tz->rule.dst_off : tz->rule.std_off;
	else
		raw = tz->offsets[tz->ntrans - 1];
	while (before < tz->ntrans && tz->trans[before] <= JAVA_TZ_FLOOR)
		before++;
	n = tz->ntrans - before + 1;
	trans = pm_arena_alloc(arena, sizeof(int64_t) * n);
	offs = pm_arena_alloc(arena, sizeof(int32_t) * n);
	if (trans == NULL || offs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading time zone file");
	trans[0] = JAVA_TZ_FLOOR;
	offs[0] = at_floor;
	memcpy(trans + 1, tz->trans + before, sizeof(int64_t) * (n - 1));
	memcpy(offs + 1, tz->offsets + before, sizeof(int32_t) * (n - 1));
	tz->initial = raw;
	tz->ntrans = n;
	tz->trans = trans;
	tz->offsets = offs;
	return PM_OK;
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
	/* version 2+: "\n<POSIX TZ>\n" follows the 64-bit data */
	if (tsize == 8)
	{
		const uint8_t *f = p + body;

		if (end - f >= 2 && f[0] == '\n')
		{
			const uint8_t *nl = memchr(f + 1, '\n', (size_t) (end - f - 1));

			if (nl != NULL && nl - f - 1 < 128)
			{
				char		rule[128];

				memcpy(rule, f + 1, (size_t) (nl - f - 1));
				rule[nl - f - 1] = '\0';
				parse_posix(rule, &tz->rule);
			}
		}
	}
	return java_floor(arena, tz, err);
}

bool
pm_tz_known(const char *name)
{
	int32_t		fixed;
	const char *dir = getenv("TZDIR");
	char		path[512];
	struct stat st;

	if (name == NULL || name[0] == '\0')
		return false;
	if (strcmp(name, "Z") == 0 || parse_custom(name, &fixed))
		return true;
	if (!safe_name(name) ||
		snprintf(path, sizeof(path), "%s/%s", dir && dir[0] ? dir : "/usr/share/zoneinfo",
				 name) >= (int) sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

int64_t
pm_local_now_nanos(void)
{
	struct timespec ts;
	struct tm	tm;
	time_t		secs;

	clock_gettime(CLOCK_REALTIME, &ts);
	secs = ts.tv_sec;
	if (localtime_r(&secs, &tm) == NULL)
		tm.tm_gmtoff = 0;
	return ((int64_t) ts.tv_sec + tm.tm_gmtoff) * 1000000000 + ts.tv_nsec;
}

int64_t
pm_epoch_millis_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

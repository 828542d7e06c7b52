/*-------------------------------------------------------------------------
 * path_map.c
 *	  Turn recorded file URIs into local paths, remapping external prefixes.
 *
 * Hand-written: a few string rules (table.h describes the map syntax).
 *-------------------------------------------------------------------------
 */
#include "table/path_map.h"

#include <string.h>
#include <strings.h>

typedef struct path_map_entry
{
	const char *from;			/* local form, no trailing slash */
	const char *to;
} path_map_entry;

struct pm_path_map
{
	int			n;
	path_map_entry *entries;
};

/* Strip "file:" / "file://" (any case); NULL if another scheme is present. */
static const char *
strip_scheme(const char *s)
{
	const char *colon;

	if (strncasecmp(s, "file:", 5) == 0)
	{
		s += 5;
		if (strncmp(s, "///", 3) == 0)
			s += 2;
		return s;
	}
	colon = strchr(s, ':');
	if (colon != NULL && colon > s && (strchr(s, '/') == NULL || colon < strchr(s, '/')))
		return NULL;			/* hdfs://, s3://, oss:// ... */
	return s;
}

static char *
trim_slashes(pm_arena *arena, const char *s, size_t len)
{
	while (len > 1 && s[len - 1] == '/')
		len--;
	return pm_arena_strndup(arena, s, len);
}

pm_code
pm_path_map_parse(const char *spec, pm_arena *arena, pm_path_map **out, pm_error *err)
{
	pm_path_map *map = pm_arena_zalloc(arena, sizeof(pm_path_map));
	const char *p;
	int			cap = 1;

	*out = NULL;
	if (map == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (spec != NULL)
		for (p = spec; *p; p++)
			if (*p == ',')
				cap++;
	map->entries = pm_arena_zalloc(arena, sizeof(path_map_entry) * cap);
	if (map->entries == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	p = spec;
	while (p != NULL && *p)
	{
		const char *end = strchr(p, ',');
		size_t		len = end ? (size_t) (end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		char	   *from_raw;
		const char *from;

		if (len > 0)
		{
			if (eq == NULL || eq == p || eq == p + len - 1)
				return pm_fail(err, PM_ERR_INVALID, "invalid external path map entry \"%.*s\"",
							   (int) (len > 200 ? 200 : len), p);
			from_raw = pm_arena_strndup(arena, p, (size_t) (eq - p));
			if (from_raw == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			from = strip_scheme(from_raw);
			if (from == NULL)
				from = from_raw;
			map->entries[map->n].from = trim_slashes(arena, from, strlen(from));
			{
				const char *to = eq + 1;
				size_t		tlen = len - (size_t) (eq + 1 - p);
				char	   *to_raw = pm_arena_strndup(arena, to, tlen);
				const char *t2;

				if (to_raw == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				t2 = strip_scheme(to_raw);
				if (t2 == NULL)
					t2 = to_raw;
				map->entries[map->n].to = trim_slashes(arena, t2, strlen(t2));
			}
			if (map->entries[map->n].from == NULL || map->entries[map->n].to == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			map->n++;
		}
		p = end ? end + 1 : NULL;
	}
	*out = map;
	return PM_OK;
}

pm_code
pm_path_map_resolve(const pm_path_map *map, const char *recorded, pm_arena *arena,
					char **out, pm_error *err)
{
	const char *local = strip_scheme(recorded);
	const path_map_entry *best = NULL;
	size_t		best_len = 0;

	*out = NULL;
	if (local == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "file system of \"%.200s\" is not supported", recorded);
	for (int i = 0; map != NULL && i < map->n; i++)
	{
		size_t		flen = strlen(map->entries[i].from);

		if (strncmp(local, map->entries[i].from, flen) == 0 &&
			(local[flen] == '/' || local[flen] == '\0' ||
			 (flen > 0 && map->entries[i].from[flen - 1] == '/')) &&
			(best == NULL || flen > best_len))
		{
			best = &map->entries[i];
			best_len = flen;
		}
	}
	if (best != NULL)
		*out = pm_arena_sprintf(arena, "%s%s", best->to, local + best_len);
	else
		*out = pm_arena_strdup(arena, local);
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

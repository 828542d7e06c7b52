/*-------------------------------------------------------------------------
 * snapshot.c
 *	  Read snapshot JSON files and find the latest / earliest snapshot.
 *
 * The LATEST / EARLIEST hint files are only hints (stale, empty or half
 * written): they are verified against the snapshot files and listing the
 * directory is the fallback, as HintFileUtils does. Numbers are parsed as
 * int64 (jansson json_int_t), never through double.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §2.
 *-------------------------------------------------------------------------
 */
#include "table/snapshot.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/civil_date.h"

#include "common/json_out.h"
#include "common/meta_cache.h"
#include "table/catalog.h"
#include "table/table_int.h"

#define MAX_SNAPSHOT_FILE_SIZE (16 * 1024 * 1024)

static const char *
opt_string(const json_t *root, const char *key, pm_arena *arena, bool *nomem)
{
	const json_t *j = json_object_get(root, key);
	char	   *s;

	if (!json_is_string(j))
		return NULL;
	s = pm_arena_strdup(arena, json_string_value(j));
	if (s == NULL)
		*nomem = true;
	return s;
}

static int64_t
opt_int(const json_t *root, const char *key, int64_t dflt)
{
	const json_t *j = json_object_get(root, key);

	return json_is_integer(j) ? (int64_t) json_integer_value(j) : dflt;
}

/* "properties": a string map (Map<String, String>), order kept. */
static pm_code
parse_properties(const json_t *obj, pm_arena *arena, pm_snapshot *s, pm_error *err)
{
	const char *key;
	json_t	   *value;
	size_t		n;
	int			i = 0;

	if (obj == NULL || json_is_null(obj))
		return PM_OK;
	if (!json_is_object(obj))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot properties are not an object");
	n = json_object_size(obj);
	s->property_keys = pm_arena_zalloc(arena, sizeof(char *) * (n + 1));
	s->property_values = pm_arena_zalloc(arena, sizeof(char *) * (n + 1));
	if (s->property_keys == NULL || s->property_values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	json_object_foreach((json_t *) obj, key, value)
	{
		if (!json_is_string(value))
			return pm_fail(err, PM_ERR_CORRUPT, "snapshot property \"%.100s\" is not a string", key);
		s->property_keys[i] = pm_arena_strdup(arena, key);
		s->property_values[i] = pm_arena_strdup(arena, json_string_value(value));
		if (s->property_keys[i] == NULL || s->property_values[i] == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		i++;
	}
	s->has_properties = true;
	s->nproperties = i;
	return PM_OK;
}

#define NANOS_PER_SECOND INT64_C(1000000000)

/*
 * A local date-time as ns since 1970-01-01T00:00; false outside the years
 * 1678..2261 (what int64 ns hold) or for a field out of its range.
 */
static bool
local_nanos(const int64_t f[7], int64_t *out)
{
	if (f[0] < 1678 || f[0] > 2261 || f[1] < 1 || f[1] > 12 || f[2] < 1 ||
		f[2] > pm_month_days(f[0], (int) f[1]) || f[3] < 0 || f[3] > 23 || f[4] < 0 ||
		f[4] > 59 || f[5] < 0 || f[5] > 59 || f[6] < 0 || f[6] >= NANOS_PER_SECOND)
		return false;
	*out = ((pm_days_from_civil(f[0], (int) f[1], (int) f[2]) * 86400 + f[3] * 3600 +
			 f[4] * 60 + f[5]) * NANOS_PER_SECOND) + f[6];
	return true;
}

/*
 * Tag.tagCreateTime as Jackson's LocalDateTime deserializer takes it: the
 * array [year, month, day, hour, minute(, second(, nanos))] Paimon writes,
 * or ISO text "yyyy-MM-ddTHH:mm[:ss[.fraction]]". Anything else: absent
 * (the tag then never expires by time, as Java skips such a tag).
 */
static void
parse_tag_create_time(const json_t *j, pm_snapshot *s)
{
	int64_t		f[7] = {0, 0, 0, 0, 0, 0, 0};

	if (json_is_array(j))
	{
		size_t		n = json_array_size(j);

		if (n < 5 || n > 7)
			return;
		for (size_t i = 0; i < n; i++)
		{
			const json_t *e = json_array_get(j, i);

			if (!json_is_integer(e))
				return;
			f[i] = json_integer_value(e);
		}
	}
	else if (json_is_string(j))
	{
		const char *t = json_string_value(j);
		int			y,
					mo,
					d,
					h,
					mi,
					used = 0;

		if (sscanf(t, "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &d, &h, &mi, &used) != 5 || used != 16)
			return;
		f[0] = y;
		f[1] = mo;
		f[2] = d;
		f[3] = h;
		f[4] = mi;
		t += used;
		if (*t == ':')
		{
			if (!isdigit((unsigned char) t[1]) || !isdigit((unsigned char) t[2]))
				return;
			f[5] = (t[1] - '0') * 10 + (t[2] - '0');
			t += 3;
			if (*t == '.')
			{
				int64_t		scale = NANOS_PER_SECOND;

				for (t++; isdigit((unsigned char) *t) && scale > 1; t++)
				{
					scale /= 10;
					f[6] += (*t - '0') * scale;
				}
			}
		}
		if (*t != '\0')
			return;
	}
	else
		return;
	s->has_tag_create_time = local_nanos(f, &s->tag_create_time);
}

/*
 * Tag.tagTimeRetained: Jackson's Duration as a number of seconds (a
 * decimal, or an integer). Anything else, or a negative one: absent.
 */
static void
parse_tag_time_retained(const json_t *j, pm_snapshot *s)
{
	if (json_is_integer(j) && json_integer_value(j) >= 0)
	{
		s->tag_time_retained.seconds = json_integer_value(j);
		s->tag_time_retained.nanos = 0;
		s->has_tag_time_retained = true;
	}
	else if (json_is_real(j) && json_real_value(j) >= 0 && json_real_value(j) < 9.2e18)
	{
		double		x = json_real_value(j);
		double		whole = floor(x);
		int64_t		nanos = llround((x - whole) * 1e9);

		s->tag_time_retained.seconds = (int64_t) whole + nanos / NANOS_PER_SECOND;
		s->tag_time_retained.nanos = (int32_t) (nanos % NANOS_PER_SECOND);
		s->has_tag_time_retained = true;
	}
}

static pm_code
parse_root(const json_t *root, pm_arena *arena, pm_snapshot *s, pm_error *err)
{
	bool		nomem = false;

	if (!json_is_object(root))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot is not a JSON object");
	if (!json_is_integer(json_object_get(root, "id")) ||
		!json_is_integer(json_object_get(root, "schemaId")))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot lacks id or schemaId");
	s->version = (int) opt_int(root, "version", 1);
	s->id = opt_int(root, "id", 0);
	s->schema_id = opt_int(root, "schemaId", 0);
	s->base_manifest_list = opt_string(root, "baseManifestList", arena, &nomem);
	s->base_manifest_list_size = opt_int(root, "baseManifestListSize", -1);
	s->delta_manifest_list = opt_string(root, "deltaManifestList", arena, &nomem);
	s->delta_manifest_list_size = opt_int(root, "deltaManifestListSize", -1);
	s->changelog_manifest_list = opt_string(root, "changelogManifestList", arena, &nomem);
	s->changelog_manifest_list_size = opt_int(root, "changelogManifestListSize", -1);
	s->index_manifest = opt_string(root, "indexManifest", arena, &nomem);
	s->commit_user = opt_string(root, "commitUser", arena, &nomem);
	s->commit_identifier = opt_int(root, "commitIdentifier", 0);
	s->commit_kind = opt_string(root, "commitKind", arena, &nomem);
	s->time_millis = opt_int(root, "timeMillis", 0);
	s->total_record_count = opt_int(root, "totalRecordCount", -1);
	s->delta_record_count = opt_int(root, "deltaRecordCount", -1);
	s->changelog_record_count = opt_int(root, "changelogRecordCount", -1);
	s->watermark = opt_int(root, "watermark", INT64_MIN);
	s->statistics = opt_string(root, "statistics", arena, &nomem);
	s->next_row_id = opt_int(root, "nextRowId", -1);
	parse_tag_create_time(json_object_get(root, "tagCreateTime"), s);
	parse_tag_time_retained(json_object_get(root, "tagTimeRetained"), s);
	if (!nomem)
		PM_TRY(parse_properties(json_object_get(root, "properties"), arena, s, err));
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (s->base_manifest_list == NULL || s->delta_manifest_list == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot lacks its manifest lists");
	if (!pm_catalog_name_valid(s->base_manifest_list) ||
		!pm_catalog_name_valid(s->delta_manifest_list) ||
		(s->index_manifest && !pm_catalog_name_valid(s->index_manifest)))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot names a manifest list outside manifest/");
	return PM_OK;
}

pm_code
pm_snapshot_parse(const char *json, size_t len, pm_arena *arena, pm_snapshot **out,
				  pm_error *err)
{
	json_error_t jerr;
	json_t	   *root;
	pm_snapshot *s;
	pm_code		rc;

	*out = NULL;
	root = json_loadb(json, len, 0, &jerr);
	if (root == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snapshot JSON: %s", jerr.text);
	s = pm_arena_zalloc(arena, sizeof(pm_snapshot));
	rc = s == NULL ? pm_fail(err, PM_ERR_NOMEM, "out of memory") : parse_root(root, arena, s, err);
	json_decref(root);
	if (rc == PM_OK)
		*out = s;
	return rc;
}

void
pm_snapshot_init(pm_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->version = 3;				/* Snapshot.CURRENT_VERSION */
	s->base_manifest_list_size = -1;
	s->delta_manifest_list_size = -1;
	s->changelog_manifest_list_size = -1;
	s->total_record_count = -1;
	s->delta_record_count = -1;
	s->changelog_record_count = -1;
	s->watermark = INT64_MIN;
	s->next_row_id = -1;
}

/* Snapshot.toJson (release-1.4.2): the @JsonProperty fields in order. */
pm_code
pm_snapshot_to_json(const pm_snapshot *s, pm_arena *arena, char **json, size_t *len,
					pm_error *err)
{
	pm_json_out *out = pm_arena_alloc(arena, sizeof(pm_json_out));

	*json = NULL;
	*len = 0;
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (s->base_manifest_list == NULL || s->delta_manifest_list == NULL ||
		s->commit_user == NULL || s->commit_kind == NULL)
		return pm_fail(err, PM_ERR_INVALID, "snapshot lacks a manifest list, commit user or kind");
	pm_json_out_init(out, arena);
	pm_json_begin_object(out);
	pm_json_field_int(out, "version", s->version);
	pm_json_field_int(out, "id", s->id);
	pm_json_field_int(out, "schemaId", s->schema_id);
	pm_json_field_string(out, "baseManifestList", s->base_manifest_list);
	if (s->base_manifest_list_size >= 0)
		pm_json_field_int(out, "baseManifestListSize", s->base_manifest_list_size);
	pm_json_field_string(out, "deltaManifestList", s->delta_manifest_list);
	if (s->delta_manifest_list_size >= 0)
		pm_json_field_int(out, "deltaManifestListSize", s->delta_manifest_list_size);
	if (s->changelog_manifest_list != NULL)
		pm_json_field_string(out, "changelogManifestList", s->changelog_manifest_list);
	if (s->changelog_manifest_list_size >= 0)
		pm_json_field_int(out, "changelogManifestListSize", s->changelog_manifest_list_size);
	if (s->index_manifest != NULL)
		pm_json_field_string(out, "indexManifest", s->index_manifest);
	pm_json_field_string(out, "commitUser", s->commit_user);
	pm_json_field_int(out, "commitIdentifier", s->commit_identifier);
	pm_json_field_string(out, "commitKind", s->commit_kind);
	pm_json_field_int(out, "timeMillis", s->time_millis);
	pm_json_field_int(out, "totalRecordCount", s->total_record_count);
	pm_json_field_int(out, "deltaRecordCount", s->delta_record_count);
	if (s->changelog_record_count >= 0)
		pm_json_field_int(out, "changelogRecordCount", s->changelog_record_count);
	if (s->watermark != INT64_MIN)
		pm_json_field_int(out, "watermark", s->watermark);
	if (s->statistics != NULL)
		pm_json_field_string(out, "statistics", s->statistics);
	if (s->has_properties)
	{
		pm_json_name(out, "properties");
		pm_json_begin_object(out);
		for (int i = 0; i < s->nproperties; i++)
			pm_json_field_string(out, s->property_keys[i], s->property_values[i]);
		pm_json_end_object(out);
	}
	if (s->next_row_id >= 0)
		pm_json_field_int(out, "nextRowId", s->next_row_id);
	/* Tag.java: Jackson's LocalDateTime array, seconds and nanos only when set */
	if (s->has_tag_create_time)
	{
		int64_t		days = pm_floor_div(s->tag_create_time, 86400 * NANOS_PER_SECOND);
		int64_t		rest = s->tag_create_time - days * 86400 * NANOS_PER_SECOND;
		int64_t		secs = rest / NANOS_PER_SECOND;
		int64_t		nanos = rest % NANOS_PER_SECOND;
		int64_t		y;
		int			m,
					d;

		pm_civil_from_days(days, &y, &m, &d);
		pm_json_name(out, "tagCreateTime");
		pm_json_begin_array(out);
		pm_json_int(out, y);
		pm_json_int(out, m);
		pm_json_int(out, d);
		pm_json_int(out, secs / 3600);
		pm_json_int(out, secs / 60 % 60);
		if (secs % 60 > 0 || nanos > 0)
			pm_json_int(out, secs % 60);
		if (nanos > 0)
			pm_json_int(out, nanos);
		pm_json_end_array(out);
	}
	if (s->has_tag_time_retained)
	{
		char		text[48];

		pm_duration_json_text(s->tag_time_retained, text, sizeof(text));
		pm_json_name(out, "tagTimeRetained");
		pm_json_number_text(out, text);
	}
	pm_json_end_object(out);
	return pm_json_out_finish(out, json, len, err);
}

/* ---- through the metadata cache ----------------------------------------- */

/*
 * snapshot-N is written again under its name after a rollback or when a
 * table is created again: the cached parse is used only for the very bytes
 * it was parsed from (the file is still read, its parsing saved).
 */
typedef struct cached_snapshot
{
	const uint8_t *raw;
	size_t		len;
	pm_snapshot *snapshot;
} cached_snapshot;

static void *
snapshot_flatten(const void *src, pm_flat *f)
{
	const cached_snapshot *cs = src;
	const pm_snapshot *s = cs->snapshot;
	cached_snapshot *copy = pm_flat_take(f, sizeof(cached_snapshot));
	pm_snapshot *sc = pm_flat_take(f, sizeof(pm_snapshot));
	const uint8_t *raw = pm_flat_bytes(f, cs->raw, cs->len);
	const char *base = pm_flat_string(f, s->base_manifest_list);
	const char *delta = pm_flat_string(f, s->delta_manifest_list);
	const char *changelog = pm_flat_string(f, s->changelog_manifest_list);
	const char *index = pm_flat_string(f, s->index_manifest);
	const char *user = pm_flat_string(f, s->commit_user);
	const char *kind = pm_flat_string(f, s->commit_kind);
	const char *statistics = pm_flat_string(f, s->statistics);
	const char **keys = s->property_keys ?
		pm_flat_take(f, sizeof(char *) * (size_t) (s->nproperties + 1)) : NULL;
	const char **values = s->property_values ?
		pm_flat_take(f, sizeof(char *) * (size_t) (s->nproperties + 1)) : NULL;

	for (int i = 0; i < s->nproperties; i++)
	{
		const char *k = s->property_keys ? pm_flat_string(f, s->property_keys[i]) : NULL;
		const char *v = s->property_values ? pm_flat_string(f, s->property_values[i]) : NULL;

		if (keys != NULL)
			keys[i] = k;
		if (values != NULL)
			values[i] = v;
	}
	if (copy == NULL)
		return NULL;
	*sc = *s;
	sc->base_manifest_list = base;
	sc->delta_manifest_list = delta;
	sc->changelog_manifest_list = changelog;
	sc->index_manifest = index;
	sc->commit_user = user;
	sc->commit_kind = kind;
	sc->statistics = statistics;
	sc->property_keys = keys;
	sc->property_values = values;
	copy->raw = raw;
	copy->len = cs->len;
	copy->snapshot = sc;
	return copy;
}

pm_code
pm_snapshot_load(pm_fileio *io, const char *table_path, int64_t id, pm_arena *arena,
				 pm_snapshot **out, pm_error *err)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path, (long long) id);
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	*out = NULL;
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, path, arena, MAX_SNAPSHOT_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "snapshot %lld does not exist", (long long) id);
	}
	if (rc != PM_OK)
		return rc;
	{
		cached_snapshot *hit = pm_meta_cache_fetch(PM_META_SNAPSHOT, path, (int64_t) len,
												   arena, snapshot_flatten);

		if (hit != NULL && hit->len == len && memcmp(hit->raw, data, len) == 0)
		{
			*out = hit->snapshot;
			return PM_OK;
		}
	}
	rc = pm_snapshot_parse((const char *) data, len, arena, out, err);
	if (rc == PM_OK && (*out)->id != id)
		rc = pm_fail(err, PM_ERR_CORRUPT, "snapshot file says id %lld", (long long) (*out)->id);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	else
	{
		cached_snapshot cs = {data, len, *out};

		pm_meta_cache_store(PM_META_SNAPSHOT, path, (int64_t) len, &cs, snapshot_flatten);
	}
	return rc;
}

/* Read a hint file; 0 when absent or unparsable. */
static int64_t
read_hint(pm_fileio *io, const char *table_path, const char *name, pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/%s", table_path, name);
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	int64_t		v = 0;

	pm_error_clear(&err);		/* the read may add a path to it */
	if (path == NULL || pm_fileio_read_all(io, path, arena, 64, &data, &len, &err) != PM_OK)
		return 0;
	for (size_t i = 0; i < len; i++)
	{
		if (data[i] < '0' || data[i] > '9' || v > (INT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (data[i] - '0');
	}
	return v;
}

static bool
snapshot_exists(pm_fileio *io, const char *table_path, int64_t id, pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path, (long long) id);

	return path != NULL && io->exists(io, path);
}

pm_code
pm_versioned_id_range(pm_fileio *io, const char *dir, const char *prefix, pm_arena *arena,
					  int64_t *lo, int64_t *hi, pm_error *err)
{
	char	  **names;
	int			n;
	pm_code		rc;

	*lo = *hi = 0;
	rc = io->list(io, dir, arena, &names, &n, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return PM_OK;
	}
	if (rc != PM_OK)
		return rc;
	for (int i = 0; i < n; i++)
	{
		int64_t		v;

		if (!pm_versioned_name_id(names[i], prefix, &v))
			continue;
		if (*lo == 0 || v < *lo)
			*lo = v;
		if (v > *hi)
			*hi = v;
	}
	return PM_OK;
}

static pm_code
list_extreme(pm_fileio *io, const char *table_path, pm_arena *arena, bool want_max,
			 int64_t *id, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/snapshot", table_path);
	int64_t		lo,
				hi;

	*id = 0;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_versioned_id_range(io, dir, "snapshot-", arena, &lo, &hi, err));
	*id = want_max ? hi : lo;
	return PM_OK;
}

pm_code
pm_snapshot_latest_id(pm_fileio *io, const char *table_path, pm_arena *arena,
					  int64_t *id, pm_error *err)
{
	int64_t		hint = read_hint(io, table_path, "LATEST", arena);

	if (hint > 0 && hint < INT64_MAX && snapshot_exists(io, table_path, hint, arena) &&
		!snapshot_exists(io, table_path, hint + 1, arena))
	{
		*id = hint;
		return PM_OK;
	}
	return list_extreme(io, table_path, arena, true, id, err);
}

pm_code
pm_snapshot_earliest_id(pm_fileio *io, const char *table_path, pm_arena *arena,
						int64_t *id, pm_error *err)
{
	int64_t		hint = read_hint(io, table_path, "EARLIEST", arena);

	if (hint > 0 && snapshot_exists(io, table_path, hint, arena))
	{
		*id = hint;
		return PM_OK;
	}
	return list_extreme(io, table_path, arena, false, id, err);
}

pm_code
pm_snapshot_load_tag(pm_fileio *io, const char *table_path, const char *tag, pm_arena *arena,
					 pm_snapshot **out, pm_error *err)
{
	char	   *path;
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	*out = NULL;
	if (!pm_catalog_name_valid(tag))
		return pm_fail(err, PM_ERR_INVALID, "invalid tag name \"%.100s\"", tag);
	path = pm_arena_sprintf(arena, "%s/tag/tag-%s", table_path, tag);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, path, arena, MAX_SNAPSHOT_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "tag \"%.100s\" does not exist", tag);
	}
	if (rc == PM_OK)
		rc = pm_snapshot_parse((const char *) data, len, arena, out, err);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	return rc;
}

pm_code
pm_snapshot_id_at_time(pm_fileio *io, const char *table_path, int64_t millis, pm_arena *arena,
					   int64_t *id, pm_error *err)
{
	int64_t		lo,
				hi,
				found = 0;

	*id = 0;
	PM_TRY(pm_snapshot_earliest_id(io, table_path, arena, &lo, err));
	PM_TRY(pm_snapshot_latest_id(io, table_path, arena, &hi, err));
	if (lo <= 0 || hi <= 0)
		return PM_OK;
	while (lo <= hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;
		pm_snapshot *s;
		pm_code		rc = pm_snapshot_load(io, table_path, mid, arena, &s, err);

		if (rc != PM_OK)
			return rc;
		if (s->time_millis <= millis)
		{
			found = mid;
			lo = mid + 1;
		}
		else
			hi = mid - 1;
	}
	*id = found;
	return PM_OK;
}

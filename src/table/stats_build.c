/*-------------------------------------------------------------------------
 * stats_build.c
 *	  SimpleStats of a written data file as Java 1.4.2 records them
 *	  (StatsCollectorFactories, ParquetSimpleStatsExtractor,
 *	  OrcSimpleStatsExtractor,
 *	  *SimpleColStatsCollector.convert, SimpleStatsConverter).
 *-------------------------------------------------------------------------
 */
#include "table/stats_build.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/utf8.h"
#include "row/binary_row.h"

pm_code
pm_stats_mode_parse(const char *text, pm_stats_mode *out, pm_error *err)
{
	out->truncate_length = 0;
	if (strcasecmp(text, "none") == 0)
		out->kind = PM_STATS_MODE_NONE;
	else if (strcasecmp(text, "counts") == 0)
		out->kind = PM_STATS_MODE_COUNTS;
	else if (strcasecmp(text, "full") == 0)
		out->kind = PM_STATS_MODE_FULL;
	else
	{
		/* Java: Pattern TRUNCATE\((\d+)\) on the upper-cased text, then
		 * Integer.parseInt and a length > 0 check */
		const char *p = text;
		long		n = 0;
		const char *digits;

		if (strncasecmp(p, "truncate(", 9) != 0)
			return pm_fail(err, PM_ERR_INVALID, "unexpected stats mode \"%s\"", text);
		p += 9;
		digits = p;
		while (*p >= '0' && *p <= '9')
		{
			n = n * 10 + (*p - '0');
			if (n > 2147483647L)
				return pm_fail(err, PM_ERR_INVALID, "unexpected stats mode \"%s\"", text);
			p++;
		}
		if (p == digits || strcmp(p, ")") != 0)
			return pm_fail(err, PM_ERR_INVALID, "unexpected stats mode \"%s\"", text);
		if (n <= 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "stats mode \"%s\": truncate length should be larger than zero", text);
		out->kind = PM_STATS_MODE_TRUNCATE;
		out->truncate_length = (int) n;
	}
	return PM_OK;
}

/* SpecialFields.isSystemField(String) */
static bool
is_system_field_name(const char *name)
{
	return strncmp(name, "_KEY_", 5) == 0 || strcmp(name, "_SEQUENCE_NUMBER") == 0 ||
		strcmp(name, "_VALUE_KIND") == 0 || strcmp(name, "_LEVEL") == 0 ||
		strcmp(name, "rowkind") == 0 || strcmp(name, "_ROW_ID") == 0;
}

/* keyNames.contains(KEY_FIELD_PREFIX + field) of createStatsFactories */
static bool
is_thin_key(const pm_type *thin_keys, const char *name)
{
	if (thin_keys == NULL)
		return false;
	for (int k = 0; k < thin_keys->nfields; k++)
		if (strncmp(thin_keys->fields[k].name, "_KEY_", 5) == 0 &&
			strcmp(thin_keys->fields[k].name + 5, name) == 0)
			return true;
	return false;
}

pm_code
pm_stats_modes_of_schema(const pm_schema *schema, pm_arena *arena, pm_stats_mode **modes,
						 pm_error *err)
{
	return pm_stats_modes_of_fields(schema, schema->row_type, false, arena, modes, err);
}

pm_code
pm_stats_modes_of_fields(const pm_schema *schema, const pm_type *row, bool avro,
						 pm_arena *arena, pm_stats_mode **modes, pm_error *err)
{
	return pm_stats_modes_of_fields_with(schema, row, avro, NULL, NULL, arena, modes, err);
}

pm_code
pm_stats_modes_of_fields_with(const pm_schema *schema, const pm_type *row, bool avro,
							  const char *default_mode, const pm_type *thin_keys,
							  pm_arena *arena, pm_stats_mode **modes, pm_error *err)
{
	const char *table_mode = default_mode != NULL ? default_mode
		: pm_schema_option(schema, "metadata.stats-mode");
	const char *keep_text = pm_schema_option(schema, "metadata.stats-keep-first-n-columns");
	pm_stats_mode table;
	long		keep_first = -1;
	int			column_count = 0;
	pm_stats_mode *m;

	PM_TRY(pm_stats_mode_parse(table_mode != NULL ? table_mode : "truncate(16)", &table, err));
	if (keep_text != NULL)
	{
		char	   *end;

		errno = 0;
		keep_first = strtol(keep_text, &end, 10);
		if (errno != 0 || end == keep_text || *end != '\0' || keep_first < INT32_MIN ||
			keep_first > INT32_MAX)
			return pm_fail(err, PM_ERR_INVALID,
						   "metadata.stats-keep-first-n-columns \"%s\" is not an integer",
						   keep_text);
	}
	m = pm_arena_zalloc(arena, sizeof(*m) * (size_t) (row->nfields > 0 ? row->nfields : 1));
	if (m == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < row->nfields; i++)
	{
		const char *name = row->fields[i].name;
		char	   *key = pm_arena_sprintf(arena, "fields.%s.stats-mode", name);
		const char *field_mode;

		if (key == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		field_mode = pm_schema_option(schema, key);
		if (field_mode != NULL)
		{
			PM_TRY(pm_stats_mode_parse(field_mode, &m[i], err));
			column_count++;
		}
		else if (!avro && (is_system_field_name(name) || is_thin_key(thin_keys, name)))
		{
			m[i].kind = PM_STATS_MODE_TRUNCATE;
			m[i].truncate_length = 128;
		}
		else
		{
			if (keep_first >= 0 && column_count >= keep_first)
				m[i].kind = PM_STATS_MODE_NONE;
			else
				m[i] = table;
			column_count++;
		}
	}
	*modes = m;
	return PM_OK;
}

bool
pm_stats_truncate_string(const uint8_t *s, int32_t len, int n, pm_arena *arena,
						 const uint8_t **min, int32_t *min_len,
						 const uint8_t **max, int32_t *max_len, bool *max_ok)
{
	int32_t		prefix = 0;
	int			count = 0;

	/* BinaryString.substring(0, n): n code points by their lead bytes */
	{
		int64_t		counted;

		prefix = (int32_t) pm_utf8_prefix(s, (size_t) len, n, &counted);
		count = (int) counted;
	}
	*min = s;
	*min_len = prefix;
	*max_ok = true;
	if (prefix == len)
	{
		/* fits: max is the value itself */
		*max = s;
		*max_len = len;
		return true;
	}

	/*
	 * Walk code points from the last of the prefix to the first; the first
	 * one that can be incremented (cp + 1 <= U+10FFFF) ends the max. Java
	 * appends U+D7FF + 1 as a lone high surrogate, which its UTF-8 encoder
	 * writes as '?'.
	 */
	{
		int32_t    *starts = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) count);
		int32_t		pos = 0;
		uint8_t    *buf;

		if (starts == NULL)
			return false;
		for (int i = 0; i < count; i++)
		{
			starts[i] = pos;
			pos += pm_utf8_char_bytes(s[pos]);
		}
		buf = pm_arena_alloc(arena, (size_t) prefix + 4);
		if (buf == NULL)
			return false;
		for (int i = count - 1; i >= 0; i--)
		{
			int			nb = pm_utf8_char_bytes(s[starts[i]]);
			uint32_t	next;
			int32_t		out_len;

			if (starts[i] + nb > prefix)
				nb = prefix - starts[i];
			next = pm_utf8_decode(s + starts[i], nb) + 1;
			if (next > 0x10FFFF)
				continue;
			memcpy(buf, s, (size_t) starts[i]);
			out_len = starts[i];
			if (next == 0xD800)
				buf[out_len++] = '?';
			else
				out_len += pm_utf8_encode(next, buf + out_len);
			*max = buf;
			*max_len = out_len;
			return true;
		}
		*max_ok = false;
		*max = NULL;
		*max_len = 0;
		return true;
	}
}

/* What Java's ParquetSimpleStatsExtractor gives for a column, before the mode. */
typedef enum stats_source
{
	SOURCE_NOTHING,				/* no footer statistics: "none" whatever the mode */
	SOURCE_COUNT_ONLY,			/* null count; min/max null */
	SOURCE_VALUES				/* null count, min, max */
} stats_source;

/*
 * What Java's SimpleStatsCollector gets from the rows of an Avro file
 * (RollingFileWriter.createStatsProducer: Avro files collect per record):
 * values that are not Comparable (byte[], InternalArray/Map/Row, Variant)
 * keep their null count only; every other type its min and max (also
 * TIMESTAMP(p > 6)).
 */
static stats_source
avro_source(const pm_type *type, const pm_column_stats *c)
{
	switch (type->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
		case PM_TYPE_VARIANT:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return SOURCE_COUNT_ONLY;
		default:
			return c->has_min_max ? SOURCE_VALUES : SOURCE_COUNT_ONLY;
	}
}

static stats_source
parquet_source(const pm_type *type, const pm_column_stats *c)
{
	switch (type->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
		case PM_TYPE_VARIANT:
			return SOURCE_NOTHING;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return SOURCE_COUNT_ONLY;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (type->precision > 6)
				return SOURCE_COUNT_ONLY;
			break;
		default:
			break;
	}
	return c->has_min_max ? SOURCE_VALUES : SOURCE_COUNT_ONLY;
}

/*
 * What Java's OrcSimpleStatsExtractor gets from the footer statistics Apache
 * ORC 1.9 writes: min/max for booleans, integers, TIME, DATE, floating
 * point, decimals, timestamps and strings; the null count only for binary
 * (and nested) columns. Strings longer than 1024 bytes are recorded as
 * bounds, which getMinimum/getMaximum give as null (see orc_string_bound).
 * FLOAT/DOUBLE min/max come from the ORC writer in ORC's order (NaN only
 * when it came first), as the footer holds them.
 */
static stats_source
orc_source(const pm_type *type, const pm_column_stats *c)
{
	switch (type->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
		case PM_TYPE_VARIANT:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return SOURCE_COUNT_ONLY;
		default:
			break;
	}
	return c->has_min_max ? SOURCE_VALUES : SOURCE_COUNT_ONLY;
}

/*
 * ORC's StringStatisticsImpl keeps a string above MAX_BYTES_RECORDED (1024)
 * as a truncated bound and then reports the minimum/maximum as null.
 * XXX: both sides are dropped here when either is that long.
 */
static bool
orc_string_bound(const pm_type *type, const pm_column_stats *c)
{
	return pm_type_is_string(type->id) && c->has_min_max &&
		(c->min.u.bytes.len > 1024 || c->max.u.bytes.len > 1024);
}

pm_code
pm_value_stats_build(const pm_type *row_type, const pm_stats_mode *modes, bool dense,
					 pm_file_format format, const pm_column_stats *columns, pm_arena *arena,
					 pm_simple_stats *out, const char ***stats_cols, int *nstats_cols,
					 pm_error *err)
{
	int			n = row_type->nfields;
	size_t		slots = (size_t) (n > 0 ? n : 1);
	pm_value   *mins = pm_arena_zalloc(arena, sizeof(pm_value) * slots);
	pm_value   *maxs = pm_arena_zalloc(arena, sizeof(pm_value) * slots);
	int64_t    *nulls = pm_arena_zalloc(arena, sizeof(int64_t) * slots);
	bool	   *is_none = pm_arena_zalloc(arena, sizeof(bool) * slots);
	pm_field   *kept_fields = pm_arena_zalloc(arena, sizeof(pm_field) * slots);
	const char **kept_names = pm_arena_zalloc(arena, sizeof(char *) * slots);
	int			nkept = 0;
	pm_type    *kept_type;
	uint8_t    *buf;
	size_t		len;

	if (mins == NULL || maxs == NULL || nulls == NULL || is_none == NULL ||
		kept_fields == NULL || kept_names == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	for (int i = 0; i < n; i++)
	{
		const pm_type *type = row_type->fields[i].type;
		const pm_column_stats *c = &columns[i];
		stats_source source;

		if (format == PM_FORMAT_PARQUET)
			source = parquet_source(type, c);
		else if (format == PM_FORMAT_AVRO)
			source = avro_source(type, c);
		else if (format == PM_FORMAT_ORC)
			source = orc_source(type, c);
		else
			return pm_fail(err, PM_ERR_UNSUPPORTED, "value statistics of these data files");
		mins[i].is_null = true;
		maxs[i].is_null = true;
		nulls[i] = -1;
		if (source == SOURCE_NOTHING || modes[i].kind == PM_STATS_MODE_NONE)
		{
			is_none[i] = true;
			continue;
		}
		nulls[i] = c->null_count;
		if (source == SOURCE_VALUES && format == PM_FORMAT_ORC && orc_string_bound(type, c))
			source = SOURCE_COUNT_ONLY;
		if (source == SOURCE_VALUES && modes[i].kind != PM_STATS_MODE_COUNTS)
		{
			mins[i] = c->min;
			maxs[i] = c->max;
			if (modes[i].kind == PM_STATS_MODE_TRUNCATE && pm_type_is_string(type->id))
			{
				const uint8_t *tmin,
						   *tmax,
						   *unused;
				int32_t		tmin_len,
							tmax_len,
							unused_len;
				bool		ok;

				/* convert(): min from the min, max from the max */
				if (!pm_stats_truncate_string(c->min.u.bytes.ptr, c->min.u.bytes.len,
											  modes[i].truncate_length, arena,
											  &tmin, &tmin_len, &unused, &unused_len, &ok) ||
					!pm_stats_truncate_string(c->max.u.bytes.ptr, c->max.u.bytes.len,
											  modes[i].truncate_length, arena,
											  &unused, &unused_len, &tmax, &tmax_len, &ok))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				if (!ok)
				{
					mins[i].is_null = true;
					maxs[i].is_null = true;
				}
				else
				{
					mins[i].u.bytes.ptr = tmin;
					mins[i].u.bytes.len = tmin_len;
					maxs[i].u.bytes.ptr = tmax;
					maxs[i].u.bytes.len = tmax_len;
				}
			}
		}
	}

	for (int i = 0; i < n; i++)
	{
		if (dense && is_none[i])
			continue;
		kept_fields[nkept] = row_type->fields[i];
		kept_names[nkept] = row_type->fields[i].name;
		mins[nkept] = mins[i];
		maxs[nkept] = maxs[i];
		nulls[nkept] = nulls[i];
		nkept++;
	}
	kept_type = pm_type_new_row(arena, kept_fields, nkept, true);
	if (kept_type == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	PM_TRY(pm_binary_row_encode_serialized(arena, kept_type, mins, &buf, &len, err));
	out->min_values = buf;
	out->min_values_len = (int32_t) len;
	PM_TRY(pm_binary_row_encode_serialized(arena, kept_type, maxs, &buf, &len, err));
	out->max_values = buf;
	out->max_values_len = (int32_t) len;
	out->nnull_counts = nkept;
	out->null_counts = nulls;

	if (nkept == n)
	{
		*stats_cols = NULL;
		*nstats_cols = -1;
	}
	else
	{
		*stats_cols = kept_names;
		*nstats_cols = nkept;
	}
	return PM_OK;
}

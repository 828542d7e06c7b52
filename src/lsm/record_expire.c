/*-------------------------------------------------------------------------
 * record_expire.c
 *	  Record-level expiry (see record_expire.h): the option check, a
 *	  record's time in seconds, the file test from value statistics and the
 *	  batch filter compaction's reads go through.
 *-------------------------------------------------------------------------
 */
#include "lsm/record_expire.h"

#include <string.h>
#include <sys/time.h>

#include "common/floor_div.h"
#include "common/vector_builder.h"
#include "row/data_type.h"
#include "table/schema_validation.h"
#include "table/duration.h"
#include "table/stats_filter.h"
#include "table/table.h"

#define EXPIRE_TIME "record-level.expire-time"
#define TIME_FIELD "record-level.time-field"

/* Java's long arithmetic: wraps */
static int64_t
jadd(int64_t a, int64_t b)
{
	return (int64_t) ((uint64_t) a + (uint64_t) b);
}

static int64_t
jsub(int64_t a, int64_t b)
{
	return (int64_t) ((uint64_t) a - (uint64_t) b);
}

pm_code
pm_record_expire_create(const pm_schema *s, pm_arena *arena, pm_record_expire **out,
						pm_error *err)
{
	const char *expire = pm_schema_option(s, EXPIRE_TIME);
	const char *name = pm_schema_option(s, TIME_FIELD);
	pm_record_expire *re;
	int64_t		millis;
	int			idx = -1;
	pm_type_id	t = PM_TYPE_INT;

	*out = NULL;
	/* SchemaValidation: the time field, whenever it is set */
	PM_TRY(pm_schema_record_time_field(s, arena, &idx, err));
	if (idx >= 0)
		t = s->row_type->fields[idx].type->id;
	if (expire == NULL)
		return PM_OK;
	PM_TRY(pm_parse_duration_millis(EXPIRE_TIME, expire, &millis, err));
	if (name == NULL)
		return pm_fail(err, PM_ERR_INVALID, "You should set time field for record-level expire.");
	re = pm_arena_zalloc(arena, sizeof(*re));
	if (re == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	re->expire_seconds = millis / 1000;	/* Duration.getSeconds; millis >= 0 */
	re->field = idx;
	re->type = t;
	*out = re;
	return PM_OK;
}

pm_code
pm_record_expire_check(const pm_schema *s, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_record_expire *re;
	pm_code		rc;

	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_record_expire_create(s, arena, &re, err);
	pm_arena_destroy(arena);
	return rc;
}

int64_t
pm_record_expire_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t) tv.tv_sec;
}

/* createFieldGetterAndConvertToSecond on a non-null value */
static int64_t
to_seconds(pm_type_id t, int64_t v)
{
	switch (t)
	{
		case PM_TYPE_BIGINT:
			/* milliseconds from 10^12 on (Java's / truncates, as C's) */
			return v >= INT64_C(1000000000000) ? v / 1000 : v;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			/* micros -> Timestamp.getMillisecond (floor) -> / 1000L */
			return pm_floor_div(v, 1000) / 1000;
		default:
			return v;			/* INT: seconds */
	}
}

bool
pm_record_expire_seconds(const pm_record_expire *re, const pm_vector *col, int64_t row,
						 int64_t *seconds)
{
	int64_t		v;

	if (pm_vector_is_null(col, row))
		return false;
	if (re->type == PM_TYPE_INT)
		v = PM_VEC_VALUES(col, int32_t)[row];
	else
		v = PM_VEC_VALUES(col, int64_t)[row];
	*seconds = to_seconds(re->type, v);
	return true;
}

bool
pm_record_expire_row(const pm_record_expire *re, const pm_vector *col, int64_t row, int64_t now)
{
	int64_t		t;

	/* wrap's filter keeps currentTime <= t + expireTime */
	return pm_record_expire_seconds(re, col, row, &t) && now > jadd(t, re->expire_seconds);
}

pm_code
pm_record_expire_file(const pm_record_expire *re, pm_table *table, const pm_data_file_meta *file,
					  int64_t now, pm_arena *arena, bool *expired, pm_error *err)
{
	const pm_type *row = pm_table_schema(table)->row_type;
	pm_field_range *ranges = pm_arena_zalloc(arena, sizeof(pm_field_range) *
											 (size_t) (row->nfields + 1));
	const pm_field_range *r;

	*expired = false;
	if (ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* the min of the time field, evolved to the table schema (SimpleStatsEvolution) */
	PM_TRY(pm_stats_filter_file_ranges(table, file, arena, ranges, err));
	r = &ranges[re->field];
	if (!r->has_min_max || r->min.is_null)
		return PM_OK;			/* Optional.empty(): not expired */
	/* currentTime - expireTime > minValue */
	*expired = jsub(now, re->expire_seconds) > to_seconds(re->type, r->min.u.i64);
	return PM_OK;
}

/* whether row r of batch in is left out */
static bool
left_out(const pm_record_expire *re, const pm_vector *tv, const pm_deletion_vector *dv,
		 const pm_batch *in, int64_t r, int64_t now, bool *expired)
{
	*expired = false;
	if (dv != NULL && pm_deletion_vector_contains(dv, in->first_row + r))
		return true;
	return (*expired = pm_record_expire_row(re, tv, r, now));
}

pm_code
pm_record_expire_filter(const pm_record_expire *re, int col, const pm_deletion_vector *dv,
						pm_batch *in, int64_t now, pm_arena *arena, pm_batch **out,
						int64_t *dropped, pm_error *err)
{
	const pm_vector *tv = &in->cols[col];
	int64_t		first = -1;
	pm_batch   *b;
	pm_vector_builder *vb;
	bool		expired;

	*out = in;
	*dropped = 0;
	for (int64_t r = 0; r < in->nrows && first < 0; r++)
		if (left_out(re, tv, dv, in, r, now, &expired))
			first = r;
	if (first < 0)
		return PM_OK;
	b = pm_arena_zalloc(arena, sizeof(*b));
	vb = pm_arena_zalloc(arena, sizeof(*vb) * (size_t) (in->ncols + 1));
	if (b == NULL || vb == NULL ||
		(b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (in->ncols + 1))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	b->ncols = in->ncols;
	b->first_row = in->first_row;
	for (int c = 0; c < in->ncols; c++)
		if (!pm_vector_builder_init(&vb[c], &b->cols[c], in->cols[c].type, in->nrows, arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t r = 0; r < in->nrows; r++)
	{
		if (r >= first && left_out(re, tv, dv, in, r, now, &expired))
		{
			*dropped += expired;
			continue;
		}
		for (int c = 0; c < in->ncols; c++)
			if (!pm_vector_builder_append(&vb[c], &in->cols[c], r))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		b->nrows++;
	}
	*out = b;
	return PM_OK;
}

pm_code
pm_record_expire_next(const pm_record_expire *re, int col, const pm_deletion_vector *dv,
					  pm_data_file_reader *reader, int64_t now, pm_arena *scratch,
					  pm_batch **out, int64_t *expired, pm_error *err)
{
	for (;;)
	{
		pm_batch   *b;
		int64_t		dropped;

		pm_arena_reset(scratch);
		*out = NULL;			/* the last filtered batch was in scratch */
		PM_TRY(pm_data_file_reader_next(reader, &b, err));
		if (b == NULL)
			return PM_OK;
		PM_TRY(pm_record_expire_filter(re, col, dv, b, now, scratch, out, &dropped, err));
		*expired += dropped;
		if ((*out)->nrows > 0)
			return PM_OK;
	}
}

/*-------------------------------------------------------------------------
 * tag_auto.c
 *	  TagAutoCreation, process-time mode (tag_auto.h): the tag decision
 *	  and the run a commit makes.
 *-------------------------------------------------------------------------
 */
#include "table/tag_auto.h"

#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/floor_div.h"
#include "common/tz.h"
#include "table/snapshot.h"
#include "table/table.h"
#include "table/tag.h"

bool
pm_tag_auto_init(pm_tag_auto *a, const pm_tag_period *period, int64_t delay_ms,
				 bool completion, const char *last_auto_tag)
{
	int64_t		t;

	memset(a, 0, sizeof(*a));
	a->period = *period;
	a->delay_ms = delay_ms;
	a->completion = completion;
	if (last_auto_tag == NULL)
		return true;
	if (!pm_tag_period_parse(period, last_auto_tag, &t))
		return false;
	a->has_next = true;
	a->next_tag = pm_tag_period_next(period, t);
	return true;
}

bool
pm_tag_auto_step(pm_tag_auto *a, int64_t local_ms, char out[PM_TAG_PERIOD_NAME_MAX])
{
	int64_t		this_tag;

	/* nextTag == null || !(time - delay).isBefore(nextTagTime(nextTag)) */
	if (a->has_next &&
		local_ms - a->delay_ms < pm_tag_period_next(&a->period, a->next_tag))
		return false;
	this_tag = pm_tag_period_previous_start(&a->period, local_ms);
	if (a->completion && a->has_next)
		this_tag = a->next_tag;
	if (!pm_tag_period_name(&a->period, this_tag, out))
		return false;
	a->next_tag = pm_tag_period_next(&a->period, this_tag);
	a->has_next = true;
	return true;
}

/* ---------------------------------------------------------------------
 * The run after a commit
 * ---------------------------------------------------------------------
 */
typedef struct auto_config
{
	pm_tag_period period;
	int64_t		delay_ms;
	bool		completion;
	bool		has_max;
	int			num_retained_max;
	const char *zone;			/* sink.process-time-zone; NULL: local */
	pm_tag_options tag_options; /* tag.default-time-retained, tag.create-success-file */
} auto_config;

static bool
is_process_time(const pm_schema *s)
{
	const char *mode = pm_schema_option(s, "tag.automatic-creation");

	return mode != NULL && strcasecmp(mode, "process-time") == 0;
}

static pm_code
config_of(const pm_schema *s, auto_config *c, pm_error *err)
{
	const char *v;

	memset(c, 0, sizeof(*c));
	PM_TRY(pm_tag_period_from_schema(s, &c->period, &c->delay_ms, err));
	c->completion = pm_schema_bool_option(s, "tag.automatic-completion", false);
	if ((v = pm_schema_option(s, "tag.num-retained-max")) != NULL)
	{
		PM_TRY(pm_schema_int_option(s, "tag.num-retained-max", 0, &c->num_retained_max, err));
		c->has_max = true;
	}
	c->zone = pm_schema_option(s, "sink.process-time-zone");
	if (c->zone != NULL && !pm_tz_known(c->zone))
		return pm_fail(err, PM_ERR_INVALID, "table option sink.process-time-zone = \"%s\": unknown time zone",
					   c->zone);
	return pm_tag_options_of_schema(s, &c->tag_options, err);
}

pm_code
pm_tag_auto_check_schema(const pm_schema *s, pm_error *err)
{
	const char *mode = pm_schema_option(s, "tag.automatic-creation");
	auto_config c;

	/*
	 * Java's commit builds its TagAutoCreation with watermark too (tagging
	 * no snapshot of ours) and fails on a bad period, formatter, duration
	 * or a delay not shorter than one period: so must ours.
	 */
	if (mode != NULL && strcasecmp(mode, "watermark") == 0)
	{
		pm_tag_period p;
		int64_t		delay;

		return pm_tag_period_from_schema(s, &p, &delay, err);
	}
	if (!is_process_time(s))
		return PM_OK;
	/* tag.callbacks refused by config_of (pm_tag_options_of_schema) */
	return config_of(s, &c, err);
}

/* Instant.ofEpochMilli(ms).atZone(zone).toLocalDateTime(), as local ms */
static int64_t
to_local_ms(const pm_tz *tz, int64_t utc_ms)
{
	struct tm	tm;
	time_t		secs;

	if (tz != NULL)
		return utc_ms + pm_tz_offset_millis(tz, utc_ms);
	secs = (time_t) pm_floor_div(utc_ms, 1000);
	if (localtime_r(&secs, &tm) == NULL)
		return utc_ms;
	return utc_ms + (int64_t) tm.tm_gmtoff * 1000;
}

/*
 * The auto tags of the table (TagManager.tags(isAutoTag)), in snapshot
 * order: names[i] tags snapshot ids[i].
 */
static pm_code
list_auto_tags(pm_fileio *io, const char *table_path, const pm_tag_period *period,
			   pm_arena *arena, const char ***names, int64_t **ids, int *n, pm_error *err)
{
	pm_tag	   *tags;
	int			ntags;
	int64_t		t;

	PM_TRY(pm_tag_list(io, table_path, arena, &tags, &ntags, err));
	*n = 0;
	*names = pm_arena_alloc(arena, sizeof(char *) * (size_t) (ntags + 1));
	*ids = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (ntags + 1));
	if (*names == NULL || *ids == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < ntags; i++)
		if (pm_tag_period_parse(period, tags[i].name, &t))
		{
			/* checkAndGetOneAutoTag */
			if (*n > 0 && (*ids)[*n - 1] == tags[i].snapshot->id)
				return pm_fail(err, PM_ERR_INVALID,
							   "There are more than 1 auto-created tags of the same snapshot: %s,%s. This is unexpected.",
							   (*names)[*n - 1], tags[i].name);
			(*names)[*n] = tags[i].name;
			(*ids)[*n] = tags[i].snapshot->id;
			(*n)++;
		}
	return PM_OK;
}

/* The oldest auto tags beyond tag.num-retained-max, deleted. */
static pm_code
expire_auto_tags(const pm_env *env, pm_fileio *io, const char *table_path,
				 const auto_config *c, pm_arena *arena, pm_tag_auto_result *res,
				 pm_error *err)
{
	const char **names;
	int64_t    *ids;
	int			n;
	pm_table   *table = NULL;
	pm_code		rc = PM_OK;

	PM_TRY(list_auto_tags(io, table_path, &c->period, arena, &names, &ids, &n, err));
	if (n <= c->num_retained_max)
		return PM_OK;
	PM_TRY(pm_table_open(env, io, table_path, NULL, &table, err));
	for (int i = 0; rc == PM_OK && i < n - c->num_retained_max; i++)
	{
		bool		deleted;
		int64_t		files;

		rc = pm_tag_delete(table, names[i], arena, &deleted, &files, err);
		if (rc == PM_OK && deleted)
			res->deleted++;
	}
	pm_table_close(table);
	return rc;
}

/* TagAutoCreation.run */
static pm_code
auto_create(const pm_env *env, pm_fileio *io, const char *table_path, const pm_schema *s,
			pm_arena *arena, pm_tag_auto_result *res, pm_error *err)
{
	auto_config c;
	pm_tz	   *tz = NULL;
	pm_tag_auto a;
	const char **names;
	int64_t    *ids;
	int			n;
	int64_t		next;
	int64_t		earliest;

	PM_TRY(config_of(s, &c, err));
	if (c.zone != NULL)
		PM_TRY(pm_tz_load(arena, c.zone, &tz, err));
	PM_TRY(list_auto_tags(io, table_path, &c.period, arena, &names, &ids, &n, err));
	(void) pm_tag_auto_init(&a, &c.period, c.delay_ms, c.completion, n > 0 ? names[n - 1] : NULL);
	if (n > 0)
		next = ids[n - 1] + 1;
	else
	{
		PM_TRY(pm_snapshot_earliest_id(io, table_path, arena, &earliest, err));
		next = earliest > 0 ? earliest : 1;
	}
	for (;;)
	{
		pm_snapshot *snap;
		char		name[PM_TAG_PERIOD_NAME_MAX];
		int64_t		tagged;
		pm_code		rc = pm_snapshot_load(io, table_path, next, arena, &snap, err);

		if (rc == PM_ERR_NOT_FOUND)
		{
			/* expired meanwhile: go on from the earliest, else done */
			pm_error_clear(err);
			PM_TRY(pm_snapshot_earliest_id(io, table_path, arena, &earliest, err));
			if (earliest > next)
			{
				next = earliest;
				continue;
			}
			break;
		}
		if (rc != PM_OK)
			return rc;
		if (pm_tag_auto_step(&a, to_local_ms(tz, snap->time_millis), name))
		{
			/* createTag(..., defaultTimeRetained, ignoreIfExists = true) */
			rc = pm_tag_create_with(io, table_path, name, snap->id, &c.tag_options, arena,
									&tagged, err);
			if (rc == PM_ERR_CONFLICT)
				pm_error_clear(err);
			else if (rc != PM_OK)
				return rc;
			else
			{
				res->created++;
				memcpy(res->last_created, name, sizeof(name));
			}
			if (c.has_max)
				PM_TRY(expire_auto_tags(env, io, table_path, &c, arena, res, err));
		}
		next++;
	}
	return PM_OK;
}

pm_code
pm_tag_auto_run(const pm_env *env, pm_fileio *io, const char *table_path,
				const pm_schema *s, pm_arena *arena, pm_tag_auto_result *res,
				pm_error *err)
{
	memset(res, 0, sizeof(*res));
	if (is_process_time(s))
		PM_TRY(auto_create(env, io, table_path, s, arena, res, err));
	/*
	 * TagAutoManager: TagTimeExpire whatever the creation mode; with
	 * tag.callbacks (whose classes its deletions would run) left to Java's
	 * next commit
	 */
	if (pm_schema_bool_option(s, "tag.time-expire-enabled", true))
	{
		pm_error	ignored;

		if (pm_tag_check_callbacks(s, &ignored) == PM_OK)
			PM_TRY(pm_tag_expire_by_time(env, io, table_path, pm_local_now_nanos(), arena,
										 &res->expired, err));
	}
	return PM_OK;
}

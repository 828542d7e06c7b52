/*-------------------------------------------------------------------------
 * compact_pick.c
 *	  Universal compaction picking (see compact_pick.h), line by line as
 *	  Java 1.4.2's UniversalCompaction / EarlyFullCompaction /
 *	  ForceUpLevel0Compaction.
 *-------------------------------------------------------------------------
 */
#include "lsm/compact_pick.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table/duration.h"
#include "table/write_options.h"

static pm_code
size_option(const pm_schema *s, const char *key, int64_t *out, pm_error *err)
{
	const char *v = pm_schema_option(s, key);

	*out = -1;
	return v == NULL ? PM_OK : pm_parse_memory_size(key, v, out, err);
}

pm_code
pm_compact_strategy_parse(const pm_schema *schema, pm_compact_strategy *o, pm_error *err)
{
	const char *v;
	int			stop;
	int			max_interval;

	memset(o, 0, sizeof(*o));
	PM_TRY(pm_schema_int_option(schema, "num-sorted-run.compaction-trigger", 5, &o->trigger, err));
	/* CoreOptions.numLevels: num-levels, else trigger + 1 */
	PM_TRY(pm_schema_int_option(schema, "num-levels", o->trigger + 1, &o->num_levels, err));
	if (o->num_levels < 2)
		return pm_fail(err, PM_ERR_INVALID, "Number of levels must be at least 2.");
	if (o->trigger < 1)
		return pm_fail(err, PM_ERR_INVALID,
					   "invalid value \"%d\" for option \"num-sorted-run.compaction-trigger\"",
					   o->trigger);
	/* numSortedRunStopTrigger: max(trigger, stop-trigger or trigger + 3) */
	PM_TRY(pm_schema_int_option(schema, "num-sorted-run.stop-trigger",
					  o->trigger > INT_MAX - 3 ? INT_MAX : o->trigger + 3, &stop, err));
	o->stop_trigger = stop > o->trigger ? stop : o->trigger;
	PM_TRY(pm_schema_int_option(schema, "compaction.max-size-amplification-percent", 200,
					  &o->max_size_amp, err));
	PM_TRY(pm_schema_int_option(schema, "compaction.size-ratio", 1, &o->size_ratio, err));
	PM_TRY(pm_schema_int_option(schema, "compaction.offpeak.start.hour", -1, &o->offpeak_start, err));
	PM_TRY(pm_schema_int_option(schema, "compaction.offpeak.end.hour", -1, &o->offpeak_end, err));
	PM_TRY(pm_schema_int_option(schema, "compaction.offpeak-ratio", 0, &o->offpeak_ratio, err));
	o->full_interval_millis = -1;
	if ((v = pm_schema_option(schema, "compaction.optimization-interval")) != NULL)
		PM_TRY(pm_parse_duration_millis("compaction.optimization-interval", v,
										&o->full_interval_millis, err));
	PM_TRY(size_option(schema, "compaction.total-size-threshold", &o->total_size_threshold, err));
	PM_TRY(size_option(schema, "compaction.incremental-size-threshold",
					   &o->incremental_size_threshold, err));
	/* CoreOptions.lookupStrategy().needLookup */
	o->need_lookup = pm_schema_option_is(schema, "merge-engine", NULL, "first-row") ||
		pm_schema_option_is(schema, "changelog-producer", NULL, "lookup") ||
		pm_schema_bool_option(schema, "deletion-vectors.enabled", false) ||
		pm_schema_bool_option(schema, "force-lookup", false);
	o->write_only = pm_schema_bool_option(schema, "write-only", false) ||
		(pm_schema_option(schema, "write-only") == NULL &&
		 pm_schema_bool_option(schema, "write.compaction-skip", false));
	o->force_rewrite_all_files =
		pm_schema_bool_option(schema, "compaction.force-rewrite-all-files", false);
	if (o->need_lookup)
	{
		o->force_up_level0 = true;
		if (pm_schema_option_is(schema, "lookup-compact", NULL, "gentle"))
		{
			PM_TRY(pm_schema_int_option(schema, "lookup-compact.max-interval",
							  o->trigger > INT_MAX / 2 ? INT_MAX : o->trigger * 2, &max_interval,
							  err));
			o->lookup_max_interval = max_interval > o->trigger ? max_interval : o->trigger;
		}
	}
	else
		o->force_up_level0 = pm_schema_bool_option(schema, "compaction.force-up-level-0", false);
	return PM_OK;
}

/* OffPeakHours.currentRatio; no off-peak hours when start or end is -1 or they are equal. */
static int
offpeak_ratio(const pm_compact_strategy *s, int hour)
{
	bool		off;

	if (s->offpeak_start == -1 || s->offpeak_end == -1 || s->offpeak_start == s->offpeak_end)
		return 0;
	if (s->offpeak_start <= s->offpeak_end)
		off = s->offpeak_start <= hour && hour < s->offpeak_end;
	else
		off = hour < s->offpeak_end || s->offpeak_start <= hour;
	return off ? s->offpeak_ratio : 0;
}

static bool
has_early_full(const pm_compact_strategy *s)
{
	return s->full_interval_millis >= 0 || s->total_size_threshold >= 0 ||
		s->incremental_size_threshold >= 0;
}

static void
update_last_full(const pm_compact_strategy *s, pm_compact_pick_state *st, int64_t now_millis)
{
	if (has_early_full(s))
	{
		st->has_last_full = true;
		st->last_full_millis = now_millis;
	}
}

/* every run into the max level */
static pm_compact_unit
all_runs(const pm_compact_strategy *s, int nruns)
{
	pm_compact_unit u = {nruns, s->num_levels - 1};

	return u;
}

/* EarlyFullCompaction.tryFullCompact */
static bool
try_full(const pm_compact_strategy *s, pm_compact_pick_state *st, const pm_compact_run *runs,
		 int nruns, int64_t now, pm_compact_unit *out)
{
	int			max_level = s->num_levels - 1;

	if (nruns == 1)
		return false;
	if (s->full_interval_millis >= 0 &&
		(!st->has_last_full || now - st->last_full_millis > s->full_interval_millis))
	{
		update_last_full(s, st, now);
		*out = all_runs(s, nruns);
		return true;
	}
	if (s->total_size_threshold >= 0)
	{
		int64_t		total = 0;

		for (int i = 0; i < nruns; i++)
			total += runs[i].size;
		if (total < s->total_size_threshold)
		{
			update_last_full(s, st, now);
			*out = all_runs(s, nruns);
			return true;
		}
	}
	if (s->incremental_size_threshold >= 0)
	{
		int64_t		incremental = 0;

		for (int i = 0; i < nruns; i++)
			if (runs[i].level != max_level)
				incremental += runs[i].size;
		if (incremental > s->incremental_size_threshold)
		{
			update_last_full(s, st, now);
			*out = all_runs(s, nruns);
			return true;
		}
	}
	return false;
}

pm_compact_unit
pm_compact_create_unit(const pm_compact_strategy *s, pm_compact_pick_state *st,
					   const pm_compact_run *runs, int nruns, int run_count)
{
	int32_t		max_level = s->num_levels - 1;
	int32_t		output_level;
	pm_compact_unit u;

	if (run_count == nruns)
		output_level = max_level;
	else
	{
		/* level of next run - 1 */
		output_level = runs[run_count].level - 1;
		if (output_level < 0)
			output_level = 0;
	}
	if (output_level == 0)
	{
		/* do not output level 0 */
		for (int i = run_count; i < nruns; i++)
		{
			run_count++;
			if (runs[i].level != 0)
			{
				output_level = runs[i].level;
				break;
			}
		}
	}
	if (run_count == nruns)
	{
		update_last_full(s, st, st->now_millis);
		output_level = max_level;
	}
	u.nruns = run_count;
	u.output_level = output_level;
	return u;
}

bool
pm_compact_pick_size_ratio(const pm_compact_strategy *s, pm_compact_pick_state *st,
						   const pm_compact_run *runs, int nruns, int candidates, bool force,
						   int hour, pm_compact_unit *out)
{
	int64_t		candidate_size = 0;
	double		ratio = 100.0 + s->size_ratio + offpeak_ratio(s, hour);

	for (int i = 0; i < candidates && i < nruns; i++)
		candidate_size += runs[i].size;
	for (int i = candidates; i < nruns; i++)
	{
		/* candidateSize * (100.0 + sizeRatio + ratioForOffPeak()) / 100.0 < next size */
		if ((double) candidate_size * ratio / 100.0 < (double) runs[i].size)
			break;
		candidate_size += runs[i].size;
		candidates++;
	}
	if (force || candidates > 1)
	{
		*out = pm_compact_create_unit(s, st, runs, nruns, candidates);
		return true;
	}
	return false;
}

bool
pm_compact_pick_size_amp(const pm_compact_strategy *s, pm_compact_pick_state *st,
			  const pm_compact_run *runs, int nruns, pm_compact_unit *out)
{
	int64_t		candidate_size = 0;
	int64_t		earliest;

	if (nruns < s->trigger)
		return false;
	for (int i = 0; i < nruns - 1; i++)
		candidate_size += runs[i].size;
	earliest = runs[nruns - 1].size;
	/* Java long arithmetic: candidateSize * 100 > maxSizeAmp * earliestRunSize */
	if ((__int128) candidate_size * 100 > (__int128) s->max_size_amp * earliest)
	{
		update_last_full(s, st, st->now_millis);
		*out = all_runs(s, nruns);
		return true;
	}
	return false;
}

/* UniversalCompaction.pick */
static bool
universal_pick(const pm_compact_strategy *s, pm_compact_pick_state *st,
			   const pm_compact_run *runs, int nruns, int hour, int64_t now,
			   pm_compact_unit *out)
{
	st->now_millis = now;
	/* 0 try full compaction by trigger */
	if (has_early_full(s) && try_full(s, st, runs, nruns, now, out))
		return true;
	/* 1 size amplification */
	if (pm_compact_pick_size_amp(s, st, runs, nruns, out))
		return true;
	/* 2 size ratio */
	if (nruns >= s->trigger &&
		pm_compact_pick_size_ratio(s, st, runs, nruns, 1, false, hour, out))
		return true;
	/* 3 file num */
	if (nruns > s->trigger)
		return pm_compact_pick_size_ratio(s, st, runs, nruns, nruns - s->trigger + 1, false,
										  hour, out);
	return false;
}

/* UniversalCompaction.forcePickL0 */
static bool
force_pick_l0(const pm_compact_strategy *s, pm_compact_pick_state *st,
			  const pm_compact_run *runs, int nruns, int hour, pm_compact_unit *out)
{
	int			candidates = 0;

	while (candidates < nruns && runs[candidates].level == 0)
		candidates++;
	if (candidates == 0)
		return false;
	return pm_compact_pick_size_ratio(s, st, runs, nruns, candidates, true, hour, out);
}

bool
pm_compact_pick(const pm_compact_strategy *s, pm_compact_pick_state *st,
				const pm_compact_run *runs, int nruns, int hour, int64_t now_millis,
				pm_compact_unit *out)
{
	bool		picked;
	int			nfiles = 0;

	if (nruns == 0)
		return false;
	picked = universal_pick(s, st, runs, nruns, hour, now_millis, out);
	if (!picked && s->force_up_level0)
	{
		/* ForceUpLevel0Compaction: radical, or gentle every max interval picks */
		if (s->lookup_max_interval <= 0)
			picked = force_pick_l0(s, st, runs, nruns, hour, out);
		else if (++st->trigger_count == s->lookup_max_interval)
		{
			st->trigger_count = 0;
			picked = force_pick_l0(s, st, runs, nruns, hour, out);
		}
	}
	if (!picked)
		return false;
	/* MergeTreeCompactManager: not empty, and more than one file staying at its level */
	for (int i = 0; i < out->nruns; i++)
		nfiles += runs[i].nfiles;
	if (nfiles == 0)
		return false;
	return nfiles > 1 || runs[0].level != out->output_level;
}

void
pm_compact_clock(int *hour, int64_t *now_millis)
{
	struct timespec ts;
	struct tm	tm;
	time_t		secs;

	clock_gettime(CLOCK_REALTIME, &ts);
	secs = ts.tv_sec;
	localtime_r(&secs, &tm);
	*hour = tm.tm_hour;
	*now_millis = (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*-------------------------------------------------------------------------
 * compact_pick.h
 *	  Which sorted runs of a bucket a compaction takes, and into which
 *	  level: Java's UniversalCompaction (size amplification, size ratio,
 *	  run count), EarlyFullCompaction, off-peak hours and
 *	  ForceUpLevel0Compaction, with the filter MergeTreeCompactManager
 *	  applies to a normal pick. No I/O: runs are (level, size, files).
 *
 * Runs come in Java's order (Levels.levelSortedRuns): the level-0 files
 * newest first, one run each, then levels 1.. that are not empty. A pick
 * is always a prefix of that list plus an output level.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/compact/
 * UniversalCompaction.java, EarlyFullCompaction.java, OffPeakHours.java,
 * ForceUpLevel0Compaction.java, MergeTreeCompactManager.triggerCompaction,
 * MergeTreeCompactManagerFactory.createCompactStrategy; CoreOptions.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_COMPACT_PICK_H
#define PM_LSM_COMPACT_PICK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "table/schema.h"

/* One sorted run: a level-0 file, or all files of a level >= 1. */
typedef struct pm_compact_run
{
	int32_t		level;
	int64_t		size;			/* total file size */
	int			nfiles;
} pm_compact_run;

/* The strategy the table's options ask for (CoreOptions). */
typedef struct pm_compact_strategy
{
	int			num_levels;		/* num-levels, default trigger + 1 */
	int			trigger;		/* num-sorted-run.compaction-trigger (5) */
	int			stop_trigger;	/* num-sorted-run.stop-trigger (trigger + 3) */
	int			max_size_amp;	/* compaction.max-size-amplification-percent (200) */
	int			size_ratio;		/* compaction.size-ratio (1) */
	int			offpeak_start;	/* compaction.offpeak.start.hour (-1) */
	int			offpeak_end;	/* compaction.offpeak.end.hour (-1) */
	int			offpeak_ratio;	/* compaction.offpeak-ratio (0) */
	int64_t		full_interval_millis;	/* compaction.optimization-interval, -1 unset */
	int64_t		total_size_threshold;	/* compaction.total-size-threshold, -1 unset */
	int64_t		incremental_size_threshold; /* compaction.incremental-size-threshold, -1 */
	bool		force_up_level0;	/* ForceUpLevel0Compaction wraps the universal pick */
	int			lookup_max_interval;	/* lookup-compact gentle: max interval, 0 radical */
	bool		need_lookup;	/* CoreOptions.needLookup (lookup compaction rewriter) */
	bool		write_only;		/* write-only: the writer never compacts */
	bool		force_rewrite_all_files;	/* compaction.force-rewrite-all-files */
} pm_compact_strategy;

/* What a writer's strategy remembers between picks (zeroed: a new writer). */
typedef struct pm_compact_pick_state
{
	bool		has_last_full;
	int64_t		last_full_millis;	/* EarlyFullCompaction.lastFullCompaction */
	int			trigger_count;	/* ForceUpLevel0Compaction.compactTriggerCount */
	int64_t		now_millis;		/* the clock of the pick in progress */
} pm_compact_pick_state;

/* The runs picked: runs[0 .. nruns-1], rewritten or upgraded into output_level. */
typedef struct pm_compact_unit
{
	int			nruns;
	int32_t		output_level;
} pm_compact_unit;

/*
 * The strategy of a table's schema (primary-key tables). PM_ERR_INVALID
 * for a value Java would reject.
 */
extern pm_code pm_compact_strategy_parse(const pm_schema *schema, pm_compact_strategy *out,
										 pm_error *err);

/*
 * MergeTreeCompactManager.triggerCompaction(false): the strategy's pick
 * (hour: the local hour for off-peak hours; now_millis: the clock of the
 * early full compaction interval), kept only if it has files and does more
 * than leave one file at its level. False: nothing to compact.
 */
extern bool pm_compact_pick(const pm_compact_strategy *s, pm_compact_pick_state *state,
							const pm_compact_run *runs, int nruns, int hour,
							int64_t now_millis, pm_compact_unit *out);

/* UniversalCompaction.pickForSizeAmp: every run into the max level, or false. */
extern bool pm_compact_pick_size_amp(const pm_compact_strategy *s, pm_compact_pick_state *state,
									 const pm_compact_run *runs, int nruns, pm_compact_unit *out);

/* UniversalCompaction.pickForSizeRatio(maxLevel, runs, candidateCount, forcePick). */
extern bool pm_compact_pick_size_ratio(const pm_compact_strategy *s, pm_compact_pick_state *state,
									   const pm_compact_run *runs, int nruns, int candidates,
									   bool force, int hour, pm_compact_unit *out);

/* UniversalCompaction.createUnit(runs, maxLevel, runCount). */
extern pm_compact_unit pm_compact_create_unit(const pm_compact_strategy *s,
											  pm_compact_pick_state *state,
											  const pm_compact_run *runs, int nruns,
											  int run_count);

/*
 * The clock of a pick: the wall clock in milliseconds (early full
 * compaction) and the local hour (LocalDateTime.now().getHour(), off-peak
 * hours).
 */
extern void pm_compact_clock(int *hour, int64_t *now_millis);

#endif							/* PM_LSM_COMPACT_PICK_H */

/*-------------------------------------------------------------------------
 * point_lookup.h
 *	  Point lookups on primary-key tables: the files that may hold a key.
 *
 * When a predicate pins every field of the trimmed primary key to a value
 * ("k = v" for each, or "k IN (v1, ...)" for some, at most
 * PM_POINT_LOOKUP_MAX_KEYS keys in all), a lookup keeps, of an already
 * planned scan (the base: snapshot, manifests, partition/statistics
 * pruning done once), only
 *	 - the splits whose partition values the predicate admits,
 *	 - the buckets Paimon's bucket function gives the keys (fixed-bucket
 *	   tables; dynamic-bucket tables keep every bucket),
 *	 - the files whose [_MIN_KEY, _MAX_KEY] holds a key, whose file
 *	   index (bloom filter, bitmap) does not rule every such key out, and
 *	   (Parquet) whose sorted first key column holds one of the keys'
 *	   first fields: its page index and decoded key pages, kept in the
 *	   key cache (format/parquet/parquet_key_probe.h), answer that
 *	   without opening the file once they are cached.
 * Every file that may hold a version of a key stays, whatever its level,
 * so merging what is read gives the key's current row (deletion vectors
 * still apply): the result is a pm_scan that pm_table_read reads like any
 * other. Rows of other keys may come along (the caller rechecks).
 *
 * The base scan is not changed and may serve many lookups (one per rescan
 * of a lookup join): the lookup's scan refers to the base's files, so the
 * base must outlive it. Free the lookup's scan with pm_scan_free.
 *
 * Spec: ../shared/docs/paimon-format-data.md §7, §4.8;
 * apache/paimon mergetree/LookupLevels.java, bucket/DefaultBucketFunction.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_POINT_LOOKUP_H
#define PM_TABLE_POINT_LOOKUP_H

#include <stdint.h>

#include "common/error.h"
#include "common/vector.h"
#include "table/predicate.h"
#include "table/table.h"

#define PM_POINT_LOOKUP_MAX_KEYS 1024

/* What lookups pruned (summed by the caller over rescans). */
typedef struct pm_point_lookup_stats
{
	int64_t		lookups;		/* lookups planned */
	int64_t		keys;			/* keys looked up */
	int32_t		bucket;			/* the one bucket of the last lookup; -1 several or none */
	int64_t		buckets;		/* distinct buckets of the keys (fixed-bucket tables) */
	int64_t		files_probed;	/* files of the keys' partitions and buckets */
	int64_t		key_range_rejects;	/* no key within [_MIN_KEY, _MAX_KEY] */
	int64_t		bloom_rejects;	/* the file index rules out every key in range */
	int64_t		key_page_rejects;	/* the key pages (key cache) hold none of them */
	int64_t		shadowed;		/* older than a file each of its keys was found in
								 * (deduplicate) */
	int64_t		files_read;		/* files kept */
	int64_t		resident;		/* lookups answered by resident files (no file read) */
} pm_point_lookup_stats;

/*
 * A lookup of the keys pred pins, on base. *out = NULL (and nothing
 * counted) when pred does not pin every trimmed primary-key field, when
 * the table has no primary key, or when the keys are too many. Otherwise
 * *out is a scan of the files that may hold the keys, and st (if not NULL)
 * gets this lookup's counts added. *out refers to base's files and their
 * statistics: free it before base.
 */
extern pm_code pm_point_lookup_plan(pm_scan *base, const pm_predicate *pred, pm_scan **out,
									pm_point_lookup_stats *st, pm_error *err);
/*
 * The same, the lookup's scan on table t (allocated with its env, read
 * through its FileIO): a copy of base's table (pm_table_copy), so that a
 * base kept across statements serves each statement's own table object.
 */
extern pm_code pm_point_lookup_plan_on(pm_table *t, pm_scan *base, const pm_predicate *pred,
									   pm_scan **out, pm_point_lookup_stats *st,
									   pm_error *err);

/*
 * The keys of a lookup's scan as a predicate over table fields ("k1 = a
 * AND k2 = b" per key, ORed): a row of another key fails the predicate the
 * lookup was planned with, so a caller may drop it before anything else
 * (table/batch_filter.h evaluates it). NULL for scans that are no lookup.
 */
/*
 * The lookup of one key from resident files (table/resident_file.h):
 * when pred pins the one field of an integer primary key to one value, the
 * table's newest record decides a key's row (deduplicate, no deletion
 * vectors: newest_record_decides) and every file of the key's bucket whose
 * key range holds it is resident, *result is PM_RESIDENT_FOUND with the
 * key's row in *out (one row of the table fields fields, in arena) or
 * PM_RESIDENT_ABSENT (no row has the key); else PM_RESIDENT_NO and the
 * lookup is pm_point_lookup_plan_on's. The rows are what the merge read
 * of pm_point_lookup_plan_on's scan gives for the key; other conjuncts of
 * pred are not applied (the caller rechecks them).
 *
 * Files become resident as lookups come back to them: a file is read
 * whole into the page cache once lookups probed it as often as a
 * fraction of its rows (point_lookup.c), within a quarter of the page
 * cache's budget; files another backend made resident in the shared page
 * store are taken at once. Counts the lookup in st (may be NULL).
 */
#define PM_RESIDENT_NO		0
#define PM_RESIDENT_FOUND	1
#define PM_RESIDENT_ABSENT	2
extern pm_code pm_point_lookup_resident(pm_table *t, pm_scan *base, const pm_predicate *pred,
										const int *fields, int nfields, pm_arena *arena,
										int *result, pm_batch **out,
										pm_point_lookup_stats *st, pm_error *err);

extern const pm_predicate *pm_point_lookup_key_filter(const pm_scan *scan);

/*
 * The largest of a lookup's keys in Paimon's key order (§4.2), one value
 * per trimmed primary-key field: data files are sorted by key, so a reader
 * past it has seen every record of the keys. NULL for scans that are no
 * lookup.
 */
extern const pm_value *pm_point_lookup_max_key(const pm_scan *scan);

#endif							/* PM_TABLE_POINT_LOOKUP_H */

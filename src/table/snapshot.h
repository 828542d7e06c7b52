/*-------------------------------------------------------------------------
 * snapshot.h
 *	  Paimon snapshots: snapshot/snapshot-N JSON and the LATEST/EARLIEST hints.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §2;
 * apache/paimon Snapshot.java, SnapshotManager.java, HintFileUtils.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SNAPSHOT_H
#define PM_TABLE_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/duration.h"

/*
 * A snapshot as Java 1.4.2's Snapshot.java holds it. Optional fields carry
 * an "absent" value (NULL, -1, INT64_MIN, has_properties false) and are
 * then left out of the JSON, as Java's @JsonInclude(NON_NULL) does; a
 * writer starts from pm_snapshot_init (a zeroed struct is not "all absent").
 */
typedef struct pm_snapshot
{
	int			version;		/* absent => 1; Java 1.4.2 writes 3 */
	int64_t		id;
	int64_t		schema_id;
	const char *base_manifest_list;
	int64_t		base_manifest_list_size;	/* -1 if absent (Paimon <= 1.0) */
	const char *delta_manifest_list;
	int64_t		delta_manifest_list_size;	/* -1 if absent */
	const char *changelog_manifest_list;	/* NULL if none */
	int64_t		changelog_manifest_list_size;	/* -1 if absent */
	const char *index_manifest; /* NULL if none */
	const char *commit_user;
	int64_t		commit_identifier;
	const char *commit_kind;	/* APPEND, COMPACT, OVERWRITE, ANALYZE */
	int64_t		time_millis;
	int64_t		total_record_count; /* -1 if absent (always written) */
	int64_t		delta_record_count; /* may be negative; -1 if absent (always written) */
	int64_t		changelog_record_count; /* -1 if absent */
	int64_t		watermark;		/* INT64_MIN if absent */
	const char *statistics;		/* stats file name; NULL if none */
	bool		has_properties; /* "properties" present (may be empty) */
	int			nproperties;
	const char **property_keys; /* in file order */
	const char **property_values;
	int64_t		next_row_id;	/* -1 if absent */
	/* tag files only (Tag.java): when the tag was created and how long it is kept */
	bool		has_tag_create_time;
	int64_t		tag_create_time;	/* tagCreateTime: local date-time, ns since 1970-01-01T00:00 */
	bool		has_tag_time_retained;
	pm_duration tag_time_retained;	/* tagTimeRetained */
} pm_snapshot;

/*
 * A snapshot with every optional field absent (version 3, the version Java
 * 1.4.2 writes; sizes, counts and next row id -1, watermark INT64_MIN,
 * NULL names, no properties): start here and set what the commit knows.
 */
extern void pm_snapshot_init(pm_snapshot *snapshot);

/*
 * Snapshot JSON as Java 1.4.2's Snapshot.toJson writes it (field names,
 * order, absent fields left out, Jackson's pretty layout), in arena.
 * totalRecordCount/deltaRecordCount are always written, as held (Java's are
 * primitives; a delta is negative when deletes outnumber inserts); fields
 * 1.4.2 no longer has (logOffsets, uuid) are not.
 */
extern pm_code pm_snapshot_to_json(const pm_snapshot *snapshot, pm_arena *arena,
								   char **json, size_t *len, pm_error *err);

/* Parse snapshot JSON (exposed for tests and fuzzing). */
extern pm_code pm_snapshot_parse(const char *json, size_t len, pm_arena *arena,
								 pm_snapshot **out, pm_error *err);

/* Load <table_path>/snapshot/snapshot-<id>; PM_ERR_NOT_FOUND if absent. */
extern pm_code pm_snapshot_load(pm_fileio *io, const char *table_path, int64_t id,
								pm_arena *arena, pm_snapshot **out, pm_error *err);

/*
 * Id of the latest snapshot: the LATEST hint if snapshot-(n+1) does not
 * exist, else the largest snapshot-<id> listed; 0 if the table has none.
 */
extern pm_code pm_snapshot_latest_id(pm_fileio *io, const char *table_path,
									 pm_arena *arena, int64_t *id, pm_error *err);

/* Id of the earliest snapshot (EARLIEST hint verified, else listing); 0 if none. */
extern pm_code pm_snapshot_earliest_id(pm_fileio *io, const char *table_path,
									   pm_arena *arena, int64_t *id, pm_error *err);

/* Load tag/tag-<name> (a snapshot JSON copy); PM_ERR_NOT_FOUND if absent. */
extern pm_code pm_snapshot_load_tag(pm_fileio *io, const char *table_path, const char *tag,
									pm_arena *arena, pm_snapshot **out, pm_error *err);

/*
 * The last snapshot with timeMillis <= millis (binary search between the
 * earliest and latest ids, as SnapshotManager.earlierOrEqualTimeMills);
 * *id = 0 if there is none.
 */
extern pm_code pm_snapshot_id_at_time(pm_fileio *io, const char *table_path, int64_t millis,
									  pm_arena *arena, int64_t *id, pm_error *err);

#endif							/* PM_TABLE_SNAPSHOT_H */

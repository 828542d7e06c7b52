/*-------------------------------------------------------------------------
 * schema_validation.c
 *	  Create-time option checks of Java's SchemaValidation
 *	  (schema_validation.h), in Java's order, with Java's messages.
 *-------------------------------------------------------------------------
 */
#include "table/schema_validation.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "row/data_type.h"
#include "table/snapshot_expire.h"

/* SpecialFields.SYSTEM_FIELD_NAMES */
static const char *const system_fields[] = {
	"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind", "_ROW_ID",
};

pm_code
pm_schema_record_time_field(const pm_schema *s, pm_arena *arena, int *index, pm_error *err)
{
	const char *name = pm_schema_option(s, "record-level.time-field");
	const pm_type *ft;
	int			idx;

	*index = -1;
	if (name == NULL)
		return PM_OK;
	idx = pm_type_field_index(s->row_type, name);
	if (idx < 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Can not find time field %s for record level expire.", name);
	ft = s->row_type->fields[idx].type;
	if (ft->id != PM_TYPE_INT && ft->id != PM_TYPE_BIGINT && ft->id != PM_TYPE_TIMESTAMP &&
		ft->id != PM_TYPE_TIMESTAMP_LTZ)
	{
		char	   *tn = pm_data_type_to_string(ft, arena);

		return pm_fail(err, PM_ERR_INVALID,
					   "The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is %s.",
					   tn != NULL ? tn : pm_type_id_name(ft->id));
	}
	*index = idx;
	return PM_OK;
}

static pm_code
retention(const char *what, int min, int max, pm_error *err)
{
	if (min <= 0)
		return pm_fail(err, PM_ERR_INVALID, "%s.num-retained.min should be at least 1", what);
	if (min > max)
		return pm_fail(err, PM_ERR_INVALID,
					   "%s.num-retained.min should not be larger than %s.num-retained.max",
					   what, what);
	return PM_OK;
}

/* validateSequenceField: "a, b" -> each a column, once, no aggregate, not first-row */
static pm_code
sequence_fields(const pm_schema *s, pm_arena *arena, pm_error *err)
{
	const char *v = pm_schema_option(s, "sequence.field");
	const char **names;
	int		   *idx,
				n;

	if (v == NULL)
		return PM_OK;
	PM_TRY(pm_schema_field_list(s, v, strlen(v), true, arena, &names, &idx, &n, err));
	for (int k = 0; k < n; k++)
	{
		char		agg[300];
		int			count = 0;

		if (idx[k] < 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Sequence field: '%s' can not be found in table schema.", names[k]);
		snprintf(agg, sizeof(agg), "fields.%s.aggregate-function", names[k]);
		if (pm_schema_option(s, agg) != NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "Should not define aggregation on sequence field: '%s'.", names[k]);
		for (int j = 0; j < n; j++)
			count += idx[j] == idx[k];
		if (count != 1)
			return pm_fail(err, PM_ERR_INVALID, "Sequence field '%s' is defined repeatedly.",
						   names[k]);
	}
	if (pm_schema_option_is(s, "merge-engine", "deduplicate", "first-row"))
		return pm_fail(err, PM_ERR_INVALID,
					   "Do not support use sequence field on FIRST_ROW merge engine.");
	return PM_OK;
}

static pm_code
validate(const pm_schema *s, pm_arena *arena, pm_error *err)
{
	const char *v;
	int			smin,
				smax,
				cmin,
				cmax,
				idx;
	bool		pk = s->nprimary_keys > 0;
	bool		first_row = pm_schema_option_is(s, "merge-engine", "deduplicate", "first-row");
	const char *producer = pm_schema_option(s, "changelog-producer");

	if (producer == NULL)
		producer = "none";

	/* validateOnlyContainPrimitiveType(upsert key) and upsert-key with a primary key */
	if ((v = pm_schema_option(s, "upsert-key")) != NULL && *v != '\0')
	{
		const char **names;
		int		   *uidx,
					n;

		PM_TRY(pm_schema_field_list(s, v, strlen(v), false, arena, &names, &uidx, &n, err));
		for (int k = 0; k < n; k++)
		{
			if (uidx[k] < 0)
				return pm_fail(err, PM_ERR_INVALID, "Cannot find field: %s", names[k]);
			if (pm_type_is_nested(s->row_type->fields[uidx[k]].type->id))
				return pm_fail(err, PM_ERR_INVALID,
							   "The type %s in upsert key field %s is unsupported",
							   pm_type_id_name(s->row_type->fields[uidx[k]].type->id), names[k]);
		}
		if (pk)
		{
			/* Java prints both lists: [a, b] */
			char		uk[512],
						pks[512];
			size_t		un,
						pn;

			un = (size_t) snprintf(uk, sizeof(uk), "[");
			for (int k = 0; k < n && un < sizeof(uk); k++)
				un += (size_t) snprintf(uk + un, sizeof(uk) - un, "%s%s", k ? ", " : "", names[k]);
			if (un < sizeof(uk))
				snprintf(uk + un, sizeof(uk) - un, "]");
			pn = (size_t) snprintf(pks, sizeof(pks), "[");
			for (int k = 0; k < s->nprimary_keys && pn < sizeof(pks); k++)
				pn += (size_t) snprintf(pks + pn, sizeof(pks) - pn, "%s%s", k ? ", " : "",
										s->primary_keys[k]);
			if (pn < sizeof(pks))
				snprintf(pks + pn, sizeof(pks) - pn, "]");
			return pm_fail(err, PM_ERR_INVALID,
						   "Cannot define 'upsert-key' %s with 'primary-key' %s.", uk, pks);
		}
	}

	PM_TRY(sequence_fields(s, arena, err));

	if (pm_schema_bool_option(s, "streaming-read-overwrite", false) &&
		(strcasecmp(producer, "full-compaction") == 0 || strcasecmp(producer, "lookup") == 0))
		return pm_fail(err, PM_ERR_INVALID,
					   "Cannot set streaming-read-overwrite to true when changelog producer is FULL_COMPACTION or LOOKUP because it will read duplicated changes.");

	/* snapshot and changelog retention; changelog.* default to snapshot.* */
	PM_TRY(pm_schema_int_option(s, "snapshot.num-retained.min", 10, &smin, err));
	PM_TRY(pm_schema_int_option(s, "snapshot.num-retained.max", INT_MAX, &smax, err));
	PM_TRY(retention("snapshot", smin, smax, err));
	PM_TRY(pm_schema_int_option(s, "changelog.num-retained.min", smin, &cmin, err));
	PM_TRY(pm_schema_int_option(s, "changelog.num-retained.max", smax, &cmax, err));
	PM_TRY(retention("changelog", cmin, cmax, err));

	for (int i = 0; i < s->row_type->nfields; i++)
	{
		const char *f = s->row_type->fields[i].name;

		for (size_t k = 0; k < sizeof(system_fields) / sizeof(system_fields[0]); k++)
			if (strcmp(f, system_fields[k]) == 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "Field name[%s] in schema cannot be exist in [_SEQUENCE_NUMBER, _VALUE_KIND, _LEVEL, rowkind, _ROW_ID]",
							   f);
		if (strncmp(f, "_KEY_", 5) == 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Field name[%s] in schema cannot start with [_KEY_]", f);
	}

	if (!pk && pm_schema_bool_option(s, "streaming-read-overwrite", false))
		return pm_fail(err, PM_ERR_INVALID,
					   "Doesn't support streaming read the changes from overwrite when the primary keys are not defined. Please use streaming-read-append-overwrite to enable the streaming read overwrite commit for append table.");

	if (pm_schema_option(s, "partition.expiration-time") != NULL && s->npartition_keys == 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Can not set 'partition.expiration-time' for non-partitioned table.");

	PM_TRY(pm_schema_record_time_field(s, arena, &idx, err));

	if (first_row && strcasecmp(producer, "lookup") != 0 && strcasecmp(producer, "none") != 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine");

	if ((v = pm_schema_option(s, "rowkind.field")) != NULL &&
		pm_type_field_index(s->row_type, v) < 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Rowkind field: '%s' can not be found in table schema.", v);

	if (pm_schema_bool_option(s, "deletion-vectors.enabled", false))
	{
		if (strcasecmp(producer, "none") != 0 && strcasecmp(producer, "input") != 0 &&
			strcasecmp(producer, "lookup") != 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP changelog producer now.");
		if (!pm_schema_bool_option(s, "pk-clustering-override", false) && first_row)
			return pm_fail(err, PM_ERR_INVALID,
						   "First row merge engine does not need deletion vectors because there is no deletion of old data in this merge engine.");
	}

	if (!pk && pm_schema_bool_option(s, "table-read.sequence-number.enabled", false))
		return pm_fail(err, PM_ERR_INVALID,
					   "Cannot enable 'table-read.sequence-number.enabled' for non-primary-key table. Sequence number is only available for primary key tables.");
	return PM_OK;
}

pm_code
pm_schema_validate_options(const pm_schema *s, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_code		rc;

	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = validate(s, arena, err);
	pm_arena_destroy(arena);
	return rc;
}

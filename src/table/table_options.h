/*-------------------------------------------------------------------------
 * table_options.h
 *	  Which Paimon table options this reader honours, which it may ignore
 *	  and which it refuses: the one list, checked before a table is read.
 *
 * An option that changes how a batch read turns files into rows and that
 * this reader does not implement would give wrong rows silently; such
 * options end the read with PM_ERR_UNSUPPORTED (SQLSTATE 0A000) naming the
 * option and its value. The list covers every option of Apache Paimon's
 * CoreOptions (0.8 to 2.x) and the read-side format options; the reasons
 * are the table of docs/table-options.md (a unit test keeps both equal).
 *
 * Keys not in the list:
 *	 "fields.<column>.<x>"	refused when <column> is a column of the table
 *							(per-column options steer merging and storage)
 *	 anything else			allowed: no Paimon version reads it
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TABLE_OPTIONS_H
#define PM_TABLE_TABLE_OPTIONS_H

#include <stdbool.h>

#include "common/error.h"
#include "table/schema.h"

typedef enum pm_option_status
{
	PM_OPTION_SUPPORTED,		/* changes reading; implemented as Java does */
	PM_OPTION_NOT_READ,			/* writing, compaction, streaming, ... only */
	PM_OPTION_REFUSED			/* changes reading; not implemented */
} pm_option_status;

typedef struct pm_table_option
{
	/* exact key, or a pattern where '*' stands for one or more characters */
	const char *key;
	pm_option_status status;
	/*
	 * '|'-separated values that are accepted (compared without case, as
	 * Java parses booleans and enums); any other value is refused. NULL:
	 * every value is accepted, unless the status is REFUSED.
	 */
	const char *values;
	const char *why;			/* its effect on reading, or why none */
} pm_table_option;

/* The list, in lookup order (exact keys, then patterns). */
extern const pm_table_option *pm_table_options_list(int *n);

/* The entry governing key (exact match first, then patterns), or NULL. */
extern const pm_table_option *pm_table_option_find(const char *key);

/* Whether value is one the entry accepts. */
extern bool pm_table_option_accepts(const pm_table_option *option, const char *value);

/*
 * PM_OK if this reader reads tables of this schema as Java does; else
 * PM_ERR_UNSUPPORTED naming the first option (and its value) or column
 * that it cannot honour.
 */
extern pm_code pm_table_options_check(const pm_schema *schema, pm_error *err);

/*
 * Whether the primary-key data files written under writer_schema (a file's
 * schemaId, whatever the reading schema says now) are thin: no _KEY_
 * columns, the keys are the value columns of the key fields
 * (data-file.thin-mode; KeyValueFileWriterFactory.supportsThinMode holds
 * for every primary-key table, whose key fields are value fields).
 */
extern bool pm_schema_thin_mode(const pm_schema *writer_schema);

#endif							/* PM_TABLE_TABLE_OPTIONS_H */

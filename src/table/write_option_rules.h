/*-------------------------------------------------------------------------
 * write_option_rules.h
 *	  The writer's verdict on every table option of Apache Paimon 1.4.2's
 *	  CoreOptions: honoured, refused by name when a table carrying it is
 *	  written, or harmless to ignore (and why).
 *
 * An option that changes the files, snapshots or rows a Java writer,
 * committer or compaction would produce is either honoured by this
 * writer or refused (PM_ERR_UNSUPPORTED naming it) for its non-default
 * values; an option that only changes speed, memory, streaming jobs or
 * what a later Java commit does anyway is ignored. Spec: apache/paimon
 * release-1.4.2 paimon-api/.../CoreOptions.java and its users.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_WRITE_OPTION_RULES_H
#define PM_TABLE_WRITE_OPTION_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "table/schema.h"

typedef enum pm_write_verdict
{
	PM_WRITE_HONOURED,			/* done as Java does (why: where) */
	PM_WRITE_REFUSED,			/* values other than accepted refused (0A000) */
	PM_WRITE_IGNORED			/* no effect on what Java would write (why) */
} pm_write_verdict;

typedef struct pm_write_option_rule
{
	/* exact key, or a pattern where '*' stands for one or more characters */
	const char *key;
	pm_write_verdict verdict;
	/*
	 * REFUSED: '|'-separated accepted values (any case); NULL = every value
	 * refused. Others: NULL.
	 */
	const char *accepted;
	bool		pk_only;		/* REFUSED: only for primary-key tables */
	const char *why;
} pm_write_option_rule;

/* The verdict table, sorted by key. */
extern const pm_write_option_rule *pm_write_option_rules(size_t *n);

/* The rule of a key (exact or pattern match), or NULL. */
extern const pm_write_option_rule *pm_write_option_rule_of(const char *key);

/*
 * Refuse (PM_ERR_UNSUPPORTED, "table option K = "V": why") the first
 * option of the schema a REFUSED rule does not accept; the primary-key-only
 * rules first when primary_key.
 */
extern pm_code pm_write_option_rules_check(const pm_schema *schema, bool primary_key,
										   pm_error *err);

/* accepted: '|'-separated values, compared without case */
extern bool pm_write_option_accepted(const char *accepted, const char *value);

#endif							/* PM_TABLE_WRITE_OPTION_RULES_H */

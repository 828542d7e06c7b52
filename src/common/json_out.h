/*-------------------------------------------------------------------------
 * json_out.h
 *	  Writing JSON text laid out exactly as Jackson's DefaultPrettyPrinter
 *	  does (what Apache Paimon's JsonSerdeUtil.toJson writes for snapshot,
 *	  schema, tag and hint-like JSON files).
 *
 * Layout (jackson-core DefaultPrettyPrinter + DefaultIndenter +
 * FixedSpaceIndenter): an object's entries each on a new line indented two
 * spaces per level, "name" : value, the closing brace on its own line; an
 * empty object is "{ }". Arrays stay on one line: "[ a, b ]", empty "[ ]",
 * so an array of objects reads "[ {" ... "}, {" ... "} ]". No newline at
 * the end. Strings are escaped as Jackson's CharTypes: " and \ with a
 * backslash, \b \t \n \f \r by name, other control characters as \u00XX
 * (upper-case hex); everything else (UTF-8 included) as is.
 *
 * The text grows in an arena; out-of-memory or nesting deeper than
 * PM_JSON_MAX_DEPTH is reported once, by pm_json_out_finish.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_JSON_OUT_H
#define PM_COMMON_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

#define PM_JSON_MAX_DEPTH 512

typedef struct pm_json_out
{
	pm_arena   *arena;
	char	   *buf;
	size_t		len;
	size_t		cap;
	bool		failed;			/* out of memory */
	bool		too_deep;		/* nesting beyond PM_JSON_MAX_DEPTH */
	int			depth;			/* open containers */
	int			nesting;		/* open objects: the indent level (arrays are inline) */
	bool		after_name;		/* an object entry's name was written */
	bool		is_array[PM_JSON_MAX_DEPTH];
	int64_t		count[PM_JSON_MAX_DEPTH];	/* entries of each open container */
} pm_json_out;

extern void pm_json_out_init(pm_json_out *out, pm_arena *arena);

extern void pm_json_begin_object(pm_json_out *out);
extern void pm_json_end_object(pm_json_out *out);
extern void pm_json_begin_array(pm_json_out *out);
extern void pm_json_end_array(pm_json_out *out);

/* The name of the next entry of the open object. */
extern void pm_json_name(pm_json_out *out, const char *name);

extern void pm_json_string(pm_json_out *out, const char *value);
extern void pm_json_int(pm_json_out *out, int64_t value);

/* A number already in JSON's number syntax, written as is (e.g. "7200.000000000"). */
extern void pm_json_number_text(pm_json_out *out, const char *text);

/* Shorthands: name then value. */
extern void pm_json_field_string(pm_json_out *out, const char *name, const char *value);
extern void pm_json_field_int(pm_json_out *out, const char *name, int64_t value);

/* The text (NUL-terminated, in the arena) and its length. */
extern pm_code pm_json_out_finish(pm_json_out *out, char **json, size_t *len, pm_error *err);

#endif							/* PM_COMMON_JSON_OUT_H */

/*-------------------------------------------------------------------------
 * default_value.h
 *	  Column default values (DataField.defaultValue) on write, as Java
 *	  1.4.2's TableWriteImpl applies them: every written row (whatever its
 *	  row kind) whose field is NULL gets the field's default
 *	  (DefaultValueRow), after the NOT NULL check (checkNullability). The
 *	  default is the schema's string cast to the field's type as
 *	  DefaultValueUtils.convertDefaultValue does (one pair of enclosing
 *	  single quotes stripped, then CastExecutors STRING -> type).
 *
 * Java's reader applies no default (1.4.2 has no read-side default), so
 * reads need nothing.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_DEFAULT_VALUE_H
#define PM_TABLE_DEFAULT_VALUE_H

#include "common/arena.h"
#include "common/error.h"
#include "common/vector.h"
#include "table/schema.h"

/*
 * The defaults of s's fields: (*out)[i] a one-value vector of field i's
 * type, or NULL without a default; *out NULL when no field has one.
 * Casts done: BOOLEAN (t, true, y, yes, 1 / f, false, n, no, 0 in any
 * case), TINYINT..BIGINT (BinaryStringUtils.toLong: sign, digits, a
 * dropped well-formed fraction), CHAR/VARCHAR/STRING (cut to the length
 * in characters, CHAR padded with blanks). A value Java cannot cast is
 * PM_ERR_INVALID with Java's message; other types are PM_ERR_UNSUPPORTED.
 */
extern pm_code pm_default_values_parse(const pm_schema *s, pm_arena *arena, pm_vector ***out,
									   pm_error *err);

/*
 * *out = in with each NULL of a field having a default replaced by it
 * (new vectors in arena for those columns only; the others shared with
 * in). Rows with NULL in a NOT NULL field are refused first, with Java's
 * message, as TableWriteImpl.checkNullability.
 */
extern pm_code pm_default_values_apply(const pm_type *row_type, pm_vector *const *defaults,
									   const pm_batch *in, pm_arena *arena, pm_batch *out,
									   pm_error *err);

#endif							/* PM_TABLE_DEFAULT_VALUE_H */

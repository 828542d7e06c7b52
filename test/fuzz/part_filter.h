/*-------------------------------------------------------------------------
 * part_filter.h
 *	  The part filter the format fuzzers (fuzz_parquet.c, fuzz_orc.c) read
 *	  every input with once more, and the page filter of fuzz_parquet.c. Static: each harness is built as one
 *	  translation unit (see the Makefile's fuzz and replay rules).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FUZZ_PART_FILTER_H
#define PM_FUZZ_PART_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/type.h"
#include "common/value.h"

/*
 * Part filter of the third read: touches every range it is given (bytes
 * must be readable, counts sane) and skips every other part, so that the
 * statistics decoding and the skipping run on every input.
 */
static int	parts_seen;

static bool
skip_every_other(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	const pm_type *schema = ctx;
	volatile uint8_t sink = 0;

	if (nrows <= 0 || nranges != schema->nfields)
		abort();
	for (int i = 0; i < nranges; i++)
	{
		const pm_field_range *r = &ranges[i];

		if (!r->known)
			continue;
		if (r->null_count > nrows || r->null_count < -1)
			abort();
		if (r->has_min_max && pm_type_is_varlen(schema->fields[i].type->id))
			for (int k = 0; k < 2; k++)
			{
				const pm_value *v = k == 0 ? &r->min : &r->max;

				if (v->u.bytes.len < 0)
					abort();
				for (int32_t j = 0; j < v->u.bytes.len; j++)
					sink ^= v->u.bytes.ptr[j];
			}
	}
	(void) sink;
	return (parts_seen++ % 2) == 0;
}

/*
 * Page filter (Parquet): a piece of nrows rows of a row group, each column
 * described by its page (row_count: the page's rows, at least the
 * piece's); the same touching, every other piece skipped.
 */
static int	pieces_seen;

static inline bool
skip_every_other_page(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	const pm_type *schema = ctx;
	volatile uint8_t sink = 0;

	if (nrows <= 0 || nranges != schema->nfields)
		abort();
	for (int i = 0; i < nranges; i++)
	{
		const pm_field_range *r = &ranges[i];

		if (!r->known)
			continue;
		if (r->row_count >= 0 && (r->row_count < nrows || r->null_count > r->row_count))
			abort();
		if (r->null_count < -1)
			abort();
		if (r->has_min_max && pm_type_is_varlen(schema->fields[i].type->id))
			for (int k = 0; k < 2; k++)
			{
				const pm_value *v = k == 0 ? &r->min : &r->max;

				if (v->u.bytes.len < 0)
					abort();
				for (int32_t j = 0; j < v->u.bytes.len; j++)
					sink ^= v->u.bytes.ptr[j];
			}
	}
	(void) sink;
	return (pieces_seen++ % 2) == 0;
}

#endif							/* PM_FUZZ_PART_FILTER_H */

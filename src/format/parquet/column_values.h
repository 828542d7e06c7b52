/*-------------------------------------------------------------------------
 * column_values.h
 *	  Conversion of Parquet leaf values into vectors of the requested type
 *	  (used by column_reader.c; pm_pq_column_write_values is declared in
 *	  column_reader.h).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_COLUMN_VALUES_H
#define PM_FORMAT_PARQUET_COLUMN_VALUES_H

#include "format/parquet/column_reader.h"

/* The conversion for leaf n read as t, PM_PQ_CV_NONE if Paimon would not. */
extern pm_pq_conv pm_pq_column_choose_conv(const pm_pq_node *n, const pm_type *t,
										   int64_t *time_div);

/* Parquet's name of a physical type ("INT96", ...). */
extern const char *pm_pq_physical_name(int physical);

/*
 * Convert values [s0, s0 + k) of src into v's slots [d0, d0 + k); varlen
 * bytes go to v->data (capacity *data_cap, grown in arena).
 */
extern pm_code pm_pq_column_convert(pm_pq_column *c, const pm_pq_values *src, int64_t s0,
									int64_t k, pm_vector *v, int64_t d0, int64_t *data_cap,
									pm_arena *arena, pm_error *err);

#endif							/* PM_FORMAT_PARQUET_COLUMN_VALUES_H */

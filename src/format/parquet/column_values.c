/*-------------------------------------------------------------------------
 * column_values.c
 *	  From Parquet values to vector values: choosing the conversion of a
 *	  leaf column to the requested Paimon type, converting runs of values,
 *	  gathering dictionary entries and spreading values over null slots.
 *
 * Every function switches on the conversion once and then runs a plain
 * loop (no per-value calls or allocations). Rules follow Paimon's readers:
 * format/parquet/ParquetSchemaConverter.java and
 * format/parquet/reader/ParquetVectorUpdaterFactory.java (INT96: Julian day
 * and nanos of day, floor-divided into micros + nanos, see
 * paimon-format-data.md 2.4).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/column_values.h"

#include <string.h>

#include "common/floor_div.h"

/* ---------------------------------------------------- type conversion */

static int
ts_unit_of(const pm_pq_node *n, int precision)
{
	if (n->logical == PM_PQ_LT_TIMESTAMP && n->lt_unit != PM_PQ_UNIT_NONE)
		return n->lt_unit;
	if (n->converted == PM_PQ_CT_TIMESTAMP_MILLIS)
		return PM_PQ_UNIT_MILLIS;
	if (n->converted == PM_PQ_CT_TIMESTAMP_MICROS)
		return PM_PQ_UNIT_MICROS;
	/* unannotated: Paimon's rule by precision */
	return precision <= 3 ? PM_PQ_UNIT_MILLIS : PM_PQ_UNIT_MICROS;
}

static bool
file_decimal_scale(const pm_pq_node *n, int32_t *scale)
{
	if (n->logical == PM_PQ_LT_DECIMAL)
	{
		*scale = n->lt_scale;
		return true;
	}
	if (n->converted == PM_PQ_CT_DECIMAL)
	{
		*scale = n->scale;
		return true;
	}
	return false;
}

const char *
pm_pq_physical_name(int p)
{
	static const char *const names[] = {
		"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
		"FIXED_LEN_BYTE_ARRAY"
	};

	return (p >= 0 && p <= 7) ? names[p] : "?";
}

pm_pq_conv
pm_pq_column_choose_conv(const pm_pq_node *n, const pm_type *t, int64_t *time_div)
{
	int			p = n->physical;
	int32_t		fscale;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return p == PM_PQ_BOOLEAN ? PM_PQ_CV_BOOL : PM_PQ_CV_NONE;
		case PM_TYPE_TINYINT:
			return p == PM_PQ_INT32 ? PM_PQ_CV_I32_I8 : PM_PQ_CV_NONE;
		case PM_TYPE_SMALLINT:
			return p == PM_PQ_INT32 ? PM_PQ_CV_I32_I16 : PM_PQ_CV_NONE;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			return p == PM_PQ_INT32 ? PM_PQ_CV_COPY4 : PM_PQ_CV_NONE;
		case PM_TYPE_BIGINT:
			if (p == PM_PQ_INT64)
				return PM_PQ_CV_COPY8;
			return p == PM_PQ_INT32 ? PM_PQ_CV_I32_I64 : PM_PQ_CV_NONE;
		case PM_TYPE_FLOAT:
			return p == PM_PQ_FLOAT ? PM_PQ_CV_COPY4 : PM_PQ_CV_NONE;
		case PM_TYPE_DOUBLE:
			if (p == PM_PQ_DOUBLE)
				return PM_PQ_CV_COPY8;
			return p == PM_PQ_FLOAT ? PM_PQ_CV_F32_F64 : PM_PQ_CV_NONE;
		case PM_TYPE_DECIMAL:
			if (file_decimal_scale(n, &fscale) && fscale != t->scale)
				return PM_PQ_CV_NONE;
			if (p == PM_PQ_INT32)
				return PM_PQ_CV_I32_DEC;
			if (p == PM_PQ_INT64)
				return PM_PQ_CV_I64_DEC;
			if (p == PM_PQ_BYTE_ARRAY || p == PM_PQ_FIXED_LEN_BYTE_ARRAY)
				return PM_PQ_CV_BE_DEC;
			return PM_PQ_CV_NONE;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			if (p == PM_PQ_BYTE_ARRAY)
				return PM_PQ_CV_BYTES;
			return p == PM_PQ_FIXED_LEN_BYTE_ARRAY ? PM_PQ_CV_FIXED_BYTES : PM_PQ_CV_NONE;
		case PM_TYPE_TIME:
			if (p == PM_PQ_INT32)
				return PM_PQ_CV_COPY4;
			if (p == PM_PQ_INT64)
			{
				int			unit = n->logical == PM_PQ_LT_TIME ? n->lt_unit : PM_PQ_UNIT_MICROS;

				*time_div = unit == PM_PQ_UNIT_NANOS ? 1000000 :
					unit == PM_PQ_UNIT_MILLIS ? 1 : 1000;
				return PM_PQ_CV_I64_TIME;
			}
			return PM_PQ_CV_NONE;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (p == PM_PQ_INT96)
				return PM_PQ_CV_TS_INT96;
			if (p == PM_PQ_INT64)
			{
				switch (ts_unit_of(n, t->precision))
				{
					case PM_PQ_UNIT_MILLIS:
						return PM_PQ_CV_TS_MILLIS;
					case PM_PQ_UNIT_NANOS:
						return PM_PQ_CV_TS_NANOS;
					default:
						return PM_PQ_CV_TS_MICROS;
				}
			}
			return PM_PQ_CV_NONE;
		default:
			return PM_PQ_CV_NONE;
	}
}
/* ----------------------------------------------------------- conversion */

/*
 * Bytes every varlen data buffer grown here keeps beyond its used size, so
 * gather_dict may copy short values as one fixed 16-byte move (reading
 * past a dictionary value's end, writing past the batch's).
 */
#define DATA_SLACK 16

static bool
grow_data(pm_vector *v, int64_t *cap, int64_t extra, pm_arena *arena)
{
	int64_t		need = v->data_size + extra + DATA_SLACK;
	int64_t		ncap;
	uint8_t    *p;

	if (need > INT32_MAX)
		return false;
	if (v->data != NULL && need <= *cap)
		return true;
	ncap = *cap > 0 ? *cap : 1024;
	while (ncap < need)
		ncap *= 2;
	p = pm_arena_alloc(arena, (size_t) ncap);
	if (p == NULL)
		return false;
	if (v->data_size > 0)
		memcpy(p, v->data, (size_t) v->data_size);
	v->data = p;
	*cap = ncap;
	return true;
}

/* int128 from big-endian two's complement bytes */
static inline pm_int128
be_to_int128(const uint8_t *b, uint32_t len)
{
	unsigned __int128 u;

	if (len == 0)
		return 0;
	u = (b[0] & 0x80) ? ~(unsigned __int128) 0 : 0;
	for (uint32_t i = 0; i < len; i++)
		u = (u << 8) | b[i];
	return (pm_int128) u;
}

static inline void
int96_to_ts(const uint8_t *p, int64_t *micros, uint16_t *nanos)
{
	int64_t		nod;
	int32_t		jd;
	__int128	total;
	__int128	q;
	__int128	r;

	memcpy(&nod, p, 8);
	memcpy(&jd, p + 8, 4);
	total = (__int128) ((int64_t) jd - 2440588) * (__int128) 86400000000000LL + nod;
	q = total / 1000;
	r = total % 1000;
	if (r < 0)
	{
		q -= 1;
		r += 1000;
	}
	*micros = (int64_t) (uint64_t) q;
	*nanos = (uint16_t) r;
}

#define CONV_LOOP(SRC_T, DST_T, EXPR) \
	do { \
		const uint8_t *sp = src->fixed + (size_t) s0 * sizeof(SRC_T); \
		DST_T	   *dp = (DST_T *) v->values + d0; \
		for (int64_t i = 0; i < k; i++) \
		{ \
			SRC_T		x; \
			memcpy(&x, sp + (size_t) i * sizeof(SRC_T), sizeof(SRC_T)); \
			dp[i] = (EXPR); \
		} \
	} while (0)

/*
 * Convert values [s0, s0 + k) of src into v's slots [d0, d0 + k).
 */
pm_code
pm_pq_column_convert(pm_pq_column *c, const pm_pq_values *src, int64_t s0, int64_t k,
			  pm_vector *v, int64_t d0, int64_t *data_cap, pm_arena *arena, pm_error *err)
{
	if (k <= 0)
		return PM_OK;
	if (s0 < 0 || s0 + k > src->n)
		return pm_fail(err, PM_ERR_CORRUPT, "parquet column \"%s\" has fewer values than levels",
					   c->name);
	switch (c->conv)
	{
		case PM_PQ_CV_NONE:
			break;
		case PM_PQ_CV_BOOL:
			memcpy((uint8_t *) v->values + d0, src->bools + s0, (size_t) k);
			break;
		case PM_PQ_CV_COPY4:
			memcpy((uint8_t *) v->values + d0 * 4, src->fixed + s0 * 4, (size_t) k * 4);
			break;
		case PM_PQ_CV_COPY8:
			memcpy((uint8_t *) v->values + d0 * 8, src->fixed + s0 * 8, (size_t) k * 8);
			break;
		case PM_PQ_CV_I32_I8:
			CONV_LOOP(int32_t, int8_t, (int8_t) x);
			break;
		case PM_PQ_CV_I32_I16:
			CONV_LOOP(int32_t, int16_t, (int16_t) x);
			break;
		case PM_PQ_CV_I32_I64:
			CONV_LOOP(int32_t, int64_t, (int64_t) x);
			break;
		case PM_PQ_CV_F32_F64:
			CONV_LOOP(float, double, (double) x);
			break;
		case PM_PQ_CV_I32_DEC:
			CONV_LOOP(int32_t, pm_int128, (pm_int128) x);
			break;
		case PM_PQ_CV_I64_DEC:
			CONV_LOOP(int64_t, pm_int128, (pm_int128) x);
			break;
		case PM_PQ_CV_I64_TIME:
			{
				int64_t		div = c->time_div;

				CONV_LOOP(int64_t, int32_t, (int32_t) pm_floor_div(x, div));
				break;
			}
		case PM_PQ_CV_TS_MILLIS:
			CONV_LOOP(int64_t, int64_t, (int64_t) ((uint64_t) x * 1000));
			if (v->nanos)
				memset(v->nanos + d0, 0, sizeof(uint16_t) * (size_t) k);
			break;
		case PM_PQ_CV_TS_MICROS:
			memcpy((uint8_t *) v->values + d0 * 8, src->fixed + s0 * 8, (size_t) k * 8);
			if (v->nanos)
				memset(v->nanos + d0, 0, sizeof(uint16_t) * (size_t) k);
			break;
		case PM_PQ_CV_TS_NANOS:
			CONV_LOOP(int64_t, int64_t, pm_floor_div(x, 1000));
			if (v->nanos)
			{
				const uint8_t *sp = src->fixed + (size_t) s0 * 8;

				for (int64_t i = 0; i < k; i++)
				{
					int64_t		x;

					memcpy(&x, sp + (size_t) i * 8, 8);
					v->nanos[d0 + i] = (uint16_t) pm_floor_mod(x, 1000);
				}
			}
			break;
		case PM_PQ_CV_TS_INT96:
			{
				int64_t    *dp = (int64_t *) v->values + d0;
				const uint8_t *sp = src->fixed + (size_t) s0 * 12;

				for (int64_t i = 0; i < k; i++)
				{
					uint16_t	ns;

					int96_to_ts(sp + (size_t) i * 12, &dp[i], &ns);
					if (v->nanos)
						v->nanos[d0 + i] = ns;
				}
				break;
			}
		case PM_PQ_CV_BYTES:
			{
				int64_t		total = 0;
				int32_t    *off = v->offsets + d0;
				uint8_t    *out;

				for (int64_t i = 0; i < k; i++)
					total += src->len[s0 + i];
				if (!grow_data(v, data_cap, total, arena))
					return pm_fail(err, total > INT32_MAX / 2 ? PM_ERR_UNSUPPORTED : PM_ERR_NOMEM,
								   "cannot hold the values of parquet column \"%s\" in one batch",
								   c->name);
				out = v->data + v->data_size;
				for (int64_t i = 0; i < k; i++)
				{
					uint32_t	l = src->len[s0 + i];

					memcpy(out, src->base + src->start[s0 + i], l);
					out += l;
					off[i + 1] = off[i] + (int32_t) l;
				}
				v->data_size += total;
				break;
			}
		case PM_PQ_CV_FIXED_BYTES:
			{
				int64_t		w = src->width;
				int64_t		total = w * k;
				int32_t    *off = v->offsets + d0;

				if (!grow_data(v, data_cap, total, arena))
					return pm_fail(err, PM_ERR_NOMEM,
								   "cannot hold the values of parquet column \"%s\" in one batch",
								   c->name);
				memcpy(v->data + v->data_size, src->fixed + s0 * w, (size_t) total);
				for (int64_t i = 0; i < k; i++)
					off[i + 1] = off[i] + (int32_t) w;
				v->data_size += total;
				break;
			}
		case PM_PQ_CV_BE_DEC:
			{
				pm_int128  *dp = (pm_int128 *) v->values + d0;

				for (int64_t i = 0; i < k; i++)
				{
					const uint8_t *b;
					uint32_t	l;

					if (src->fixed != NULL)
					{
						b = src->fixed + (size_t) (s0 + i) * (size_t) src->width;
						l = (uint32_t) src->width;
					}
					else
					{
						b = src->base + src->start[s0 + i];
						l = src->len[s0 + i];
					}
					/* drop sign-extension bytes beyond 16 */
					while (l > 16 && (b[0] == 0x00 || b[0] == 0xff) && b[0] == (uint8_t) ((int8_t) b[1] >> 7))
					{
						b++;
						l--;
					}
					if (l > 16)
						return pm_fail(err, PM_ERR_CORRUPT,
									   "decimal wider than 128 bits in parquet column \"%s\"",
									   c->name);
					dp[i] = be_to_int128(b, l);
				}
				break;
			}
	}
	return PM_OK;
}

/* Gather k dictionary entries into v's slots [d0, d0 + k). */
static pm_code
gather_dict(pm_pq_column *c, const uint32_t *idx, int64_t k, pm_vector *v, int64_t d0,
			int64_t *data_cap, pm_arena *arena, pm_error *err)
{
	const pm_vector *d = &c->dict;

	if (pm_type_is_varlen(v->type->id))
	{
		int64_t		total = 0;
		int32_t    *off = v->offsets + d0;
		uint8_t    *out;

		for (int64_t i = 0; i < k; i++)
			total += d->offsets[idx[i] + 1] - d->offsets[idx[i]];
		if (!grow_data(v, data_cap, total, arena))
			return pm_fail(err, total > INT32_MAX / 2 ? PM_ERR_UNSUPPORTED : PM_ERR_NOMEM,
						   "cannot hold the values of parquet column \"%s\" in one batch",
						   c->name);
		out = v->data + v->data_size;
		for (int64_t i = 0; i < k; i++)
		{
			int32_t		s = d->offsets[idx[i]];
			int32_t		l = d->offsets[idx[i] + 1] - s;

			/* the dictionary's and the batch's data both have DATA_SLACK */
			if (l <= DATA_SLACK)
				memcpy(out, d->data + s, DATA_SLACK);
			else
				memcpy(out, d->data + s, (size_t) l);
			out += l;
			off[i + 1] = off[i] + l;
		}
		v->data_size += total;
		return PM_OK;
	}
	/*
	 * Pointers in locals: the build does not assume strict aliasing, so a
	 * store through v->values would otherwise reload v->values per value.
	 */
#define GATHER(T) \
	do { \
		T		   *restrict o_ = (T *) v->values + d0; \
		const T    *restrict dv_ = (const T *) d->values; \
		for (int64_t i = 0; i < k; i++) \
			o_[i] = dv_[idx[i]]; \
	} while (0)
	switch (pm_type_value_size(v->type->id))
	{
		case 1:
			GATHER(uint8_t);
			break;
		case 2:
			GATHER(uint16_t);
			break;
		case 4:
			GATHER(uint32_t);
			break;
		case 8:
			GATHER(uint64_t);
			break;
		case 16:
			GATHER(pm_int128);
			break;
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED, "unexpected vector type for column \"%s\"",
						   c->name);
	}
#undef GATHER
	if (v->nanos != NULL)
		for (int64_t i = 0; i < k; i++)
			v->nanos[d0 + i] = d->nanos ? d->nanos[idx[i]] : 0;
	return PM_OK;
}

#define EXPAND(T, ARR) \
	do { \
		T		   *a = (T *) (ARR) + slot0; \
		int64_t		j = k; \
		for (int64_t i = nslots - 1; i >= 0 && j < i + 1; i--) \
		{ \
			if (!nulls[i]) \
				a[i] = a[--j]; \
		} \
	} while (0)

/* Spread k dense values at slot0 over the non-null slots of [slot0, +nslots). */
static void
expand_nulls(pm_vector *v, int64_t slot0, int64_t nslots, int64_t k)
{
	const uint8_t *nulls = v->nulls + slot0;

	if (k == nslots)
		return;
	if (pm_type_is_varlen(v->type->id))
	{
		int32_t    *o = v->offsets + slot0;
		int64_t		j = k;

		for (int64_t i = nslots - 1; i >= 0; i--)
		{
			o[i + 1] = o[j];
			if (!nulls[i])
				j--;
		}
		return;
	}
	switch (pm_type_value_size(v->type->id))
	{
		case 1:
			EXPAND(uint8_t, v->values);
			break;
		case 2:
			EXPAND(uint16_t, v->values);
			break;
		case 4:
			EXPAND(uint32_t, v->values);
			break;
		case 8:
			EXPAND(uint64_t, v->values);
			break;
		case 16:
			EXPAND(pm_int128, v->values);
			break;
		default:
			break;
	}
	if (v->nanos != NULL)
		EXPAND(uint16_t, v->nanos);
}

pm_code
pm_pq_column_write_values(pm_pq_column *c, int64_t k, pm_vector *v, int64_t slot0,
						  int64_t nslots, int64_t *data_cap, pm_arena *arena, pm_error *err)
{
	if (c->conv == PM_PQ_CV_NONE || v == NULL)
	{
		c->value_pos += k;
		return PM_OK;
	}
	if (k > 0)
	{
		if (c->value_pos + k > c->page_nonnull)
			return pm_fail(err, PM_ERR_CORRUPT, "parquet column \"%s\" has fewer values than levels",
						   c->name);
		if (c->page_dict)
			PM_TRY(gather_dict(c, c->indices + c->value_pos, k, v, slot0, data_cap, arena, err));
		else
			PM_TRY(pm_pq_column_convert(c, &c->vals, c->value_pos, k, v, slot0, data_cap, arena, err));
		c->value_pos += k;
	}
	if (k < nslots)
		expand_nulls(v, slot0, nslots, k);
	return PM_OK;
}


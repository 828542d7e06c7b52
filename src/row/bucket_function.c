/*-------------------------------------------------------------------------
 * bucket_function.c
 *	  The bucket functions of bucket-function.type (see bucket_function.h).
 *
 * Hand-written: Hive's hash of a row and the JDK's BigDecimal.hashCode
 * are a few lines each, over values already decoded (nothing allocated).
 *-------------------------------------------------------------------------
 */
#include "row/bucket_function.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "row/bucket.h"

pm_code
pm_bucket_function_parse(const char *value, pm_bucket_function *out, pm_error *err)
{
	if (value == NULL || strcasecmp(value, "default") == 0)
		*out = PM_BUCKET_FUNCTION_DEFAULT;
	else if (strcasecmp(value, "mod") == 0)
		*out = PM_BUCKET_FUNCTION_MOD;
	else if (strcasecmp(value, "hive") == 0)
		*out = PM_BUCKET_FUNCTION_HIVE;
	else
		return pm_fail(err, PM_ERR_INVALID,
					   "Could not parse value '%.100s' for key 'bucket-function.type': expected one of [default, mod, hive]",
					   value);
	return PM_OK;
}

static bool
hive_hashes(pm_type_id id)
{
	switch (id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_DECIMAL:
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return true;
		default:
			return false;
	}
}

pm_code
pm_bucket_function_check(pm_bucket_function f, const pm_type *key_row_type, pm_error *err)
{
	if (f == PM_BUCKET_FUNCTION_MOD)
	{
		pm_type_id	id;

		if (key_row_type->nfields != 1)
			return pm_fail(err, PM_ERR_INVALID,
						   "bucket key must have exactly one field in mod bucket function");
		id = key_row_type->fields[0].type->id;
		if (id != PM_TYPE_INT && id != PM_TYPE_BIGINT)
			return pm_fail(err, PM_ERR_INVALID,
						   "bucket key type must be INT or BIGINT in mod bucket function, but got %s",
						   pm_type_id_name(id));
	}
	else if (f == PM_BUCKET_FUNCTION_HIVE)
		for (int i = 0; i < key_row_type->nfields; i++)
			if (!hive_hashes(key_row_type->fields[i].type->id))
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "Unsupported type as bucket key type %s (bucket-function.type = hive, field %s)",
							   pm_type_id_name(key_row_type->fields[i].type->id),
							   key_row_type->fields[i].name);
	return PM_OK;
}

/* Math.floorMod(x, n), n > 0 */
static int32_t
floor_mod(int64_t x, int32_t n)
{
	int64_t		r = x % n;

	return (int32_t) (r < 0 ? r + n : r);
}

/* Long.hashCode */
static uint32_t
long_hash(int64_t v)
{
	uint64_t	u = (uint64_t) v;

	return (uint32_t) (u ^ (u >> 32));
}

/*
 * BigDecimal.hashCode of HiveHasher.normalizeDecimal(unscaled / 10^scale):
 * trailing zeros stripped while the scale stays >= 0 (zero is 0 at scale
 * 0); a Paimon decimal (at most 38 digits) needs no rounding there. A
 * value that fits a long other than Long.MIN_VALUE is compact (its
 * halves mixed), else BigInteger.hashCode of its magnitude's 32-bit words.
 */
static uint32_t
decimal_hash(pm_int128 unscaled, int32_t scale)
{
	uint32_t	h;

	if (unscaled == 0)
		scale = 0;
	while (unscaled != 0 && scale > 0 && unscaled % 10 == 0)
	{
		unscaled /= 10;
		scale--;
	}
	if (unscaled > (pm_int128) INT64_MIN && unscaled <= (pm_int128) INT64_MAX)
	{
		int64_t		c = (int64_t) unscaled;
		uint64_t	val2 = c < 0 ? (uint64_t) -c : (uint64_t) c;
		uint32_t	temp = (uint32_t) (val2 >> 32) * 31u + (uint32_t) val2;

		h = c < 0 ? 0u - temp : temp;
	}
	else
	{
		unsigned __int128 mag = unscaled < 0 ? -(unsigned __int128) unscaled
			: (unsigned __int128) unscaled;
		bool		lead = true;

		h = 0;
		for (int shift = 96; shift >= 0; shift -= 32)
		{
			uint32_t	w = (uint32_t) (mag >> shift);

			if (lead && w == 0)
				continue;		/* mag has no leading zero words */
			lead = false;
			h = h * 31u + w;
		}
		if (unscaled < 0)
			h = 0u - h;			/* hashCode * signum */
	}
	return h * 31u + (uint32_t) scale;
}

/* HiveBucketFunction.computeHash of one field (the type is checked) */
static uint32_t
hive_hash(const pm_type *t, const pm_value *v)
{
	if (v->is_null)
		return 0;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return v->u.i64 != 0 ? 1 : 0;
		case PM_TYPE_BIGINT:
			return long_hash(v->u.i64);
		case PM_TYPE_FLOAT:
			{
				float		f = (float) v->u.f64;
				uint32_t	bits;

				if (f == 0.0f)
					return 0;	/* -0.0f == 0.0f: both hash 0 */
				if (isnan(f))
					return 0x7fc00000u; /* Float.floatToIntBits */
				memcpy(&bits, &f, sizeof(bits));
				return bits;
			}
		case PM_TYPE_DOUBLE:
			{
				double		d = v->u.f64;
				uint64_t	bits;

				if (d == 0.0)
					return 0;
				if (isnan(d))
					return long_hash((int64_t) 0x7ff8000000000000LL);
				memcpy(&bits, &d, sizeof(bits));
				return long_hash((int64_t) bits);
			}
		case PM_TYPE_DECIMAL:
			return decimal_hash(v->u.i128, t->scale);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				uint32_t	h = 0;

				for (int32_t i = 0; i < v->u.bytes.len; i++)
					h = h * 31u + (uint32_t) (int32_t) (int8_t) v->u.bytes.ptr[i];
				return h;
			}
		default:
			/* TINYINT, SMALLINT, INT, DATE, TIME: the int value */
			return (uint32_t) (int32_t) v->u.i64;
	}
}

pm_code
pm_bucket_function_bucket(pm_bucket_function f, const pm_type *key_row_type,
						  const pm_value *key_values, int32_t num_buckets, int32_t *bucket,
						  pm_error *err)
{
	if (f == PM_BUCKET_FUNCTION_DEFAULT)
		return pm_bucket_of(key_row_type, key_values, num_buckets, bucket, err);
	if (num_buckets < 1)
		return pm_fail(err, PM_ERR_INVALID, "number of buckets must be positive, not %d",
					   num_buckets);
	PM_TRY(pm_bucket_function_check(f, key_row_type, err));
	if (f == PM_BUCKET_FUNCTION_MOD)
	{
		/* a NULL reads as the slot's zero bytes */
		int64_t		v = key_values[0].is_null ? 0 : key_values[0].u.i64;

		*bucket = floor_mod(key_row_type->fields[0].type->id == PM_TYPE_INT ? (int32_t) v : v,
							num_buckets);
		return PM_OK;
	}
	{
		uint32_t	h = 0;

		for (int i = 0; i < key_row_type->nfields; i++)
			h = h * 31u + hive_hash(key_row_type->fields[i].type, &key_values[i]);
		*bucket = (int32_t) ((h & 0x7fffffffu) % (uint32_t) num_buckets);
	}
	return PM_OK;
}

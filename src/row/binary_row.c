/*-------------------------------------------------------------------------
 * binary_row.c
 *	  Decode and encode Paimon BinaryRow (see binary_row.h).
 *
 * Hand-written: BinaryRow is Paimon's own format, no C library reads it.
 * Spec: paimon-format-metadata.md §8; apache/paimon paimon-common
 * org/apache/paimon/data/BinaryRow.java, AbstractBinaryWriter.java,
 * BinaryRowWriter.java, memory/MemorySegmentUtils.java.
 *-------------------------------------------------------------------------
 */
#include "row/binary_row.h"

#include <string.h>

/* Java BinaryRow.HEADER_SIZE_IN_BITS: the row-kind byte */
#define HEADER_BITS		8
#define MAX_ARITY		(1 << 20)

static inline uint64_t
get_le64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline void
put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
}

static inline bool
decimal_is_compact(int32_t precision)
{
	return precision <= 18;
}

static inline bool
timestamp_is_compact(int32_t precision)
{
	return precision <= 3;
}

static inline bool
is_timestamp(pm_type_id id)
{
	return id == PM_TYPE_TIMESTAMP || id == PM_TYPE_TIMESTAMP_LTZ;
}

/* types whose variable part is (offset << 32 | size), never inline */
static inline bool
is_raw_var(pm_type_id id)
{
	return pm_type_is_nested(id) || id == PM_TYPE_VARIANT;
}

/* types written with writeBinary/writeString: inline when <= 7 bytes */
static inline bool
is_bytes(pm_type_id id)
{
	return id == PM_TYPE_CHAR || id == PM_TYPE_VARCHAR || id == PM_TYPE_BINARY ||
		id == PM_TYPE_VARBINARY || id == PM_TYPE_BLOB;
}

size_t
pm_binary_row_header_size(int arity)
{
	return ((size_t) (arity + 63 + HEADER_BITS) / 64) * 8;
}

static pm_code
check_row_type(const pm_type *row_type, pm_error *err)
{
	if (row_type == NULL || row_type->id != PM_TYPE_ROW)
		return pm_fail(err, PM_ERR_INVALID, "binary row type is not a ROW");
	if (row_type->nfields < 0 || row_type->nfields > MAX_ARITY)
		return pm_fail(err, PM_ERR_INVALID, "binary row arity %d out of range",
					   row_type->nfields);
	return PM_OK;
}

/* ------------------------------------------------------------- decoding */

/*
 * Split an (offset << 32 | size) slot and check the area lies in the row.
 */
static pm_code
var_area(uint64_t slot, size_t len, int field, size_t *off, size_t *size, pm_error *err)
{
	uint64_t	o = slot >> 32;
	uint64_t	s = slot & 0xFFFFFFFFu;

	if (o > len || s > len - o)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "binary row field %d: variable part at %llu length %llu exceeds row of %zu bytes",
					   field, (unsigned long long) o, (unsigned long long) s, len);
	*off = (size_t) o;
	*size = (size_t) s;
	return PM_OK;
}

static pm_code
millis_to_value(int64_t millis, int32_t nano_of_milli, int field, pm_value *v, pm_error *err)
{
	int64_t		micros;

	if (nano_of_milli < 0 || nano_of_milli > 999999)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "binary row field %d: nano of millisecond %d out of range",
					   field, nano_of_milli);
	if (__builtin_mul_overflow(millis, (int64_t) 1000, &micros) ||
		__builtin_add_overflow(micros, (int64_t) (nano_of_milli / 1000), &micros))
		return pm_fail(err, PM_ERR_CORRUPT,
					   "binary row field %d: timestamp %lld ms out of range",
					   field, (long long) millis);
	v->u.i64 = micros;
	v->nanos = (uint16_t) (nano_of_milli % 1000);
	return PM_OK;
}

static pm_code
decode_field(const uint8_t *buf, size_t len, size_t slot_pos, const pm_type *t, int field,
			 pm_value *v, pm_error *err)
{
	const uint8_t *sp = buf + slot_pos;
	uint64_t	slot = get_le64(sp);
	size_t		off,
				size;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			v->u.i64 = sp[0] != 0;
			return PM_OK;
		case PM_TYPE_TINYINT:
			v->u.i64 = (int8_t) sp[0];
			return PM_OK;
		case PM_TYPE_SMALLINT:
			v->u.i64 = (int16_t) (uint16_t) slot;
			return PM_OK;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			v->u.i64 = (int32_t) (uint32_t) slot;
			return PM_OK;
		case PM_TYPE_BIGINT:
			v->u.i64 = (int64_t) slot;
			return PM_OK;
		case PM_TYPE_FLOAT:
			{
				uint32_t	bits = (uint32_t) slot;
				float		f;

				memcpy(&f, &bits, 4);
				v->u.f64 = f;
				return PM_OK;
			}
		case PM_TYPE_DOUBLE:
			memcpy(&v->u.f64, &slot, 8);
			return PM_OK;
		case PM_TYPE_DECIMAL:
			if (decimal_is_compact(t->precision))
			{
				v->u.i128 = (int64_t) slot;
				return PM_OK;
			}
			PM_TRY(var_area(slot, len, field, &off, &size, err));
			if (size < 1 || size > 16)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "binary row field %d: decimal of %zu bytes", field, size);
			{
				/* big-endian two's complement, sign-extended */
				unsigned __int128 u = (buf[off] & 0x80) ? ~(unsigned __int128) 0 : 0;

				for (size_t i = 0; i < size; i++)
					u = (u << 8) | buf[off + i];
				v->u.i128 = (pm_int128) u;
			}
			return PM_OK;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (timestamp_is_compact(t->precision))
				return millis_to_value((int64_t) slot, 0, field, v, err);
			{
				uint64_t	o = slot >> 32;
				int64_t		nano = (int64_t) (slot & 0xFFFFFFFFu);

				if (o > len || len - o < 8)
					return pm_fail(err, PM_ERR_CORRUPT,
								   "binary row field %d: timestamp at %llu exceeds row of %zu bytes",
								   field, (unsigned long long) o, len);
				if (nano > 999999)
					return pm_fail(err, PM_ERR_CORRUPT,
								   "binary row field %d: nano of millisecond %lld out of range",
								   field, (long long) nano);
				return millis_to_value((int64_t) get_le64(buf + o), (int32_t) nano, field, v, err);
			}
		default:
			break;
	}
	if (is_bytes(t->id))
	{
		if (sp[7] & 0x80)
		{
			size_t		n = sp[7] & 0x7F;

			if (n > 7)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "binary row field %d: inline length %zu above 7", field, n);
			v->u.bytes.ptr = sp;
			v->u.bytes.len = (int32_t) n;
			return PM_OK;
		}
	}
	else if (!is_raw_var(t->id))
		return pm_fail(err, PM_ERR_UNSUPPORTED, "binary row field %d: type %s not supported",
					   field, pm_type_id_name(t->id));
	PM_TRY(var_area(slot, len, field, &off, &size, err));
	if (size > INT32_MAX)
		return pm_fail(err, PM_ERR_CORRUPT, "binary row field %d: length %zu too large",
					   field, size);
	v->u.bytes.ptr = buf + off;
	v->u.bytes.len = (int32_t) size;
	return PM_OK;
}

pm_code
pm_binary_row_decode(const uint8_t *buf, size_t len, const pm_type *row_type,
					 pm_value *values, pm_error *err)
{
	int			n;
	size_t		w;

	PM_TRY(check_row_type(row_type, err));
	n = row_type->nfields;
	w = pm_binary_row_header_size(n);
	if (len < w + 8 * (size_t) n)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "binary row of %zu bytes too short for %d fields", len, n);
	for (int i = 0; i < n; i++)
	{
		pm_value   *v = &values[i];
		size_t		bit = (size_t) i + HEADER_BITS;

		memset(v, 0, sizeof(*v));
		if (buf[bit / 8] & (1u << (bit % 8)))
		{
			v->is_null = true;
			continue;
		}
		PM_TRY(decode_field(buf, len, w + 8 * (size_t) i, row_type->fields[i].type, i, v, err));
	}
	return PM_OK;
}

pm_code
pm_binary_row_serialized_arity(const uint8_t *buf, size_t len, int *arity, pm_error *err)
{
	uint32_t	a;

	if (len < 4)
		return pm_fail(err, PM_ERR_CORRUPT, "serialized binary row of %zu bytes has no arity",
					   len);
	a = ((uint32_t) buf[0] << 24) | ((uint32_t) buf[1] << 16) |
		((uint32_t) buf[2] << 8) | buf[3];
	if (a > MAX_ARITY)
		return pm_fail(err, PM_ERR_CORRUPT, "serialized binary row arity %u out of range", a);
	*arity = (int) a;
	return PM_OK;
}

pm_code
pm_binary_row_decode_serialized(const uint8_t *buf, size_t len, const pm_type *row_type,
								pm_value *values, pm_error *err)
{
	int			arity;

	PM_TRY(check_row_type(row_type, err));
	PM_TRY(pm_binary_row_serialized_arity(buf, len, &arity, err));
	if (arity != row_type->nfields)
		return pm_fail(err, PM_ERR_CORRUPT, "binary row has arity %d, expected %d",
					   arity, row_type->nfields);
	return pm_binary_row_decode(buf + 4, len - 4, row_type, values, err);
}

/* ------------------------------------------------------------- encoding */

static inline size_t
round_word(size_t n)
{
	return (n + 7) & ~(size_t) 7;
}

/* Bytes of the variable-part chunk of a field (0 if none). */
static pm_code
var_size(const pm_type *t, const pm_value *v, int field, size_t *size, pm_error *err)
{
	*size = 0;
	if (t->id == PM_TYPE_DECIMAL)
	{
		if (!decimal_is_compact(t->precision))
			*size = 16;
		return PM_OK;
	}
	if (is_timestamp(t->id))
	{
		if (!timestamp_is_compact(t->precision))
			*size = 8;
		return PM_OK;
	}
	if (is_bytes(t->id) || is_raw_var(t->id))
	{
		if (v->is_null)
			return PM_OK;
		if (v->u.bytes.len < 0 || (v->u.bytes.len > 0 && v->u.bytes.ptr == NULL))
			return pm_fail(err, PM_ERR_INVALID, "binary row field %d: bad byte value", field);
		if (is_bytes(t->id) && v->u.bytes.len <= 7)
			return PM_OK;
		*size = round_word((size_t) v->u.bytes.len);
		return PM_OK;
	}
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return PM_OK;
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED, "binary row field %d: type %s not supported",
						   field, pm_type_id_name(t->id));
	}
}

/* microseconds + nanos -> Java Timestamp (millisecond, nanoOfMillisecond) */
static void
split_timestamp(const pm_value *v, int64_t *millis, int32_t *nano_of_milli)
{
	int64_t		us = v->u.i64;
	int64_t		ms = us / 1000;
	int64_t		rem = us % 1000;

	if (rem < 0)
	{
		rem += 1000;
		ms -= 1;
	}
	*millis = ms;
	*nano_of_milli = (int32_t) (rem * 1000 + (v->nanos % 1000));
}

/* minimal big-endian two's complement (BigInteger.toByteArray) */
static int
decimal_bytes(pm_int128 x, uint8_t out[16])
{
	uint8_t		be[16];
	unsigned __int128 u = (unsigned __int128) x;
	int			start = 0;

	for (int i = 15; i >= 0; i--)
	{
		be[i] = (uint8_t) u;
		u >>= 8;
	}
	/* drop leading bytes that are pure sign extension */
	while (start < 15)
	{
		if (be[start] == 0x00 && !(be[start + 1] & 0x80))
			start++;
		else if (be[start] == 0xFF && (be[start + 1] & 0x80))
			start++;
		else
			break;
	}
	memcpy(out, be + start, 16 - start);
	return 16 - start;
}

pm_code
pm_binary_row_emit(const pm_type *row_type, const pm_value *values,
				   pm_binary_row_sink sink, void *opaque, size_t *total_len, pm_error *err)
{
	int			n;
	size_t		w;
	size_t		fixed;
	size_t		cursor;
	uint8_t		header[8];
	static const uint8_t zeros[16];

	PM_TRY(check_row_type(row_type, err));
	n = row_type->nfields;
	w = pm_binary_row_header_size(n);
	fixed = w + 8 * (size_t) n;

	/* sizes first: the variable part's total (and validation) */
	cursor = fixed;
	for (int i = 0; i < n; i++)
	{
		size_t		vs;

		PM_TRY(var_size(row_type->fields[i].type, &values[i], i, &vs, err));
		if (vs > (size_t) INT32_MAX - cursor)
			return pm_fail(err, PM_ERR_INVALID, "binary row larger than 2 GiB");
		cursor += vs;
	}
	if (total_len != NULL)
		*total_len = cursor;

	/* header: row kind 0 + null bits, in 8-byte words */
	for (size_t wo = 0; wo < w; wo += 8)
	{
		memset(header, 0, sizeof(header));
		for (int i = 0; i < n; i++)
		{
			size_t		bit = (size_t) i + HEADER_BITS;

			if (values[i].is_null && bit / 64 == wo / 8)
				header[(bit % 64) / 8] |= (uint8_t) (1u << (bit % 8));
		}
		sink(opaque, header, 8);
	}

	/* slots */
	cursor = fixed;
	for (int i = 0; i < n; i++)
	{
		const pm_type *t = row_type->fields[i].type;
		const pm_value *v = &values[i];
		uint8_t		slot[8];
		size_t		vs;

		memset(slot, 0, 8);
		(void) var_size(t, v, i, &vs, err);
		if (t->id == PM_TYPE_DECIMAL && !decimal_is_compact(t->precision))
		{
			uint8_t		b[16];
			int			bl = v->is_null ? 0 : decimal_bytes(v->u.i128, b);

			put_le64(slot, ((uint64_t) cursor << 32) | (uint64_t) bl);
		}
		else if (is_timestamp(t->id) && !timestamp_is_compact(t->precision))
		{
			int64_t		ms;
			int32_t		nom = 0;

			if (!v->is_null)
				split_timestamp(v, &ms, &nom);
			put_le64(slot, ((uint64_t) cursor << 32) | (uint32_t) nom);
		}
		else if (v->is_null)
		{
			/* setNullAt: slot zeroed */
		}
		else if (is_bytes(t->id) && v->u.bytes.len <= 7)
		{
			if (v->u.bytes.len > 0)
				memcpy(slot, v->u.bytes.ptr, (size_t) v->u.bytes.len);
			slot[7] = (uint8_t) (0x80 | v->u.bytes.len);
		}
		else if (is_bytes(t->id) || is_raw_var(t->id))
			put_le64(slot, ((uint64_t) cursor << 32) | (uint64_t) v->u.bytes.len);
		else
		{
			switch (t->id)
			{
				case PM_TYPE_BOOLEAN:
					slot[0] = v->u.i64 != 0;
					break;
				case PM_TYPE_TINYINT:
					slot[0] = (uint8_t) v->u.i64;
					break;
				case PM_TYPE_SMALLINT:
					put_le64(slot, (uint16_t) v->u.i64);
					break;
				case PM_TYPE_INT:
				case PM_TYPE_DATE:
				case PM_TYPE_TIME:
					put_le64(slot, (uint32_t) v->u.i64);
					break;
				case PM_TYPE_BIGINT:
					put_le64(slot, (uint64_t) v->u.i64);
					break;
				case PM_TYPE_FLOAT:
					{
						float		f = (float) v->u.f64;
						uint32_t	bits;

						memcpy(&bits, &f, 4);
						put_le64(slot, bits);
						break;
					}
				case PM_TYPE_DOUBLE:
					{
						uint64_t	bits;

						memcpy(&bits, &v->u.f64, 8);
						put_le64(slot, bits);
						break;
					}
				case PM_TYPE_DECIMAL:
					put_le64(slot, (uint64_t) (int64_t) v->u.i128);
					break;
				case PM_TYPE_TIMESTAMP:
				case PM_TYPE_TIMESTAMP_LTZ:
					{
						int64_t		ms;
						int32_t		nom;

						split_timestamp(v, &ms, &nom);
						put_le64(slot, (uint64_t) ms);
						break;
					}
				default:
					break;
			}
		}
		sink(opaque, slot, 8);
		cursor += vs;
	}

	/* variable part, in field order */
	for (int i = 0; i < n; i++)
	{
		const pm_type *t = row_type->fields[i].type;
		const pm_value *v = &values[i];
		size_t		vs;

		(void) var_size(t, v, i, &vs, err);
		if (vs == 0)
			continue;
		if (t->id == PM_TYPE_DECIMAL)
		{
			uint8_t		b[16];

			memset(b, 0, 16);
			if (!v->is_null)
				(void) decimal_bytes(v->u.i128, b);
			sink(opaque, b, 16);
		}
		else if (is_timestamp(t->id))
		{
			uint8_t		b[8];
			int64_t		ms = 0;
			int32_t		nom;

			if (!v->is_null)
				split_timestamp(v, &ms, &nom);
			put_le64(b, (uint64_t) ms);
			sink(opaque, b, 8);
		}
		else
		{
			size_t		l = (size_t) v->u.bytes.len;

			sink(opaque, v->u.bytes.ptr, l);
			if (vs > l)
				sink(opaque, zeros, vs - l);
		}
	}
	return PM_OK;
}

typedef struct copy_sink
{
	uint8_t    *p;
	size_t		pos;
} copy_sink;

static void
copy_bytes(void *opaque, const uint8_t *bytes, size_t n)
{
	copy_sink  *cs = opaque;

	if (n > 0)
		memcpy(cs->p + cs->pos, bytes, n);
	cs->pos += n;
}

static void
count_bytes(void *opaque, const uint8_t *bytes, size_t n)
{
	(void) bytes;
	*(size_t *) opaque += n;
}

static pm_code
encode(pm_arena *arena, const pm_type *row_type, const pm_value *values, bool prefix,
	   uint8_t **buf, size_t *len, pm_error *err)
{
	size_t		total;
	size_t		counted = 0;
	size_t		pre = prefix ? 4 : 0;
	copy_sink	cs;

	*buf = NULL;
	*len = 0;
	PM_TRY(pm_binary_row_emit(row_type, values, count_bytes, &counted, &total, err));
	cs.p = pm_arena_alloc(arena, total + pre);
	if (cs.p == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory encoding a binary row");
	cs.pos = pre;
	if (prefix)
	{
		uint32_t	a = (uint32_t) row_type->nfields;

		cs.p[0] = (uint8_t) (a >> 24);
		cs.p[1] = (uint8_t) (a >> 16);
		cs.p[2] = (uint8_t) (a >> 8);
		cs.p[3] = (uint8_t) a;
	}
	PM_TRY(pm_binary_row_emit(row_type, values, copy_bytes, &cs, NULL, err));
	if (cs.pos != total + pre)
		return pm_fail(err, PM_ERR_INVALID, "binary row size mismatch");
	*buf = cs.p;
	*len = cs.pos;
	return PM_OK;
}

pm_code
pm_binary_row_encode(pm_arena *arena, const pm_type *row_type, const pm_value *values,
					 uint8_t **buf, size_t *len, pm_error *err)
{
	return encode(arena, row_type, values, false, buf, len, err);
}

pm_code
pm_binary_row_encode_serialized(pm_arena *arena, const pm_type *row_type,
								const pm_value *values, uint8_t **buf, size_t *len,
								pm_error *err)
{
	return encode(arena, row_type, values, true, buf, len, err);
}

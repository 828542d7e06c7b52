/*-------------------------------------------------------------------------
 * thrift_compact.c
 *	  Bounds-checked Thrift compact protocol pull parser (see the header for
 *	  why it is hand-written).
 *
 * Never reads past `end`, never recurses deeper than PM_THRIFT_MAX_DEPTH,
 * never allocates. After a failure every read returns zero/false.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/thrift_compact.h"

void
pm_thrift_init(pm_thrift_reader *t, const uint8_t *buf, size_t len)
{
	t->p = buf;
	t->end = buf + len;
	t->depth = 0;
	t->failed = false;
	t->why = NULL;
	t->last_id[0] = 0;
	t->bool_value = false;
}

bool
pm_thrift_fail(pm_thrift_reader *t, const char *why)
{
	if (!t->failed)
	{
		t->failed = true;
		t->why = why;
	}
	t->p = t->end;
	return false;
}

uint64_t
pm_thrift_varint(pm_thrift_reader *t)
{
	uint64_t	v = 0;

	for (int shift = 0; shift < 70; shift += 7)
	{
		uint8_t		b;

		if (t->p >= t->end)
		{
			pm_thrift_fail(t, "truncated varint");
			return 0;
		}
		b = *t->p++;
		if (shift == 63 && (b & 0x7e) != 0)
		{
			pm_thrift_fail(t, "varint too long");
			return 0;
		}
		v |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return v;
	}
	pm_thrift_fail(t, "varint too long");
	return 0;
}

int64_t
pm_thrift_i64(pm_thrift_reader *t)
{
	uint64_t	v = pm_thrift_varint(t);

	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

int32_t
pm_thrift_i32(pm_thrift_reader *t)
{
	int64_t		v = pm_thrift_i64(t);

	if (v < INT32_MIN || v > INT32_MAX)
	{
		pm_thrift_fail(t, "i32 out of range");
		return 0;
	}
	return (int32_t) v;
}

int8_t
pm_thrift_byte(pm_thrift_reader *t)
{
	if (t->p >= t->end)
	{
		pm_thrift_fail(t, "truncated byte");
		return 0;
	}
	return (int8_t) *t->p++;
}

const uint8_t *
pm_thrift_binary(pm_thrift_reader *t, uint32_t *len)
{
	uint64_t	n = pm_thrift_varint(t);
	const uint8_t *p;

	*len = 0;
	if (t->failed)
		return NULL;
	if (n > (uint64_t) (t->end - t->p))
	{
		pm_thrift_fail(t, "binary length beyond the buffer");
		return NULL;
	}
	p = t->p;
	t->p += n;
	*len = (uint32_t) n;
	return p;
}

bool
pm_thrift_struct_begin(pm_thrift_reader *t)
{
	if (t->failed)
		return false;
	if (t->depth >= PM_THRIFT_MAX_DEPTH)
		return pm_thrift_fail(t, "thrift nesting too deep");
	t->depth++;
	t->last_id[t->depth] = 0;
	return true;
}

void
pm_thrift_struct_end(pm_thrift_reader *t)
{
	if (t->depth > 0)
		t->depth--;
}

bool
pm_thrift_field(pm_thrift_reader *t, int16_t *id, int *type)
{
	uint8_t		b;
	int			delta;

	if (t->failed)
		return false;
	if (t->p >= t->end)
		return pm_thrift_fail(t, "truncated struct");
	b = *t->p++;
	*type = b & 0x0f;
	if (*type == PM_TC_STOP)
		return false;
	delta = b >> 4;
	if (delta != 0)
		*id = (int16_t) (t->last_id[t->depth] + delta);
	else
	{
		int64_t		v = pm_thrift_i64(t);

		if (v < INT16_MIN || v > INT16_MAX)
			return pm_thrift_fail(t, "field id out of range");
		*id = (int16_t) v;
	}
	if (t->failed)
		return false;
	t->last_id[t->depth] = *id;
	if (*type == PM_TC_BOOL_TRUE || *type == PM_TC_BOOL_FALSE)
		t->bool_value = (*type == PM_TC_BOOL_TRUE);
	if (*type > PM_TC_STRUCT)
		return pm_thrift_fail(t, "bad field type");
	return true;
}

bool
pm_thrift_list(pm_thrift_reader *t, uint32_t *count, int *elem_type)
{
	uint8_t		b;
	uint64_t	n;

	*count = 0;
	*elem_type = 0;
	if (t->failed)
		return false;
	if (t->p >= t->end)
		return pm_thrift_fail(t, "truncated list");
	b = *t->p++;
	n = b >> 4;
	if (n == 15)
		n = pm_thrift_varint(t);
	*elem_type = b & 0x0f;
	if (t->failed)
		return false;
	/* every element takes at least one byte (bools in lists too) */
	if (n > (uint64_t) (t->end - t->p))
		return pm_thrift_fail(t, "list longer than the buffer");
	if (*elem_type == PM_TC_STOP || *elem_type > PM_TC_STRUCT)
		return pm_thrift_fail(t, "bad list element type");
	*count = (uint32_t) n;
	return true;
}

void
pm_thrift_skip(pm_thrift_reader *t, int type)
{
	if (t->failed)
		return;
	switch (type)
	{
		case PM_TC_BOOL_TRUE:
		case PM_TC_BOOL_FALSE:
			/* in a field header the value is the type; nothing follows */
			break;
		case PM_TC_BYTE:
			(void) pm_thrift_byte(t);
			break;
		case PM_TC_I16:
		case PM_TC_I32:
		case PM_TC_I64:
			(void) pm_thrift_varint(t);
			break;
		case PM_TC_DOUBLE:
			if (t->end - t->p < 8)
				pm_thrift_fail(t, "truncated double");
			else
				t->p += 8;
			break;
		case PM_TC_BINARY:
			{
				uint32_t	len;

				(void) pm_thrift_binary(t, &len);
				break;
			}
		case PM_TC_LIST:
		case PM_TC_SET:
			{
				uint32_t	n;
				int			et;

				if (!pm_thrift_list(t, &n, &et))
					break;
				if (!pm_thrift_struct_begin(t))
					break;
				for (uint32_t i = 0; i < n && !t->failed; i++)
				{
					if (et == PM_TC_BOOL_TRUE || et == PM_TC_BOOL_FALSE)
						(void) pm_thrift_byte(t);	/* one byte per bool element */
					else
						pm_thrift_skip(t, et);
				}
				pm_thrift_struct_end(t);
				break;
			}
		case PM_TC_MAP:
			{
				uint64_t	n = pm_thrift_varint(t);
				uint8_t		kv;

				if (t->failed || n == 0)
					break;
				if (n > (uint64_t) (t->end - t->p))
				{
					pm_thrift_fail(t, "map longer than the buffer");
					break;
				}
				kv = (uint8_t) pm_thrift_byte(t);
				if (!pm_thrift_struct_begin(t))
					break;
				for (uint64_t i = 0; i < n && !t->failed; i++)
				{
					int			kt = kv >> 4;
					int			vt = kv & 0x0f;

					if (kt == PM_TC_BOOL_TRUE || kt == PM_TC_BOOL_FALSE)
						(void) pm_thrift_byte(t);
					else
						pm_thrift_skip(t, kt);
					if (vt == PM_TC_BOOL_TRUE || vt == PM_TC_BOOL_FALSE)
						(void) pm_thrift_byte(t);
					else
						pm_thrift_skip(t, vt);
				}
				pm_thrift_struct_end(t);
				break;
			}
		case PM_TC_STRUCT:
			{
				int16_t		id;
				int			ft;

				if (!pm_thrift_struct_begin(t))
					break;
				while (pm_thrift_field(t, &id, &ft))
					pm_thrift_skip(t, ft);
				pm_thrift_struct_end(t);
				break;
			}
		default:
			pm_thrift_fail(t, "bad thrift type");
			break;
	}
}

int64_t
pm_thrift_field_int(pm_thrift_reader *t, int type)
{
	switch (type)
	{
		case PM_TC_BYTE:
			return pm_thrift_byte(t);
		case PM_TC_I16:
		case PM_TC_I32:
		case PM_TC_I64:
			return pm_thrift_i64(t);
		default:
			pm_thrift_skip(t, type);
			return 0;
	}
}

int32_t
pm_thrift_field_i32(pm_thrift_reader *t, int type)
{
	int64_t		v = pm_thrift_field_int(t, type);

	if (v < INT32_MIN || v > INT32_MAX)
	{
		pm_thrift_fail(t, "integer field out of range");
		return 0;
	}
	return (int32_t) v;
}

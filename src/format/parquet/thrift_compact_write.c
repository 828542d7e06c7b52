/*-------------------------------------------------------------------------
 * thrift_compact_write.c
 *	  Thrift compact protocol writer (see thrift_compact_write.h).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/thrift_compact_write.h"

void
pm_thrift_writer_init(pm_thrift_writer *w, pm_byte_buffer *out)
{
	w->out = out;
	w->depth = 0;
	w->last_id[0] = 0;
}

void
pm_thrift_write_field(pm_thrift_writer *w, int16_t id, int type)
{
	int			delta = id - w->last_id[w->depth];

	if (delta > 0 && delta <= 15)
		pm_byte_buffer_put_u8(w->out, (uint8_t) ((delta << 4) | type));
	else
	{
		pm_byte_buffer_put_u8(w->out, (uint8_t) type);
		pm_byte_buffer_put_zigzag(w->out, id);
	}
	w->last_id[w->depth] = id;
}

static void
enter(pm_thrift_writer *w)
{
	/* our structures nest a few levels; past the limit the ids just share a slot */
	if (w->depth < PM_THRIFT_MAX_DEPTH)
		w->depth++;
	w->last_id[w->depth] = 0;
}

void
pm_thrift_write_struct_begin(pm_thrift_writer *w, int16_t id)
{
	pm_thrift_write_field(w, id, PM_TC_STRUCT);
	enter(w);
}

void
pm_thrift_write_elem_struct_begin(pm_thrift_writer *w)
{
	enter(w);
}

void
pm_thrift_write_struct_end(pm_thrift_writer *w)
{
	pm_byte_buffer_put_u8(w->out, PM_TC_STOP);
	if (w->depth > 0)
		w->depth--;
}

void
pm_thrift_write_stop(pm_thrift_writer *w)
{
	pm_byte_buffer_put_u8(w->out, PM_TC_STOP);
}

void
pm_thrift_write_i32_field(pm_thrift_writer *w, int16_t id, int32_t v)
{
	pm_thrift_write_field(w, id, PM_TC_I32);
	pm_byte_buffer_put_zigzag(w->out, v);
}

void
pm_thrift_write_i64_field(pm_thrift_writer *w, int16_t id, int64_t v)
{
	pm_thrift_write_field(w, id, PM_TC_I64);
	pm_byte_buffer_put_zigzag(w->out, v);
}

void
pm_thrift_write_byte_field(pm_thrift_writer *w, int16_t id, int8_t v)
{
	pm_thrift_write_field(w, id, PM_TC_BYTE);
	pm_byte_buffer_put_u8(w->out, (uint8_t) v);
}

void
pm_thrift_write_bool_field(pm_thrift_writer *w, int16_t id, bool v)
{
	pm_thrift_write_field(w, id, v ? PM_TC_BOOL_TRUE : PM_TC_BOOL_FALSE);
}

void
pm_thrift_write_binary_field(pm_thrift_writer *w, int16_t id, const void *p, uint32_t len)
{
	pm_thrift_write_field(w, id, PM_TC_BINARY);
	pm_thrift_write_binary(w, p, len);
}

void
pm_thrift_write_list_field(pm_thrift_writer *w, int16_t id, uint32_t count, int elem_type)
{
	pm_thrift_write_field(w, id, PM_TC_LIST);
	if (count < 15)
		pm_byte_buffer_put_u8(w->out, (uint8_t) ((count << 4) | (uint32_t) elem_type));
	else
	{
		pm_byte_buffer_put_u8(w->out, (uint8_t) (0xf0 | elem_type));
		pm_byte_buffer_put_uvarint(w->out, count);
	}
}

void
pm_thrift_write_i32(pm_thrift_writer *w, int32_t v)
{
	pm_byte_buffer_put_zigzag(w->out, v);
}

void
pm_thrift_write_i64(pm_thrift_writer *w, int64_t v)
{
	pm_byte_buffer_put_zigzag(w->out, v);
}

void
pm_thrift_write_binary(pm_thrift_writer *w, const void *p, uint32_t len)
{
	pm_byte_buffer_put_uvarint(w->out, len);
	pm_byte_buffer_append(w->out, p, len);
}

void
pm_thrift_write_bool(pm_thrift_writer *w, bool v)
{
	pm_byte_buffer_put_u8(w->out, v ? PM_TC_BOOL_TRUE : PM_TC_BOOL_FALSE);
}

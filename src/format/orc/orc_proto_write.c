/*-------------------------------------------------------------------------
 * orc_proto_write.c
 *	  Protobuf wire-format field encoders for the ORC writer (hand-written;
 *	  see orc_proto_write.h).
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_proto_write.h"

#include <string.h>

/* wire types */
#define PB_VARINT	0
#define PB_FIXED64	1
#define PB_LEN		2

static void
put_tag(pm_byte_buffer *b, int field, int wire)
{
	pm_byte_buffer_put_uvarint(b, ((uint64_t) field << 3) | (uint64_t) wire);
}

void
orc_pb_uint(pm_byte_buffer *b, int field, uint64_t v)
{
	put_tag(b, field, PB_VARINT);
	pm_byte_buffer_put_uvarint(b, v);
}

void
orc_pb_sint(pm_byte_buffer *b, int field, int64_t v)
{
	put_tag(b, field, PB_VARINT);
	pm_byte_buffer_put_zigzag(b, v);
}

void
orc_pb_double(pm_byte_buffer *b, int field, double v)
{
	uint64_t	bits;

	memcpy(&bits, &v, sizeof(bits));
	put_tag(b, field, PB_FIXED64);
	pm_byte_buffer_put_le64(b, bits);
}

void
orc_pb_bytes(pm_byte_buffer *b, int field, const void *p, size_t n)
{
	put_tag(b, field, PB_LEN);
	pm_byte_buffer_put_uvarint(b, (uint64_t) n);
	pm_byte_buffer_append(b, p, n);
}

void
orc_pb_string(pm_byte_buffer *b, int field, const char *s)
{
	orc_pb_bytes(b, field, s, strlen(s));
}

void
orc_pb_message(pm_byte_buffer *b, int field, const pm_byte_buffer *msg)
{
	if (msg->failed)
		b->failed = true;
	orc_pb_bytes(b, field, msg->data, msg->len);
}

void
orc_pb_packed_uint(pm_byte_buffer *b, int field, const uint64_t *v, int n)
{
	size_t		len = 0;

	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
	{
		uint64_t	x = v[i];

		do
		{
			len++;
			x >>= 7;
		} while (x != 0);
	}
	put_tag(b, field, PB_LEN);
	pm_byte_buffer_put_uvarint(b, (uint64_t) len);
	for (int i = 0; i < n; i++)
		pm_byte_buffer_put_uvarint(b, v[i]);
}

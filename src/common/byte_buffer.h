/*-------------------------------------------------------------------------
 * byte_buffer.h
 *	  A growable byte buffer allocated through a pm_env, for writers.
 *
 * Writers build pages, headers and footers in these and reuse them (reset
 * keeps the allocation). Out-of-memory is sticky: appends after a failed
 * growth do nothing and `failed` stays true, so a writer can append a
 * whole structure and check once. Also the one home of the varint and
 * zig-zag encodings writers share (Thrift compact, Avro).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_BYTE_BUFFER_H
#define PM_COMMON_BYTE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/env.h"

typedef struct pm_byte_buffer
{
	const pm_env *env;
	uint8_t    *data;
	size_t		len;
	size_t		cap;
	bool		failed;			/* an allocation failed (sticky until free) */
} pm_byte_buffer;

extern void pm_byte_buffer_init(pm_byte_buffer *b, const pm_env *env);
extern void pm_byte_buffer_free(pm_byte_buffer *b);

/* Make room for `extra` more bytes; false (and failed) on out-of-memory. */
extern bool pm_byte_buffer_grow(pm_byte_buffer *b, size_t extra);

static inline void
pm_byte_buffer_reset(pm_byte_buffer *b)
{
	b->len = 0;
}

static inline bool
pm_byte_buffer_reserve(pm_byte_buffer *b, size_t extra)
{
	if (b->cap - b->len >= extra && !b->failed)
		return true;
	return pm_byte_buffer_grow(b, extra);
}

static inline void
pm_byte_buffer_append(pm_byte_buffer *b, const void *p, size_t n)
{
	if (n == 0 || !pm_byte_buffer_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static inline void
pm_byte_buffer_put_u8(pm_byte_buffer *b, uint8_t v)
{
	if (!pm_byte_buffer_reserve(b, 1))
		return;
	b->data[b->len++] = v;
}

/* Little-endian fixed widths. */
static inline void
pm_byte_buffer_put_le32(pm_byte_buffer *b, uint32_t v)
{
	uint8_t		t[4] = {(uint8_t) v, (uint8_t) (v >> 8), (uint8_t) (v >> 16), (uint8_t) (v >> 24)};

	pm_byte_buffer_append(b, t, 4);
}

static inline void
pm_byte_buffer_put_le64(pm_byte_buffer *b, uint64_t v)
{
	pm_byte_buffer_put_le32(b, (uint32_t) v);
	pm_byte_buffer_put_le32(b, (uint32_t) (v >> 32));
}

/* Unsigned LEB128 varint (protobuf/Thrift/Avro style). */
static inline void
pm_byte_buffer_put_uvarint(pm_byte_buffer *b, uint64_t v)
{
	uint8_t		t[10];
	int			n = 0;

	while (v >= 0x80)
	{
		t[n++] = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	t[n++] = (uint8_t) v;
	pm_byte_buffer_append(b, t, (size_t) n);
}

static inline uint64_t
pm_zigzag64(int64_t v)
{
	return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

/* Zig-zag then varint (Thrift compact i16/i32/i64, Avro int/long). */
static inline void
pm_byte_buffer_put_zigzag(pm_byte_buffer *b, int64_t v)
{
	pm_byte_buffer_put_uvarint(b, pm_zigzag64(v));
}

#endif							/* PM_COMMON_BYTE_BUFFER_H */

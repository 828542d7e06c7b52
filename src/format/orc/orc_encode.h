/*-------------------------------------------------------------------------
 * orc_encode.h
 *	  The ORC writer's stream encoders: byte run-length, boolean (bits over
 *	  byte RLE) and integer run-length version 2, each appending to a
 *	  pm_byte_buffer holding one uncompressed stream of a stripe; and the
 *	  compression framing that turns such a buffer into ORC chunks.
 *
 * Integer RLE v2 uses three of the four sub-encodings, chosen per run of at
 * most 512 values: SHORT_REPEAT (3..10 equal values), DELTA (11..512 equal
 * values, a fixed step, or a monotonic run whose steps pack narrower than
 * the values) and DIRECT (anything else); PATCHED_BASE is never written. Every reader of ORC v1 decodes all four, so the files are
 * valid though not always as small as Java's.
 *
 * Not an interface for other layers (orc_writer.c is their entry point).
 * Spec: orc.apache.org/specification/ORCv1, "Run Length Encoding",
 * "Compression".
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_ENCODE_H
#define PM_FORMAT_ORC_ORC_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "codec/codec.h"
#include "common/arena.h"
#include "common/byte_buffer.h"
#include "common/error.h"

typedef struct orc_byte_rle_enc
{
	pm_byte_buffer *out;
	uint8_t		lit[128];
	int			n;				/* values held in lit */
	int			tail;			/* length of the equal run ending lit */
	bool		repeat;			/* lit[0] repeated n times */
} orc_byte_rle_enc;

typedef struct orc_bool_enc
{
	orc_byte_rle_enc bytes;
	uint8_t		cur;
	int			nbits;
} orc_bool_enc;

#define ORC_RLE2_MAX 512

typedef struct orc_int_rle_enc
{
	pm_byte_buffer *out;
	bool		is_signed;
	int			n;
	int64_t		lit[ORC_RLE2_MAX];
} orc_int_rle_enc;

/*
 * Smallest of RLE v2's "fixed" bit widths >= n (RunLengthIntegerWriterV2's
 * getClosestFixedBits); the reader's PATCHED_BASE decoding uses it too.
 */
extern int	orc_closest_fixed_bits(int n);

extern void orc_byte_rle_enc_init(orc_byte_rle_enc *e, pm_byte_buffer *out);
extern void orc_byte_rle_enc_put(orc_byte_rle_enc *e, uint8_t v);
extern void orc_byte_rle_enc_flush(orc_byte_rle_enc *e);

extern void orc_bool_enc_init(orc_bool_enc *e, pm_byte_buffer *out);
extern void orc_bool_enc_put(orc_bool_enc *e, bool v);
/* end of the stream: pad the last byte with zero bits, flush the runs */
extern void orc_bool_enc_flush(orc_bool_enc *e);

extern void orc_int_rle_enc_init(orc_int_rle_enc *e, pm_byte_buffer *out, bool is_signed);
extern void orc_int_rle_enc_put(orc_int_rle_enc *e, int64_t v);
extern void orc_int_rle_enc_flush(orc_int_rle_enc *e);

/* Unbounded zig-zag base-128 varint of the DECIMAL DATA stream. */
extern void orc_put_varint128(pm_byte_buffer *out, __int128 v);

/*
 * Frame `len` bytes of one stream as ORC chunks of at most block_size
 * uncompressed bytes each (3-byte header: length << 1 | original), keeping
 * a chunk uncompressed when compression does not make it smaller; with
 * PM_CODEC_NONE the bytes are copied as they are. Appends to out; scratch
 * holds the compressor output and is reset per chunk.
 */
extern pm_code orc_compress_stream(pm_codec codec, int level, uint64_t block_size,
								   const uint8_t *data, size_t len, pm_arena *scratch,
								   pm_byte_buffer *out, pm_error *err);

#endif							/* PM_FORMAT_ORC_ORC_ENCODE_H */

/*-------------------------------------------------------------------------
 * orc_writer.c
 *	  Write a Paimon data file as ORC (what Java's OrcWriterFactory with
 *	  Apache ORC 1.9's WriterImpl writes; see orc_writer.h for what is and
 *	  is not written).
 *
 * File layout:
 *	 "ORC" | stripe* | Metadata | Footer | PostScript | 1 byte PostScript length
 * Stripe: [index streams: per column, root first, ROW_INDEX then
 * BLOOM_FILTER_UTF8][data streams][StripeFooter]. Data streams are in
 * column order, per column PRESENT (only when the stripe has a NULL in
 * it), DATA, LENGTH, DICTIONARY_DATA, SECONDARY, as Java sorts them.
 * Metadata, Footer and StripeFooter are compressed like the streams; the
 * PostScript is not.
 *
 * Each column encodes its values into uncompressed per-stripe buffers as
 * batches arrive; a stripe is compressed and written when the buffers
 * reach the stripe size, or at finish. The Footer's stripe list and the
 * Metadata's stripe statistics are kept as already encoded protobuf fields.
 * Row groups: slices of a batch end at every 10000th row of a stripe,
 * where each column notes its streams' uncompressed offsets and encoder
 * states (orc_group_pos); once the stripe's streams are compressed these
 * become RowIndexEntry positions (chunk start, offset in the chunk, values
 * into the run, bits into the byte), in the order Java records them.
 *
 * Dictionary columns keep the stripe's values in an orc_dict (ids in
 * arrival order) and write DICTIONARY_DATA, LENGTH and DATA (sorted ids)
 * at the stripe's end, when the row groups' DATA positions become known
 * (StringBaseTreeWriter.flushDictionary). Until the file's one decision
 * (end of its first row group) values wait there too; DIRECT_V2 then
 * copies them to DATA/LENGTH in order.
 *
 * Timestamps follow ORC's TimestampTreeWriter on a java.sql.Timestamp
 * (time = milliseconds floored, nanos = nanosecond of the second):
 * seconds = time / 1000 truncated, minus 2015-01-01 00:00:00 UTC (the
 * writer zone is UTC); nanos with ORC's trailing-zero compression.
 * Decimals as DecimalTreeWriter on HiveDecimal (trailing zeros stripped):
 * DATA the unscaled value as a zig-zag varint, SECONDARY its scale.
 *
 * Columns (setup, value encoding, stats, bloom filters): orc_column_write.c;
 * this file assembles stripes, row indexes and the file.
 *
 * Must not include Postgres headers. Spec: orc.apache.org/specification/
 * ORCv1; orc_proto.proto for the field numbers.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_writer.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "codec/codec.h"
#include "common/byte_buffer.h"
#include "format/orc/orc_bloom.h"
#include "format/orc/orc_col_stats.h"
#include "format/orc/orc_dict.h"
#include "format/orc/orc_encode.h"
#include "format/orc/orc_int.h"
#include "format/orc/orc_proto_write.h"
#include "format/write_stats.h"

#include "format/orc/orc_writer_int.h"

/* ---------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------- */

static void
writer_free(orc_writer *w)
{
	const pm_env *env = w->env;

	if (w->cols != NULL)
	{
		for (int i = 0; i < w->ncols; i++)
			orc_col_free(env, &w->cols[i]);
		pm_free(env, w->cols);
	}
	pm_free(env, w->top);
	pm_byte_buffer_free(&w->stripe_buf);
	pm_byte_buffer_free(&w->root_groups);
	pm_byte_buffer_free(&w->index_buf);
	pm_byte_buffer_free(&w->msg);
	pm_byte_buffer_free(&w->sub);
	pm_byte_buffer_free(&w->stripe_infos);
	pm_byte_buffer_free(&w->stripe_stats);
	pm_byte_buffer_free(&w->root_blooms);
	pm_free(env, w->root_bf.words);
	if (w->scratch != NULL)
		pm_arena_destroy(w->scratch);
	if (w->multiset_arena != NULL)
		pm_arena_destroy(w->multiset_arena);
	pm_format_file_close(&w->file, env);
	pm_free(env, w);
}

static int64_t
buffered_bytes(const orc_writer *w)
{
	int64_t		n = 0;

	for (int i = 0; i < w->ncols; i++)
	{
		const orc_col *c = &w->cols[i];

		n += (int64_t) (c->present.len + c->data.len + c->length.len + c->secondary.len);
		if (c->dict_state != DICT_NO)
			n += orc_dict_bytes(&c->dict);
	}
	return n;
}

/* ---------------------------------------------------------------------
 * Protobuf messages
 * --------------------------------------------------------------------- */

/*
 * The ColumnStatistics of every column (root first) as repeated field
 * `field` of b; file = true for the file's totals.
 */
static void
put_all_stats(orc_writer *w, pm_byte_buffer *b, int field, int64_t nrows, bool file)
{
	pm_byte_buffer one;

	pm_byte_buffer_init(&one, w->env);
	orc_pb_uint(&one, 1, (uint64_t) nrows);
	orc_pb_uint(&one, 10, 0);
	orc_pb_message(b, field, &one);
	for (int i = 0; i < w->ncols; i++)
	{
		orc_col    *c = &w->cols[i];

		pm_byte_buffer_reset(&one);
		orc_acc_put(&one, &w->sub, file ? &c->file_acc : &c->stripe_acc);
		orc_pb_message(b, field, &one);
	}
	if (one.failed)
		b->failed = true;
	pm_byte_buffer_free(&one);
}

static void
put_stream(pm_byte_buffer *b, pm_byte_buffer *tmp, int kind, int column, uint64_t len)
{
	pm_byte_buffer_reset(tmp);
	orc_pb_uint(tmp, 1, (uint64_t) kind);
	orc_pb_uint(tmp, 2, (uint64_t) column);
	orc_pb_uint(tmp, 3, len);
	orc_pb_message(b, 1, tmp);
}

/* the child column ids of nested column ci (-1: the root) into ids; their number */
static int
child_ids(const orc_writer *w, int ci, uint64_t *ids)
{
	int			n = 0;
	int			end = ci < 0 ? w->ncols : ci + w->cols[ci].subtree;

	for (int k = ci + 1; k < end; k += w->cols[k].subtree)
		ids[n++] = (uint64_t) (k + 1);
	return n;
}

/*
 * Types in pre-order: the root STRUCT, then each column
 * (OrcTypeUtil.convertToOrcSchema): subtypes of nested ones, field names
 * of structs, the paimon.id attribute.
 */
static void
put_types(orc_writer *w, pm_byte_buffer *b)
{
	pm_byte_buffer *t = &w->sub;
	pm_byte_buffer attr;
	uint64_t   *ids = pm_alloc(w->env, sizeof(uint64_t) * (size_t) (w->ncols > 0 ? w->ncols : 1));
	int			n;

	if (ids == NULL)
	{
		b->failed = true;
		return;
	}
	pm_byte_buffer_init(&attr, w->env);
	pm_byte_buffer_reset(t);
	orc_pb_uint(t, 1, ORC_STRUCT);
	n = child_ids(w, -1, ids);
	orc_pb_packed_uint(t, 2, ids, n);
	for (int i = 0; i < w->nfields; i++)
		orc_pb_string(t, 3, w->schema->fields[i].name);
	orc_pb_message(b, 4, t);
	for (int i = 0; i < w->ncols; i++)
	{
		const orc_col *c = &w->cols[i];
		char		idtext[16];

		pm_byte_buffer_reset(t);
		orc_pb_uint(t, 1, (uint64_t) c->kind);
		if (orc_kind_nested(c->kind))
		{
			n = child_ids(w, i, ids);
			orc_pb_packed_uint(t, 2, ids, n);
			if (c->kind == ORC_STRUCT)
				for (int k = 0; k < c->type->nfields; k++)
					orc_pb_string(t, 3, c->type->fields[k].name);
		}
		if (c->kind == ORC_CHAR || c->kind == ORC_VARCHAR)
			orc_pb_uint(t, 4, (uint64_t) c->type->length);
		if (c->kind == ORC_DECIMAL)
		{
			orc_pb_uint(t, 5, (uint64_t) c->type->precision);
			orc_pb_uint(t, 6, (uint64_t) c->type->scale);
		}
		snprintf(idtext, sizeof(idtext), "%d", (int) c->paimon_id);
		pm_byte_buffer_reset(&attr);
		orc_pb_string(&attr, 1, "paimon.id");
		orc_pb_string(&attr, 2, idtext);
		orc_pb_message(t, 7, &attr);
		orc_pb_message(b, 4, t);
	}
	if (attr.failed)
		b->failed = true;
	pm_byte_buffer_free(&attr);
	pm_free(w->env, ids);
}

/* ---------------------------------------------------------------------
 * Stripes and the file tail
 * --------------------------------------------------------------------- */

/* Compress one stream (or message) onto `to`; its compressed length. */
static pm_code
add_stream_to(orc_writer *w, const pm_byte_buffer *raw, pm_byte_buffer *to, uint64_t *len,
			  pm_error *err)
{
	size_t		before = to->len;

	if (orc_compress_stream(w->codec, w->level, OW_BLOCK_SIZE, raw->data, raw->len,
							w->scratch, to, err) != PM_OK)
		return pm_format_file_fail(&w->file, err);
	*len = (uint64_t) (to->len - before);
	return PM_OK;
}

static pm_code
add_stream(orc_writer *w, const pm_byte_buffer *raw, uint64_t *len, pm_error *err)
{
	return add_stream_to(w, raw, &w->stripe_buf, len, err);
}

/* ---------------------------------------------------------------------
 * Row index: one RowIndexEntry per w->stride rows of a stripe
 * --------------------------------------------------------------------- */

/* TreeWriter.recordPosition, in uncompressed terms */
static void
col_record_start(orc_col *c)
{
	orc_group_pos *p = &c->cur;

	memset(p, 0, sizeof(*p));
	p->present_u = c->present.len;
	p->present_n = c->present_enc.bytes.n;
	p->present_bits = c->present_enc.nbits;
	p->data_u = c->data.len;
	if (c->kind == ORC_BOOLEAN)
	{
		p->data_n = c->bool_enc.bytes.n;
		p->data_bits = c->bool_enc.nbits;
	}
	else if (c->kind == ORC_BYTE)
		p->data_n = c->byte_enc.n;
	else if (c->ienc != NULL)
		p->data_n = c->ienc->n;
	p->length_u = c->length.len;
	p->length_n = c->lenc != NULL ? c->lenc->n : 0;
	p->secondary_u = c->secondary.len;
	p->secondary_n = c->senc != NULL ? c->senc->n : 0;
	p->dict_values = orc_dict_nvalues(&c->dict);
}

/*
 * StringBaseTreeWriter.checkDictionaryEncoding, once per file at the end
 * of the first row group (orc.dictionary.early.check, ORC's default): the
 * dictionary stays when its distinct values are at most the threshold's
 * fraction of the values (a float ratio, as Java computes it); otherwise
 * the values so far go to the direct streams, and so does every later one.
 */
static void
decide_dictionary(orc_writer *w, orc_col *c)
{
	int64_t		n = orc_dict_nvalues(&c->dict);
	float		ratio = n > 0 ? (float) c->dict.nkeys / (float) n : 0.0f;

	if ((double) ratio <= w->dict_threshold)
	{
		c->dict_state = DICT_YES;
		return;
	}
	for (int64_t i = 0; i < n; i++)
	{
		int32_t		len;
		const uint8_t *p = orc_dict_key(&c->dict, orc_dict_value_id(&c->dict, i), &len);

		pm_byte_buffer_append(&c->data, p, (size_t) len);
		orc_int_rle_enc_put(c->lenc, len);
	}
	orc_dict_reset(&c->dict);
	c->dict_state = DICT_NO;
}

/* BloomFilterIO.serialize of a BloomFilterUtf8 as a BloomFilterIndex entry */
static void
put_bloom(pm_byte_buffer *b, pm_byte_buffer *tmp, pm_byte_buffer *bits, const orc_bloom *bf)
{
	int32_t		nwords = bf->nbits / 64;

	pm_byte_buffer_reset(bits);
	for (int32_t k = 0; k < nwords; k++)
		pm_byte_buffer_put_le64(bits, bf->words[k]);
	pm_byte_buffer_reset(tmp);
	orc_pb_uint(tmp, 1, (uint64_t) bf->nhash);
	orc_pb_bytes(tmp, 3, bits->data, bits->len);
	orc_pb_message(b, 1, tmp);
	if (bits->failed)
		b->failed = true;
}

/* the open row group ends: keep its start and statistics */
static void
close_group(orc_writer *w)
{
	int64_t		rows = w->group_rows;

	pm_byte_buffer_append(&w->root_groups, &rows, sizeof(rows));
	for (int i = 0; i < w->ncols; i++)
	{
		orc_col    *c = &w->cols[i];
		size_t		off = c->group_stats.len;

		orc_acc_put(&c->group_stats, &w->sub, &c->group_acc);
		c->cur.stats_off = (uint32_t) off;
		c->cur.stats_len = (uint32_t) (c->group_stats.len - off);
		pm_byte_buffer_append(&c->groups, &c->cur, sizeof(c->cur));
		orc_acc_reset(&c->group_acc);
		if (c->dict_state == DICT_UNDECIDED)
			decide_dictionary(w, c);
		if (c->bloom)
		{
			put_bloom(&c->blooms, &w->msg, &w->stripe_buf, &c->bf);
			memset(c->bf.words, 0, sizeof(uint64_t) * (size_t) (c->bf.nbits / 64));
		}
		col_record_start(c);
	}
	if (w->root_bloom)
		put_bloom(&w->root_blooms, &w->msg, &w->stripe_buf, &w->root_bf);
	w->group_rows = 0;
}

/*
 * OutStream.getPosition of uncompressed offset u in a compressed stream
 * (cs, clen): the start of its chunk and the offset in it; uncompressed
 * files: the offset.
 */
static int
stream_pos(const orc_writer *w, const uint8_t *cs, size_t clen, uint64_t u, uint64_t *out)
{
	uint64_t	k = u / OW_BLOCK_SIZE;
	size_t		start = 0;

	if (w->codec == PM_CODEC_NONE)
	{
		out[0] = u;
		return 1;
	}
	for (uint64_t j = 0; j < k && start + 3 <= clen; j++)
	{
		uint32_t	h = (uint32_t) cs[start] | ((uint32_t) cs[start + 1] << 8) |
			((uint32_t) cs[start + 2] << 16);

		start += 3 + (h >> 1);
	}
	out[0] = (uint64_t) start;
	out[1] = u - k * OW_BLOCK_SIZE;
	return 2;
}

/*
 * The RowIndex of column i (0 = the root) of the stripe in stripe_buf, in
 * the order ORC's tree writers record positions (PRESENT only when the
 * stripe has the stream, as removeIsPresentPositions).
 */
static void
put_row_index(orc_writer *w, int i, pm_byte_buffer *b)
{
	pm_byte_buffer entry;
	pm_byte_buffer st;
	int			ngroups = (int) (w->root_groups.len / sizeof(int64_t));

	pm_byte_buffer_init(&entry, w->env);
	pm_byte_buffer_init(&st, w->env);
	for (int g = 0; g < ngroups; g++)
	{
		uint64_t	pos[OW_MAX_POSITIONS];
		int			n = 0;

		pm_byte_buffer_reset(&entry);
		if (i == 0)
		{
			int64_t		rows;

			memcpy(&rows, w->root_groups.data + sizeof(int64_t) * (size_t) g, sizeof(rows));
			pm_byte_buffer_reset(&st);
			orc_pb_uint(&st, 1, (uint64_t) rows);
			orc_pb_uint(&st, 10, 0);
			orc_pb_message(&entry, 2, &st);
		}
		else
		{
			orc_col    *c = &w->cols[i - 1];
			orc_group_pos p;
			const uint8_t *sb = w->stripe_buf.data;

			memcpy(&p, c->groups.data + sizeof(p) * (size_t) g, sizeof(p));
			if (c->stripe_nulls)
			{
				n += stream_pos(w, sb + c->soff[OW_PRESENT], c->slen[OW_PRESENT], p.present_u, pos + n);
				pos[n++] = (uint64_t) p.present_n;
				pos[n++] = (uint64_t) p.present_bits;
			}
			if (!orc_kind_nested(c->kind))
				n += stream_pos(w, sb + c->soff[OW_DATA], c->slen[OW_DATA], p.data_u, pos + n);
			if (c->kind == ORC_BOOLEAN)
			{
				pos[n++] = (uint64_t) p.data_n;
				pos[n++] = (uint64_t) p.data_bits;
			}
			else if (c->kind == ORC_BYTE || c->ienc != NULL || c->dict_state == DICT_YES)
				pos[n++] = (uint64_t) p.data_n;
			/* dictionary: no LENGTH positions (the lengths are the keys') */
			if (c->has_length && c->dict_state != DICT_YES)
			{
				n += stream_pos(w, sb + c->soff[OW_LENGTH], c->slen[OW_LENGTH], p.length_u, pos + n);
				pos[n++] = (uint64_t) p.length_n;
			}
			if (c->has_secondary)
			{
				n += stream_pos(w, sb + c->soff[OW_SECONDARY], c->slen[OW_SECONDARY],
								p.secondary_u, pos + n);
				pos[n++] = (uint64_t) p.secondary_n;
			}
			orc_pb_packed_uint(&entry, 1, pos, n);
			orc_pb_bytes(&entry, 2, c->group_stats.data + p.stats_off, p.stats_len);
		}
		orc_pb_message(b, 1, &entry);
	}
	if (entry.failed || st.failed)
		b->failed = true;
	pm_byte_buffer_free(&entry);
	pm_byte_buffer_free(&st);
}

static void
col_stripe_reset(orc_col *c)
{
	pm_byte_buffer_reset(&c->present);
	pm_byte_buffer_reset(&c->data);
	pm_byte_buffer_reset(&c->length);
	pm_byte_buffer_reset(&c->secondary);
	c->stripe_nulls = false;
	orc_acc_reset(&c->stripe_acc);
	pm_byte_buffer_reset(&c->groups);
	pm_byte_buffer_reset(&c->group_stats);
	pm_byte_buffer_reset(&c->dict_data);
	pm_byte_buffer_reset(&c->blooms);
	orc_dict_reset(&c->dict);
	col_record_start(c);
}

/*
 * StringBaseTreeWriter.flushDictionary with the dictionary on: the keys in
 * sorted order into DICTIONARY_DATA and their lengths into LENGTH, each
 * value's sorted id into DATA, noting where each row group starts in DATA.
 * False when out of memory.
 */
static bool
write_dictionary(orc_writer *w, orc_col *c)
{
	orc_dict   *d = &c->dict;
	int64_t		n = orc_dict_nvalues(d);
	int			ngroups = (int) (c->groups.len / sizeof(orc_group_pos));
	int			g = 0;
	int32_t    *sorted = pm_alloc(w->env, sizeof(int32_t) * (size_t) (d->nkeys + 1) * 2);
	int32_t    *rank = sorted + d->nkeys + 1;
	bool		ok;

	if (sorted == NULL)
		return false;
	ok = orc_dict_sort(d, sorted, rank);
	for (int32_t r = 0; ok && r < d->nkeys; r++)
	{
		int32_t		len;
		const uint8_t *p = orc_dict_key(d, sorted[r], &len);

		pm_byte_buffer_append(&c->dict_data, p, (size_t) len);
		orc_int_rle_enc_put(c->lenc, len);
	}
	for (int64_t i = 0; ok && i <= n; i++)
	{
		/* every group starting here (groups of NULLs share a start) */
		for (; g < ngroups; g++)
		{
			orc_group_pos p;

			memcpy(&p, c->groups.data + sizeof(p) * (size_t) g, sizeof(p));
			if (p.dict_values != i)
				break;
			p.data_u = c->data.len;
			p.data_n = c->dict_enc->n;
			memcpy(c->groups.data + sizeof(p) * (size_t) g, &p, sizeof(p));
		}
		if (i < n)
			orc_int_rle_enc_put(c->dict_enc, rank[orc_dict_value_id(d, i)]);
	}
	pm_free(w->env, sorted);
	return ok;
}

static pm_code
flush_stripe(orc_writer *w, pm_error *err)
{
	pm_byte_buffer footer;
	pm_byte_buffer dstreams;
	pm_byte_buffer tmp;
	uint64_t	data_len = 0;
	uint64_t	index_len = 0;
	uint64_t	footer_len = 0;
	pm_code		rc = PM_OK;

	if (w->stripe_rows == 0)
		return PM_OK;
	if (w->group_rows > 0)
		close_group(w);
	pm_byte_buffer_init(&footer, w->env);
	pm_byte_buffer_init(&dstreams, w->env);
	pm_byte_buffer_init(&tmp, w->env);
	pm_byte_buffer_reset(&w->stripe_buf);
	pm_byte_buffer_reset(&w->index_buf);

	/* streams, and their entries in the stripe footer */
	for (int i = 0; i < w->ncols && rc == PM_OK; i++)
	{
		orc_col    *c = &w->cols[i];
		uint64_t	len = 0;

		if (c->dict_state == DICT_YES && !write_dictionary(w, c))
		{
			rc = pm_format_file_oom(&w->file, err);
			break;
		}
		if (c->dict_enc != NULL)
			orc_int_rle_enc_flush(c->dict_enc);
		orc_bool_enc_flush(&c->present_enc);
		if (c->kind == ORC_BOOLEAN)
			orc_bool_enc_flush(&c->bool_enc);
		if (c->kind == ORC_BYTE)
			orc_byte_rle_enc_flush(&c->byte_enc);
		if (c->ienc != NULL)
			orc_int_rle_enc_flush(c->ienc);
		if (c->lenc != NULL)
			orc_int_rle_enc_flush(c->lenc);
		if (c->senc != NULL)
			orc_int_rle_enc_flush(c->senc);
		if (orc_col_buffers_failed(c))
		{
			rc = pm_format_file_oom(&w->file, err);
			break;
		}
		memset(c->soff, 0, sizeof(c->soff));
		memset(c->slen, 0, sizeof(c->slen));
		if (c->stripe_nulls)
		{
			c->soff[OW_PRESENT] = w->stripe_buf.len;
			if ((rc = add_stream(w, &c->present, &len, err)) != PM_OK)
				break;
			c->slen[OW_PRESENT] = (size_t) len;
			put_stream(&dstreams, &tmp, ORC_S_PRESENT, i + 1, len);
			data_len += len;
		}
		/* a STRUCT, LIST or MAP has no DATA */
		if (!orc_kind_nested(c->kind))
		{
			c->soff[OW_DATA] = w->stripe_buf.len;
			if ((rc = add_stream(w, &c->data, &len, err)) != PM_OK)
				break;
			c->slen[OW_DATA] = (size_t) len;
			put_stream(&dstreams, &tmp, ORC_S_DATA, i + 1, len);
			data_len += len;
		}
		if (c->has_length)
		{
			c->soff[OW_LENGTH] = w->stripe_buf.len;
			if ((rc = add_stream(w, &c->length, &len, err)) != PM_OK)
				break;
			c->slen[OW_LENGTH] = (size_t) len;
			put_stream(&dstreams, &tmp, ORC_S_LENGTH, i + 1, len);
			data_len += len;
		}
		if (c->dict_state == DICT_YES)
		{
			if ((rc = add_stream(w, &c->dict_data, &len, err)) != PM_OK)
				break;
			put_stream(&dstreams, &tmp, ORC_S_DICTIONARY_DATA, i + 1, len);
			data_len += len;
		}
		if (c->has_secondary)
		{
			c->soff[OW_SECONDARY] = w->stripe_buf.len;
			if ((rc = add_stream(w, &c->secondary, &len, err)) != PM_OK)
				break;
			c->slen[OW_SECONDARY] = (size_t) len;
			put_stream(&dstreams, &tmp, ORC_S_SECONDARY, i + 1, len);
			data_len += len;
		}
	}
	/* the index streams (before the data in the stripe), root first */
	for (int i = 0; rc == PM_OK && i <= w->ncols; i++)
	{
		uint64_t	len = 0;

		if (w->stripe_buf.failed)
		{
			rc = pm_format_file_oom(&w->file, err);
			break;
		}
		pm_byte_buffer_reset(&w->msg);
		put_row_index(w, i, &w->msg);
		if (w->msg.failed)
		{
			rc = pm_format_file_oom(&w->file, err);
			break;
		}
		if ((rc = add_stream_to(w, &w->msg, &w->index_buf, &len, err)) != PM_OK)
			break;
		put_stream(&footer, &tmp, ORC_S_ROW_INDEX, i, len);
		index_len += len;
		/* BLOOM_FILTER_UTF8 (kind 8) follows the column's ROW_INDEX (6) */
		if (i == 0 ? w->root_bloom : w->cols[i - 1].bloom)
		{
			const pm_byte_buffer *bl = i == 0 ? &w->root_blooms : &w->cols[i - 1].blooms;

			if (bl->failed)
			{
				rc = pm_format_file_oom(&w->file, err);
				break;
			}
			if ((rc = add_stream_to(w, bl, &w->index_buf, &len, err)) != PM_OK)
				break;
			put_stream(&footer, &tmp, ORC_S_BLOOM_FILTER_UTF8, i, len);
			index_len += len;
		}
	}
	if (rc == PM_OK)
	{
		pm_byte_buffer_append(&footer, dstreams.data, dstreams.len);
		/* column encodings, root first; the writer zone */
		pm_byte_buffer_reset(&tmp);
		orc_pb_uint(&tmp, 1, ORC_E_DIRECT);
		if (w->root_bloom)
			orc_pb_uint(&tmp, 3, OW_BLOOM_ENCODING);
		orc_pb_message(&footer, 2, &tmp);
		for (int i = 0; i < w->ncols; i++)
		{
			const orc_col *c = &w->cols[i];

			pm_byte_buffer_reset(&tmp);
			if (c->dict_state == DICT_YES)
			{
				orc_pb_uint(&tmp, 1, ORC_E_DICTIONARY_V2);
				orc_pb_uint(&tmp, 2, (uint64_t) c->dict.nkeys);
			}
			else
				orc_pb_uint(&tmp, 1, (uint64_t) c->encoding);
			if (c->bloom)
				orc_pb_uint(&tmp, 3, OW_BLOOM_ENCODING);
			orc_pb_message(&footer, 2, &tmp);
		}
		if (w->has_timestamp)
			orc_pb_string(&footer, 3, "UTC");
		if (footer.failed || tmp.failed)
			rc = pm_format_file_oom(&w->file, err);
	}
	if (rc == PM_OK && dstreams.failed)
		rc = pm_format_file_oom(&w->file, err);
	if (rc == PM_OK)
		rc = add_stream(w, &footer, &footer_len, err);
	if (rc == PM_OK && (w->stripe_buf.failed || w->index_buf.failed))
		rc = pm_format_file_oom(&w->file, err);
	if (rc == PM_OK)
	{
		/* StripeInformation for the footer, StripeStatistics for the metadata */
		pm_byte_buffer_reset(&tmp);
		orc_pb_uint(&tmp, 1, (uint64_t) w->file.pos);
		orc_pb_uint(&tmp, 2, index_len);
		orc_pb_uint(&tmp, 3, data_len);
		orc_pb_uint(&tmp, 4, footer_len);
		orc_pb_uint(&tmp, 5, (uint64_t) w->stripe_rows);
		orc_pb_message(&w->stripe_infos, 3, &tmp);
		pm_byte_buffer_reset(&tmp);
		put_all_stats(w, &tmp, 1, w->stripe_rows, false);
		orc_pb_message(&w->stripe_stats, 1, &tmp);
		if (tmp.failed || w->stripe_infos.failed || w->stripe_stats.failed)
			rc = pm_format_file_oom(&w->file, err);
	}
	if (rc == PM_OK)
		rc = pm_format_file_append(&w->file, w->index_buf.data, w->index_buf.len, err);
	if (rc == PM_OK)
		rc = pm_format_file_append(&w->file, w->stripe_buf.data, w->stripe_buf.len, err);
	pm_byte_buffer_free(&footer);
	pm_byte_buffer_free(&dstreams);
	pm_byte_buffer_free(&tmp);
	if (rc != PM_OK)
		return rc;
	w->stripe_rows = 0;
	pm_byte_buffer_reset(&w->root_groups);
	for (int i = 0; i < w->ncols; i++)
		col_stripe_reset(&w->cols[i]);
	pm_byte_buffer_reset(&w->root_blooms);
	return PM_OK;
}

/* Metadata, Footer, PostScript and its length byte */
static pm_code
write_tail(orc_writer *w, pm_error *err)
{
	pm_byte_buffer *m = &w->msg;
	pm_byte_buffer ps;
	uint64_t	metadata_len = 0,
				footer_len = 0;
	uint64_t	version[2] = {0, 12};
	pm_code		rc;

	/* Metadata */
	pm_byte_buffer_reset(&w->stripe_buf);
	if (w->stripe_stats.failed)
		return pm_format_file_oom(&w->file, err);
	PM_TRY(add_stream(w, &w->stripe_stats, &metadata_len, err));

	/* Footer */
	pm_byte_buffer_reset(m);
	orc_pb_uint(m, 1, 3);
	orc_pb_uint(m, 2, (uint64_t) w->file.pos);
	pm_byte_buffer_append(m, w->stripe_infos.data, w->stripe_infos.len);
	put_types(w, m);
	orc_pb_uint(m, 6, (uint64_t) w->total_rows);
	put_all_stats(w, m, 7, w->total_rows, true);
	orc_pb_uint(m, 8, (uint64_t) w->stride);
	orc_pb_uint(m, 11, OW_CALENDAR_JULIAN_GREGORIAN);
	orc_pb_string(m, 12, "paimon_fdw");
	if (m->failed)
		return pm_format_file_oom(&w->file, err);
	PM_TRY(add_stream(w, m, &footer_len, err));

	/* PostScript */
	pm_byte_buffer_init(&ps, w->env);
	orc_pb_uint(&ps, 1, footer_len);
	orc_pb_uint(&ps, 2, (uint64_t) w->compression);
	if (w->codec != PM_CODEC_NONE)
		orc_pb_uint(&ps, 3, OW_BLOCK_SIZE);
	orc_pb_packed_uint(&ps, 4, version, 2);
	orc_pb_uint(&ps, 5, metadata_len);
	orc_pb_uint(&ps, 6, OW_WRITER_VERSION);
	orc_pb_string(&ps, 8000, "ORC");
	if (ps.failed || ps.len > 255)
	{
		pm_byte_buffer_free(&ps);
		return pm_format_file_oom(&w->file, err);
	}
	pm_byte_buffer_append(&w->stripe_buf, ps.data, ps.len);
	pm_byte_buffer_put_u8(&w->stripe_buf, (uint8_t) ps.len);
	pm_byte_buffer_free(&ps);
	if (w->stripe_buf.failed)
		return pm_format_file_oom(&w->file, err);
	rc = pm_format_file_append(&w->file, w->stripe_buf.data, w->stripe_buf.len, err);
	return rc;
}

/* ---------------------------------------------------------------------
 * The pm_format_writer interface
 * --------------------------------------------------------------------- */

static void
ow_abort(pm_format_writer *base)
{
	writer_free((orc_writer *) base);
}

static pm_code
ow_write(pm_format_writer *base, const pm_batch *batch, pm_error *err)
{
	orc_writer *w = (orc_writer *) base;

	if (w->file.failed)
	{
		pm_fail(err, PM_ERR_INVALID, "ORC writer used after a failure");
		return pm_format_file_fail(&w->file, err);
	}
	if (pm_format_writer_check_batch(w->schema, batch, "an ORC", err) != PM_OK)
		return pm_format_file_fail(&w->file, err);
	if (pm_check_interrupts(w->env, err) != PM_OK)
		return pm_format_file_fail(&w->file, err);
	/* RowDataVectorizer.vectorize refuses NULL in a NOT NULL field */
	for (int c = 0; c < w->nfields; c++)
	{
		if (!w->schema->fields[c].type->nullable && batch->cols[c].nulls != NULL)
			for (int64_t i = 0; i < batch->nrows; i++)
				if (batch->cols[c].nulls[i])
				{
					pm_fail(err, PM_ERR_INVALID, "column \"%s\": NULL in a NOT NULL field",
							w->schema->fields[c].name);
					return pm_format_file_fail(&w->file, err);
				}
		if (orc_check_vector(&batch->cols[c], w->schema->fields[c].type, batch->nrows,
							 w->schema->fields[c].name,
							 err) != PM_OK)
			return pm_format_file_fail(&w->file, err);
	}
	/*
	 * slices of up to OW_SLICE_ROWS rows that end at row group boundaries,
	 * the stripe size checked after each
	 */
	for (int64_t start = 0, end; start < batch->nrows; start = end)
	{
		int64_t		m = OW_SLICE_ROWS;

		if (m > w->stride - w->group_rows)
			m = w->stride - w->group_rows;
		if (m > batch->nrows - start)
			m = batch->nrows - start;
		end = start + m;

		for (int c = 0; c < w->nfields; c++)
			orc_tree_write(w, w->top[c], &batch->cols[c], start, end);
		pm_arena_reset(w->multiset_arena);
		for (int c = 0; c < w->ncols; c++)
			if (orc_col_buffers_failed(&w->cols[c]))
				return pm_format_file_oom(&w->file, err);
		w->stripe_rows += end - start;
		w->total_rows += end - start;
		w->group_rows += end - start;
		if (w->group_rows == w->stride)
			close_group(w);
		if (w->root_groups.failed)
			return pm_format_file_oom(&w->file, err);
		if (buffered_bytes(w) >= w->stripe_bytes)
			PM_TRY(flush_stripe(w, err));
	}
	return PM_OK;
}

static int64_t
ow_estimated_size(pm_format_writer *base)
{
	orc_writer *w = (orc_writer *) base;

	return w->file.pos + buffered_bytes(w);
}

static pm_code
ow_finish(pm_format_writer *base, pm_arena *arena, pm_format_write_result *result,
		  pm_error *err)
{
	orc_writer *w = (orc_writer *) base;
	pm_code		rc = PM_OK;

	memset(result, 0, sizeof(*result));
	if (w->file.failed)
	{
		pm_fail(err, PM_ERR_INVALID, "ORC writer finished after a failure");
		rc = pm_format_file_fail(&w->file, err);
	}
	if (rc == PM_OK)
		rc = flush_stripe(w, err);
	if (rc == PM_OK)
		rc = write_tail(w, err);
	if (rc == PM_OK)
	{
		result->stats = pm_arena_zalloc(arena, sizeof(pm_column_stats) *
										(size_t) (w->nfields > 0 ? w->nfields : 1));
		if (result->stats == NULL)
			rc = pm_format_file_oom(&w->file, err);
		for (int c = 0; rc == PM_OK && c < w->nfields; c++)
		{
			const orc_acc *fa = &w->cols[w->top[c]].file_acc;

			if (!pm_write_stats_result(&fa->vals, arena, &result->stats[c]))
				rc = pm_format_file_oom(&w->file, err);
			/* what Java's OrcSimpleStatsExtractor reads back: ORC's order */
			if (fa->has_double)
			{
				result->stats[c].min.u.f64 = fa->dmin;
				result->stats[c].max.u.f64 = fa->dmax;
			}
		}
	}
	if (rc == PM_OK)
		rc = pm_format_file_finish(&w->file, err);
	if (rc != PM_OK)
	{
		memset(result, 0, sizeof(*result));
		ow_abort(base);
		return rc;
	}
	result->row_count = w->total_rows;
	result->file_size = w->file.pos;
	result->ncols = w->nfields;
	writer_free(w);
	return PM_OK;
}

static const pm_format_writer_ops orc_writer_ops = {
	.write = ow_write,
	.estimated_size = ow_estimated_size,
	.finish = ow_finish,
	.abort = ow_abort,
};

/* file.compression -> ORC CompressionKind (CompressionKind.valueOf) */
static bool
codec_from_name(const char *name, pm_codec *codec, int *kind)
{
	if (name == NULL || name[0] == '\0' || strcasecmp(name, "none") == 0)
	{
		*codec = PM_CODEC_NONE;
		*kind = ORC_C_NONE;
	}
	else if (strcasecmp(name, "zstd") == 0)
	{
		*codec = PM_CODEC_ZSTD;
		*kind = ORC_C_ZSTD;
	}
	else if (strcasecmp(name, "snappy") == 0)
	{
		*codec = PM_CODEC_SNAPPY;
		*kind = ORC_C_SNAPPY;
	}
	else if (strcasecmp(name, "lz4") == 0)
	{
		*codec = PM_CODEC_LZ4_RAW;
		*kind = ORC_C_LZ4;
	}
	else if (strcasecmp(name, "zlib") == 0)
	{
		*codec = PM_CODEC_DEFLATE;
		*kind = ORC_C_ZLIB;
	}
	else
		return false;
	return true;
}

bool
pm_orc_writer_takes_compression(const char *name)
{
	pm_codec	codec;
	int			kind;

	return codec_from_name(name, &codec, &kind);
}

pm_code
pm_orc_writer_open(const pm_env *env, pm_fileio *io, const char *path,
				   const pm_format_write_options *options, pm_format_writer **out,
				   pm_error *err)
{
	const pm_type *schema = options->schema;
	orc_writer *w;
	pm_code		rc;

	*out = NULL;
	if (schema == NULL || schema->id != PM_TYPE_ROW)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "ORC writer needs a ROW schema");
		pm_error_set_path(err, path);
		return rc;
	}
	w = pm_alloc(env, sizeof(orc_writer));
	if (w == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
	memset(w, 0, sizeof(*w));
	w->base.ops = &orc_writer_ops;
	w->env = env;
	if (!pm_format_file_init(&w->file, env, io, path, "an ORC file"))
	{
		pm_free(env, w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
	}
	w->schema = schema;
	pm_byte_buffer_init(&w->stripe_buf, env);
	pm_byte_buffer_init(&w->root_groups, env);
	pm_byte_buffer_init(&w->index_buf, env);
	pm_byte_buffer_init(&w->msg, env);
	pm_byte_buffer_init(&w->sub, env);
	pm_byte_buffer_init(&w->stripe_infos, env);
	pm_byte_buffer_init(&w->stripe_stats, env);
	pm_byte_buffer_init(&w->root_blooms, env);
	w->dict_threshold = options->orc.dictionary_threshold;
	w->stride = options->orc.row_index_stride != 0 ?
		options->orc.row_index_stride : OW_ROW_INDEX_STRIDE;
	/* WriterImpl's check; 0 or less (no row index) is not written */
	if (w->stride < OW_MIN_ROW_INDEX_STRIDE)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "Row stride must be at least %d",
					 OW_MIN_ROW_INDEX_STRIDE);
		pm_error_set_path(err, path);
		writer_free(w);
		return rc;
	}
	if (options->orc.bloom_columns != NULL && options->orc.bloom_columns[0] != '\0')
	{
		double		fpp = options->orc.bloom_fpp != 0.0 ? options->orc.bloom_fpp :
			ORC_BLOOM_DEFAULT_FPP;

		/* BloomFilter's checkArgument */
		if (!(fpp > 0.0 && fpp < 1.0))
		{
			rc = pm_fail(err, PM_ERR_INVALID,
						 "bloom filter false positive probability %g is not between 0 and 1", fpp);
			pm_error_set_path(err, path);
			writer_free(w);
			return rc;
		}
		/* new BloomFilterUtf8(rowIndexStride, fpp) */
		orc_bloom_size(w->stride, fpp, &w->bloom_nbits, &w->bloom_nhash);
		w->root_bloom = strcmp(options->orc.bloom_columns, "*") == 0;
	}
	if (w->root_bloom)
	{
		w->root_bf.nbits = w->bloom_nbits;
		w->root_bf.nhash = w->bloom_nhash;
		w->root_bf.words = pm_alloc(env, sizeof(uint64_t) * (size_t) (w->bloom_nbits / 64));
		if (w->root_bf.words == NULL)
		{
			writer_free(w);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
		}
		memset(w->root_bf.words, 0, sizeof(uint64_t) * (size_t) (w->bloom_nbits / 64));
	}
	w->scratch = pm_arena_create(env);
	w->multiset_arena = pm_arena_create(env);
	if (w->scratch == NULL || w->multiset_arena == NULL)
	{
		writer_free(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
	}
	if (orc_cols_init(w, &options->orc, err) != PM_OK)
	{
		rc = err->code;
		pm_error_set_path(err, path);
		writer_free(w);
		return rc;
	}
	if (!codec_from_name(options->compression, &w->codec, &w->compression))
	{
		rc = pm_fail(err, PM_ERR_UNSUPPORTED, "compression \"%s\" is not supported for ORC files",
					 options->compression);
		pm_error_set_path(err, path);
		writer_free(w);
		return rc;
	}
	/* orc.compression.zstd.level: Paimon sets file.compression.zstd-level */
	w->level = w->codec == PM_CODEC_ZSTD ? (options->zstd_level != 0 ? options->zstd_level : 1) : 0;
	w->stripe_bytes = options->row_group_bytes > 0 ? options->row_group_bytes : OW_STRIPE_BYTES;
	rc = pm_format_file_create(&w->file, err);
	if (rc == PM_OK)
		rc = pm_format_file_append(&w->file, "ORC", 3, err);
	if (rc != PM_OK)
	{
		ow_abort(&w->base);
		return rc;
	}
	*out = &w->base;
	return PM_OK;
}

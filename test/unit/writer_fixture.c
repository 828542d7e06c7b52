/*-------------------------------------------------------------------------
 * writer_fixture.c
 *	  The round trip the format writer tests share (writer_fixture.h).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "writer_fixture.h"

#include "row/data_type.h"

const pm_type *
writer_fixture_parse_type(pm_arena *a, const char *text)
{
	const pm_type *t;
	pm_error	err;

	assert_int_equal(pm_data_type_parse(text, a, &t, &err), PM_OK);
	return t;
}

static uint64_t
next_rand(uint64_t *seed)
{
	uint64_t	r = (*seed += 0x9E3779B97F4A7C15ULL);

	r ^= r >> 31;
	r *= 0xBF58476D1CE4E5B9ULL;
	r ^= r >> 29;
	return r;
}

bool
writer_fixture_value_equal(const pm_type *t, const pm_vector *a, int64_t i, const pm_vector *b, int64_t j,
			char *why, size_t whylen)
{
	bool		an = pm_vector_is_null(a, i),
				bn = pm_vector_is_null(b, j);

	if (an || bn)
	{
		if (an != bn)
			snprintf(why, whylen, "null %d vs %d", an, bn);
		return an == bn;
	}
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return (PM_VEC_VALUES(a, uint8_t)[i] != 0) == (PM_VEC_VALUES(b, uint8_t)[j] != 0);
		case PM_TYPE_TINYINT:
			return PM_VEC_VALUES(a, int8_t)[i] == PM_VEC_VALUES(b, int8_t)[j];
		case PM_TYPE_SMALLINT:
			return PM_VEC_VALUES(a, int16_t)[i] == PM_VEC_VALUES(b, int16_t)[j];
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return PM_VEC_VALUES(a, int32_t)[i] == PM_VEC_VALUES(b, int32_t)[j];
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				uint16_t	na = a->nanos ? a->nanos[i] : 0;
				uint16_t	nb = b->nanos ? b->nanos[j] : 0;

				if (PM_VEC_VALUES(a, int64_t)[i] != PM_VEC_VALUES(b, int64_t)[j] || na != nb)
				{
					snprintf(why, whylen, "%lld.%03u vs %lld.%03u",
							 (long long) PM_VEC_VALUES(a, int64_t)[i], na,
							 (long long) PM_VEC_VALUES(b, int64_t)[j], nb);
					return false;
				}
				return true;
			}
		case PM_TYPE_FLOAT:
			return memcmp(&PM_VEC_VALUES(a, float)[i], &PM_VEC_VALUES(b, float)[j], 4) == 0;
		case PM_TYPE_DOUBLE:
			return memcmp(&PM_VEC_VALUES(a, double)[i], &PM_VEC_VALUES(b, double)[j], 8) == 0;
		case PM_TYPE_DECIMAL:
			return PM_VEC_VALUES(a, pm_int128)[i] == PM_VEC_VALUES(b, pm_int128)[j];
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
			{
				int32_t		as = a->offsets[i],
							ae = a->offsets[i + 1],
							bs = b->offsets[j],
							be = b->offsets[j + 1];

				if (ae - as != be - bs)
				{
					snprintf(why, whylen, "%d vs %d elements", ae - as, be - bs);
					return false;
				}
				for (int32_t k = 0; k < ae - as; k++)
				{
					if (!writer_fixture_value_equal(t->element, &a->children[0], as + k, &b->children[0], bs + k, why, whylen))
						return false;
					if (t->id == PM_TYPE_MAP &&
						!writer_fixture_value_equal(t->value, &a->children[1], as + k, &b->children[1], bs + k, why, whylen))
						return false;
				}
				return true;
			}
		case PM_TYPE_ROW:
			for (int f = 0; f < t->nfields; f++)
				if (!writer_fixture_value_equal(t->fields[f].type, &a->children[f], i, &b->children[f], j, why, whylen))
					return false;
			return true;
		default:
			{
				int32_t		al,
							bl;
				const uint8_t *ap = pm_vector_bytes(a, i, &al);
				const uint8_t *bp = pm_vector_bytes(b, j, &bl);

				if (al != bl)
					snprintf(why, whylen, "length %d vs %d", al, bl);
				return al == bl && (al == 0 || memcmp(ap, bp, (size_t) al) == 0);
			}
	}
}

void
writer_fixture_fill_flat(pm_batch *batch, const pm_type *row, int64_t n, pm_arena *a, uint64_t seed)
{
	batch->nrows = n;
	batch->first_row = 0;
	batch->ncols = row->nfields;
	batch->cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) row->nfields);
	for (int c = 0; c < row->nfields; c++)
	{
		pm_vector  *v = &batch->cols[c];
		const pm_type *t = row->fields[c].type;
		const char *name = row->fields[c].name;
		int64_t		cap = 0;

		assert_true(pm_vector_init(v, t, n, t->nullable, a));
		v->length = n;
		if (t->precision > 6 && (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ))
			v->nanos = pm_arena_zalloc(a, sizeof(uint16_t) * (size_t) n);
		for (int64_t i = 0; i < n; i++)
		{
			uint64_t	r = next_rand(&seed);
			int64_t		x = (int64_t) r;

			if (i % 5 == 0)
				x = (i / 5) % 2 ? INT64_MAX : INT64_MIN;
			if (strcmp(name, "konst") == 0)
				x = 42;
			if (t->nullable && (i % 7 == 3 || strcmp(name, "allnull") == 0))
			{
				v->nulls[i] = 1;
				if (pm_type_is_varlen(t->id))
					v->offsets[i + 1] = v->offsets[i];
				continue;
			}
			switch (t->id)
			{
				case PM_TYPE_BOOLEAN:
					PM_VEC_VALUES(v, uint8_t)[i] = (uint8_t) (x & 1);
					break;
				case PM_TYPE_TINYINT:
					PM_VEC_VALUES(v, int8_t)[i] = (int8_t) x;
					break;
				case PM_TYPE_SMALLINT:
					PM_VEC_VALUES(v, int16_t)[i] = (int16_t) x;
					break;
				case PM_TYPE_INT:
					PM_VEC_VALUES(v, int32_t)[i] = (int32_t) x;
					break;
				case PM_TYPE_DATE:
					PM_VEC_VALUES(v, int32_t)[i] = (int32_t) (x % 3000000);
					break;
				case PM_TYPE_TIME:
					PM_VEC_VALUES(v, int32_t)[i] = (int32_t) ((uint64_t) x % 86400000);
					break;
				case PM_TYPE_BIGINT:
					PM_VEC_VALUES(v, int64_t)[i] = x;
					break;
				case PM_TYPE_TIMESTAMP:
				case PM_TYPE_TIMESTAMP_LTZ:
					/* +-71 years around 1970, away from the (-1 s, 0) ORC quirk */
					x /= 4096;
					if (x > -1000000 && x < 0)
						x -= 1000000;
					if (t->precision <= 3)
						x = x / 1000 * 1000;
					PM_VEC_VALUES(v, int64_t)[i] = x;
					if (v->nanos != NULL)
						v->nanos[i] = (uint16_t) (r % 1000);
					break;
				case PM_TYPE_FLOAT:
					PM_VEC_VALUES(v, float)[i] = i == 1 ? -0.0f : (float) x / 3.0f;
					break;
				case PM_TYPE_DOUBLE:
					PM_VEC_VALUES(v, double)[i] = i == 1 ? INFINITY : (double) x / 7.0;
					break;
				case PM_TYPE_DECIMAL:
					{
						pm_int128	lim = 1;

						for (int k = 0; k < t->precision; k++)
							lim *= 10;
						PM_VEC_VALUES(v, pm_int128)[i] = i == 2 ? lim - 1 : i == 4 ? 1 - lim :
							i == 6 ? 0 : i == 8 ? 1000 :
							((pm_int128) x * ((pm_int128) x | 1)) % lim;
					}
					break;
				default:
					{
						char		buf[64];
						int			len = t->length < 40 ? t->length :
							(int) ((uint64_t) x % 40);

						for (int k = 0; k < len; k++)
							buf[k] = (char) ((pm_type_is_string(t->id) ? 'a' : 0) + (uint8_t) ((uint64_t) x >> (k % 8)) % 26);
						assert_true(pm_vector_append_data(v, &cap, buf, len, a));
						v->offsets[i + 1] = (int32_t) v->data_size;
					}
					break;
			}
		}
	}
}

void
writer_fixture_write(pm_file_format format, pm_fileio *io, const char *path, const pm_type *row,
					 const char *codec, int64_t block_bytes, const pm_orc_write_options *orc,
					 pm_batch *batches, int nbatches, pm_format_write_result *res, pm_arena *a)
{
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result dummy;
	pm_error	err;

	memset(&o, 0, sizeof(o));
	o.schema = row;
	o.compression = codec;
	o.row_group_bytes = block_bytes;
	if (orc != NULL)
		o.orc = *orc;
	if (pm_format_writer_open(format, pm_env_default(), io, path, &o, &w, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	for (int k = 0; k < nbatches; k++)
	{
		if (pm_format_writer_write(w, &batches[k], &err) != PM_OK)
			fail_msg("write %s: %s", path, err.message);
		assert_true(pm_format_writer_estimated_size(w) > 0);
	}
	if (pm_format_writer_finish(w, a, res != NULL ? res : &dummy, &err) != PM_OK)
		fail_msg("finish %s: %s", path, err.message);
}

int64_t
writer_fixture_read_back(pm_file_format format, pm_fileio *io, const char *path, const pm_type *row, pm_batch *batches,
				  int nbatches, const char *label)
{
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int			k = 0;
	int64_t		ik = 0,
				total = 0;

	memset(&ro, 0, sizeof(ro));
	ro.schema = row;
	ro.batch_size = 300;
	if (pm_format_reader_open(format, pm_env_default(), io, path, &ro, &r, &err) != PM_OK)
		fail_msg("%s: open for reading: %s", label, err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("%s: read: %s", label, err.message);
		if (b == NULL)
			break;
		for (int col = 0; col < row->nfields; col++)
			assert_true(pm_vector_valid(&b->cols[col], b->nrows));
		for (int64_t i = 0; i < b->nrows; i++)
		{
			while (k < nbatches && ik == batches[k].nrows)
			{
				k++;
				ik = 0;
			}
			assert_true(k < nbatches);
			for (int col = 0; col < row->nfields; col++)
			{
				char		why[200] = "";

				if (!writer_fixture_value_equal(row->fields[col].type, &batches[k].cols[col], ik, &b->cols[col], i, why, sizeof(why)))
					fail_msg("%s row %lld column %s: %s", label, (long long) total,
							 row->fields[col].name, why);
			}
			total++;
			ik++;
		}
	}
	pm_format_reader_close(r);
	return total;
}


/* element j < len of row i of the fixture's MULTISET columns (codes 0..2) */
static int
ms_code(int col, int64_t i, int j)
{
	return col == 0 ? (int) ((i + j * j) % 3) : (int) ((i * j + j / 2) % 3);
}

static int
ms_len(int col, int64_t i)
{
	return col == 0 ? (i % 5 == 0 ? -1 : (int) (i % 6)) : (int) (i % 7);
}

/* row i of column col: the elements as given, or grouped by first occurrence */
static void
ms_fill(pm_vector *v, int col, int64_t n, bool grouped, pm_arena *a)
{
	pm_vector  *e = &v->children[0];
	int64_t		dcap = 0;
	int32_t		ne = 0;

	for (int64_t i = 0; i < n; i++)
	{
		int			len = ms_len(col, i);
		int			codes[8];
		int			m = 0;

		if (len < 0)
		{
			v->nulls[i] = 1;
			v->offsets[i + 1] = ne;
			continue;
		}
		for (int j = 0; j < len; j++)
			codes[m++] = ms_code(col, i, j);
		if (grouped)
		{
			int			out[8];
			int			k = 0;

			for (int j = 0; j < m; j++)
			{
				bool		seen = false;

				for (int q = 0; q < j; q++)
					seen |= codes[q] == codes[j];
				if (!seen)
					for (int q = j; q < m; q++)
						if (codes[q] == codes[j])
							out[k++] = codes[q];
			}
			memcpy(codes, out, sizeof(int) * (size_t) m);
		}
		for (int j = 0; j < m; j++, ne++)
		{
			if (col == 0)
			{
				char		s[8];
				int			sl = snprintf(s, sizeof(s), "x%d", codes[j]);

				assert_true(pm_vector_append_data(e, &dcap, s, sl, a));
				e->offsets[ne + 1] = e->offsets[ne] + sl;
			}
			else
				PM_VEC_VALUES(e, int32_t)[ne] = codes[j] - 1;
		}
		v->offsets[i + 1] = ne;
	}
	v->length = n;
	e->length = ne;
}

static void
ms_batch(pm_batch *b, const pm_type *row, int64_t n, bool grouped, pm_arena *a)
{
	b->nrows = n;
	b->first_row = 0;
	b->ncols = 3;
	b->cols = pm_arena_zalloc(a, sizeof(pm_vector) * 3);
	assert_non_null(b->cols);
	assert_true(pm_vector_init(&b->cols[0], row->fields[0].type, n, false, a));
	for (int64_t i = 0; i < n; i++)
		PM_VEC_VALUES(&b->cols[0], int64_t)[i] = i;
	b->cols[0].length = n;
	for (int c = 0; c < 2; c++)
	{
		pm_vector  *v = &b->cols[c + 1];

		assert_true(pm_vector_init(v, row->fields[c + 1].type, n, true, a));
		assert_true(pm_vector_init(&v->children[0], row->fields[c + 1].type->element, n * 7,
								   false, a));
		ms_fill(v, c, n, grouped, a);
	}
}

void
writer_fixture_multiset_round_trip(pm_file_format format, pm_fileio *io, const char *path,
								   const char *path2, const pm_orc_write_options *orc,
								   pm_arena *a)
{
	const pm_type *row = writer_fixture_parse_type(a, "ROW<id BIGINT NOT NULL, ms MULTISET<STRING>, "
												   "mi MULTISET<INT NOT NULL> NOT NULL>");
	int64_t		n = 2500;
	pm_batch	given,
				want;
	pm_format_read_options ro;
	pm_format_write_options o;
	pm_format_reader *r;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_batch   *b;
	pm_error	err;

	ms_batch(&given, row, n, false, a);
	ms_batch(&want, row, n, true, a);
	writer_fixture_write(format, io, path, row, "zstd", 0, orc, &given, 1, &res, a);
	assert_false(res.stats[1].has_min_max);
	assert_int_equal(res.stats[1].null_count, n / 5);
	assert_int_equal(res.stats[2].null_count, 0);
	assert_int_equal(writer_fixture_read_back(format, io, path, row, &want, 1, "multiset"), n);

	/* what is read written again, as a compaction does: the counts survive */
	memset(&ro, 0, sizeof(ro));
	ro.schema = row;
	ro.batch_size = 300;
	memset(&o, 0, sizeof(o));
	o.schema = row;
	o.compression = "zstd";
	if (orc != NULL)
		o.orc = *orc;
	assert_int_equal(pm_format_reader_open(format, pm_env_default(), io, path, &ro, &r, &err),
					 PM_OK);
	assert_int_equal(pm_format_writer_open(format, pm_env_default(), io, path2, &o, &w, &err),
					 PM_OK);
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		if (b == NULL)
			break;
		if (pm_format_writer_write(w, b, &err) != PM_OK)
			fail_msg("rewrite %s: %s", path2, err.message);
	}
	pm_format_reader_close(r);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	assert_int_equal(writer_fixture_read_back(format, io, path2, row, &want, 1,
											  "multiset rewritten"), n);
}

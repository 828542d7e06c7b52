/*-------------------------------------------------------------------------
 * fuzz_orc.c
 *	  libFuzzer harness of the ORC reader (pm_orc_reader_open + next).
 *
 * Input: a whole ORC file, served by the in-memory FileIO. It is read
 * twice: with a Paimon-manifest-like ROW type (nested structs, lists,
 * binary, timestamps, absent fields) and with a type derived from the
 * file's own footer (every ORC kind the reader knows); each again with a
 * part filter that skips every other stripe by its statistics and an
 * equality probe per column (bloom filter skipping), a page filter that
 * skips every other row group of the row index and a row selection of
 * every other 700 rows; and once more with the file's flat columns only
 * (the row groups are sought only then). Properties: an
 * error sets err->code and the path; a batch never exceeds the batch
 * size; offsets of strings and collections are monotonic and inside their
 * data / child vectors; nulls are 0/1.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/orc/orc_int.h"
#include "format/orc/orc_reader.h"
#include "io/memory_fileio.h"
#include "part_filter.h"

#define BATCH 64

static void
check_vector(const pm_vector *v, int64_t n)
{
	if (!pm_vector_valid(v, n))
		abort();
}

static void
read_with(pm_fileio *io, const pm_type *schema, bool filtered)
{
	pm_format_read_options opt = {.schema = schema, .batch_size = BATCH};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		total = 0;
	int64_t		next = 0;		/* first row the next batch may start at */

	pm_equal_probe probes[32];
	pm_value	values[32];
	int64_t		bloom_skipped = 0;
	int64_t		groups_total = 0,
				groups_skipped = 0;
	int64_t		sel_start[64],
				sel_end[64];
	pm_row_selection sel = {64, sel_start, sel_end};

	if (filtered)
	{
		opt.part_filter = skip_every_other;
		opt.part_filter_ctx = (void *) schema;
		parts_seen = 0;
		opt.page_filter = skip_every_other_page;
		pieces_seen = 0;
		opt.orc_groups_total = &groups_total;
		opt.orc_groups_skipped = &groups_skipped;
		for (int i = 0; i < 64; i++)
		{
			sel_start[i] = 1400 * (int64_t) i;
			sel_end[i] = sel_start[i] + 700;
		}
		opt.row_selection = &sel;
		/* and a bloom filter probe per flat column: a value of its type */
		memset(values, 0, sizeof(values));
		for (int i = 0; i < schema->nfields && i < 32; i++)
		{
			pm_type_id id = schema->fields[i].type->id;

			if (pm_type_is_varlen(id))
			{
				values[i].u.bytes.ptr = (const uint8_t *) "v1";
				values[i].u.bytes.len = 2;
			}
			else if (id == PM_TYPE_DECIMAL)
				values[i].u.i128 = 150;
			else if (id == PM_TYPE_FLOAT || id == PM_TYPE_DOUBLE)
				values[i].u.f64 = 0.0;
			else
				values[i].u.i64 = 7;
			probes[opt.nequal_probes].field = i;
			probes[opt.nequal_probes].nvalues = 1;
			probes[opt.nequal_probes].values = &values[i];
			opt.nequal_probes++;
		}
		opt.equal_probes = probes;
		opt.parts_bloom_skipped = &bloom_skipped;
	}
	pm_error_clear(&err);
	if (pm_orc_reader_open(pm_env_default(), io, "/f", &opt, &r, &err) != PM_OK)
	{
		if (err.code == PM_OK || strcmp(err.path, "/f") != 0)
			abort();
		return;
	}
	for (int iter = 0; iter < 2000; iter++)
	{
		pm_error_clear(&err);
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
		{
			if (err.code == PM_OK)
				abort();
			break;
		}
		if (b == NULL)
			break;
		if (b->nrows <= 0 || b->nrows > BATCH || b->ncols != schema->nfields ||
			(filtered ? b->first_row < next : b->first_row != total))
			abort();
		for (int c = 0; c < b->ncols; c++)
			check_vector(&b->cols[c], b->nrows);
		total += b->nrows;
		next = b->first_row + b->nrows;
	}
	if (groups_skipped < 0 || groups_skipped > groups_total)
		abort();
	pm_format_reader_close(r);
}

static pm_type *
t_(pm_arena *a, pm_type_id id)
{
	return pm_type_new(a, id, true);
}

static const pm_type *
manifest_type(pm_arena *a)
{
	pm_field	st[3] = {{0, "_MIN_VALUES", t_(a, PM_TYPE_VARBINARY), NULL},
	{1, "_MAX_VALUES", t_(a, PM_TYPE_VARBINARY), NULL},
	{2, "_NULL_COUNTS", pm_type_new_array(a, t_(a, PM_TYPE_BIGINT), true), NULL}};
	const pm_type *stats = pm_type_new_row(a, st, 3, true);
	pm_type    *ts = t_(a, PM_TYPE_TIMESTAMP);
	pm_field	ff[7];
	pm_field	top[6];

	ts->precision = 9;
	ff[0] = (pm_field) {0, "_FILE_NAME", t_(a, PM_TYPE_VARCHAR), NULL};
	ff[1] = (pm_field) {1, "_FILE_SIZE", t_(a, PM_TYPE_BIGINT), NULL};
	ff[2] = (pm_field) {2, "_KEY_STATS", stats, NULL};
	ff[3] = (pm_field) {3, "_VALUE_STATS", stats, NULL};
	ff[4] = (pm_field) {4, "_CREATION_TIME", ts, NULL};
	ff[5] = (pm_field) {5, "_EXTRA_FILES", pm_type_new_array(a, t_(a, PM_TYPE_VARCHAR), true), NULL};
	ff[6] = (pm_field) {6, "_ABSENT", t_(a, PM_TYPE_INT), NULL};
	top[0] = (pm_field) {0, "_KIND", t_(a, PM_TYPE_TINYINT), NULL};
	top[1] = (pm_field) {1, "_PARTITION", t_(a, PM_TYPE_VARBINARY), NULL};
	top[2] = (pm_field) {2, "_BUCKET", t_(a, PM_TYPE_INT), NULL};
	top[3] = (pm_field) {3, "_FILE", pm_type_new_row(a, ff, 7, true), NULL};
	top[4] = (pm_field) {4, "_FILE_NAME", t_(a, PM_TYPE_VARCHAR), NULL};
	top[5] = (pm_field) {5, "_PARTITION_STATS", stats, NULL};
	return pm_type_new_row(a, top, 6, true);
}

/* A pm_type for ORC type `col` of the footer (NULL if none fits). */
static const pm_type *
from_orc(pm_arena *a, const orc_footer *ft, uint32_t col, int depth)
{
	const orc_type *t;
	pm_type    *x;

	if (col >= (uint32_t) ft->ntypes || depth > 8)
		return NULL;
	t = &ft->types[col];
	switch (t->kind)
	{
		case ORC_BOOLEAN:
			return t_(a, PM_TYPE_BOOLEAN);
		case ORC_BYTE:
			return t_(a, PM_TYPE_TINYINT);
		case ORC_SHORT:
			return t_(a, PM_TYPE_SMALLINT);
		case ORC_INT:
			return t_(a, PM_TYPE_INT);
		case ORC_LONG:
			return t_(a, PM_TYPE_BIGINT);
		case ORC_FLOAT:
			return t_(a, PM_TYPE_FLOAT);
		case ORC_DOUBLE:
			return t_(a, PM_TYPE_DOUBLE);
		case ORC_STRING:
		case ORC_VARCHAR:
		case ORC_CHAR:
			return t_(a, PM_TYPE_VARCHAR);
		case ORC_BINARY:
			return t_(a, PM_TYPE_VARBINARY);
		case ORC_DATE:
			return t_(a, PM_TYPE_DATE);
		case ORC_DECIMAL:
			return pm_type_new_decimal(a, 38, (int32_t) (t->scale % 39), true);
		case ORC_TIMESTAMP:
		case ORC_TIMESTAMP_INSTANT:
			x = t_(a, t->kind == ORC_TIMESTAMP ? PM_TYPE_TIMESTAMP : PM_TYPE_TIMESTAMP_LTZ);
			x->precision = 9;
			return x;
		case ORC_LIST:
			{
				const pm_type *e = t->nsubtypes == 1 ? from_orc(a, ft, t->subtypes[0], depth + 1) : NULL;

				return e ? pm_type_new_array(a, e, true) : NULL;
			}
		case ORC_MAP:
			{
				const pm_type *k = t->nsubtypes == 2 ? from_orc(a, ft, t->subtypes[0], depth + 1) : NULL;
				const pm_type *v = t->nsubtypes == 2 ? from_orc(a, ft, t->subtypes[1], depth + 1) : NULL;

				return k && v ? pm_type_new_map(a, k, v, true) : NULL;
			}
		case ORC_STRUCT:
			{
				pm_field	f[32];
				int			n = 0;

				for (int i = 0; i < t->nsubtypes && n < 32; i++)
				{
					const pm_type *ft2 = from_orc(a, ft, t->subtypes[i], depth + 1);

					if (ft2 == NULL)
						continue;
					f[n] = (pm_field) {n, t->names[i], ft2, NULL};
					n++;
				}
				return pm_type_new_row(a, f, n, true);
			}
	}
	return NULL;
}

/* The file's own type, via the internal footer decoder. */
static const pm_type *
own_type(pm_arena *a, const uint8_t *data, size_t size)
{
	orc_postscript ps;
	orc_footer	ft;
	pm_error	err;
	size_t		psl;
	const uint8_t *fo;
	size_t		fl;

	if (size < 4)
		return NULL;
	psl = data[size - 1];
	if (psl + 1 > size || orc_parse_postscript(data + size - 1 - psl, psl, &ps, &err) != PM_OK)
		return NULL;
	if (ps.footer_length > size - 1 - psl)
		return NULL;
	if (orc_decompress_stream((int) ps.compression, ps.block_size,
							  data + size - 1 - psl - ps.footer_length,
							  (size_t) ps.footer_length, a, 1 << 24, &fo, &fl, &err) != PM_OK)
		return NULL;
	if (orc_parse_footer(fo, fl, a, &ft, &err) != PM_OK)
		return NULL;
	return from_orc(a, &ft, 0, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *a = pm_arena_create(env);
	pm_error	err;
	const pm_type *own;

	if (io == NULL || a == NULL)
		abort();
	if (pm_memory_fileio_add(io, "/f", data, size, &err) != PM_OK)
		abort();
	read_with(io, manifest_type(a), false);
	read_with(io, manifest_type(a), true);
	own = own_type(a, data, size);
	if (own != NULL && own->id == PM_TYPE_ROW)
	{
		pm_field	flat[64];
		int			n = 0;

		read_with(io, own, false);
		read_with(io, own, true);
		for (int i = 0; i < own->nfields && n < 64; i++)
		{
			pm_type_id id = own->fields[i].type->id;

			if (id != PM_TYPE_ROW && id != PM_TYPE_ARRAY && id != PM_TYPE_MAP)
				flat[n++] = own->fields[i];
		}
		if (n > 0)
			read_with(io, pm_type_new_row(a, flat, n, true), true);
	}
	pm_arena_destroy(a);
	pm_memory_fileio_destroy(io);
	return 0;
}

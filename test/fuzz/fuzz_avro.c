/*-------------------------------------------------------------------------
 * fuzz_avro.c
 *	  libFuzzer harness of the Avro object container reader.
 *
 * The input is a whole Avro file, served by the in-memory FileIO. It is read
 * twice: with every column (the type pm_avro_file_type derives from the
 * writer schema) and with Paimon's manifest-entry type (projection, absent
 * fields, nested records, arrays), in small batches. Properties checked
 * beyond "no crash": every batch's vectors are consistent (lengths, offsets
 * monotonic and inside their data/children), first_row counts the rows,
 * row_count() agrees with the rows read, and when both reads succeed they
 * see the same number of rows. Failures must be PM_ERR_CORRUPT or
 * PM_ERR_UNSUPPORTED (never IO, INVALID, ...), with the path set.
 *
 * Seeds (test/fuzz/corpus/avro/): files of the shared corpus, some copied
 * as is (*_zstd, list_empty: the header-only base list of pk_09), most with
 * their blocks decompressed and the header's avro.codec rewritten to "null"
 * (*_null) or the blocks recompressed as raw deflate (*_deflate), so that
 * mutations reach the record decoder instead of the zstd frame checks:
 * list_current = pk_btree_e2e manifest-list-b6b5269a-...-1, manifest_current
 * = its manifest-425d391e-...-0, list_v09 / index_v09 = pk_09 (0.9,
 * union-wrapped records), data_multiple / data_map = the Avro data files of
 * tables/avro/append_multiple.db and append_with_multiple_map.db.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/avro/avro_reader.h"
#include "format/format_reader.h"
#include "io/memory_fileio.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static const pm_type *
T(pm_arena *a, pm_type_id id)
{
	return pm_type_new(a, id, true);
}

static const pm_type *
row2(pm_arena *a, const char **names, const pm_type **types, int n)
{
	pm_field	f[32];

	for (int i = 0; i < n; i++)
	{
		f[i].id = i;
		f[i].name = names[i];
		f[i].type = types[i];
		f[i].description = NULL;
	}
	return pm_type_new_row(a, f, n, true);
}

static const pm_type *
entry_type(pm_arena *a)
{
	static const char *sn[] = {"_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS"};
	static const char *fn[] = {"_FILE_NAME", "_FILE_SIZE", "_ROW_COUNT", "_KEY_STATS",
		"_LEVEL", "_EXTRA_FILES", "_CREATION_TIME", "_EXTERNAL_PATH", "_ABSENT"};
	static const char *en[] = {"_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_FILE",
	"_PARTITION_STATS"};
	const pm_type *st[3],
			   *ft[9],
			   *et[6];
	pm_type    *ts = pm_type_new(a, PM_TYPE_TIMESTAMP, true);

	if (ts == NULL)
		return NULL;
	ts->precision = 3;
	st[0] = T(a, PM_TYPE_VARBINARY);
	st[1] = T(a, PM_TYPE_VARBINARY);
	st[2] = pm_type_new_array(a, T(a, PM_TYPE_BIGINT), true);
	ft[0] = T(a, PM_TYPE_VARCHAR);
	ft[1] = T(a, PM_TYPE_BIGINT);
	ft[2] = T(a, PM_TYPE_BIGINT);
	ft[3] = row2(a, sn, st, 3);
	ft[4] = T(a, PM_TYPE_INT);
	ft[5] = pm_type_new_array(a, T(a, PM_TYPE_VARCHAR), true);
	ft[6] = ts;
	ft[7] = T(a, PM_TYPE_VARCHAR);
	ft[8] = T(a, PM_TYPE_DOUBLE);
	et[0] = T(a, PM_TYPE_INT);
	et[1] = T(a, PM_TYPE_TINYINT);
	et[2] = T(a, PM_TYPE_VARBINARY);
	et[3] = T(a, PM_TYPE_INT);
	et[4] = row2(a, fn, ft, 9);
	et[5] = row2(a, sn, st, 3);
	return row2(a, en, et, 6);
}

static void
check_vector(const pm_vector *v, int64_t length)
{
	CHECK(v->length == length);
	switch (v->type->id)
	{
		case PM_TYPE_ROW:
			CHECK(v->nchildren == v->type->nfields);
			for (int c = 0; c < v->nchildren; c++)
				check_vector(&v->children[c], length);
			return;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
			CHECK(v->offsets[0] == 0);
			for (int64_t i = 0; i < length; i++)
				CHECK(v->offsets[i] <= v->offsets[i + 1]);
			for (int c = 0; c < v->nchildren; c++)
				check_vector(&v->children[c], v->offsets[length]);
			return;
		default:
			if (pm_type_is_varlen(v->type->id))
			{
				CHECK(v->offsets[0] == 0);
				for (int64_t i = 0; i < length; i++)
					CHECK(v->offsets[i] <= v->offsets[i + 1]);
				CHECK(v->offsets[length] <= v->data_size);
			}
			else if (v->nulls != NULL)
			{
				for (int64_t i = 0; i < length; i++)
					CHECK(v->nulls[i] <= 1);
			}
			return;
	}
}

/* Rows read, or -1 on a (legitimate) error. */
static int64_t
read_file(pm_fileio *io, const pm_type *req, int batch_size)
{
	pm_format_read_options opt = {.schema = req, .batch_size = batch_size};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	pm_code		rc;
	int64_t		n = 0;

	pm_error_clear(&err);
	rc = pm_avro_reader_open(pm_env_default(), io, "/f", &opt, &r, &err);
	if (rc != PM_OK)
	{
		CHECK(rc == PM_ERR_CORRUPT || rc == PM_ERR_UNSUPPORTED || rc == PM_ERR_NOMEM);
		CHECK(strcmp(err.path, "/f") == 0);
		return -1;
	}
	while ((rc = pm_format_reader_next(r, &b, &err)) == PM_OK && b != NULL)
	{
		CHECK(b->first_row == n);
		CHECK(b->nrows > 0 && b->nrows <= batch_size);
		CHECK(b->ncols == req->nfields);
		for (int c = 0; c < b->ncols; c++)
			check_vector(&b->cols[c], b->nrows);
		n += b->nrows;
	}
	if (rc == PM_OK)
	{
		int64_t		rows = pm_format_reader_row_count(r);

		CHECK(rows == -1 || rows == n);
	}
	else
	{
		CHECK(rc == PM_ERR_CORRUPT || rc == PM_ERR_UNSUPPORTED || rc == PM_ERR_NOMEM);
		CHECK(strcmp(err.path, "/f") == 0);
		/* a failed reader stays failed */
		CHECK(pm_format_reader_next(r, &b, &err) != PM_OK && b == NULL);
	}
	pm_format_reader_close(r);
	return rc == PM_OK ? n : -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const pm_type *full = NULL;
	const pm_type *entry;
	pm_error	err;
	int64_t		n1 = -1,
				n2;

	if (io == NULL || arena == NULL)
		abort();
	pm_error_clear(&err);
	if (pm_memory_fileio_add(io, "/f", data, size, &err) != PM_OK)
		abort();
	if (pm_avro_file_type(pm_env_default(), io, "/f", arena, &full, &err) == PM_OK)
		n1 = read_file(io, full, 5);
	entry = entry_type(arena);
	CHECK(entry != NULL);
	n2 = read_file(io, entry, 3);
	if (n1 >= 0 && n2 >= 0)
		CHECK(n1 == n2);
	CHECK(pm_memory_fileio_open_files(io) == 0);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
	return 0;
}

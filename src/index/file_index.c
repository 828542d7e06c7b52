/*-------------------------------------------------------------------------
 * file_index.c
 *	  The file-index container (FileIndexFormat v1) and the dispatch of a
 *	  predicate leaf to the index kinds of one column.
 *
 * Layout (all big endian):
 *	 int64 magic | int32 version = 1 | int32 headLength | int32 columnCount
 *	 per column: u16+bytes name | int32 indexCount
 *		per index: u16+bytes kind | int32 start (absolute; -1 = empty) | int32 length
 *	 int32 redundantLength (+ that many bytes) | bodies
 * Spec: ../shared/docs/paimon-format-data.md §6.3; apache/paimon
 * FileIndexFormat.java, EmptyFileIndexReader.java.
 *-------------------------------------------------------------------------
 */
#include "index/file_index.h"

#include <string.h>

#include "index/bitmap_index.h"
#include "index/bloom_filter_index.h"
#include "index/bsi_index.h"
#include "index/range_bitmap_index.h"
#include "index/roaring_portable.h"

struct pm_file_index
{
	const pm_env *env;
	int			nentries;
	pm_file_index_entry *entries;
	char	   *names;			/* all column and kind names, NUL-terminated */
};

static int32_t
be32(const uint8_t *p)
{
	return (int32_t) ((uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
					  (uint32_t) p[2] << 8 | (uint32_t) p[3]);
}

pm_code
pm_file_index_read_bitmap(const uint8_t *p, size_t n, int64_t limit, const char *what,
						  roaring_bitmap_t **out, size_t *used, pm_error *err)
{
	size_t		size = 0;
	int64_t		max = -1;
	roaring_bitmap_t *bm;

	*out = NULL;
	PM_TRY(pm_roaring_portable_check(p, n, &size, &max, err));
	if (limit >= 0 && max >= limit)
		return pm_fail(err, PM_ERR_CORRUPT, "%s holds row %lld of %lld rows", what,
					   (long long) max, (long long) limit);
	if (roaring_bitmap_portable_deserialize_size((const char *) p, n) != size)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid roaring bitmap in %s", what);
	bm = roaring_bitmap_portable_deserialize_safe((const char *) p, size);
	if (bm == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid roaring bitmap in %s", what);
	*out = bm;
	if (used != NULL)
		*used = size;
	return PM_OK;
}

/* A Java writeUTF string at *pos of head[0..n): length-checked, no NUL inside. */
static pm_code
read_utf(const uint8_t *head, size_t n, size_t *pos, char **names, size_t *nameslen,
		 size_t *at, pm_error *err)
{
	size_t		len;

	if (n - *pos < 2)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated file index header");
	len = (size_t) head[*pos] << 8 | head[*pos + 1];
	*pos += 2;
	if (n - *pos < len)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated file index header");
	if (memchr(head + *pos, 0, len) != NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "NUL byte in a file index name");
	*at = *nameslen;
	memcpy(*names + *nameslen, head + *pos, len);
	(*names)[*nameslen + len] = '\0';
	*nameslen += len + 1;
	*pos += len;
	return PM_OK;
}

static pm_code
parse(pm_file_index *fi, const uint8_t *buf, size_t len, pm_error *err)
{
	int64_t		magic;
	int32_t		version,
				head_len,
				ncolumns;
	size_t		pos,
				nameslen = 0;
	size_t	   *name_at,
			   *kind_at;
	int			maxentries;

	if (len < 20)
		return pm_fail(err, PM_ERR_CORRUPT, "file index of %zu bytes is too short", len);
	magic = (int64_t) ((uint64_t) (uint32_t) be32(buf) << 32 | (uint32_t) be32(buf + 4));
	if (magic != PM_FILE_INDEX_MAGIC)
		return pm_fail(err, PM_ERR_CORRUPT, "not a file index (bad magic)");
	version = be32(buf + 8);
	if (version != PM_FILE_INDEX_VERSION)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "file index version %d is not supported", version);
	head_len = be32(buf + 12);
	if (head_len < 24 || (size_t) head_len > len)
		return pm_fail(err, PM_ERR_CORRUPT, "file index head length %d out of range", head_len);
	ncolumns = be32(buf + 16);
	/* each column takes at least 2 + 4 bytes, each entry 2 + 8 */
	if (ncolumns < 0 || (size_t) ncolumns > ((size_t) head_len - 24) / 6)
		return pm_fail(err, PM_ERR_CORRUPT, "file index column count %d out of range", ncolumns);

	maxentries = (head_len - 24) / 10 + 1;
	fi->entries = pm_alloc(fi->env, sizeof(pm_file_index_entry) * (size_t) maxentries);
	fi->names = pm_alloc(fi->env, (size_t) head_len);	/* names + NULs fit in the head */
	name_at = pm_alloc(fi->env, sizeof(size_t) * (size_t) maxentries * 2);
	if (fi->entries == NULL || fi->names == NULL || name_at == NULL)
	{
		pm_free(fi->env, name_at);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a file index");
	}
	kind_at = name_at + maxentries;

	pos = 20;
	for (int c = 0; c < ncolumns; c++)
	{
		size_t		col_at;
		int32_t		nidx;
		pm_code		rc;

		if ((rc = read_utf(buf, (size_t) head_len, &pos, &fi->names, &nameslen, &col_at, err)) != PM_OK)
			goto fail;
		if ((size_t) head_len - pos < 4)
			goto truncated;
		nidx = be32(buf + pos);
		pos += 4;
		if (nidx < 0 || nidx > maxentries - fi->nentries)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "file index count %d out of range", nidx);
			goto fail;
		}
		for (int k = 0; k < nidx; k++)
		{
			pm_file_index_entry *e = &fi->entries[fi->nentries];
			int32_t		start,
						length;

			if ((rc = read_utf(buf, (size_t) head_len, &pos, &fi->names, &nameslen,
							   &kind_at[fi->nentries], err)) != PM_OK)
				goto fail;
			if ((size_t) head_len - pos < 8)
				goto truncated;
			start = be32(buf + pos);
			length = be32(buf + pos + 4);
			pos += 8;
			name_at[fi->nentries] = col_at;
			e->empty = start == -1;
			if (e->empty)
			{
				e->body = NULL;
				e->len = 0;
			}
			else
			{
				if (start < head_len || length < 0 || (size_t) start > len ||
					(size_t) length > len - (size_t) start)
				{
					rc = pm_fail(err, PM_ERR_CORRUPT,
								 "file index body (start %d, length %d) outside its %zu bytes",
								 start, length, len);
					goto fail;
				}
				e->body = buf + start;
				e->len = (size_t) length;
			}
			fi->nentries++;
		}
		continue;
fail:
		pm_free(fi->env, name_at);
		return rc;
	}
	if ((size_t) head_len - pos < 4)
		goto truncated;
	/* the redundant length (0 today) and its bytes lie inside headLength */
	for (int i = 0; i < fi->nentries; i++)
	{
		fi->entries[i].column = fi->names + name_at[i];
		fi->entries[i].kind = fi->names + kind_at[i];
	}
	pm_free(fi->env, name_at);
	return PM_OK;

truncated:
	pm_free(fi->env, name_at);
	return pm_fail(err, PM_ERR_CORRUPT, "truncated file index header");
}

pm_code
pm_file_index_open(const pm_env *env, const uint8_t *buf, size_t len, pm_file_index **out,
				   pm_error *err)
{
	pm_file_index *fi;
	pm_code		rc;

	*out = NULL;
	fi = pm_alloc(env, sizeof(pm_file_index));
	if (fi == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a file index");
	memset(fi, 0, sizeof(*fi));
	fi->env = env;
	if ((rc = parse(fi, buf, len, err)) != PM_OK)
	{
		pm_file_index_free(fi);
		return rc;
	}
	*out = fi;
	return PM_OK;
}

int
pm_file_index_nentries(const pm_file_index *fi)
{
	return fi->nentries;
}

const pm_file_index_entry *
pm_file_index_entry_at(const pm_file_index *fi, int i)
{
	return i >= 0 && i < fi->nentries ? &fi->entries[i] : NULL;
}

/* EmptyFileIndexReader: the writer saw no row of this column. */
static void
eval_empty(const pm_predicate *leaf, pm_file_index_result *out)
{
	switch (leaf->op)
	{
		case PM_PRED_EQ:
		case PM_PRED_IN:
		case PM_PRED_IS_NOT_NULL:
		case PM_PRED_LT:
		case PM_PRED_LE:
		case PM_PRED_GT:
		case PM_PRED_GE:
			out->skip = true;
			break;
		default:
			break;
	}
}

/*
 * An index a kind reader cannot use for this column's type (PM_ERR_UNSUPPORTED
 * from its open) answers "no information", as unknown kinds do.
 */
static pm_code
no_information(pm_error *err)
{
	pm_error_clear(err);
	return PM_OK;
}

/* One entry's answer; kinds not built in answer "no information". */
static pm_code
eval_entry(const pm_env *env, const pm_file_index_entry *e, const pm_type *type,
		   const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	pm_code		rc = PM_OK;

	if (e->empty)
	{
		eval_empty(leaf, out);
		return PM_OK;
	}
	if (strcmp(e->kind, "bitmap") == 0)
	{
		pm_bitmap_index *idx;

		PM_TRY(pm_bitmap_index_open(env, e->body, e->len, type, &idx, err));
		rc = pm_bitmap_index_eval(idx, leaf, out, err);
		pm_bitmap_index_free(idx);
	}
	else if (strcmp(e->kind, "bloom-filter") == 0)
	{
		pm_bloom_filter_index *idx;

		PM_TRY(pm_bloom_filter_index_open(env, e->body, e->len, type, &idx, err));
		rc = pm_bloom_filter_index_eval(idx, leaf, out, err);
		pm_bloom_filter_index_free(idx);
	}
	else if (strcmp(e->kind, "range-bitmap") == 0)
	{
		pm_range_bitmap_index *idx;

		rc = pm_range_bitmap_index_open(env, e->body, e->len, type, &idx, err);
		if (rc == PM_ERR_UNSUPPORTED)
			return no_information(err);
		PM_TRY(rc);
		rc = pm_range_bitmap_index_eval(idx, leaf, out, err);
		pm_range_bitmap_index_free(idx);
	}
	else if (strcmp(e->kind, "bsi") == 0)
	{
		pm_bsi_index *idx;

		rc = pm_bsi_index_open(env, e->body, e->len, type, &idx, err);
		if (rc == PM_ERR_UNSUPPORTED)
			return no_information(err);
		PM_TRY(rc);
		rc = pm_bsi_index_eval(idx, leaf, out, err);
		pm_bsi_index_free(idx);
	}
	return rc;
}

/* Intersect one more answer into acc; frees one. */
static pm_code
intersect(pm_file_index_result *acc, pm_file_index_result *one, pm_error *err)
{
	if (acc->skip || one->skip)
	{
		pm_file_index_result_clear(acc);
		pm_file_index_result_clear(one);
		acc->skip = true;
		return PM_OK;
	}
	if (one->rows == NULL)
		return PM_OK;
	if (acc->rows == NULL)
	{
		acc->rows = one->rows;
		one->rows = NULL;
	}
	else
	{
		roaring_bitmap_and_inplace(acc->rows, one->rows);
		pm_file_index_result_clear(one);
	}
	if (roaring_bitmap_is_empty(acc->rows))
	{
		pm_file_index_result_clear(acc);
		acc->skip = true;
	}
	return PM_OK;
}

pm_code
pm_file_index_eval(pm_file_index *fi, const char *column, const pm_type *field_type,
				   const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	pm_file_index_result_init(out);
	for (int i = 0; i < fi->nentries && !out->skip; i++)
	{
		const pm_file_index_entry *e = &fi->entries[i];
		pm_file_index_result one;
		pm_code		rc;

		if (strcmp(e->column, column) != 0)
			continue;
		pm_file_index_result_init(&one);
		if ((rc = eval_entry(fi->env, e, field_type, leaf, &one, err)) != PM_OK)
		{
			pm_file_index_result_clear(&one);
			pm_file_index_result_clear(out);
			return rc;
		}
		PM_TRY(intersect(out, &one, err));
	}
	return PM_OK;
}

void
pm_file_index_free(pm_file_index *fi)
{
	if (fi == NULL)
		return;
	pm_free(fi->env, fi->entries);
	pm_free(fi->env, fi->names);
	pm_free(fi->env, fi);
}

/*-------------------------------------------------------------------------
 * orc_nested_write.c
 *	  The ORC writer's column tree: ROW, ARRAY and MAP columns as ORC's
 *	  StructTreeWriter, ListTreeWriter and MapTreeWriter write them.
 *
 * Columns are numbered in pre-order (the root struct 0, then each field
 * and its subtree), w->cols[i] being column i + 1. A STRUCT writes PRESENT
 * only; LIST and MAP write PRESENT and LENGTH (unsigned RLE v2, DIRECT_V2).
 * Children get a value for every non-null row of their parent: a struct's
 * fields one per non-null struct row, a list's element column (a map's key
 * then value column) the entries of its non-null rows, in order. The
 * statistics of nested columns are numberOfValues and hasNull.
 *
 * paimon.id attributes as Paimon's OrcTypeUtil.convertToOrcType: a ROW's
 * fields their field ids (depth back to 0), an ARRAY element
 * SpecialFields.getArrayElementFieldId(id, depth + 1), MAP keys and values
 * getMapKeyFieldId / getMapValueFieldId, with id the enclosing field's.
 * MULTISET<T> is written as Java writes it, the map<T, int> that
 * OrcFileFormat.refineDataType makes of it (MAP<T, INT NOT NULL>): each
 * value's distinct elements (pm_multiset_count's grouping, first
 * occurrence first) as the keys, their counts as the values, with a map's
 * type, ids, LENGTH (the distinct elements), statistics and bloom filters.
 * Its elements must be primitive and not NULL, as in the Parquet writer.
 *
 * Must not include Postgres headers.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_writer_int.h"

#include <string.h>

#include "common/vector_builder.h"

/* SpecialFields.STRUCTURED_TYPE_FIELD_ID_BASE / _DEPTH_LIMIT (Java int arithmetic) */
#define OW_NESTED_ID_BASE	(INT32_MAX / 4)
#define OW_NESTED_DEPTH		1024

static int32_t
java_int(int64_t v)
{
	return (int32_t) (uint32_t) (uint64_t) v;
}

/* the columns of type's subtree, itself included */
static int
count_columns(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_ROW:
			{
				int			n = 1;

				for (int k = 0; k < type->nfields; k++)
					n += count_columns(type->fields[k].type);
				return n;
			}
		case PM_TYPE_ARRAY:
			return 1 + count_columns(type->element);
		case PM_TYPE_MAP:
			return 1 + count_columns(type->element) + count_columns(type->value);
		case PM_TYPE_MULTISET:
			return 1 + count_columns(type->element) + 1;
		default:
			return 1;
	}
}

/*
 * Set up w->cols[*next] for `type` and its subtree. field_id, depth: the
 * enclosing field's id and the nesting depth below it (convertToOrcType's
 * arguments); name: the ROW field's name, or the enclosing field's.
 */
static pm_code
init_tree(orc_writer *w, int *next, const pm_type *type, const char *name, int32_t paimon_id,
		  int32_t field_id, int depth, bool direct, bool bloom, pm_error *err)
{
	int			ci = (*next)++;
	orc_col    *c = &w->cols[ci];

	c->name = name;
	c->paimon_id = paimon_id;
	/* elements are grouped by value: only primitive ones */
	if (type->id == PM_TYPE_MULTISET && pm_type_is_nested(type->element->id))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "column \"%s\": MULTISET of %s cannot be written to ORC files",
					   name, pm_type_id_name(type->element->id));
	PM_TRY(orc_col_init(w, c, type, direct, bloom, err));
	switch (type->id)
	{
		case PM_TYPE_ROW:
			for (int k = 0; k < type->nfields; k++)
				PM_TRY(init_tree(w, next, type->fields[k].type, type->fields[k].name,
								 type->fields[k].id, type->fields[k].id, 0, direct, bloom, err));
			break;
		case PM_TYPE_ARRAY:
			PM_TRY(init_tree(w, next, type->element, name,
							 java_int((int64_t) OW_NESTED_ID_BASE +
									  (int64_t) field_id * OW_NESTED_DEPTH + depth + 1),
							 field_id, depth + 1, direct, bloom, err));
			break;
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:
			PM_TRY(init_tree(w, next, type->element, name,
							 java_int((int64_t) OW_NESTED_ID_BASE -
									  (int64_t) field_id * OW_NESTED_DEPTH - (depth + 1)),
							 field_id, depth + 1, direct, bloom, err));
			PM_TRY(init_tree(w, next,
							 type->id == PM_TYPE_MAP ? type->value : &pm_multiset_count_type,
							 name,
							 java_int((int64_t) OW_NESTED_ID_BASE +
									  (int64_t) field_id * OW_NESTED_DEPTH + depth + 1),
							 field_id, depth + 1, direct, bloom, err));
			break;
		default:
			break;
	}
	c->subtree = *next - ci;
	return PM_OK;
}

pm_code
orc_cols_init(orc_writer *w, const pm_orc_write_options *oo, pm_error *err)
{
	const pm_type *schema = w->schema;
	int			n = 0;
	int			next = 0;

	for (int f = 0; f < schema->nfields; f++)
		n += count_columns(schema->fields[f].type);
	w->nfields = schema->nfields;
	w->cols = pm_alloc(w->env, sizeof(orc_col) * (size_t) (n > 0 ? n : 1));
	w->top = pm_alloc(w->env, sizeof(int) * (size_t) (w->nfields > 0 ? w->nfields : 1));
	if (w->cols == NULL || w->top == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
	memset(w->cols, 0, sizeof(orc_col) * (size_t) (n > 0 ? n : 1));
	w->ncols = n;
	for (int f = 0; f < schema->nfields; f++)
	{
		const pm_field *fd = &schema->fields[f];

		w->top[f] = next;
		/* OrcUtils.includeColumns names a column with its subtree */
		PM_TRY(init_tree(w, &next, fd->type, fd->name, fd->id, fd->id, 0,
						 orc_field_listed(oo->direct_columns, schema, f),
						 orc_field_listed(oo->bloom_columns, schema, f), err));
	}
	return PM_OK;
}

pm_code
orc_check_vector(const pm_vector *v, const pm_type *t, int64_t n, const char *name,
				 pm_error *err)
{
	int			want = t->id == PM_TYPE_ROW ? t->nfields : t->id == PM_TYPE_MAP ? 2 :
		t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MULTISET ? 1 : 0;
	int64_t		nchild = n;

	if (want == 0)
		return PM_OK;
	if (v->length < n || v->nchildren != want || v->children == NULL ||
		(t->id != PM_TYPE_ROW && v->offsets == NULL))
		return pm_fail(err, PM_ERR_INVALID, "column \"%s\": malformed nested vector", name);
	if (t->id != PM_TYPE_ROW)
	{
		if (v->offsets[0] < 0)
			return pm_fail(err, PM_ERR_INVALID, "column \"%s\": malformed nested vector", name);
		for (int64_t i = 0; i < n; i++)
			if (v->offsets[i + 1] < v->offsets[i])
				return pm_fail(err, PM_ERR_INVALID, "column \"%s\": malformed nested vector",
							   name);
		nchild = v->offsets[n];
	}
	for (int k = 0; k < want; k++)
	{
		const pm_vector *ch = &v->children[k];
		const pm_type *ct = t->id == PM_TYPE_ROW ? t->fields[k].type :
			k == 0 ? t->element : t->value;

		if (ch->type == NULL || ch->type->id != ct->id || ch->length < nchild)
			return pm_fail(err, PM_ERR_INVALID, "column \"%s\": malformed nested vector", name);
		/* the elements are the keys of the map Java writes */
		if (t->id == PM_TYPE_MULTISET)
			for (int64_t e = n > 0 ? v->offsets[0] : 0; e < nchild; e++)
				if (pm_vector_is_null(ch, e))
					return pm_fail(err, PM_ERR_INVALID, "column \"%s\": NULL MULTISET element",
								   name);
		PM_TRY(orc_check_vector(ch, ct, nchild, name, err));
	}
	return PM_OK;
}

/* rows [start, end) of a nested column's children, as its tree writer */
static void
write_children(orc_writer *w, int ci, const pm_vector *v, int64_t start, int64_t end)
{
	const orc_col *c = &w->cols[ci];

	if (c->kind == ORC_STRUCT)
	{
		/* StructTreeWriter: the fields over each run of non-null rows */
		for (int64_t i = start; i < end;)
		{
			int64_t		run;

			if (pm_vector_is_null(v, i))
			{
				i++;
				continue;
			}
			for (run = i + 1; run < end && !pm_vector_is_null(v, run); run++)
				;
			for (int k = 0, child = ci + 1; k < v->nchildren; k++)
			{
				orc_tree_write(w, child, &v->children[k], i, run);
				child += w->cols[child].subtree;
			}
			i = run;
		}
		return;
	}
	/* List/MapTreeWriter: the entries of the non-null rows, in runs */
	{
		int64_t		off = 0,
					len = 0;

		for (int64_t i = start; i <= end; i++)
		{
			int64_t		o = 0,
						n = 0;

			if (i < end)
			{
				if (pm_vector_is_null(v, i))
					continue;
				o = v->offsets[i];
				n = v->offsets[i + 1] - o;
				if (len == 0 || off + len == o)
				{
					if (len == 0)
						off = o;
					len += n;
					continue;
				}
			}
			if (len > 0)
			{
				int			child = ci + 1;

				orc_tree_write(w, child, &v->children[0], off, off + len);
				if (c->kind == ORC_MAP)
					orc_tree_write(w, child + w->cols[child].subtree, &v->children[1], off,
								   off + len);
			}
			off = o;
			len = n;
		}
	}
}

void
orc_tree_write(orc_writer *w, int ci, const pm_vector *v, int64_t start, int64_t end)
{
	orc_col    *c = &w->cols[ci];
	pm_vector	map;

	if (!orc_kind_nested(c->kind))
	{
		orc_col_write(c, v, start, end);
		return;
	}
	if (c->type->id == PM_TYPE_MULTISET)
	{
		/* written as the map Java makes of it (kept until the slice is written) */
		if (!pm_vector_collapse_multiset(v, start, end, w->multiset_arena, &map))
		{
			c->length.failed = true;	/* out of memory, as orc_col_buffers_failed tells */
			return;
		}
		v = &map;
		end -= start;
		start = 0;
	}
	for (int64_t i = start; i < end; i++)
	{
		if (!orc_col_put_present(c, v, i))
			continue;
		c->group_acc.nvalues++;
		c->stripe_acc.nvalues++;
		c->file_acc.nvalues++;
		if (c->kind != ORC_STRUCT)
		{
			int64_t		n = v->offsets[i + 1] - v->offsets[i];

			orc_int_rle_enc_put(c->lenc, n);
			if (c->bloom)
				orc_bloom_add_long(&c->bf, n);
		}
	}
	write_children(w, ci, v, start, end);
}

/*-------------------------------------------------------------------------
 * parquet_metadata.c
 *	  Decode Parquet's FileMetaData (footer) and PageHeader from the Thrift
 *	  compact protocol into the structs of parquet_metadata.h.
 *
 * The schema arrives as a depth-first list of SchemaElement with child
 * counts; it is rebuilt into a tree (depth-limited, counts checked) and each
 * node gets its maximum definition and repetition level. Column chunks are
 * checked against the file size here so that later readers can trust the
 * ranges. Nothing is read from the file here: callers hand in bytes.
 *
 * Spec: apache/parquet-format src/main/thrift/parquet.thrift.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_metadata.h"

#include <string.h>

#include "format/parquet/thrift_compact.h"

/* ---------------------------------------------------------------- schema */

static void
parse_time_unit(pm_thrift_reader *t, int *unit)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (ft == PM_TC_STRUCT && id >= 1 && id <= 3)
			*unit = id;
		pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

/* TimeType / TimestampType: 1 isAdjustedToUTC, 2 unit */
static void
parse_time_type(pm_thrift_reader *t, pm_pq_node *n)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (id == 1 && (ft == PM_TC_BOOL_TRUE || ft == PM_TC_BOOL_FALSE))
			n->lt_utc = t->bool_value;
		else if (id == 2 && ft == PM_TC_STRUCT)
			parse_time_unit(t, &n->lt_unit);
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

static void
parse_logical_type(pm_thrift_reader *t, pm_pq_node *n)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (ft != PM_TC_STRUCT)
		{
			pm_thrift_skip(t, ft);
			continue;
		}
		n->logical = id;
		switch (id)
		{
			case PM_PQ_LT_DECIMAL:
			case PM_PQ_LT_INTEGER:
				{
					int16_t		fid;
					int			fty;

					if (!pm_thrift_struct_begin(t))
						break;
					while (pm_thrift_field(t, &fid, &fty))
					{
						if (id == PM_PQ_LT_DECIMAL && fid == 1)
							n->lt_scale = pm_thrift_field_i32(t, fty);
						else if (id == PM_PQ_LT_DECIMAL && fid == 2)
							n->lt_precision = pm_thrift_field_i32(t, fty);
						else if (id == PM_PQ_LT_INTEGER && fid == 1)
							n->lt_bit_width = pm_thrift_field_i32(t, fty);
						else if (id == PM_PQ_LT_INTEGER && fid == 2 &&
								 (fty == PM_TC_BOOL_TRUE || fty == PM_TC_BOOL_FALSE))
							n->lt_signed = t->bool_value;
						else
							pm_thrift_skip(t, fty);
					}
					pm_thrift_struct_end(t);
					break;
				}
			case PM_PQ_LT_TIME:
			case PM_PQ_LT_TIMESTAMP:
				parse_time_type(t, n);
				break;
			default:
				pm_thrift_skip(t, ft);
				break;
		}
	}
	pm_thrift_struct_end(t);
}

static void
parse_schema_element(pm_thrift_reader *t, pm_pq_node *n, pm_arena *arena, bool *nomem)
{
	int16_t		id;
	int			ft;

	memset(n, 0, sizeof(*n));
	n->physical = -1;
	n->converted = PM_PQ_CT_NONE;
	n->repetition = PM_PQ_REQUIRED;
	n->leaf_index = -1;
	n->name = "";
	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		switch (id)
		{
			case 1:
				n->physical = pm_thrift_field_i32(t, ft);
				break;
			case 2:
				n->type_length = pm_thrift_field_i32(t, ft);
				break;
			case 3:
				n->repetition = pm_thrift_field_i32(t, ft);
				break;
			case 4:
				if (ft == PM_TC_BINARY)
				{
					uint32_t	len;
					const uint8_t *s = pm_thrift_binary(t, &len);

					if (s != NULL)
					{
						char	   *name = pm_arena_strndup(arena, (const char *) s, len);

						if (name == NULL)
							*nomem = true;
						else
							n->name = name;
					}
				}
				else
					pm_thrift_skip(t, ft);
				break;
			case 5:
				n->nchildren = pm_thrift_field_i32(t, ft);
				break;
			case 6:
				n->converted = pm_thrift_field_i32(t, ft);
				break;
			case 7:
				n->scale = pm_thrift_field_i32(t, ft);
				break;
			case 8:
				n->precision = pm_thrift_field_i32(t, ft);
				break;
			case 9:
				n->field_id = pm_thrift_field_i32(t, ft);
				n->has_field_id = true;
				break;
			case 10:
				if (ft == PM_TC_STRUCT)
					parse_logical_type(t, n);
				else
					pm_thrift_skip(t, ft);
				break;
			default:
				pm_thrift_skip(t, ft);
				break;
		}
	}
	pm_thrift_struct_end(t);
}

/*
 * Link the flat element list into a tree: elements[*pos] and its
 * descendants. Returns false (with *why) on inconsistent child counts.
 */
static bool
build_tree(pm_pq_node *elems, int nelems, int *pos, pm_pq_node *parent,
		   pm_arena *arena, pm_pq_metadata *md, const char **why)
{
	pm_pq_node *n = &elems[*pos];

	(*pos)++;
	n->parent = parent;
	n->depth = parent ? parent->depth + 1 : 0;
	if (n->depth > PM_PQ_MAX_SCHEMA_DEPTH)
	{
		*why = "schema nested too deeply";
		return false;
	}
	if (parent == NULL)
	{
		n->max_def = 0;
		n->max_rep = 0;
	}
	else
	{
		if (n->repetition < PM_PQ_REQUIRED || n->repetition > PM_PQ_REPEATED)
		{
			*why = "bad repetition type";
			return false;
		}
		n->max_def = parent->max_def + (n->repetition != PM_PQ_REQUIRED);
		n->max_rep = parent->max_rep + (n->repetition == PM_PQ_REPEATED);
	}
	if (n->nchildren < 0 || n->nchildren > nelems - *pos)
	{
		*why = "bad schema child count";
		return false;
	}
	if (n->nchildren == 0 && parent != NULL)
	{
		/* a leaf */
		if (n->physical < PM_PQ_BOOLEAN || n->physical > PM_PQ_FIXED_LEN_BYTE_ARRAY)
		{
			*why = "bad physical type";
			return false;
		}
		if (n->physical == PM_PQ_FIXED_LEN_BYTE_ARRAY &&
			(n->type_length <= 0 || n->type_length > (1 << 24)))
		{
			*why = "bad fixed length";
			return false;
		}
		n->leaf_index = md->nleaves++;
		return true;
	}
	n->physical = -1;
	if (n->nchildren > 0)
	{
		n->children = pm_arena_alloc(arena, sizeof(pm_pq_node *) * (size_t) n->nchildren);
		if (n->children == NULL)
		{
			*why = NULL;
			return false;
		}
	}
	for (int i = 0; i < n->nchildren; i++)
	{
		if (*pos >= nelems)
		{
			*why = "bad schema child count";
			return false;
		}
		n->children[i] = &elems[*pos];
		if (!build_tree(elems, nelems, pos, n, arena, md, why))
			return false;
	}
	return true;
}

static void
collect_leaves(pm_pq_node *n, pm_pq_node **leaves)
{
	if (n->leaf_index >= 0)
		leaves[n->leaf_index] = n;
	for (int i = 0; i < n->nchildren; i++)
		collect_leaves(n->children[i], leaves);
}

/* ------------------------------------------------------------ row groups */

/* Statistics (binary values point into the footer buffer). */
static void
parse_statistics(pm_thrift_reader *t, pm_pq_chunk *c)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	c->has_stats = true;
	c->stats.null_count = -1;
	while (pm_thrift_field(t, &id, &ft))
	{
		const uint8_t **bp = NULL;
		uint32_t   *lp = NULL;

		switch (id)
		{
			case 1:
				bp = &c->stats.max;
				lp = &c->stats.max_len;
				break;
			case 2:
				bp = &c->stats.min;
				lp = &c->stats.min_len;
				break;
			case 5:
				bp = &c->stats.max_value;
				lp = &c->stats.max_value_len;
				break;
			case 6:
				bp = &c->stats.min_value;
				lp = &c->stats.min_value_len;
				break;
			case 3:
				if (ft == PM_TC_I64 || ft == PM_TC_I32 || ft == PM_TC_I16 || ft == PM_TC_BYTE)
				{
					c->stats.null_count = pm_thrift_field_int(t, ft);
					if (c->stats.null_count < 0)
						c->stats.null_count = -1;
				}
				else
					pm_thrift_skip(t, ft);
				continue;
			default:
				break;
		}
		if (bp != NULL && ft == PM_TC_BINARY)
		{
			*bp = pm_thrift_binary(t, lp);
			if (*bp == NULL)
				*lp = 0;
		}
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

static void
parse_column_meta(pm_thrift_reader *t, pm_pq_chunk *c)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	c->has_meta = true;
	while (pm_thrift_field(t, &id, &ft))
	{
		switch (id)
		{
			case 1:
				c->physical = pm_thrift_field_i32(t, ft);
				break;
			case 4:
				c->codec = pm_thrift_field_i32(t, ft);
				break;
			case 5:
				c->num_values = pm_thrift_field_int(t, ft);
				break;
			case 7:
				c->total_compressed_size = pm_thrift_field_int(t, ft);
				break;
			case 9:
				c->data_page_offset = pm_thrift_field_int(t, ft);
				break;
			case 11:
				c->dictionary_page_offset = pm_thrift_field_int(t, ft);
				break;
			case 12:
				if (ft == PM_TC_STRUCT && !c->has_stats)
					parse_statistics(t, c);
				else
					pm_thrift_skip(t, ft);
				break;
			default:
				pm_thrift_skip(t, ft);
				break;
		}
	}
	pm_thrift_struct_end(t);
}

static void
parse_column_chunk(pm_thrift_reader *t, pm_pq_chunk *c, bool *external)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (id == 1 && ft == PM_TC_BINARY)
		{
			uint32_t	len;

			(void) pm_thrift_binary(t, &len);
			if (len > 0)
				*external = true;
		}
		else if (id == 3 && ft == PM_TC_STRUCT)
			parse_column_meta(t, c);
		else if (id == 4)
			c->offset_index_offset = pm_thrift_field_int(t, ft);
		else if (id == 5)
			c->offset_index_length = pm_thrift_field_i32(t, ft);
		else if (id == 6)
			c->column_index_offset = pm_thrift_field_int(t, ft);
		else if (id == 7)
			c->column_index_length = pm_thrift_field_i32(t, ft);
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

static void
parse_row_group(pm_thrift_reader *t, pm_pq_row_group *rg, pm_arena *arena,
				bool *nomem, bool *external)
{
	int16_t		id;
	int			ft;

	memset(rg, 0, sizeof(*rg));
	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (id == 1 && ft == PM_TC_LIST && rg->columns == NULL)
		{
			uint32_t	n;
			int			et;

			if (!pm_thrift_list(t, &n, &et))
				break;
			if (et != PM_TC_STRUCT)
			{
				pm_thrift_fail(t, "column chunks are not structs");
				break;
			}
			rg->columns = pm_arena_zalloc(arena, sizeof(pm_pq_chunk) * (n + 1));
			if (rg->columns == NULL)
			{
				*nomem = true;
				pm_thrift_fail(t, "out of memory");
				break;
			}
			rg->ncolumns = (int) n;
			if (!pm_thrift_struct_begin(t))
				break;
			for (uint32_t i = 0; i < n && !t->failed; i++)
				parse_column_chunk(t, &rg->columns[i], external);
			pm_thrift_struct_end(t);
		}
		else if (id == 3)
			rg->num_rows = pm_thrift_field_int(t, ft);
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

/* -------------------------------------------------------------- footer */

/* column_orders: a list of ColumnOrder unions; member 1 is TYPE_ORDER. */
static void
parse_column_orders(pm_thrift_reader *t, pm_pq_metadata *md, pm_arena *arena, bool *nomem)
{
	uint32_t	n;
	int			et;
	bool	   *orders;

	if (!pm_thrift_list(t, &n, &et))
		return;
	if (et != PM_TC_STRUCT)
	{
		pm_thrift_fail(t, "column orders are not structs");
		return;
	}
	orders = pm_arena_zalloc(arena, sizeof(bool) * (n + 1));
	if (orders == NULL)
	{
		*nomem = true;
		pm_thrift_fail(t, "out of memory");
		return;
	}
	if (!pm_thrift_struct_begin(t))
		return;
	for (uint32_t i = 0; i < n && !t->failed; i++)
	{
		int16_t		id;
		int			ft;

		if (!pm_thrift_struct_begin(t))
			break;
		while (pm_thrift_field(t, &id, &ft))
		{
			if (id == 1 && ft == PM_TC_STRUCT)
				orders[i] = true;
			pm_thrift_skip(t, ft);
		}
		pm_thrift_struct_end(t);
	}
	pm_thrift_struct_end(t);
	md->ncolumn_orders = (int) n;
	md->type_defined_order = orders;
}

static pm_code
check_row_groups(pm_pq_metadata *md, uint64_t file_size, pm_error *err)
{
	for (int g = 0; g < md->nrow_groups; g++)
	{
		pm_pq_row_group *rg = &md->row_groups[g];

		if (rg->num_rows < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "negative row count in row group %d", g);
		if (rg->ncolumns != md->nleaves)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "row group %d has %d column chunks, the schema %d columns",
						   g, rg->ncolumns, md->nleaves);
		for (int c = 0; c < rg->ncolumns; c++)
		{
			pm_pq_chunk *ch = &rg->columns[c];
			int64_t		start;

			if (!ch->has_meta)
				return pm_fail(err, PM_ERR_CORRUPT, "column chunk without metadata");
			if (ch->physical != md->leaves[c]->physical)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "column chunk type differs from the schema for column \"%s\"",
							   md->leaves[c]->name);
			start = ch->data_page_offset;
			if (ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < start)
				start = ch->dictionary_page_offset;
			if (start < 4 || ch->total_compressed_size <= 0 || ch->num_values < 0 ||
				(uint64_t) start > file_size ||
				(uint64_t) ch->total_compressed_size > file_size - (uint64_t) start)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "column chunk of \"%s\" lies outside the file",
							   md->leaves[c]->name);
			/* a page index outside the file is ignored (the chunk is read whole) */
			if (ch->offset_index_length <= 0 || ch->offset_index_offset < 4 ||
				(uint64_t) ch->offset_index_offset > file_size ||
				(uint64_t) ch->offset_index_length > file_size - (uint64_t) ch->offset_index_offset)
				ch->offset_index_length = 0;
			if (ch->column_index_length <= 0 || ch->column_index_offset < 4 ||
				(uint64_t) ch->column_index_offset > file_size ||
				(uint64_t) ch->column_index_length > file_size - (uint64_t) ch->column_index_offset)
				ch->column_index_length = 0;
			/*
			 * Every row has at least one level entry in every column, and a
			 * page holds at most 2^20 entries beyond its bits (see
			 * column_reader.c): bounds the rows of a row group by bytes, so
			 * that a footer cannot announce rows that take forever to emit.
			 */
			if (rg->num_rows > ch->num_values ||
				ch->num_values / ((int64_t) 1 << 21) > ch->total_compressed_size)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "row group %d claims more rows than column \"%s\" holds",
							   g, md->leaves[c]->name);
		}
	}
	return PM_OK;
}

pm_code
pm_pq_metadata_parse(const uint8_t *buf, size_t len, uint64_t file_size,
					 pm_arena *arena, pm_pq_metadata *md, pm_error *err)
{
	pm_thrift_reader t;
	int16_t		id;
	int			ft;
	bool		nomem = false;
	bool		external = false;
	pm_pq_node *elems = NULL;
	uint32_t	nelems = 0;
	int			pos = 0;
	const char *why = NULL;

	memset(md, 0, sizeof(*md));
	pm_thrift_init(&t, buf, len);
	if (!pm_thrift_struct_begin(&t))
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet footer");
	while (pm_thrift_field(&t, &id, &ft))
	{
		uint32_t	n;
		int			et;

		switch (id)
		{
			case 1:
				md->version = pm_thrift_field_i32(&t, ft);
				break;
			case 2:
				if (ft != PM_TC_LIST || elems != NULL)
				{
					pm_thrift_skip(&t, ft);
					break;
				}
				if (!pm_thrift_list(&t, &n, &et))
					break;
				if (et != PM_TC_STRUCT || n == 0)
				{
					pm_thrift_fail(&t, "bad schema list");
					break;
				}
				elems = pm_arena_alloc(arena, sizeof(pm_pq_node) * n);
				if (elems == NULL)
				{
					nomem = true;
					pm_thrift_fail(&t, "out of memory");
					break;
				}
				nelems = n;
				if (!pm_thrift_struct_begin(&t))
					break;
				for (uint32_t i = 0; i < n && !t.failed; i++)
					parse_schema_element(&t, &elems[i], arena, &nomem);
				pm_thrift_struct_end(&t);
				break;
			case 3:
				md->num_rows = pm_thrift_field_int(&t, ft);
				break;
			case 4:
				if (ft != PM_TC_LIST || md->row_groups != NULL)
				{
					pm_thrift_skip(&t, ft);
					break;
				}
				if (!pm_thrift_list(&t, &n, &et))
					break;
				if (et != PM_TC_STRUCT)
				{
					pm_thrift_fail(&t, "bad row group list");
					break;
				}
				md->row_groups = pm_arena_zalloc(arena, sizeof(pm_pq_row_group) * (n + 1));
				if (md->row_groups == NULL)
				{
					nomem = true;
					pm_thrift_fail(&t, "out of memory");
					break;
				}
				md->nrow_groups = (int) n;
				if (!pm_thrift_struct_begin(&t))
					break;
				for (uint32_t i = 0; i < n && !t.failed; i++)
					parse_row_group(&t, &md->row_groups[i], arena, &nomem, &external);
				pm_thrift_struct_end(&t);
				break;
			case 6:
				if (ft == PM_TC_BINARY)
				{
					uint32_t	l;
					const uint8_t *s = pm_thrift_binary(&t, &l);

					if (s != NULL)
						md->created_by = pm_arena_strndup(arena, (const char *) s, l);
				}
				else
					pm_thrift_skip(&t, ft);
				break;
			case 7:
				if (ft == PM_TC_LIST && md->type_defined_order == NULL)
					parse_column_orders(&t, md, arena, &nomem);
				else
					pm_thrift_skip(&t, ft);
				break;
			case 8:
			case 9:
				return pm_fail(err, PM_ERR_UNSUPPORTED, "encrypted parquet files are not supported");
			default:
				pm_thrift_skip(&t, ft);
				break;
		}
	}
	pm_thrift_struct_end(&t);
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
	if (t.failed)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet footer: %s", t.why);
	if (elems == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "parquet footer without schema");
	if (external)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "parquet column chunks in other files are not supported");
	if (md->num_rows < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "negative row count");

	if (!build_tree(elems, (int) nelems, &pos, NULL, arena, md, &why))
	{
		if (why == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet schema: %s", why);
	}
	if ((uint32_t) pos != nelems)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet schema: %s",
					   "elements after the root's subtree");
	md->root = &elems[0];
	md->nnodes = (int) nelems;
	md->leaves = pm_arena_zalloc(arena, sizeof(pm_pq_node *) * (size_t) (md->nleaves + 1));
	if (md->leaves == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
	collect_leaves(md->root, md->leaves);
	{
		int64_t		total = 0;

		PM_TRY(check_row_groups(md, file_size, err));
		for (int g = 0; g < md->nrow_groups; g++)
			total += md->row_groups[g].num_rows;
		if (total != md->num_rows)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "row groups hold %lld rows, the footer says %lld",
						   (long long) total, (long long) md->num_rows);
	}
	return PM_OK;
}

/* ---------------------------------------------------------- page header */

static void
parse_data_page_header(pm_thrift_reader *t, pm_pq_page_header *ph, bool v2)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	ph->has_data_header = true;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (!v2)
		{
			switch (id)
			{
				case 1:
					ph->num_values = pm_thrift_field_i32(t, ft);
					break;
				case 2:
					ph->encoding = pm_thrift_field_i32(t, ft);
					break;
				case 3:
					ph->def_encoding = pm_thrift_field_i32(t, ft);
					break;
				case 4:
					ph->rep_encoding = pm_thrift_field_i32(t, ft);
					break;
				default:
					pm_thrift_skip(t, ft);
					break;
			}
			continue;
		}
		switch (id)
		{
			case 1:
				ph->num_values = pm_thrift_field_i32(t, ft);
				break;
			case 2:
				ph->num_nulls = pm_thrift_field_i32(t, ft);
				break;
			case 3:
				ph->num_rows = pm_thrift_field_i32(t, ft);
				break;
			case 4:
				ph->encoding = pm_thrift_field_i32(t, ft);
				break;
			case 5:
				ph->def_levels_len = pm_thrift_field_i32(t, ft);
				break;
			case 6:
				ph->rep_levels_len = pm_thrift_field_i32(t, ft);
				break;
			case 7:
				if (ft == PM_TC_BOOL_TRUE || ft == PM_TC_BOOL_FALSE)
					ph->is_compressed = t->bool_value;
				else
					pm_thrift_skip(t, ft);
				break;
			default:
				pm_thrift_skip(t, ft);
				break;
		}
	}
	pm_thrift_struct_end(t);
}

/* DictionaryPageHeader: 1 num_values, 2 encoding */
static void
parse_dict_page_header(pm_thrift_reader *t, pm_pq_page_header *ph)
{
	int16_t		id;
	int			ft;

	if (!pm_thrift_struct_begin(t))
		return;
	ph->has_data_header = true;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (id == 1)
			ph->num_values = pm_thrift_field_i32(t, ft);
		else if (id == 2)
			ph->encoding = pm_thrift_field_i32(t, ft);
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
}

pm_code
pm_pq_page_header_parse(const uint8_t *buf, size_t len, pm_pq_page_header *ph,
						pm_error *err)
{
	pm_thrift_reader t;
	int16_t		id;
	int			ft;

	memset(ph, 0, sizeof(*ph));
	ph->type = -1;
	ph->is_compressed = true;
	pm_thrift_init(&t, buf, len);
	if (!pm_thrift_struct_begin(&t))
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet page header");
	while (pm_thrift_field(&t, &id, &ft))
	{
		switch (id)
		{
			case 1:
				ph->type = pm_thrift_field_i32(&t, ft);
				break;
			case 2:
				ph->uncompressed_size = pm_thrift_field_i32(&t, ft);
				break;
			case 3:
				ph->compressed_size = pm_thrift_field_i32(&t, ft);
				break;
			case 5:
				if (ft == PM_TC_STRUCT && ph->type == PM_PQ_PAGE_DATA)
					parse_data_page_header(&t, ph, false);
				else
					pm_thrift_skip(&t, ft);
				break;
			case 7:
				if (ft == PM_TC_STRUCT && ph->type == PM_PQ_PAGE_DICTIONARY)
					parse_dict_page_header(&t, ph);
				else
					pm_thrift_skip(&t, ft);
				break;
			case 8:
				if (ft == PM_TC_STRUCT && ph->type == PM_PQ_PAGE_DATA_V2)
					parse_data_page_header(&t, ph, true);
				else
					pm_thrift_skip(&t, ft);
				break;
			default:
				pm_thrift_skip(&t, ft);
				break;
		}
	}
	pm_thrift_struct_end(&t);
	if (t.failed)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet page header: %s", t.why);
	if (ph->uncompressed_size < 0 || ph->compressed_size < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "negative parquet page size");
	if ((ph->type == PM_PQ_PAGE_DATA || ph->type == PM_PQ_PAGE_DATA_V2 ||
		 ph->type == PM_PQ_PAGE_DICTIONARY) && !ph->has_data_header)
		return pm_fail(err, PM_ERR_CORRUPT, "parquet page header without its type's header");
	if (ph->num_values < 0 || ph->num_nulls < 0 || ph->def_levels_len < 0 ||
		ph->rep_levels_len < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "negative count in parquet page header");
	ph->header_len = (size_t) (t.p - buf);
	return PM_OK;
}

/*-------------------------------------------------------------------------
 * fuzz_schema.c
 *	  libFuzzer harness for pm_schema_parse (src/table/schema.c) and the
 *	  type parser (src/row/data_type.c).
 *
 * A schema that parses must be self-consistent: partition and primary
 * keys name fields, every field has a name and a type, and each type
 * without ROW parts survives a round trip through its text form.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "row/data_type.h"
#include "table/option_map.h"
#include "table/schema.h"
#include "table/write_options.h"

static bool
has_row(const pm_type *t)
{
	if (t->id == PM_TYPE_ROW)
		return true;
	return (t->element && has_row(t->element)) || (t->value && has_row(t->value));
}

static void
check_type(pm_arena *arena, const pm_type *t)
{
	char	   *text;
	const pm_type *again;
	pm_error	err;

	if (has_row(t))
		return;
	text = pm_data_type_to_string(t, arena);
	if (text == NULL)
		return;
	if (pm_data_type_parse(text, arena, &again, &err) != PM_OK)
		abort();
	if (strcmp(text, pm_data_type_to_string(again, arena)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s;
	pm_error	err;

	if (arena == NULL)
		return 0;
	if (pm_schema_parse((const char *) data, size, arena, &s, &err) == PM_OK)
	{
		const pm_type *row = s->row_type;

		if (row == NULL || row->id != PM_TYPE_ROW)
			abort();
		for (int i = 0; i < row->nfields; i++)
		{
			if (row->fields[i].name == NULL || row->fields[i].type == NULL)
				abort();
			check_type(arena, row->fields[i].type);
		}
		for (int i = 0; i < s->npartition_keys; i++)
			if (pm_type_field_index(row, s->partition_keys[i]) < 0)
				abort();
		for (int i = 0; i < s->nprimary_keys; i++)
			if (pm_type_field_index(row, s->primary_keys[i]) < 0)
				abort();
		for (int i = 0; i < s->noptions; i++)
			if (pm_schema_option(s, s->option_keys[i]) == NULL)
				abort();
		{
			pm_write_options o;

			/* what a writer makes of the options: per-level maps name every level */
			if (pm_write_options_parse(s, arena, &o, &err) == PM_OK)
			{
				const char *ext;

				for (int i = 0; i < o.nformat_levels; i++)
					if (pm_write_options_format(&o, o.format_levels[i], &ext) == PM_FORMAT_ORC ||
						ext == NULL)
						abort();
				for (int i = 0; i < o.ncompression_levels; i++)
					if (pm_write_options_compression(&o, o.compression_levels[i]) == NULL)
						abort();
			}
		}
	}
	/* the same bytes as a map option value: every pair has a key and a value */
	if (size < 4096)
	{
		char	   *text = pm_arena_strndup(arena, (const char *) data, size);
		const char **keys;
		const char **vals;
		int			n;

		if (text != NULL && pm_option_map_parse("k", text, arena, &keys, &vals, &n, &err) == PM_OK)
			for (int i = 0; i < n; i++)
				if (keys[i] == NULL || vals[i] == NULL)
					abort();
	}
	/* the same bytes as a bare type string */
	if (size < 4096)
	{
		char	   *text = pm_arena_strndup(arena, (const char *) data, size);
		const pm_type *t;

		if (text != NULL && pm_data_type_parse(text, arena, &t, &err) == PM_OK)
			check_type(arena, t);
	}
	pm_arena_destroy(arena);
	return 0;
}

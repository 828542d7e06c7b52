/*-------------------------------------------------------------------------
 * catalog.c
 *	  The filesystem catalog: paths of databases and tables, listing tables.
 *
 * A directory of <warehouse>/<db>.db/ is a table iff it holds a
 * schema/schema-<n> file (Catalog.java DB_SUFFIX, AbstractCatalog).
 * Names become path components only when pm_catalog_name_valid says so.
 *-------------------------------------------------------------------------
 */
#include "table/catalog.h"

#include <stdlib.h>
#include <string.h>

#include "table/table_int.h"

static size_t
trimmed_len(const char *s)
{
	size_t		n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		n--;
	return n;
}

bool
pm_catalog_name_valid(const char *name)
{
	return name != NULL && name[0] != '\0' && strchr(name, '/') == NULL &&
		strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

char *
pm_catalog_table_path(pm_arena *arena, const char *warehouse, const char *database,
					  const char *table)
{
	if (!pm_catalog_name_valid(database) || !pm_catalog_name_valid(table))
		return NULL;
	return pm_arena_sprintf(arena, "%.*s/%s.db/%s", (int) trimmed_len(warehouse), warehouse,
							database, table);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool
is_table_dir(pm_fileio *io, const char *dir, pm_arena *arena)
{
	char	   *schema_dir = pm_arena_sprintf(arena, "%s/schema", dir);
	char	  **names;
	int			n;
	pm_error	err;

	pm_error_clear(&err);		/* io->list may add a path to it */
	if (schema_dir == NULL || io->list(io, schema_dir, arena, &names, &n, &err) != PM_OK)
		return false;
	for (int i = 0; i < n; i++)
	{
		int64_t		id;

		if (pm_versioned_name_id(names[i], "schema-", &id))
			return true;
	}
	return false;
}

pm_code
pm_catalog_list_tables(pm_fileio *io, const char *warehouse, const char *database,
					   pm_arena *arena, char ***names, int *count, pm_error *err)
{
	char	   *dir;
	char	  **entries;
	int			n,
				kept = 0;
	pm_code		rc;

	*names = NULL;
	*count = 0;
	if (!pm_catalog_name_valid(database))
		return pm_fail(err, PM_ERR_INVALID, "invalid database name \"%.100s\"", database);
	dir = pm_arena_sprintf(arena, "%.*s/%s.db", (int) trimmed_len(warehouse), warehouse,
						   database);
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = io->list(io, dir, arena, &entries, &n, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, dir);
		return pm_fail(err, PM_ERR_NOT_FOUND, "database \"%s\" does not exist", database);
	}
	if (rc != PM_OK)
		return rc;
	*names = pm_arena_zalloc(arena, sizeof(char *) * (n + 1));
	if (*names == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		char	   *sub;

		if (entries[i][0] == '.')
			continue;
		sub = pm_arena_sprintf(arena, "%s/%s", dir, entries[i]);
		if (sub == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (is_table_dir(io, sub, arena))
			(*names)[kept++] = entries[i];
	}
	qsort(*names, kept, sizeof(char *), cmp_names);
	*count = kept;
	return PM_OK;
}

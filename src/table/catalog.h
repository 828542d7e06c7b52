/*-------------------------------------------------------------------------
 * catalog.h
 *	  The filesystem catalog: warehouse -> databases -> tables.
 *
 * Database `db` is the directory <warehouse>/db.db/; table `t` is
 * <warehouse>/db.db/t/ and is a table when it holds schema/ files.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_CATALOG_H
#define PM_TABLE_CATALOG_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/error.h"
#include "io/fileio.h"

/*
 * Whether a name may become one component of a path: not empty, no '/',
 * not "." or "..". Every name that a user or a metadata file supplies and
 * that is joined into a path (database, table, tag, file name) is checked
 * with this, so that no name reaches outside the directory it belongs in.
 */
extern bool pm_catalog_name_valid(const char *name);

/*
 * "<warehouse>/<database>.db/<table>" in arena (no trailing slashes); NULL
 * when database or table is not a valid name, or out of memory.
 */
extern char *pm_catalog_table_path(pm_arena *arena, const char *warehouse,
								   const char *database, const char *table);

/*
 * Names of the tables of a database, sorted; PM_ERR_NOT_FOUND if the
 * database directory does not exist, PM_ERR_INVALID if database is not a
 * valid name.
 */
extern pm_code pm_catalog_list_tables(pm_fileio *io, const char *warehouse,
									  const char *database, pm_arena *arena,
									  char ***names, int *count, pm_error *err);

#endif							/* PM_TABLE_CATALOG_H */

/*-------------------------------------------------------------------------
 * path_map.h
 *	  Recorded paths -> local paths: "file:" URIs and external_path_map.
 *
 * Metadata records external data paths as URIs ("FILE:/tmp/x/...",
 * "file:/x", "file:///x"); tests and moved tables remap their prefixes with
 * a map "from=to[,from=to...]" (the longest matching "from" wins, matched
 * at a path component boundary after stripping the scheme).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_PATH_MAP_H
#define PM_TABLE_PATH_MAP_H

#include "common/arena.h"
#include "common/error.h"

typedef struct pm_path_map pm_path_map;

/* Parse a map specification (NULL or "" = empty map) into arena. */
extern pm_code pm_path_map_parse(const char *spec, pm_arena *arena, pm_path_map **out,
								 pm_error *err);

/*
 * The local path of a recorded path or URI: scheme "file:" (any case)
 * stripped, then remapped. Other schemes are PM_ERR_UNSUPPORTED.
 */
extern pm_code pm_path_map_resolve(const pm_path_map *map, const char *recorded,
								   pm_arena *arena, char **out, pm_error *err);

#endif							/* PM_TABLE_PATH_MAP_H */

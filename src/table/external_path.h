/*-------------------------------------------------------------------------
 * external_path.h
 *	  Where a writer puts a new data file when the table sets
 *	  data-file.external-paths: Java's ExternalPathProvider and the list
 *	  AbstractFileStore.createExternalPaths builds from the options.
 *
 * Java facts (release-1.4.2):
 *	- data-file.external-paths: comma-separated roots, each trimmed; every
 *	  root must carry a scheme ("scheme should not be null"). Unset, empty
 *	  or strategy none: files stay in the table (no provider).
 *	- data-file.external-paths.strategy: none (default), specific-fs,
 *	  round-robin, entropy-inject, weight-robin (case-insensitive; any
 *	  other value is an error). specific-fs keeps the roots whose scheme
 *	  equals data-file.external-paths.specific-fs (case-insensitive; unset
 *	  is an error) and then goes round-robin; no root left is an error.
 *	- weight-robin: data-file.external-paths.weights, one positive integer
 *	  per root; with fewer than two roots or no weights it is round-robin.
 *	- A file goes to <root>/<relative bucket path>/<file name> (round-robin
 *	  and weight-robin) or <root>/<relative bucket path>/<h>/<h>/<h>/<hh>/
 *	  <file name> (entropy-inject: the last 20 bits of murmur3_32 of the
 *	  file name in binary, split 4/4/4/8). The relative bucket path is
 *	  [data-file.path-directory/]<partition path>bucket-<N>.
 *	- The manifest records Path.toString() of that path: the root's
 *	  scheme, ":", the path with duplicate slashes and a trailing slash
 *	  removed ("file:///x/" gives "file:/x").
 *	- Round-robin starts at a random root; weight-robin draws each root
 *	  with probability weight / total. Our random numbers are not Java's.
 *
 * This writer writes local files only: a root with another scheme than
 * "file" is refused (object storage is not supported), as is a root with
 * an authority ("file://host/x").
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_EXTERNAL_PATH_H
#define PM_TABLE_EXTERNAL_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

typedef struct pm_external_paths pm_external_paths;

/*
 * Parse the four options (NULL: unset) into arena. *out = NULL when files
 * stay in the table. PM_ERR_INVALID: a value Java rejects;
 * PM_ERR_UNSUPPORTED: a root this writer cannot write to.
 */
extern pm_code pm_external_paths_parse(const char *paths, const char *strategy,
									   const char *specific_fs, const char *weights,
									   pm_arena *arena, pm_external_paths **out, pm_error *err);

/*
 * Whether a table with these options (data-file.external-paths and its
 * strategy; NULL: unset) writes its new files under external roots.
 */
extern bool pm_external_paths_active(const char *paths, const char *strategy);

/* The number of roots kept (for tests). */
extern int	pm_external_paths_count(const pm_external_paths *x);

/*
 * The next file: relative_bucket_dir is the bucket directory relative to
 * the table ("dt=1/bucket-0"). *local_path: where to write it, *recorded:
 * what the manifest records (_EXTERNAL_PATH). In arena.
 */
extern pm_code pm_external_paths_next(pm_external_paths *x, const char *relative_bucket_dir,
									  const char *file_name, pm_arena *arena,
									  char **local_path, char **recorded, pm_error *err);

/*
 * The last ncomponents components of dir ("/t/dt=1/bucket-0", 2 gives
 * "dt=1/bucket-0"), a pointer into dir; NULL if dir has fewer.
 */
extern const char *pm_path_last_components(const char *dir, int ncomponents);

/* Guava's Hashing.murmur3_32() (seed 0) of len bytes. */
extern int32_t pm_murmur3_32(const uint8_t *data, size_t len);

/* EntropyInjectExternalPathProvider.computeHash: "bbbb/bbbb/bbbb/bbbbbbbb", in arena. */
extern char *pm_entropy_dirs(const char *file_name, pm_arena *arena);

#endif							/* PM_TABLE_EXTERNAL_PATH_H */

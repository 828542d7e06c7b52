/*-------------------------------------------------------------------------
 * option_map.h
 *	  Map-typed table option values ("0:lz4,1:zstd") split as Java's
 *	  OptionsUtils.convertToProperties: items by ',' then key and value by
 *	  ':' (StructuredOptionsSplitter: unquoted parts trimmed, '...' and
 *	  "..." quote a delimiter, a doubled quote is one quote).
 *
 * Spec: apache/paimon OptionsUtils.java, StructuredOptionsSplitter.java
 * (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_OPTION_MAP_H
#define PM_TABLE_OPTION_MAP_H

#include "common/arena.h"
#include "common/error.h"

/*
 * Split value of option key into *n pairs in arena. PM_ERR_INVALID naming
 * key for what Java refuses: an item that is not one key-value pair, a
 * quote not closed or followed by more than a delimiter, a key given twice.
 */
extern pm_code pm_option_map_parse(const char *key, const char *value, pm_arena *arena,
								   const char ***keys, const char ***values, int *n,
								   pm_error *err);

#endif							/* PM_TABLE_OPTION_MAP_H */

/*-------------------------------------------------------------------------
 * uuid.h
 *	  Random (version 4) UUIDs in their 36-character text form, for the
 *	  names of the files a writer creates (data-<uuid>-<n>.parquet,
 *	  manifest-<uuid>-<n>, commit users), as Java's UUID.randomUUID().
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_UUID_H
#define PM_COMMON_UUID_H

#include "common/error.h"

#define PM_UUID_TEXT_LEN 36

/* Write a new random UUID, NUL-terminated, into out (37 bytes). */
extern pm_code pm_uuid_random(char out[PM_UUID_TEXT_LEN + 1], pm_error *err);

#endif							/* PM_COMMON_UUID_H */

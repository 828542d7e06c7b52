/*-------------------------------------------------------------------------
 * random.h
 *	  Random bytes from the kernel (getrandom(2)), the one source of
 *	  randomness in the core: UUIDs (uuid.c), Avro sync markers, postpone
 *	  write ids, the start of external-path round-robin and weight-robin.
 *
 * Not for anything that must be reproducible; no seeding, no state.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_RANDOM_H
#define PM_COMMON_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Fill buf[0..n) with random bytes; PM_ERR_IO if getrandom fails. */
extern pm_code pm_random_bytes(void *buf, size_t n, pm_error *err);

/* A uniformly random 32-bit number. */
extern pm_code pm_random_u32(uint32_t *out, pm_error *err);

#endif							/* PM_COMMON_RANDOM_H */

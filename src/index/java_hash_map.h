/*-------------------------------------------------------------------------
 * java_hash_map.h
 *	  What Java's collections decide about bytes Paimon writes: the
 *	  iteration order of a java.util.HashMap, String.hashCode and
 *	  DataOutput.writeUTF.
 *
 * File index writers serialize maps in their HashMap's order (the
 * container's columns and kinds, a bitmap index's value bitmaps), so
 * writing the same bytes as Java means iterating as a HashMap does: by
 * bucket (hash ^ hash >>> 16) & (capacity - 1), the capacity 16 doubled
 * whenever the size passes 3/4 of it; in one bucket, entries added by
 * put() in insertion order, by computeIfAbsent() in reverse insertion
 * order (it links a new node at the head of its bin; a resize keeps the
 * order of each bin). A bucket of 8 or more keys in a table of 64 or more slots
 * becomes a red-black tree whose order is not reproduced here (Java's
 * order then differs; the bytes still read the same).
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_JAVA_HASH_MAP_H
#define PM_INDEX_JAVA_HASH_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/byte_buffer.h"
#include "common/env.h"

/* String.hashCode of a UTF-8 string (over its UTF-16 code units). */
extern int32_t pm_java_string_hash(const char *s, size_t len);

/*
 * The iteration order of a HashMap whose n distinct keys with these
 * hashCodes were added in order 0..n-1, by put() or (compute_if_absent)
 * by computeIfAbsent(): order[i] = the insertion index of the i-th entry
 * iterated. false on out-of-memory.
 */
extern bool pm_java_hash_map_order(const pm_env *env, const int32_t *hashes, int32_t n,
								   bool compute_if_absent, int32_t *order);

/* DataOutput.writeUTF: u16 BE length, then modified UTF-8 of s. */
extern void pm_java_write_utf(pm_byte_buffer *out, const char *s);

/* The bytes pm_java_write_utf appends for s. */
extern size_t pm_java_utf_size(const char *s);

#endif							/* PM_INDEX_JAVA_HASH_MAP_H */

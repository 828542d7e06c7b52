/*-------------------------------------------------------------------------
 * binary_row.h
 *	  Paimon's BinaryRow: decoding and encoding single rows of scalar values.
 *
 * BinaryRow holds partition values, min/max keys and min/max statistics in
 * manifests, and is the input of the bucket hash. Layout (all little
 * endian): header of W = ((n + 63 + 8) / 64) * 8 bytes (byte 0 the row kind,
 * then one null bit per field), n slots of 8 bytes, then a variable part of
 * 8-byte aligned chunks; slot offsets are relative to byte 0 of the row.
 * Values use the convention of common/value.h (TIMESTAMP as microseconds +
 * nanos, TIME/DATE/integers in i64, FLOAT widened to f64, DECIMAL as the
 * unscaled i128).
 *
 * Spec: paimon-format-metadata.md §8; apache/paimon paimon-common
 * org/apache/paimon/data/BinaryRow.java, AbstractBinaryWriter.java,
 * BinaryRowWriter.java, memory/MemorySegmentUtils.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_ROW_BINARY_ROW_H
#define PM_ROW_BINARY_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "common/value.h"

/* Bytes of the header (row kind + null bits) for arity fields. */
extern size_t pm_binary_row_header_size(int arity);

/*
 * Decode the row bytes buf[0..len) (no arity prefix) of row_type (a ROW)
 * into values[row_type->nfields]. Strings and binaries point into buf.
 * Every offset and length is checked: PM_ERR_CORRUPT when the bytes are
 * inconsistent. Nested types (ARRAY, MAP, MULTISET, ROW) and VARIANT/BLOB
 * come back as their raw variable-part bytes in u.bytes.
 */
extern pm_code pm_binary_row_decode(const uint8_t *buf, size_t len, const pm_type *row_type,
									pm_value *values, pm_error *err);

/*
 * The serialized form stored in manifests (_PARTITION, _MIN_KEY/_MAX_KEY,
 * _MIN_VALUES/_MAX_VALUES): a 4-byte big-endian arity, then the row bytes.
 * The arity must equal row_type->nfields (PM_ERR_CORRUPT otherwise).
 */
extern pm_code pm_binary_row_decode_serialized(const uint8_t *buf, size_t len,
											   const pm_type *row_type, pm_value *values,
											   pm_error *err);

/* The arity prefix of a serialized row (to pick the type of old stats). */
extern pm_code pm_binary_row_serialized_arity(const uint8_t *buf, size_t len, int *arity,
											  pm_error *err);

/*
 * Encode values[row_type->nfields] exactly as Java's BinaryRowWriter does
 * (row kind 0, zeroed null slots, reserved areas for NULL non-compact
 * DECIMAL/TIMESTAMP, zero padding). The result (no prefix) is in arena.
 * Nested types and VARIANT take u.bytes as their already encoded bytes
 * (what decode returns); UNSUPPORTED types are PM_ERR_UNSUPPORTED.
 */
extern pm_code pm_binary_row_encode(pm_arena *arena, const pm_type *row_type,
									const pm_value *values, uint8_t **buf, size_t *len,
									pm_error *err);

/* Same, with the 4-byte big-endian arity prefix (the manifest form). */
extern pm_code pm_binary_row_encode_serialized(pm_arena *arena, const pm_type *row_type,
											   const pm_value *values, uint8_t **buf,
											   size_t *len, pm_error *err);

/*
 * Feed the encoded bytes of a row to sink in order (header, slots, variable
 * part) without building it: what pm_binary_row_encode writes. Used to hash
 * a row without allocating. total_len gets the row's size.
 */
typedef void (*pm_binary_row_sink) (void *opaque, const uint8_t *bytes, size_t n);
extern pm_code pm_binary_row_emit(const pm_type *row_type, const pm_value *values,
								  pm_binary_row_sink sink, void *opaque, size_t *total_len,
								  pm_error *err);

#endif							/* PM_ROW_BINARY_ROW_H */

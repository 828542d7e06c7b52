/*-------------------------------------------------------------------------
 * resident_file.h
 *	  A primary-key data file's columns decoded whole and kept in the page
 *	  cache (common/page_lru.h), and so in the shared page store when it is
 *	  on: what point lookups of a hot table read instead of the file's
 *	  pages (table/point_lookup.h, pm_point_lookup_resident).
 *
 * A lookup through the file's pages binary-searches the key pages, pins
 * and decodes a page per column and runs the merge reader: some 15 us. A
 * resident file answers the same from flat arrays: a search of the sorted
 * key column and one slot per column. It costs the file's rows decoded
 * once (charged to the page cache's budget), so lookups build it only for
 * files they keep coming back to (point_lookup.c decides when).
 *
 * Two page-cache entries of the file ("slots"), keyed by the table schema
 * the file was read with (the same file reads differently after a schema
 * change):
 *	 PM_RESIDENT_SLOT_KEY	the trimmed primary key's one field (the file's
 *							_KEY_ column, in the table's type: the value of
 *							that field too, as the merge read takes it),
 *							ascending, and a bitmap of the keys between the
 *							first and the last when it is small (a key that
 *							is not there costs one cache line)
 *	 PM_RESIDENT_SLOT_ROWS	every other table field and _VALUE_KIND, row by
 *							row: a row's values lie together (one or two
 *							cache lines a lookup touches, not one per
 *							column); strings and bytes in a heap after the
 *							rows
 * Every value keeps common/vector.h's form: a row's values copy into
 * vectors of one row without conversion.
 *
 * Hand-written: the layout is ours (nothing Paimon writes); the data comes
 * from the file's reader (pm_data_file_reader), so every format, schema
 * evolution and default the read applies applies here.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_RESIDENT_FILE_H
#define PM_TABLE_RESIDENT_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/page_lru.h"
#include "common/vector.h"
#include "table/split.h"
#include "table/table.h"

#define PM_RESIDENT_SLOT_KEY	0
#define PM_RESIDENT_SLOT_ROWS	1

/* One slot of a resident file, pinned. */
typedef struct pm_resident_col
{
	pm_page_entry *entry;
	const struct pm_resident_header *h;
	const struct pm_resident_field *fields;	/* ROWS: per table field */
	const uint8_t *payload;
	size_t		payload_len;
} pm_resident_col;

/*
 * Could file f of table t (schema t's current one) be made resident:
 * one trimmed primary-key field of an integer type, no nested field, no
 * deletion vector. And the bytes its slots would take (the fixed part;
 * strings add their bytes).
 */
extern bool pm_resident_file_eligible(pm_table *t, const pm_data_file_meta *f,
									  size_t *fixed_bytes);

/*
 * Read file f whole and store its slots in the page cache. *stored: both
 * are held now (false: the file breaks a rule of the layout, such as keys
 * not strictly ascending, or its slots passed max_bytes, or the cache
 * refused them). An error is a read's error (or a cancel).
 */
extern pm_code pm_resident_file_build(pm_table *t, const pm_data_file_meta *f, size_t max_bytes,
									  bool *stored, pm_error *err);

/*
 * A slot's bytes (its entry's header block and payload) as slot of a file
 * of nrows rows and a table of nfields fields: false when they do not add
 * up (every offset the accessors below follow is checked here or there;
 * the shared store's files are bytes on disk). out->entry stays NULL.
 */
extern bool pm_resident_col_open(int slot, const void *meta, size_t meta_len,
								 const uint8_t *payload, size_t payload_len, int64_t nrows,
								 int nfields, pm_resident_col *out);

/* Pin slot of f as read with t's schema; false when not held (nothing pinned). */
extern bool pm_resident_col_pin(pm_table *t, const pm_data_file_meta *f,
								const pm_page_file *pf, int slot, pm_resident_col *out);
extern void pm_resident_col_unpin(pm_resident_col *c);

/* The row of an integer key in the key slot, or -1. */
extern int64_t pm_resident_col_find(const pm_resident_col *key, int64_t value);

/* The _VALUE_KIND (RowKind byte) of row row of the rows slot; -1 past its rows. */
extern int	pm_resident_row_kind(const pm_resident_col *rows, int64_t row);

/*
 * Table field field of row row as a vector of one value of type (in
 * arena, the bytes copied): from the rows slot, or from the key slot for
 * the key's field. False: out of memory, a row past the slot's, or the
 * slot does not hold the field as type (a file is never misread).
 */
extern bool pm_resident_copy_value(const pm_resident_col *c, int field, const pm_type *type,
								   int64_t row, pm_vector *out, pm_arena *arena);

#endif							/* PM_TABLE_RESIDENT_FILE_H */

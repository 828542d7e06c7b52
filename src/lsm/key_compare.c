/*-------------------------------------------------------------------------
 * key_compare.c
 *	  Java Paimon's key order over column vectors (see key_compare.h).
 *
 * Hand-written: the order is Paimon's generated comparator's, which no C
 * library reproduces (Java's float ordering in particular).
 *-------------------------------------------------------------------------
 */
#include "lsm/key_compare.h"

#include "common/compare.h"

int
pm_key_compare_value(const pm_vector *a, int64_t ia, const pm_vector *b, int64_t ib)
{
	bool		na = pm_vector_is_null(a, ia);
	bool		nb = pm_vector_is_null(b, ib);

	if (na || nb)
		return na && nb ? 0 : (na ? -1 : 1);
	switch (a->type->id)
	{
		case PM_TYPE_BOOLEAN:
			return pm_cmp_i64(PM_VEC_VALUES(a, uint8_t)[ia] != 0, PM_VEC_VALUES(b, uint8_t)[ib] != 0);
		case PM_TYPE_TINYINT:
			return pm_cmp_i64(PM_VEC_VALUES(a, int8_t)[ia], PM_VEC_VALUES(b, int8_t)[ib]);
		case PM_TYPE_SMALLINT:
			return pm_cmp_i64(PM_VEC_VALUES(a, int16_t)[ia], PM_VEC_VALUES(b, int16_t)[ib]);
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return pm_cmp_i64(PM_VEC_VALUES(a, int32_t)[ia], PM_VEC_VALUES(b, int32_t)[ib]);
		case PM_TYPE_BIGINT:
			return pm_cmp_i64(PM_VEC_VALUES(a, int64_t)[ia], PM_VEC_VALUES(b, int64_t)[ib]);
		case PM_TYPE_FLOAT:
			return pm_cmp_double_java(PM_VEC_VALUES(a, float)[ia], PM_VEC_VALUES(b, float)[ib]);
		case PM_TYPE_DOUBLE:
			return pm_cmp_double_java(PM_VEC_VALUES(a, double)[ia], PM_VEC_VALUES(b, double)[ib]);
		case PM_TYPE_DECIMAL:
			return pm_cmp_i128(PM_VEC_VALUES(a, pm_int128)[ia], PM_VEC_VALUES(b, pm_int128)[ib]);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		ma = PM_VEC_VALUES(a, int64_t)[ia];
				int64_t		mb = PM_VEC_VALUES(b, int64_t)[ib];

				if (ma != mb)
					return pm_cmp_i64(ma, mb);
				return pm_cmp_i64(a->nanos ? a->nanos[ia] : 0, b->nanos ? b->nanos[ib] : 0);
			}
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
		case PM_TYPE_VARIANT:
			{
				int32_t		la,
							lb;
				const uint8_t *pa = pm_vector_bytes(a, ia, &la);
				const uint8_t *pb = pm_vector_bytes(b, ib, &lb);

				return pm_cmp_bytes(pa, (size_t) la, pb, (size_t) lb);
			}
		case PM_TYPE_ROW:
			for (int i = 0; i < a->nchildren && i < b->nchildren; i++)
			{
				int			c = pm_key_compare_value(&a->children[i], ia, &b->children[i], ib);

				if (c != 0)
					return c;
			}
			return 0;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			{
				int32_t		sa = a->offsets[ia],
							ea = a->offsets[ia + 1];
				int32_t		sb = b->offsets[ib],
							eb = b->offsets[ib + 1];

				for (; sa < ea && sb < eb; sa++, sb++)
				{
					int			c = pm_key_compare_value(&a->children[0], sa,
														 &b->children[0], sb);

					if (c != 0)
						return c;
				}
				return pm_cmp_i64(ea - sa, eb - sb);
			}
		case PM_TYPE_MAP:
			/* maps are not comparable in Paimon; treat as equal */
			return 0;
	}
	return 0;
}

int
pm_key_compare(const pm_vector *a, int64_t ia, const pm_vector *b, int64_t ib, int nkeys)
{
	for (int k = 0; k < nkeys; k++)
	{
		int			c = pm_key_compare_value(&a[k], ia, &b[k], ib);

		if (c != 0)
			return c;
	}
	return 0;
}

/*-------------------------------------------------------------------------
 * corpus_case.c
 *	  Replaying ../shared/corpus/expected cases in C: see corpus_case.h.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "corpus_case.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/value.h"
#include "table/split.h"
#include "table/table.h"

#include "lsm/table_read.h"

/* ---- canonical JSON text ---------------------------------------------- */


void
sb_add(sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
	{
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
sb_str(sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void
sb_json_string(sbuf *b, const char *s, size_t n)
{
	json_t	   *j = json_stringn_nocheck(s, n);
	char	   *t = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);

	sb_str(b, t ? t : "\"?\"");
	free(t);
	json_decref(j);
}

static void
sb_double(sbuf *b, double d)
{
	char		tmp[64];

	if (d == floor(d) && fabs(d) < 1e15)
		snprintf(tmp, sizeof(tmp), "%.0f", d);
	else
		for (int p = 1; p <= 17; p++)
		{
			snprintf(tmp, sizeof(tmp), "%.*g", p, d);
			if (strtod(tmp, NULL) == d)
				break;
		}
	sb_str(b, tmp);
}

void
canon_json(sbuf *b, const json_t *j)
{
	char		tmp[64];

	switch (json_typeof(j))
	{
		case JSON_NULL:
			sb_str(b, "null");
			break;
		case JSON_TRUE:
			sb_str(b, "true");
			break;
		case JSON_FALSE:
			sb_str(b, "false");
			break;
		case JSON_INTEGER:
			snprintf(tmp, sizeof(tmp), "%lld", (long long) json_integer_value(j));
			sb_str(b, tmp);
			break;
		case JSON_REAL:
			sb_double(b, json_real_value(j));
			break;
		case JSON_STRING:
			sb_json_string(b, json_string_value(j), json_string_length(j));
			break;
		case JSON_ARRAY:
			sb_str(b, "[");
			for (size_t i = 0; i < json_array_size(j); i++)
			{
				if (i > 0)
					sb_str(b, ",");
				canon_json(b, json_array_get(j, i));
			}
			sb_str(b, "]");
			break;
		case JSON_OBJECT:
			{
				const char *k;
				json_t	   *v;
				bool		first = true;

				sb_str(b, "{");
				json_object_foreach((json_t *) j, k, v)
				{
					if (!first)
						sb_str(b, ",");
					first = false;
					sb_json_string(b, k, strlen(k));
					sb_str(b, ":");
					canon_json(b, v);
				}
				sb_str(b, "}");
			}
			break;
	}
}

static void
fmt_decimal(sbuf *b, pm_int128 v, int scale)
{
	char		digits[64];
	int			n = 0;
	bool		neg = v < 0;
	unsigned __int128 u = neg ? (unsigned __int128) (-(v + 1)) + 1 : (unsigned __int128) v;

	do
	{
		digits[n++] = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u > 0);
	while (n <= scale)
		digits[n++] = '0';
	sb_str(b, "\"");
	if (neg)
		sb_str(b, "-");
	for (int i = n - 1; i >= 0; i--)
	{
		sb_add(b, &digits[i], 1);
		if (i == scale && scale > 0)
			sb_str(b, ".");
	}
	sb_str(b, "\"");
}

static void
fmt_timestamp(sbuf *b, int64_t micros, int nanos, int precision, bool ltz)
{
	int64_t		days = micros >= 0 ? micros / 86400000000LL : -((-micros + 86399999999LL) / 86400000000LL);
	int64_t		rem = micros - days * 86400000000LL;
	int64_t		y;
	int			mo,
				d;
	char		tmp[96];
	char		frac[16];

	pm_date_from_days(days, &y, &mo, &d);
	snprintf(tmp, sizeof(tmp), "\"%04lld-%02d-%02dT%02d:%02d:%02d", (long long) y, mo, d,
			 (int) (rem / 3600000000LL), (int) (rem / 60000000LL % 60), (int) (rem / 1000000 % 60));
	sb_str(b, tmp);
	if (precision > 0)
	{
		snprintf(frac, sizeof(frac), "%06lld%03d", (long long) (rem % 1000000), nanos);
		frac[precision] = '\0';
		sb_str(b, ".");
		sb_str(b, frac);
	}
	sb_str(b, ltz ? "Z\"" : "\"");
}

void
fmt_value(sbuf *b, const pm_vector *v, int64_t i)
{
	const pm_type *t = v->type;
	char		tmp[64];

	if (pm_vector_is_null(v, i))
	{
		sb_str(b, "null");
		return;
	}
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			sb_str(b, PM_VEC_VALUES(v, uint8_t)[i] ? "true" : "false");
			break;
		case PM_TYPE_TINYINT:
			snprintf(tmp, sizeof(tmp), "%d", PM_VEC_VALUES(v, int8_t)[i]);
			sb_str(b, tmp);
			break;
		case PM_TYPE_SMALLINT:
			snprintf(tmp, sizeof(tmp), "%d", PM_VEC_VALUES(v, int16_t)[i]);
			sb_str(b, tmp);
			break;
		case PM_TYPE_INT:
			snprintf(tmp, sizeof(tmp), "%d", PM_VEC_VALUES(v, int32_t)[i]);
			sb_str(b, tmp);
			break;
		case PM_TYPE_BIGINT:
			snprintf(tmp, sizeof(tmp), "%lld", (long long) PM_VEC_VALUES(v, int64_t)[i]);
			sb_str(b, tmp);
			break;
		case PM_TYPE_FLOAT:
			{
				float		f = PM_VEC_VALUES(v, float)[i];

				for (int p = 1; p <= 9; p++)
				{
					snprintf(tmp, sizeof(tmp), "%.*g", p, (double) f);
					if ((float) strtod(tmp, NULL) == f)
						break;
				}
				sb_double(b, strtod(tmp, NULL));
			}
			break;
		case PM_TYPE_DOUBLE:
			sb_double(b, PM_VEC_VALUES(v, double)[i]);
			break;
		case PM_TYPE_DECIMAL:
			fmt_decimal(b, PM_VEC_VALUES(v, pm_int128)[i], t->scale);
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		n;
				const uint8_t *p = pm_vector_bytes(v, i, &n);

				sb_json_string(b, (const char *) p, n);
			}
			break;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		n;
				const uint8_t *p = pm_vector_bytes(v, i, &n);

				sb_str(b, "\"");
				for (int32_t k = 0; k < n; k++)
				{
					snprintf(tmp, sizeof(tmp), "%02x", p[k]);
					sb_str(b, tmp);
				}
				sb_str(b, "\"");
			}
			break;
		case PM_TYPE_DATE:
			{
				int64_t		y;
				int			m,
							d;

				pm_date_from_days(PM_VEC_VALUES(v, int32_t)[i], &y, &m, &d);
				snprintf(tmp, sizeof(tmp), "\"%04lld-%02d-%02d\"", (long long) y, m, d);
				sb_str(b, tmp);
			}
			break;
		case PM_TYPE_TIME:
			{
				int32_t		ms = PM_VEC_VALUES(v, int32_t)[i];

				snprintf(tmp, sizeof(tmp), "\"%02d:%02d:%02d", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60);
				sb_str(b, tmp);
				if (t->precision > 0)
				{
					char		f[8];

					snprintf(f, sizeof(f), "%03d", ms % 1000);
					f[t->precision > 3 ? 3 : t->precision] = '\0';
					sb_str(b, ".");
					sb_str(b, f);
				}
				sb_str(b, "\"");
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			fmt_timestamp(b, PM_VEC_VALUES(v, int64_t)[i], v->nanos ? v->nanos[i] : 0,
						  t->precision, t->id == PM_TYPE_TIMESTAMP_LTZ);
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			sb_str(b, "[");
			for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
			{
				if (k > v->offsets[i])
					sb_str(b, ",");
				fmt_value(b, &v->children[0], k);
			}
			sb_str(b, "]");
			break;
		case PM_TYPE_MAP:
			sb_str(b, "[");
			for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
			{
				if (k > v->offsets[i])
					sb_str(b, ",");
				sb_str(b, "[");
				fmt_value(b, &v->children[0], k);
				sb_str(b, ",");
				fmt_value(b, &v->children[1], k);
				sb_str(b, "]");
			}
			sb_str(b, "]");
			break;
		case PM_TYPE_ROW:
			sb_str(b, "{");
			for (int k = 0; k < t->nfields; k++)
			{
				if (k > 0)
					sb_str(b, ",");
				sb_json_string(b, t->fields[k].name, strlen(t->fields[k].name));
				sb_str(b, ":");
				fmt_value(b, &v->children[k], i);
			}
			sb_str(b, "}");
			break;
		default:
			sb_str(b, "\"?\"");
			break;
	}
}

/* ---- predicate text -> pm_predicate ------------------------------------ */


void
pp_space(pparser *p)
{
	while (*p->s == ' ')
		p->s++;
}

static bool
pp_word(pparser *p, const char *w)
{
	size_t		n = strlen(w);

	pp_space(p);
	if (strncasecmp(p->s, w, n) == 0 && !(p->s[n] == '_' || (p->s[n] >= 'a' && p->s[n] <= 'z') ||
										  (p->s[n] >= 'A' && p->s[n] <= 'Z') || (p->s[n] >= '0' && p->s[n] <= '9')))
	{
		p->s += n;
		return true;
	}
	return false;
}

static bool
pp_sym(pparser *p, const char *sym)
{
	pp_space(p);
	if (strncmp(p->s, sym, strlen(sym)) == 0)
	{
		p->s += strlen(sym);
		return true;
	}
	return false;
}

/* a literal converted to type */
static pm_value
pp_literal(pparser *p, const pm_type *type)
{
	pm_value	v;
	char		buf[128];
	size_t		n = 0;
	bool		quoted = false;

	memset(&v, 0, sizeof(v));
	pp_space(p);
	if (pp_word(p, "DATE") || pp_word(p, "TIMESTAMP"))
		pp_space(p);
	if (*p->s == '\'')
	{
		quoted = true;
		p->s++;
		while (*p->s && *p->s != '\'' && n < sizeof(buf) - 1)
			buf[n++] = *p->s++;
		if (*p->s == '\'')
			p->s++;
	}
	else
		while (*p->s && (strchr("-+.0123456789", *p->s) != NULL) && n < sizeof(buf) - 1)
			buf[n++] = *p->s++;
	buf[n] = '\0';
	if (n == 0 && !quoted)
		p->ok = false;
	switch (type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			v.u.bytes.ptr = (const uint8_t *) pm_arena_strdup(p->arena, buf);
			v.u.bytes.len = (int32_t) n;
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			v.u.f64 = strtod(buf, NULL);
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	u = 0;
				int			frac = -1;
				bool		neg = buf[0] == '-';

				for (char *c = buf + (neg ? 1 : 0); *c; c++)
				{
					if (*c == '.')
					{
						frac = 0;
						continue;
					}
					if (frac >= type->scale)
						break;
					u = u * 10 + (*c - '0');
					if (frac >= 0)
						frac++;
				}
				for (int k = frac < 0 ? 0 : frac; k < type->scale; k++)
					u *= 10;
				v.u.i128 = neg ? -u : u;
			}
			break;
		case PM_TYPE_DATE:
			{
				int			y = 0,
							m = 0,
							d = 0;

				sscanf(buf, "%d-%d-%d", &y, &m, &d);
				v.u.i64 = pm_days_from_date(y, m, d);
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int			y = 0,
							m = 0,
							d = 0,
							hh = 0,
							mm = 0,
							ss = 0;
				char	   *dot;
				int64_t		ns = 0;
				int			digits = 0;

				sscanf(buf, "%d-%d-%d %d:%d:%d", &y, &m, &d, &hh, &mm, &ss);
				dot = strchr(buf, '.');
				if (dot != NULL)
					for (char *c = dot + 1; *c >= '0' && *c <= '9' && digits < 9; c++, digits++)
						ns = ns * 10 + (*c - '0');
				for (; digits < 9; digits++)
					ns *= 10;
				v.u.i64 = pm_days_from_date(y, m, d) * 86400000000LL +
					(int64_t) hh * 3600000000LL + (int64_t) mm * 60000000LL +
					(int64_t) ss * 1000000LL + ns / 1000;
				v.nanos = (uint16_t) (ns % 1000);
			}
			break;
		default:
			v.u.i64 = strtoll(buf, NULL, 10);
			break;
	}
	return v;
}

pm_predicate *pp_or(pparser *p);

static pm_predicate *
pp_new(pparser *p, pm_pred_op op, int field, int nlits)
{
	pm_predicate *pr = pm_arena_zalloc(p->arena, sizeof(pm_predicate));

	pr->op = op;
	pr->field = field;
	pr->nliterals = nlits;
	if (nlits > 0)
		pr->literals = pm_arena_zalloc(p->arena, sizeof(pm_value) * nlits);
	return pr;
}

static pm_predicate *
pp_binary(pparser *p, pm_pred_op op, pm_predicate *a, pm_predicate *b)
{
	pm_predicate *pr = pp_new(p, op, -1, 0);

	pr->nchildren = 2;
	pr->children = pm_arena_zalloc(p->arena, sizeof(pm_predicate *) * 2);
	pr->children[0] = a;
	pr->children[1] = b;
	return pr;
}

static pm_predicate *
pp_atom(pparser *p)
{
	char		name[64];
	size_t		n = 0;
	int			field;
	const pm_type *type;
	pm_predicate *pr;
	static const struct
	{
		const char *sym;
		pm_pred_op	op;
	}			ops[] = {
		{"<>", PM_PRED_NE}, {"!=", PM_PRED_NE}, {"<=", PM_PRED_LE}, {">=", PM_PRED_GE},
		{"<", PM_PRED_LT}, {">", PM_PRED_GT}, {"=", PM_PRED_EQ}
	};

	if (pp_sym(p, "("))
	{
		pr = pp_or(p);
		if (!pp_sym(p, ")"))
			p->ok = false;
		return pr;
	}
	pp_space(p);
	while ((*p->s == '_' || (*p->s >= 'a' && *p->s <= 'z') || (*p->s >= 'A' && *p->s <= 'Z') ||
			(*p->s >= '0' && *p->s <= '9')) && n < sizeof(name) - 1)
		name[n++] = *p->s++;
	name[n] = '\0';
	field = pm_type_field_index(p->row, name);
	if (field < 0)
	{
		p->ok = false;
		return pp_new(p, PM_PRED_IS_NULL, 0, 0);
	}
	type = p->row->fields[field].type;
	if (pp_word(p, "IS"))
	{
		bool		not = pp_word(p, "NOT");

		if (!pp_word(p, "NULL"))
			p->ok = false;
		return pp_new(p, not ? PM_PRED_IS_NOT_NULL : PM_PRED_IS_NULL, field, 0);
	}
	if (pp_word(p, "IN"))
	{
		pm_value	lits[32];
		int			k = 0;

		if (!pp_sym(p, "("))
			p->ok = false;
		do
			lits[k++] = pp_literal(p, type);
		while (k < 32 && pp_sym(p, ","));
		if (!pp_sym(p, ")"))
			p->ok = false;
		pr = pp_new(p, PM_PRED_IN, field, k);
		memcpy(pr->literals, lits, sizeof(pm_value) * k);
		return pr;
	}
	if (pp_word(p, "BETWEEN"))
	{
		pm_predicate *lo = pp_new(p, PM_PRED_GE, field, 1),
				   *hi = pp_new(p, PM_PRED_LE, field, 1);

		lo->literals[0] = pp_literal(p, type);
		if (!pp_word(p, "AND"))
			p->ok = false;
		hi->literals[0] = pp_literal(p, type);
		return pp_binary(p, PM_PRED_AND, lo, hi);
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (pp_sym(p, ops[i].sym))
		{
			pr = pp_new(p, ops[i].op, field, 1);
			pr->literals[0] = pp_literal(p, type);
			return pr;
		}
	p->ok = false;
	return pp_new(p, PM_PRED_IS_NULL, field, 0);
}

static pm_predicate *
pp_and(pparser *p)
{
	pm_predicate *left = pp_atom(p);

	while (p->ok && pp_word(p, "AND"))
		left = pp_binary(p, PM_PRED_AND, left, pp_atom(p));
	return left;
}

pm_predicate *
pp_or(pparser *p)
{
	pm_predicate *left = pp_and(p);

	while (p->ok && pp_word(p, "OR"))
		left = pp_binary(p, PM_PRED_OR, left, pp_and(p));
	return left;
}

void
collect_fields(const pm_predicate *p, int *fields, int *n)
{
	if (p->op == PM_PRED_AND || p->op == PM_PRED_OR)
	{
		for (int i = 0; i < p->nchildren; i++)
			collect_fields(p->children[i], fields, n);
		return;
	}
	for (int i = 0; i < *n; i++)
		if (fields[i] == p->field)
			return;
	fields[(*n)++] = p->field;
}

/* ---- evaluating the predicate on a row --------------------------------- */

pm_value
vector_value(const pm_vector *v, int64_t i)
{
	pm_value	x;

	memset(&x, 0, sizeof(x));
	if (pm_vector_is_null(v, i))
	{
		x.is_null = true;
		return x;
	}
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			x.u.i64 = PM_VEC_VALUES(v, uint8_t)[i];
			break;
		case PM_TYPE_TINYINT:
			x.u.i64 = PM_VEC_VALUES(v, int8_t)[i];
			break;
		case PM_TYPE_SMALLINT:
			x.u.i64 = PM_VEC_VALUES(v, int16_t)[i];
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			x.u.i64 = PM_VEC_VALUES(v, int32_t)[i];
			break;
		case PM_TYPE_BIGINT:
			x.u.i64 = PM_VEC_VALUES(v, int64_t)[i];
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			x.u.i64 = PM_VEC_VALUES(v, int64_t)[i];
			x.nanos = v->nanos ? v->nanos[i] : 0;
			break;
		case PM_TYPE_FLOAT:
			x.u.f64 = PM_VEC_VALUES(v, float)[i];
			break;
		case PM_TYPE_DOUBLE:
			x.u.f64 = PM_VEC_VALUES(v, double)[i];
			break;
		case PM_TYPE_DECIMAL:
			x.u.i128 = PM_VEC_VALUES(v, pm_int128)[i];
			break;
		default:
			if (v->offsets != NULL)
				x.u.bytes.ptr = pm_vector_bytes(v, i, &x.u.bytes.len);
			break;
	}
	return x;
}

bool
eval(const pm_predicate *p, const pm_type *row, const pm_batch *b, const int *col_of_field,
	 int64_t i)
{
	pm_value	x;
	int			c;

	if (p->op == PM_PRED_AND)
		return eval(p->children[0], row, b, col_of_field, i) &&
			eval(p->children[1], row, b, col_of_field, i);
	if (p->op == PM_PRED_OR)
		return eval(p->children[0], row, b, col_of_field, i) ||
			eval(p->children[1], row, b, col_of_field, i);
	x = vector_value(&b->cols[col_of_field[p->field]], i);
	if (p->op == PM_PRED_IS_NULL)
		return x.is_null;
	if (p->op == PM_PRED_IS_NOT_NULL)
		return !x.is_null;
	if (x.is_null)
		return false;
	if (p->op == PM_PRED_IN)
	{
		for (int k = 0; k < p->nliterals; k++)
			if (pm_value_compare(row->fields[p->field].type, &x, &p->literals[k]) == 0)
				return true;
		return false;
	}
	c = pm_value_compare(row->fields[p->field].type, &x, &p->literals[0]);
	switch (p->op)
	{
		case PM_PRED_EQ:
			return c == 0;
		case PM_PRED_NE:
			return c != 0;
		case PM_PRED_LT:
			return c < 0;
		case PM_PRED_LE:
			return c <= 0;
		case PM_PRED_GT:
			return c > 0;
		case PM_PRED_GE:
			return c >= 0;
		default:
			return false;
	}
}

/* ---- one case ----------------------------------------------------------- */


void
rowset_add(rowset *r, char *s)
{
	if (r->n == r->cap)
	{
		r->cap = r->cap ? r->cap * 2 : 16;
		r->rows = realloc(r->rows, sizeof(char *) * r->cap);
	}
	r->rows[r->n++] = s;
}

int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

void
rowset_free(rowset *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->rows[i]);
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

/* Tables whose external paths point at the writer's machine */
char *
external_map_for(const char *table_dir)
{
	char		buf[8192];
	const char *db = strstr(table_dir, ".db/");

	if (db == NULL)
		return NULL;
	snprintf(buf, sizeof(buf), "FILE:/tmp/external=%.*s/external,file:/tmp/external=%.*s/external",
			 (int) (db + 3 - table_dir), table_dir, (int) (db + 3 - table_dir), table_dir);
	return strdup(buf);
}

void
read_rows(pm_table *table, const pm_predicate *plan_filter, const pm_predicate *pred,
		  const int *fields, int nfields, int ncase_cols, rowset *out, pm_scan_stats *stats,
		  bool merged)
{
	pm_scan    *scan = NULL;
	pm_scan_reader *reader = NULL;
	pm_table_read *tread = NULL;
	pm_error	err;
	pm_batch   *b;
	const pm_type *row = pm_table_schema(table)->row_type;
	int		   *col_of_field = calloc(row->nfields + 1, sizeof(int));
	pm_code		rc;

	for (int i = nfields - 1; i >= 0; i--)
		col_of_field[fields[i]] = i;
	pm_error_clear(&err);
	rc = pm_table_scan_plan(table, plan_filter, &scan, &err);
	if (rc != PM_OK)
		fail_msg("plan: %s (%s) %s", err.message, pm_code_name(rc), err.path);
	*stats = *pm_scan_get_stats(scan);
	rc = merged ? pm_table_read_open(scan, fields, nfields, &tread, &err) :
		pm_scan_reader_open(scan, fields, nfields, &reader, &err);
	if (rc != PM_OK)
		fail_msg("reader open: %s (%s)", err.message, pm_code_name(rc));
	for (;;)
	{
		rc = merged ? pm_table_read_next(tread, &b, &err) : pm_scan_reader_next(reader, &b, &err);
		if (rc != PM_OK)
			fail_msg("read: %s (%s) %s", err.message, pm_code_name(rc), err.path);
		if (b == NULL)
			break;
		assert_int_equal(b->ncols, nfields);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			sbuf		sb = {0};

			if (pred != NULL && !eval(pred, row, b, col_of_field, i))
				continue;
			sb_str(&sb, "[");
			for (int c = 0; c < ncase_cols; c++)
			{
				if (c > 0)
					sb_str(&sb, ",");
				fmt_value(&sb, &b->cols[c], i);
			}
			sb_str(&sb, "]");
			rowset_add(out, sb.s);
		}
	}
	pm_scan_reader_close(reader);
	pm_table_read_close(tread);
	pm_scan_free(scan);
	free(col_of_field);
}

void
compare_rows(const char *name, rowset *got, rowset *want)
{
	int			mismatches = 0;

	if (got->n > 0)
		qsort(got->rows, got->n, sizeof(char *), cmp_str);
	if (want->n > 0)
		qsort(want->rows, want->n, sizeof(char *), cmp_str);
	if (got->n != want->n)
		print_message("%s: got %d rows, want %d\n", name, got->n, want->n);
	for (int i = 0; i < got->n || i < want->n; i++)
	{
		const char *g = i < got->n ? got->rows[i] : "(none)";
		const char *w = i < want->n ? want->rows[i] : "(none)";

		if (strcmp(g, w) != 0 && mismatches++ < 5)
			print_message("%s row %d:\n   got  %s\n   want %s\n", name, i, g, w);
	}
	assert_int_equal(got->n, want->n);
	assert_int_equal(mismatches, 0);
}

void
corpus_case_check(const char *case_path, bool merged)
{
	json_error_t jerr;
	json_t	   *c = json_load_file(case_path, 0, &jerr);
	const char *name,
			   *table_rel,
			   *pred_text;
	char	   *table_dir;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table_open_options opts;
	pm_table   *table = NULL;
	pm_error	err;
	pm_code		rc;
	const json_t *columns,
			   *rows;
	const pm_type *row;
	int			fields[256];
	int			nfields = 0,
				ncols;
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_predicate *pred = NULL;
	rowset		want = {0},
				got = {0};
	pm_scan_stats stats;

	if (c == NULL)
		fail_msg("%s: not valid JSON: %s (line %d)", case_path, jerr.text, jerr.line);
	name = json_string_value(json_object_get(c, "case"));
	table_rel = json_string_value(json_object_get(c, "table"));
	pred_text = json_string_value(json_object_get(c, "predicate"));
	columns = json_object_get(c, "columns");
	rows = json_object_get(c, "rows");
	/* a case without its rows would compare nothing */
	if (name == NULL || table_rel == NULL || !json_is_array(columns) ||
		json_array_size(columns) == 0 || !json_is_array(rows) ||
		(json_object_get(c, "predicate") != NULL && pred_text == NULL &&
		 !json_is_null(json_object_get(c, "predicate"))))
		fail_msg("%s: a case needs strings \"case\" and \"table\", a non-empty array "
				 "\"columns\", an array \"rows\" and a string or null \"predicate\"",
				 case_path);
	table_dir = strdup(unit_corpus_path(table_rel));
	memset(&opts, 0, sizeof(opts));
	if (json_is_integer(json_object_get(c, "snapshot")))
		opts.snapshot_id = json_integer_value(json_object_get(c, "snapshot"));
	opts.external_path_map = external_map_for(table_dir);
	pm_error_clear(&err);
	rc = pm_table_open(pm_env_default(), io, table_dir, &opts, &table, &err);
	if (rc != PM_OK)
		fail_msg("%s: open: %s (%s) %s", name, err.message, pm_code_name(rc), err.path);
	if (json_is_integer(json_object_get(c, "resolved_snapshot")))
		assert_int_equal(pm_table_snapshot_id(table),
						 json_integer_value(json_object_get(c, "resolved_snapshot")));
	if (json_is_integer(json_object_get(c, "schema_id")))
		assert_int_equal(pm_table_schema(table)->id,
						 json_integer_value(json_object_get(c, "schema_id")));
	row = pm_table_schema(table)->row_type;
	ncols = (int) json_array_size(columns);
	for (int i = 0; i < ncols; i++)
	{
		int			f = pm_type_field_index(row, json_string_value(json_array_get(columns, i)));

		assert_true(f >= 0);
		fields[nfields++] = f;
	}
	if (pred_text != NULL)
	{
		pparser		p = {pred_text, row, arena, true};
		int			pf[64],
					npf = 0;

		pred = pp_or(&p);
		pp_space(&p);
		if (!p.ok || *p.s != '\0')
			fail_msg("%s: cannot translate predicate \"%s\"", name, pred_text);
		collect_fields(pred, pf, &npf);
		for (int i = 0; i < npf; i++)
			fields[nfields++] = pf[i];
	}

	for (size_t i = 0; i < json_array_size(rows); i++)
	{
		sbuf		sb = {0};

		canon_json(&sb, json_array_get(rows, i));
		rowset_add(&want, sb.s);
	}

	/* planned without the predicate, filtered here */
	read_rows(table, NULL, pred, fields, nfields, ncols, &got, &stats, merged);
	assert_int_equal(stats.files_pruned_partition + stats.files_pruned_stats, 0);
	assert_int_equal(stats.files_selected, stats.files_total);
	compare_rows(name, &got, &want);
	rowset_free(&got);

	/* planned with the predicate: pruning must keep every matching row */
	if (pred != NULL)
	{
		read_rows(table, pred, pred, fields, nfields, ncols, &got, &stats, merged);
		assert_int_equal(stats.files_selected + stats.files_pruned_partition +
						 stats.files_pruned_bucket + stats.files_pruned_stats +
						 stats.files_pruned_index, stats.files_total);
		print_message("%s: files total %lld, pruned by partition %lld, by stats %lld\n", name,
					  (long long) stats.files_total, (long long) stats.files_pruned_partition,
					  (long long) stats.files_pruned_stats);
		compare_rows(name, &got, &want);
		rowset_free(&got);
	}
	rowset_free(&want);
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_local_fileio_destroy(io);
	free((void *) opts.external_path_map);
	free(table_dir);
	json_decref(c);
}

/* A test that fails with the message in its state (a case file we cannot use). */
static void
fail_with_state(void **state)
{
	fail_msg("%s", (const char *) *state);
}

/* The test standing for the cases of an absent corpus: skipped or failed. */
static void
missing_cases(void **state)
{
	unit_require_corpus();		/* skips or fails when the corpus is absent */
	fail_msg("%s", (const char *) *state);
}

/*
 * Missing input never passes silently: an absent corpus gives one test that
 * is skipped (or fails, when input is required), a case file that cannot be
 * parsed or has no table_kind a failing test of its name, and a corpus
 * without any case of `kind` a failing test.
 */
int
corpus_case_tests(const char *kind, void (*fn) (void **state), const struct CMUnitTest *extra,
				  int nextra, struct CMUnitTest **out)
{
	char	   *dir = strdup(unit_corpus_path("expected"));
	DIR		   *d = opendir(dir);
	struct dirent *de;
	struct CMUnitTest *tests = NULL;
	char	  **names = NULL;
	char		msg[4400];
	int			nn = 0,
				n = 0,
				ncases = 0;

	while (d != NULL && (de = readdir(d)) != NULL)
	{
		size_t		len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0)
		{
			names = realloc(names, sizeof(char *) * (nn + 1));
			names[nn++] = strdup(de->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	if (nn > 0)
		qsort(names, nn, sizeof(char *), cmp_str);
	tests = calloc((size_t) (nn + nextra + 2), sizeof(*tests));
	for (int i = 0; i < nn; i++)
	{
		char		path[4096];
		json_t	   *c;
		json_error_t jerr;
		const char *case_kind;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		c = json_load_file(path, 0, &jerr);
		case_kind = json_string_value(json_object_get(c, "table_kind"));
		if (c == NULL || case_kind == NULL)
		{
			if (c == NULL)
				snprintf(msg, sizeof(msg), "%s: not valid JSON: %s (line %d)", path, jerr.text,
						 jerr.line);
			else
				snprintf(msg, sizeof(msg), "%s: no string \"table_kind\"", path);
			tests[n].name = strdup(names[i]);
			tests[n].test_func = fail_with_state;
			tests[n].initial_state = strdup(msg);
			n++;
		}
		else if (strcmp(case_kind, kind) == 0)
		{
			tests[n].name = strdup(names[i]);
			tests[n].test_func = fn;
			tests[n].initial_state = strdup(path);
			n++;
			ncases++;
		}
		json_decref(c);
		free(names[i]);
	}
	free(names);
	if (ncases == 0)
	{
		snprintf(msg, sizeof(msg), "no expected case of table_kind \"%s\" in %s", kind, dir);
		tests[n].name = strdup("corpus cases");
		tests[n].test_func = missing_cases;
		tests[n].initial_state = strdup(msg);
		n++;
	}
	free(dir);
	for (int i = 0; i < nextra; i++)
		tests[n++] = extra[i];
	*out = tests;
	return n;
}

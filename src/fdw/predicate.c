/*-------------------------------------------------------------------------
 * predicate.c
 *	  WHERE clauses -> pm_predicate trees for pruning.
 *
 * Translates what can be decided from partition values and min/max/null
 * statistics: column op value (=, <>, <, <=, >, >=), IN lists and <> ALL,
 * IS [NOT] NULL, boolean columns (b, NOT b, b IS [NOT] TRUE/FALSE), LIKE
 * with a literal prefix (the byte range of the prefix), and AND/OR of those
 * (NOT of the others comes as their negation from the planner). The column may be widened by a cast
 * that keeps order (int2 -> int4 -> int8, float4 -> float8). A value is a
 * constant or a run-time value (a Param: $1 of a prepared statement, a
 * value from an outer plan or an initplan, or ARRAY[] of those), which is
 * evaluated when the scan starts; while planning it only counts as pushed.
 * Pruning is inexact, so every qual is still
 * rechecked by the executor; a clause we cannot translate is simply left
 * out of an AND (and makes an OR untranslatable). Operators are those of
 * the column type's default btree operator family (by strategy number,
 * never by name). Constants are placed exactly among the field type's
 * values (const_fit): a constant the type cannot hold decides the
 * comparison (d < 1e40 on a DECIMAL is IS NOT NULL), one between two values
 * becomes the comparison with its neighbour. Never pushed: anything with a
 * function around the column, non-constant operands, string equality under
 * a nondeterministic collation, string ranges under a non-C collation
 * (Paimon orders bytes), CHAR(n) fields, NaN. Equality that bucket pruning
 * must not hash (float zero, TIMESTAMP(7..9)) is pushed as a range.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "datatype/timestamp.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "table/predicate.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/array.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "nodes/pathnodes.h"
#include "executor/executor.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"

typedef struct TranslateContext
{
	Relation	rel;
	Index		relid;
	const pm_type *row_type;
	pm_arena   *arena;
	PlanState  *ps;				/* the executing scan; NULL while planning */
	bool		runtime;		/* the qual being translated uses a run-time value */
	bool		inexact;		/* a translation keeps more rows than the qual */
} TranslateContext;

/*
 * Casts that keep the order and the value of every value of the column:
 * integer and float widening.
 */
static bool
order_keeping_cast(Oid funcid)
{
	return funcid == F_INT4_INT2 || funcid == F_INT8_INT2 || funcid == F_INT8_INT4 ||
		funcid == F_FLOAT8_FLOAT4;
}

/* The Paimon field index of a plain column reference, or -1. */
static int
var_field(TranslateContext *cxt, Node *node)
{
	Var		   *var;
	const char *name;

	while (node && IsA(node, FuncExpr) && order_keeping_cast(((FuncExpr *) node)->funcid) &&
		   list_length(((FuncExpr *) node)->args) == 1)
		node = linitial(((FuncExpr *) node)->args);
	if (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	if (node == NULL || !IsA(node, Var))
		return -1;
	var = (Var *) node;
	if (var->varno != cxt->relid || var->varlevelsup != 0 || var->varattno <= 0)
		return -1;
	name = NameStr(TupleDescAttr(RelationGetDescr(cxt->rel), var->varattno - 1)->attname);
	return pm_type_field_index(cxt->row_type, name);
}

/*
 * Where a constant falls among the values of a field's Paimon type, in the
 * order Postgres compares the column with it. Every answer is exact; a
 * constant that cannot be placed exactly is not pushed.
 */
typedef enum LiteralFit
{
	FIT_UNUSABLE,				/* do not push */
	FIT_EXACT,					/* lo is the constant */
	FIT_BETWEEN,				/* lo < constant < hi, neighbours in the type */
	FIT_BELOW,					/* below every value of the type */
	FIT_ABOVE					/* above every value of the type */
} LiteralFit;

/*
 * A numeric's text ("-12.345", "NaN", "Infinity") at the column's scale,
 * with checked int128 arithmetic: beyond int128 is beyond every value.
 */
static LiteralFit
decimal_fit(const char *s, int scale, pm_int128 *lo, pm_int128 *hi)
{
	bool		neg = false;
	bool		digits = false;
	bool		inexact = false;
	pm_int128	v = 0;
	int			frac = -1;

	if (strcmp(s, "NaN") == 0 || strcmp(s, "Infinity") == 0)
		return FIT_ABOVE;		/* Postgres orders numeric NaN above Infinity */
	if (strcmp(s, "-Infinity") == 0)
		return FIT_BELOW;
	if (*s == '-' || *s == '+')
		neg = (*s++ == '-');
	for (; *s; s++)
	{
		if (*s == '.' && frac < 0)
		{
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			return FIT_UNUSABLE;
		digits = true;
		if (frac >= 0 && frac == scale)
		{
			inexact |= *s != '0';	/* below the column's scale */
			continue;
		}
		if (frac >= 0)
			frac++;
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *s - '0', &v))
			return neg ? FIT_BELOW : FIT_ABOVE;
	}
	if (!digits)
		return FIT_UNUSABLE;
	for (int i = frac < 0 ? 0 : frac; i < scale; i++)
		if (__builtin_mul_overflow(v, 10, &v))
			return neg ? FIT_BELOW : FIT_ABOVE;
	if (neg)
		v = -v;
	*lo = *hi = v;
	if (!inexact)
		return FIT_EXACT;
	/* v is the constant truncated toward zero: its neighbour is away from zero */
	if (neg ? __builtin_sub_overflow(v, 1, lo) : __builtin_add_overflow(v, 1, hi))
		return neg ? FIT_BELOW : FIT_ABOVE;
	return FIT_BETWEEN;
}

/* An integer constant against an integer field of [min, max]. */
static LiteralFit
integer_fit(int64 v, int64 min, int64 max, pm_value *lo)
{
	if (v < min)
		return FIT_BELOW;
	if (v > max)
		return FIT_ABOVE;
	lo->u.i64 = v;
	return FIT_EXACT;
}

static bool
const_integer(Const *c, int64 *v)
{
	if (c->consttype == INT2OID)
		*v = DatumGetInt16(c->constvalue);
	else if (c->consttype == INT4OID)
		*v = DatumGetInt32(c->constvalue);
	else if (c->consttype == INT8OID)
		*v = DatumGetInt64(c->constvalue);
	else
		return false;
	return true;
}

/*
 * Place a non-null Const among the values of the field's type. Postgres
 * compares the column (the value as the FDW returns it) with the constant;
 * the answer says how that comparison reads on Paimon values.
 */
static LiteralFit
const_fit(const pm_type *ftype, Const *c, pm_value *lo, pm_value *hi)
{
	Datum		d = c->constvalue;
	int64		iv;

	memset(lo, 0, sizeof(*lo));
	memset(hi, 0, sizeof(*hi));
	if (c->constisnull)
		return FIT_UNUSABLE;
	switch (ftype->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			{
				int64_t		min,
							max;

				pm_type_int_range(ftype->id, &min, &max);
				return const_integer(c, &iv) ? integer_fit(iv, min, max, lo) : FIT_UNUSABLE;
			}
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			/* float4 widens to float8 exactly; Postgres compares real with float8 so */
			if (c->consttype == FLOAT4OID)
				lo->u.f64 = DatumGetFloat4(d);
			else if (c->consttype == FLOAT8OID)
				lo->u.f64 = DatumGetFloat8(d);
			else
				return FIT_UNUSABLE;
			/* NaN equals NaN in Postgres: no bound of the type */
			return isnan(lo->u.f64) ? FIT_UNUSABLE : FIT_EXACT;
		case PM_TYPE_DECIMAL:
			if (c->consttype == NUMERICOID)
				return decimal_fit(DatumGetCString(DirectFunctionCall1(numeric_out, d)),
								   ftype->scale, &lo->u.i128, &hi->u.i128);
			if (const_integer(c, &iv))
			{
				pm_int128	u = iv;

				for (int i = 0; i < ftype->scale; i++)
					if (__builtin_mul_overflow(u, 10, &u))
						return iv < 0 ? FIT_BELOW : FIT_ABOVE;
				lo->u.i128 = u;
				return FIT_EXACT;
			}
			return FIT_UNUSABLE;
		case PM_TYPE_VARCHAR:
			/*
			 * Not CHAR(n): its values may be padded in the file (statistics,
			 * partition values, bucket hash) and trimmed when read.
			 */
			if (c->consttype == TEXTOID || c->consttype == VARCHAROID)
			{
				text	   *t = DatumGetTextPP(d);

				lo->u.bytes.ptr = (const uint8_t *) VARDATA_ANY(t);
				lo->u.bytes.len = VARSIZE_ANY_EXHDR(t);
				return FIT_EXACT;
			}
			return FIT_UNUSABLE;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			if (c->consttype == BYTEAOID)
			{
				bytea	   *b = DatumGetByteaPP(d);

				lo->u.bytes.ptr = (const uint8_t *) VARDATA_ANY(b);
				lo->u.bytes.len = VARSIZE_ANY_EXHDR(b);
				return FIT_EXACT;
			}
			return FIT_UNUSABLE;
		case PM_TYPE_DATE:
			if (c->consttype == TIMESTAMPOID)
			{
				/*
				 * date vs timestamp compares the date's midnight: between
				 * two days unless the timestamp is a midnight. Not
				 * timestamptz: that depends on the time zone.
				 */
				Timestamp	t = DatumGetTimestamp(d);
				int64		day = t / USECS_PER_DAY;

				if (TIMESTAMP_NOT_FINITE(t))
					return FIT_UNUSABLE;
				if (t % USECS_PER_DAY < 0)
					day--;
				lo->u.i64 = day + UNIX_TO_PG_DAYS;
				hi->u.i64 = lo->u.i64 + 1;
				return (int64) day * USECS_PER_DAY == t ? FIT_EXACT : FIT_BETWEEN;
			}
			/* date is an int32 day number: shifted exactly, infinities included */
			if (c->consttype != DATEOID)
				return FIT_UNUSABLE;
			lo->u.i64 = (int64) DatumGetDateADT(d) + UNIX_TO_PG_DAYS;
			return FIT_EXACT;
		case PM_TYPE_TIMESTAMP:
			if (c->consttype == DATEOID)
			{
				/* timestamp vs date: the date's midnight, if a timestamp can hold it */
				DateADT		day = DatumGetDateADT(d);

				if (DATE_NOT_FINITE(day) || day < DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE ||
					day >= TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)
					return FIT_UNUSABLE;
				lo->u.i64 = ((int64) day + UNIX_TO_PG_DAYS) * USECS_PER_DAY;
				return FIT_EXACT;
			}
			/* FALLTHROUGH */
		case PM_TYPE_TIMESTAMP_LTZ:
			/* int64 microseconds: shifted with a checked add */
			if (c->consttype != (ftype->id == PM_TYPE_TIMESTAMP ? TIMESTAMPOID : TIMESTAMPTZOID))
				return FIT_UNUSABLE;
			if (__builtin_add_overflow(DatumGetTimestamp(d), UNIX_TO_PG_MICROS, &iv))
				return FIT_ABOVE;
			lo->u.i64 = iv;
			return FIT_EXACT;
		case PM_TYPE_BOOLEAN:
			if (c->consttype != BOOLOID)
				return FIT_UNUSABLE;
			lo->u.i64 = DatumGetBool(d) ? 1 : 0;
			return FIT_EXACT;
		default:
			return FIT_UNUSABLE;
	}
}

static pm_predicate *
new_pred(TranslateContext *cxt, pm_pred_op op)
{
	pm_predicate *p = pm_arena_zalloc(cxt->arena, sizeof(pm_predicate));

	if (p == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	p->op = op;
	p->field = -1;
	return p;
}

static pm_predicate *
new_leaf(TranslateContext *cxt, pm_pred_op op, int field, const pm_value *lit)
{
	pm_predicate *p = new_pred(cxt, op);

	p->field = field;
	if (lit != NULL)
	{
		p->literals = pm_arena_zalloc(cxt->arena, sizeof(pm_value));
		if (p->literals == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		p->literals[0] = *lit;
		p->nliterals = 1;
	}
	return p;
}

/*
 * Equality that must not reach bucket pruning, which hashes the literal's
 * bytes: -0 = 0 on floats; a TIMESTAMP(7..9) value equals the literal when
 * its microseconds do, whatever its nanoseconds.
 */
static bool
equality_as_range(const pm_type *ftype, const pm_value *v)
{
	if (ftype->id == PM_TYPE_FLOAT || ftype->id == PM_TYPE_DOUBLE)
		return v->u.f64 == 0;
	if (ftype->id == PM_TYPE_TIMESTAMP || ftype->id == PM_TYPE_TIMESTAMP_LTZ)
		return ftype->precision > 6;
	return false;
}

/*
 * "field op constant" for a constant placed by const_fit: the comparison
 * on the type's values, or decided for every non-null value.
 */
static pm_predicate *
comparison(TranslateContext *cxt, pm_pred_op op, int field, LiteralFit fit,
		   const pm_value *lo, const pm_value *hi)
{
	const pm_type *ftype = cxt->row_type->fields[field].type;

	if (op == PM_PRED_NE && fit != FIT_EXACT)
		return new_leaf(cxt, PM_PRED_IS_NOT_NULL, field, NULL);
	switch (fit)
	{
		case FIT_UNUSABLE:
			return NULL;
		case FIT_EXACT:
			if (op == PM_PRED_EQ && equality_as_range(ftype, lo))
			{
				pm_predicate *and = new_pred(cxt, PM_PRED_AND);

				and->children = pm_arena_zalloc(cxt->arena, sizeof(pm_predicate *) * 2);
				if (and->children == NULL)
					ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
				and->children[0] = new_leaf(cxt, PM_PRED_GE, field, lo);
				and->children[1] = new_leaf(cxt, PM_PRED_LE, field, lo);
				and->nchildren = 2;
				return and;
			}
			return new_leaf(cxt, op, field, lo);
		case FIT_BETWEEN:
			if (op == PM_PRED_EQ)
				return new_pred(cxt, PM_PRED_FALSE);
			if (op == PM_PRED_LT || op == PM_PRED_LE)
				return new_leaf(cxt, PM_PRED_LE, field, lo);
			return new_leaf(cxt, PM_PRED_GE, field, hi);
		case FIT_BELOW:
			if (op == PM_PRED_GT || op == PM_PRED_GE)
				return new_leaf(cxt, PM_PRED_IS_NOT_NULL, field, NULL);
			return new_pred(cxt, PM_PRED_FALSE);
		case FIT_ABOVE:
			if (op == PM_PRED_LT || op == PM_PRED_LE)
				return new_leaf(cxt, PM_PRED_IS_NOT_NULL, field, NULL);
			return new_pred(cxt, PM_PRED_FALSE);
	}
	return NULL;
}

/*
 * The comparison opno makes, if it is a member of the default btree
 * operator family of the column's type (what the column's own ordering
 * means; a user-defined "=" on search_path is not), or the negator of its
 * equality; as written when !commuted, else with operands swapped.
 */
static bool
btree_comparison(Oid opno, Oid coltype, bool commuted, pm_pred_op *op)
{
	/* the default btree opclass's family, from the type cache (GetDefaultOpClass scans pg_opclass) */
	Oid			family = lookup_type_cache(coltype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Oid			negator;

	if (!OidIsValid(family))
		return false;
	switch (get_op_opfamily_strategy(opno, family))
	{
		case BTLessStrategyNumber:
			*op = commuted ? PM_PRED_GT : PM_PRED_LT;
			return true;
		case BTLessEqualStrategyNumber:
			*op = commuted ? PM_PRED_GE : PM_PRED_LE;
			return true;
		case BTEqualStrategyNumber:
			*op = PM_PRED_EQ;
			return true;
		case BTGreaterEqualStrategyNumber:
			*op = commuted ? PM_PRED_LE : PM_PRED_GE;
			return true;
		case BTGreaterStrategyNumber:
			*op = commuted ? PM_PRED_LT : PM_PRED_GT;
			return true;
		default:
			break;
	}
	/* <>: the negator of the family's equality, and that equality's negator */
	negator = get_negator(opno);
	if (OidIsValid(negator) && get_negator(negator) == opno &&
		get_op_opfamily_strategy(negator, family) == BTEqualStrategyNumber)
	{
		*op = PM_PRED_NE;
		return true;
	}
	return false;
}

/*
 * Collation rules for strings: equality only under a deterministic
 * collation (a nondeterministic one equates different bytes), ranges only
 * where Postgres orders bytes as Paimon does (C collation).
 */
static bool
collation_ok(const pm_type *ftype, pm_pred_op op, Oid collid)
{
	if (!pm_type_is_string(ftype->id))
		return true;
	if (!OidIsValid(collid))
		return false;
	if (op == PM_PRED_EQ || op == PM_PRED_NE || op == PM_PRED_IN)
		return get_collation_isdeterministic(collid);
	return lc_collate_is_c(collid);
}

static pm_predicate *translate_qual(TranslateContext *cxt, Node *node);

/*
 * A value known only when the scan runs: a Param ($1 of a prepared
 * statement, a value an outer plan or an initplan sets), possibly relabeled,
 * or an ARRAY[] of those and constants. Evaluating it cannot fail.
 */
static bool
is_runtime_value(Node *node)
{
	ListCell   *lc;

	if (node != NULL && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	if (node == NULL)
		return false;
	if (IsA(node, Param))
		return ((Param *) node)->paramkind == PARAM_EXTERN ||
			((Param *) node)->paramkind == PARAM_EXEC;
	if (!IsA(node, ArrayExpr) || ((ArrayExpr *) node)->multidims)
		return false;
	foreach(lc, ((ArrayExpr *) node)->elements)
		if (!IsA(lfirst(lc), Const) && !is_runtime_value(lfirst(lc)))
			return false;
	return true;
}

/*
 * The value of an operand as a Const: a constant, or a run-time value
 * evaluated in the executing scan (its value for this scan or rescan).
 * NULL when the operand is neither, or while planning (*deferred set: a
 * run-time value, pushed when the scan runs).
 */
static Const *
operand_value(TranslateContext *cxt, Node *node, bool *deferred)
{
	ExprState  *state;
	Datum		d;
	bool		isnull;
	Oid			type;
	int16		typlen;
	bool		typbyval;

	*deferred = false;
	if (node != NULL && IsA(node, Const))
		return (Const *) node;
	if (!is_runtime_value(node))
		return NULL;
	cxt->runtime = true;
	if (cxt->ps == NULL)
	{
		*deferred = true;
		return NULL;
	}
	/*
	 * No parent node: an expression with the scan as parent is JIT-compiled
	 * when the plan is over jit_above_cost, one module per scan and rescan
	 * (each outer row of a lookup join). Like ExecPrepareExpr, plus the
	 * query's parameters so PL/pgSQL's compile hook still applies.
	 */
	state = ExecInitExprWithParams((Expr *) node,
								   cxt->ps->state->es_param_list_info);
	d = ExecEvalExpr(state, cxt->ps->ps_ExprContext, &isnull);
	type = exprType(node);
	get_typlenbyval(type, &typlen, &typbyval);
	return makeConst(type, exprTypmod(node), exprCollation(node), typlen,
					 isnull ? (Datum) 0 : datumCopy(d, typbyval, typlen), isnull, typbyval);
}

/* A qual with a run-time value, while planning: keeps everything. */
static pm_predicate *
deferred_pred(TranslateContext *cxt)
{
	return new_pred(cxt, PM_PRED_AND);
}

static pm_predicate *
and_of(TranslateContext *cxt, pm_predicate *a, pm_predicate *b)
{
	pm_predicate *and = new_pred(cxt, PM_PRED_AND);

	and->children = pm_arena_zalloc(cxt->arena, sizeof(pm_predicate *) * 2);
	if (and->children == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	and->children[0] = a;
	and->children[1] = b;
	and->nchildren = 2;
	return and;
}

/*
 * field LIKE pattern (text or bytea, backslash escapes): a value matches
 * only if it starts with the pattern's literal prefix, i.e. lies in the
 * byte range [prefix, successor of prefix). LIKE matches bytes whatever the
 * (deterministic) collation, and Paimon orders strings by their bytes.
 * Without a wildcard it is byte equality.
 */
static pm_predicate *
like_prefix(TranslateContext *cxt, int field, const uint8 *pat, int n)
{
	uint8	   *prefix = pm_arena_alloc(cxt->arena, n + 1);
	uint8	   *succ;
	int			len = 0;
	bool		wildcard = false;
	pm_value	lo,
				hi;
	pm_predicate *ge;

	if (prefix == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	for (int i = 0; i < n && !wildcard; i++)
	{
		if (pat[i] == '%' || pat[i] == '_')
		{
			wildcard = true;
			/* only a trailing % makes the prefix range exact */
			if (pat[i] != '%' || i != n - 1)
				cxt->inexact = true;
		}
		else if (pat[i] == '\\' && ++i >= n)
			return NULL;		/* ends with the escape: LIKE raises an error */
		else
			prefix[len++] = pat[i];
	}
	memset(&lo, 0, sizeof(lo));
	lo.u.bytes.ptr = prefix;
	lo.u.bytes.len = len;
	if (!wildcard)
		return comparison(cxt, PM_PRED_EQ, field, FIT_EXACT, &lo, &lo);
	if (len == 0)
		return new_leaf(cxt, PM_PRED_IS_NOT_NULL, field, NULL);
	ge = new_leaf(cxt, PM_PRED_GE, field, &lo);
	/* the successor: drop trailing 0xFF bytes, increment the last byte left */
	while (len > 0 && prefix[len - 1] == 0xFF)
		len--;
	if (len == 0)
		return ge;
	succ = pm_arena_alloc(cxt->arena, len);
	if (succ == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	memcpy(succ, prefix, len);
	succ[len - 1]++;
	hi = lo;
	hi.u.bytes.ptr = succ;
	hi.u.bytes.len = len;
	return and_of(cxt, ge, new_leaf(cxt, PM_PRED_LT, field, &hi));
}

static pm_predicate *
translate_like(TranslateContext *cxt, OpExpr *op, int field, Node *other)
{
	const pm_type *ftype = cxt->row_type->fields[field].type;
	Oid			func = get_opcode(op->opno);
	bool		deferred;
	Const	   *c;

	if (func == F_TEXTLIKE)
	{
		/* bytes as Paimon has them (UTF-8); LIKE refuses nondeterministic collations */
		if (ftype->id != PM_TYPE_VARCHAR || !OidIsValid(op->inputcollid) ||
			!get_collation_isdeterministic(op->inputcollid) ||
			(GetDatabaseEncoding() != PG_UTF8 && GetDatabaseEncoding() != PG_SQL_ASCII))
			return NULL;
	}
	else if (func != F_BYTEALIKE ||
			 (ftype->id != PM_TYPE_BINARY && ftype->id != PM_TYPE_VARBINARY))
		return NULL;
	c = operand_value(cxt, other, &deferred);
	if (deferred)
		return deferred_pred(cxt);
	if (c == NULL)
		return NULL;
	if (c->constisnull)
		return new_pred(cxt, PM_PRED_FALSE);	/* LIKE NULL is never true */
	if (c->consttype != TEXTOID && c->consttype != BYTEAOID && c->consttype != VARCHAROID)
		return NULL;
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(c->constvalue);

		return like_prefix(cxt, field, (const uint8 *) VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
	}
}

static pm_predicate *
translate_opexpr(TranslateContext *cxt, OpExpr *op)
{
	Node	   *col,
			   *other;
	int			field;
	bool		commuted = false;
	bool		deferred;
	pm_pred_op	pop;
	pm_value	lo,
				hi;
	const pm_type *ftype;
	Const	   *c;

	if (list_length(op->args) != 2)
		return NULL;
	col = linitial(op->args);
	other = lsecond(op->args);
	field = var_field(cxt, col);
	if (field >= 0 && (get_opcode(op->opno) == F_TEXTLIKE || get_opcode(op->opno) == F_BYTEALIKE))
		return translate_like(cxt, op, field, other);
	if (field < 0)
	{
		col = lsecond(op->args);
		other = linitial(op->args);
		field = var_field(cxt, col);
		commuted = true;
	}
	if (field < 0)
		return NULL;
	if (!btree_comparison(op->opno, exprType(col), commuted, &pop))
		return NULL;
	ftype = cxt->row_type->fields[field].type;
	if (!collation_ok(ftype, pop, op->inputcollid))
		return NULL;
	c = operand_value(cxt, other, &deferred);
	if (deferred)
		return deferred_pred(cxt);
	if (c == NULL)
		return NULL;
	if (c->constisnull)
		return new_pred(cxt, PM_PRED_FALSE);	/* btree operators are strict */
	return comparison(cxt, pop, field, const_fit(ftype, c, &lo, &hi), &lo, &hi);
}

/*
 * field = ANY(array) (IN) and field <> ALL(array) (NOT IN), with a
 * constant or run-time array.
 */
static pm_predicate *
translate_in(TranslateContext *cxt, ScalarArrayOpExpr *saop)
{
	int			field;
	Node	   *col;
	Const	   *arr;
	ArrayType  *a;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	pm_predicate *p;
	const pm_type *ftype;
	pm_pred_op	pop;
	bool		deferred;

	if (list_length(saop->args) != 2)
		return NULL;
	col = linitial(saop->args);
	field = var_field(cxt, col);
	if (field < 0)
		return NULL;
	if (!btree_comparison(saop->opno, exprType(col), false, &pop) ||
		pop != (saop->useOr ? PM_PRED_EQ : PM_PRED_NE))
		return NULL;
	ftype = cxt->row_type->fields[field].type;
	if (!collation_ok(ftype, PM_PRED_IN, saop->inputcollid))
		return NULL;
	arr = operand_value(cxt, lsecond(saop->args), &deferred);
	if (deferred)
		return deferred_pred(cxt);
	if (arr == NULL)
		return NULL;
	if (arr->constisnull)
		return new_pred(cxt, PM_PRED_FALSE);	/* = ANY(NULL), <> ALL(NULL): NULL */
	a = DatumGetArrayTypeP(arr->constvalue);
	get_typlenbyvalalign(ARR_ELEMTYPE(a), &typlen, &typbyval, &typalign);
	deconstruct_array(a, ARR_ELEMTYPE(a), typlen, typbyval, typalign, &elems, &nulls, &n);
	if (!saop->useOr)
	{
		/* every element differs: an AND of <> (one NULL element: never true) */
		p = new_pred(cxt, PM_PRED_AND);
		p->children = pm_arena_zalloc(cxt->arena, sizeof(pm_predicate *) * (n > 0 ? n : 1));
		if (p->children == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		for (int i = 0; i < n; i++)
		{
			Const		ec;
			pm_value	lo,
						hi;
			pm_predicate *child;

			if (nulls[i])
				return new_pred(cxt, PM_PRED_FALSE);
			memset(&ec, 0, sizeof(ec));
			ec.consttype = ARR_ELEMTYPE(a);
			ec.constvalue = elems[i];
			child = comparison(cxt, PM_PRED_NE, field, const_fit(ftype, &ec, &lo, &hi), &lo, &hi);
			if (child != NULL)
				p->children[p->nchildren++] = child;
		}
		return p->nchildren > 0 ? p : NULL;
	}
	p = new_pred(cxt, PM_PRED_IN);
	p->field = field;
	p->literals = pm_arena_zalloc(cxt->arena, sizeof(pm_value) * (n > 0 ? n : 1));
	if (p->literals == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	for (int i = 0; i < n; i++)
	{
		Const		ec;
		pm_value	hi;

		if (nulls[i])
			continue;			/* x = NULL never matches */
		memset(&ec, 0, sizeof(ec));
		ec.consttype = ARR_ELEMTYPE(a);
		ec.constvalue = elems[i];
		ec.constisnull = false;
		switch (const_fit(ftype, &ec, &p->literals[p->nliterals], &hi))
		{
			case FIT_UNUSABLE:
				return NULL;
			case FIT_EXACT:
				p->nliterals++;
				break;
			default:
				break;			/* equal to no value of the type */
		}
	}
	if (p->nliterals == 0)
		return new_pred(cxt, PM_PRED_FALSE);
	if (p->nliterals == 1)
		return comparison(cxt, PM_PRED_EQ, field, FIT_EXACT, &p->literals[0], &p->literals[0]);
	return p;
}

/* A boolean column by itself: b, NOT b, b IS [NOT] TRUE/FALSE/UNKNOWN. */
static int
bool_field(TranslateContext *cxt, Node *node)
{
	int			field;

	if (node == NULL || !IsA(node, Var) || exprType(node) != BOOLOID)
		return -1;
	field = var_field(cxt, node);
	if (field < 0 || cxt->row_type->fields[field].type->id != PM_TYPE_BOOLEAN)
		return -1;
	return field;
}

static pm_predicate *
bool_equals(TranslateContext *cxt, int field, bool value)
{
	pm_value	v;

	memset(&v, 0, sizeof(v));
	v.u.i64 = value ? 1 : 0;
	return new_leaf(cxt, PM_PRED_EQ, field, &v);
}

static pm_predicate *
translate_boolean_test(TranslateContext *cxt, BooleanTest *bt)
{
	int			field = bool_field(cxt, (Node *) bt->arg);
	pm_predicate *or;

	if (field < 0)
		return NULL;
	switch (bt->booltesttype)
	{
		case IS_TRUE:
			return bool_equals(cxt, field, true);
		case IS_FALSE:
			return bool_equals(cxt, field, false);
		case IS_UNKNOWN:
			return new_leaf(cxt, PM_PRED_IS_NULL, field, NULL);
		case IS_NOT_UNKNOWN:
			return new_leaf(cxt, PM_PRED_IS_NOT_NULL, field, NULL);
		case IS_NOT_TRUE:
		case IS_NOT_FALSE:
			or = and_of(cxt, bool_equals(cxt, field, bt->booltesttype == IS_NOT_FALSE),
						new_leaf(cxt, PM_PRED_IS_NULL, field, NULL));
			or->op = PM_PRED_OR;
			return or;
	}
	return NULL;
}

static pm_predicate *
translate_qual(TranslateContext *cxt, Node *node)
{
	int			field;

	if (node == NULL)
		return NULL;
	if ((field = bool_field(cxt, node)) >= 0)
		return bool_equals(cxt, field, true);
	switch (nodeTag(node))
	{
		case T_OpExpr:
			return translate_opexpr(cxt, (OpExpr *) node);
		case T_ScalarArrayOpExpr:
			return translate_in(cxt, (ScalarArrayOpExpr *) node);
		case T_BooleanTest:
			return translate_boolean_test(cxt, (BooleanTest *) node);
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) node;
				int			field = var_field(cxt, (Node *) nt->arg);
				pm_predicate *p;

				if (field < 0 || nt->argisrow)
					return NULL;
				p = new_pred(cxt, nt->nulltesttype == IS_NULL ? PM_PRED_IS_NULL : PM_PRED_IS_NOT_NULL);
				p->field = field;
				return p;
			}
		case T_BoolExpr:
			{
				BoolExpr   *b = (BoolExpr *) node;
				pm_predicate *p;
				ListCell   *lc;

				/*
				 * The planner already turned NOT of a comparison, null test or
				 * boolean test into its negation (negate_clause: the negator
				 * of a btree operator, with the same NULL and NaN behaviour):
				 * what is left here is NOT of a boolean column.
				 */
				if (b->boolop == NOT_EXPR)
				{
					int			bf = bool_field(cxt, linitial(b->args));

					return bf >= 0 ? bool_equals(cxt, bf, false) : NULL;
				}
				p = new_pred(cxt, b->boolop == AND_EXPR ? PM_PRED_AND : PM_PRED_OR);
				p->children = pm_arena_zalloc(cxt->arena,
											  sizeof(pm_predicate *) * list_length(b->args));
				foreach(lc, b->args)
				{
					pm_predicate *child = translate_qual(cxt, lfirst(lc));

					if (child == NULL)
					{
						if (b->boolop == OR_EXPR)
							return NULL;
						cxt->inexact = true;
						continue;
					}
					p->children[p->nchildren++] = child;
				}
				if (p->nchildren == 0)
					return NULL;
				return p;
			}
		default:
			return NULL;
	}
}

/*
 * The predicate of a scan's quals. ps is the executing scan (run-time
 * values are evaluated in it), or NULL while planning. *npushed counts the
 * quals pushed with constants, *nruntime those with run-time values.
 */
pm_predicate *
pmfdw_build_predicate(List *quals, Relation rel, Index relid, const pm_type *row_type,
					  pm_arena *arena, PlanState *ps, int *npushed, int *nruntime)
{
	TranslateContext cxt = {rel, relid, row_type, arena, ps, false, false};
	pm_predicate *and = new_pred(&cxt, PM_PRED_AND);
	ListCell   *lc;

	*npushed = *nruntime = 0;
	and->children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * (list_length(quals) + 1));
	foreach(lc, quals)
	{
		Node	   *q = lfirst(lc);
		pm_predicate *p;

		if (IsA(q, RestrictInfo))
			q = (Node *) ((RestrictInfo *) q)->clause;
		cxt.runtime = false;
		p = translate_qual(&cxt, q);
		if (p == NULL)
			continue;
		and->children[and->nchildren++] = p;
		if (cxt.runtime)
			(*nruntime)++;
		else
			(*npushed)++;
	}
	return and->nchildren > 0 ? and : NULL;
}

/*
 * The predicate of quals when it keeps exactly the rows they keep (every
 * qual translated, with constants only, none widened to a range it does
 * not fill): then evaluating it on the rows (table/batch_filter.h) can
 * replace the quals. NULL otherwise, and for no quals.
 */
pm_predicate *
pmfdw_exact_predicate(List *quals, Relation rel, Index relid, const pm_type *row_type,
					  pm_arena *arena)
{
	TranslateContext cxt = {rel, relid, row_type, arena, NULL, false, false};
	pm_predicate *and;
	ListCell   *lc;

	if (quals == NIL)
		return NULL;
	and = new_pred(&cxt, PM_PRED_AND);
	and->children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * (list_length(quals) + 1));
	foreach(lc, quals)
	{
		Node	   *q = lfirst(lc);
		pm_predicate *p;

		if (IsA(q, RestrictInfo))
			q = (Node *) ((RestrictInfo *) q)->clause;
		cxt.runtime = false;
		p = translate_qual(&cxt, q);
		if (p == NULL || cxt.runtime || cxt.inexact)
			return NULL;
		and->children[and->nchildren++] = p;
	}
	return and;
}

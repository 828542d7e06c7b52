/*-------------------------------------------------------------------------
 * predicate.c
 *	  WHERE clauses -> pm_predicate trees for pruning.
 *
 * Translates what can be decided from partition values and min/max/null
 * statistics: column op constant (=, <>, <, <=, >, >=), IN lists, IS [NOT]
 * NULL, and AND/OR of those. Pruning is inexact, so every qual is still
 * rechecked by the executor; a clause we cannot translate is simply left
 * out of an AND (and makes an OR untranslatable). Never pushed: anything
 * with a function around the column, non-constant operands, range
 * comparisons of text under a non-C collation (Paimon orders bytes), NaN.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "catalog/pg_type.h"
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
#include "nodes/pathnodes.h"

#define UNIX_TO_PG_DAYS		((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE))
#define UNIX_TO_PG_MICROS	(UNIX_TO_PG_DAYS * USECS_PER_DAY)

typedef struct TranslateContext
{
	Relation	rel;
	Index		relid;
	const pm_type *row_type;
	pm_arena   *arena;
} TranslateContext;

/* The Paimon field index of a plain column reference, or -1. */
static int
var_field(TranslateContext *cxt, Node *node)
{
	Var		   *var;
	const char *name;

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

/* Parse "123.45" into an unscaled value at `scale`; false if not exact. */
static bool
decimal_from_text(const char *s, int scale, pm_int128 *out)
{
	bool		neg = false;
	pm_int128	v = 0;
	int			frac = -1;

	if (*s == '-' || *s == '+')
		neg = (*s++ == '-');
	for (; *s; s++)
	{
		if (*s == '.')
		{
			if (frac >= 0)
				return false;
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			return false;
		if (frac >= 0)
		{
			if (frac == scale)
			{
				if (*s != '0')
					return false;	/* more digits than the column keeps */
				continue;
			}
			frac++;
		}
		if (v > ((pm_int128) 1 << 120))
			return false;
		v = v * 10 + (*s - '0');
	}
	for (int i = frac < 0 ? 0 : frac; i < scale; i++)
		v *= 10;
	*out = neg ? -v : v;
	return true;
}

/* Convert a Const to a literal of the field's Paimon type; false if we cannot. */
static bool
const_to_value(const pm_type *ftype, Const *c, pm_value *out)
{
	Datum		d = c->constvalue;

	memset(out, 0, sizeof(*out));
	if (c->constisnull)
		return false;
	switch (ftype->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			if (c->consttype == INT2OID)
				out->u.i64 = DatumGetInt16(d);
			else if (c->consttype == INT4OID)
				out->u.i64 = DatumGetInt32(d);
			else if (c->consttype == INT8OID)
				out->u.i64 = DatumGetInt64(d);
			else
				return false;
			return true;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (c->consttype == FLOAT4OID)
				out->u.f64 = DatumGetFloat4(d);
			else if (c->consttype == FLOAT8OID)
				out->u.f64 = DatumGetFloat8(d);
			else
				return false;
			return !isnan(out->u.f64);
		case PM_TYPE_DECIMAL:
			if (c->consttype == NUMERICOID)
			{
				char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out, d));

				return decimal_from_text(s, ftype->scale, &out->u.i128);
			}
			if (c->consttype == INT4OID || c->consttype == INT8OID || c->consttype == INT2OID)
			{
				int64		v = c->consttype == INT8OID ? DatumGetInt64(d) :
					c->consttype == INT4OID ? DatumGetInt32(d) : DatumGetInt16(d);
				pm_int128	u = v;

				for (int i = 0; i < ftype->scale; i++)
					u *= 10;
				out->u.i128 = u;
				return true;
			}
			return false;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			if (c->consttype == TEXTOID || c->consttype == VARCHAROID)
			{
				text	   *t = DatumGetTextPP(d);

				out->u.bytes.ptr = (const uint8_t *) VARDATA_ANY(t);
				out->u.bytes.len = VARSIZE_ANY_EXHDR(t);
				return true;
			}
			return false;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			if (c->consttype == BYTEAOID)
			{
				bytea	   *b = DatumGetByteaPP(d);

				out->u.bytes.ptr = (const uint8_t *) VARDATA_ANY(b);
				out->u.bytes.len = VARSIZE_ANY_EXHDR(b);
				return true;
			}
			return false;
		case PM_TYPE_DATE:
			if (c->consttype != DATEOID || DATE_NOT_FINITE(DatumGetDateADT(d)))
				return false;
			out->u.i64 = (int64) DatumGetDateADT(d) + UNIX_TO_PG_DAYS;
			return true;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (c->consttype != (ftype->id == PM_TYPE_TIMESTAMP ? TIMESTAMPOID : TIMESTAMPTZOID) ||
				TIMESTAMP_NOT_FINITE(DatumGetTimestamp(d)))
				return false;
			out->u.i64 = DatumGetTimestamp(d) + UNIX_TO_PG_MICROS;
			return true;
		case PM_TYPE_BOOLEAN:
			if (c->consttype != BOOLOID)
				return false;
			out->u.i64 = DatumGetBool(d) ? 1 : 0;
			return true;
		default:
			return false;
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

static bool
op_from_name(const char *name, pm_pred_op *op, bool commuted)
{
	static const struct
	{
		const char *name;
		pm_pred_op	op;
		pm_pred_op	commuted;
	}			ops[] = {
		{"=", PM_PRED_EQ, PM_PRED_EQ},
		{"<>", PM_PRED_NE, PM_PRED_NE},
		{"<", PM_PRED_LT, PM_PRED_GT},
		{"<=", PM_PRED_LE, PM_PRED_GE},
		{">", PM_PRED_GT, PM_PRED_LT},
		{">=", PM_PRED_GE, PM_PRED_LE},
	};

	for (size_t i = 0; i < lengthof(ops); i++)
		if (strcmp(name, ops[i].name) == 0)
		{
			*op = commuted ? ops[i].commuted : ops[i].op;
			return true;
		}
	return false;
}

/* Range comparisons of text are pushed only where Postgres orders bytes too. */
static bool
collation_ok(const pm_type *ftype, pm_pred_op op, Oid collid)
{
	if (!pm_type_is_string(ftype->id) || op == PM_PRED_EQ || op == PM_PRED_NE)
		return true;
	return OidIsValid(collid) && lc_collate_is_c(collid);
}

static pm_predicate *translate_qual(TranslateContext *cxt, Node *node);

static pm_predicate *
translate_opexpr(TranslateContext *cxt, OpExpr *op)
{
	Node	   *l,
			   *r;
	int			field;
	bool		commuted = false;
	Const	   *c;
	pm_pred_op	pop;
	pm_predicate *p;
	const pm_type *ftype;

	if (list_length(op->args) != 2)
		return NULL;
	l = linitial(op->args);
	r = lsecond(op->args);
	field = var_field(cxt, l);
	if (field < 0)
	{
		field = var_field(cxt, r);
		commuted = true;
		r = l;
	}
	if (field < 0 || r == NULL || !IsA(r, Const))
		return NULL;
	c = (Const *) r;
	if (!op_from_name(get_opname(op->opno), &pop, commuted))
		return NULL;
	ftype = cxt->row_type->fields[field].type;
	if (!collation_ok(ftype, pop, op->inputcollid))
		return NULL;
	p = new_pred(cxt, pop);
	p->field = field;
	p->nliterals = 1;
	p->literals = pm_arena_zalloc(cxt->arena, sizeof(pm_value));
	if (!const_to_value(ftype, c, &p->literals[0]))
		return NULL;
	return p;
}

static pm_predicate *
translate_in(TranslateContext *cxt, ScalarArrayOpExpr *saop)
{
	int			field;
	Node	   *arr;
	Const	   *c;
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

	if (!saop->useOr || list_length(saop->args) != 2)
		return NULL;
	if (!op_from_name(get_opname(saop->opno), &pop, false) || pop != PM_PRED_EQ)
		return NULL;
	field = var_field(cxt, linitial(saop->args));
	arr = lsecond(saop->args);
	if (field < 0 || arr == NULL || !IsA(arr, Const) || ((Const *) arr)->constisnull)
		return NULL;
	c = (Const *) arr;
	ftype = cxt->row_type->fields[field].type;
	a = DatumGetArrayTypeP(c->constvalue);
	get_typlenbyvalalign(ARR_ELEMTYPE(a), &typlen, &typbyval, &typalign);
	deconstruct_array(a, ARR_ELEMTYPE(a), typlen, typbyval, typalign, &elems, &nulls, &n);
	p = new_pred(cxt, PM_PRED_IN);
	p->field = field;
	p->literals = pm_arena_zalloc(cxt->arena, sizeof(pm_value) * (n > 0 ? n : 1));
	for (int i = 0; i < n; i++)
	{
		Const		ec;

		if (nulls[i])
			continue;			/* x = NULL never matches */
		memset(&ec, 0, sizeof(ec));
		ec.consttype = ARR_ELEMTYPE(a);
		ec.constvalue = elems[i];
		ec.constisnull = false;
		if (!const_to_value(ftype, &ec, &p->literals[p->nliterals]))
			return NULL;
		p->nliterals++;
	}
	return p;
}

static pm_predicate *
translate_qual(TranslateContext *cxt, Node *node)
{
	if (node == NULL)
		return NULL;
	switch (nodeTag(node))
	{
		case T_OpExpr:
			return translate_opexpr(cxt, (OpExpr *) node);
		case T_ScalarArrayOpExpr:
			return translate_in(cxt, (ScalarArrayOpExpr *) node);
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

				if (b->boolop == NOT_EXPR)
					return NULL;
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

pm_predicate *
pmfdw_build_predicate(List *quals, Relation rel, Index relid, const pm_type *row_type,
					  pm_arena *arena, int *npushed)
{
	TranslateContext cxt = {rel, relid, row_type, arena};
	pm_predicate *and = new_pred(&cxt, PM_PRED_AND);
	ListCell   *lc;

	*npushed = 0;
	and->children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * (list_length(quals) + 1));
	foreach(lc, quals)
	{
		Node	   *q = lfirst(lc);
		pm_predicate *p;

		if (IsA(q, RestrictInfo))
			q = (Node *) ((RestrictInfo *) q)->clause;
		p = translate_qual(&cxt, q);
		if (p != NULL)
			and->children[and->nchildren++] = p;
	}
	*npushed = and->nchildren;
	return and->nchildren > 0 ? and : NULL;
}

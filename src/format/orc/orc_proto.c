/*-------------------------------------------------------------------------
 * orc_proto.c
 *	  Decode the protobuf messages of an ORC file tail: PostScript, Footer
 *	  (with StripeInformation and Type) and StripeFooter (Stream,
 *	  ColumnEncoding).
 *
 * Hand-written: a minimal protobuf wire-format decoder for the few messages
 * the reader needs (no protobuf-c schema is compiled into this project).
 * Unknown fields are skipped; every length is checked against the message
 * bounds; repeated fields are counted before they are allocated, so a
 * hostile footer allocates no more than its own size allows. Fields not
 * needed to read rows (statistics, metadata, encryption) are skipped.
 *
 * Spec: Apache ORC orc_proto.proto (field numbers cited per message below).
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_int.h"

#include <string.h>

typedef struct pb
{
	const uint8_t *p;
	const uint8_t *end;
} pb;

/* wire types */
#define WT_VARINT	0
#define WT_64		1
#define WT_LEN		2
#define WT_32		5

static bool
pb_varint(pb *b, uint64_t *v)
{
	uint64_t	r = 0;

	for (int shift = 0; shift < 64; shift += 7)
	{
		uint8_t		c;

		if (b->p >= b->end)
			return false;
		c = *b->p++;
		r |= (uint64_t) (c & 0x7f) << shift;
		if ((c & 0x80) == 0)
		{
			*v = r;
			return true;
		}
	}
	return false;
}

/* Next field tag; false at the end or on a malformed tag. */
static bool
pb_tag(pb *b, uint32_t *field, int *wt, bool *bad)
{
	uint64_t	t;

	*bad = false;
	if (b->p >= b->end)
		return false;
	if (!pb_varint(b, &t) || (t >> 3) == 0 || (t >> 3) > 0x1fffffff)
	{
		*bad = true;
		return false;
	}
	*field = (uint32_t) (t >> 3);
	*wt = (int) (t & 7);
	return true;
}

static bool
pb_len(pb *b, pb *sub)
{
	uint64_t	len;

	if (!pb_varint(b, &len) || len > (uint64_t) (b->end - b->p))
		return false;
	sub->p = b->p;
	sub->end = b->p + len;
	b->p += len;
	return true;
}

static bool
pb_skip(pb *b, int wt)
{
	uint64_t	v;
	pb			sub;

	switch (wt)
	{
		case WT_VARINT:
			return pb_varint(b, &v);
		case WT_64:
			if (b->end - b->p < 8)
				return false;
			b->p += 8;
			return true;
		case WT_LEN:
			return pb_len(b, &sub);
		case WT_32:
			if (b->end - b->p < 4)
				return false;
			b->p += 4;
			return true;
	}
	return false;
}

static pm_code
bad(pm_error *err, const char *what)
{
	return pm_fail(err, PM_ERR_CORRUPT, "invalid orc %s", what);
}

/* A varint field value (wire type checked). */
static bool
pb_uint(pb *b, int wt, uint64_t *v)
{
	return wt == WT_VARINT && pb_varint(b, v);
}

/*
 * How many length-delimited records of field `field` message b holds
 * (repeated messages); false if the message is malformed.
 */
static bool
pb_count_records(pb b, uint32_t field, int *n)
{
	uint32_t	f;
	int			wt;
	bool		malformed;

	*n = 0;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		if (f == field && wt == WT_LEN)
			(*n)++;
		if (!pb_skip(&b, wt))
			return false;
	}
	return !malformed;
}

/*
 * How many values the repeated integer field `field` holds in message b,
 * packed or not; false if the message is malformed.
 */
static bool
pb_count_uints(pb b, uint32_t field, int *n)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	uint64_t	v;

	*n = 0;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		if (f == field && wt == WT_LEN)
		{
			pb			s;

			if (!pb_len(&b, &s))
				return false;
			for (; s.p < s.end; (*n)++)
				if (!pb_varint(&s, &v))
					return false;
			continue;
		}
		if (f == field && wt == WT_VARINT)
			(*n)++;
		if (!pb_skip(&b, wt))
			return false;
	}
	return !malformed;
}

/*
 * The values of a repeated integer field's record (wire type wt, packed or
 * not) appended to out[*n], up to cap of them; false if malformed.
 */
static bool
pb_read_uints(pb *b, int wt, uint64_t *out, int *n, int cap)
{
	uint64_t	v;

	if (wt == WT_VARINT)
	{
		if (!pb_varint(b, &v))
			return false;
		if (*n < cap)
			out[(*n)++] = v;
		return true;
	}
	if (wt == WT_LEN)
	{
		pb			s;

		if (!pb_len(b, &s))
			return false;
		while (s.p < s.end)
		{
			if (!pb_varint(&s, &v))
				return false;
			if (*n < cap)
				out[(*n)++] = v;
		}
		return true;
	}
	return false;
}

static char *
pb_strdup(pm_arena *arena, pb *s)
{
	return pm_arena_strndup(arena, (const char *) s->p, (size_t) (s->end - s->p));
}

/*
 * PostScript: 1 footerLength, 2 compression, 3 compressionBlockSize,
 * 4 version, 5 metadataLength, 6 writerVersion, 8000 magic.
 */
pm_code
orc_parse_postscript(const uint8_t *buf, size_t len, orc_postscript *ps, pm_error *err)
{
	pb			b = {buf, buf + len};
	uint32_t	f;
	int			wt;
	bool		malformed;
	bool		magic = false;

	memset(ps, 0, sizeof(*ps));
	ps->block_size = 256 * 1024;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok = true;

		if (f == 1)
			ok = pb_uint(&b, wt, &ps->footer_length);
		else if (f == 2)
			ok = pb_uint(&b, wt, &ps->compression);
		else if (f == 3)
			ok = pb_uint(&b, wt, &ps->block_size);
		else if (f == 5)
			ok = pb_uint(&b, wt, &ps->metadata_length);
		else if (f == 8000 && wt == WT_LEN)
		{
			pb			s;

			ok = pb_len(&b, &s);
			magic = ok && s.end - s.p == 3 && memcmp(s.p, "ORC", 3) == 0;
		}
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "postscript");
	}
	if (malformed)
		return bad(err, "postscript");
	if (!magic)
		return pm_fail(err, PM_ERR_CORRUPT, "not an orc file: postscript magic missing");
	return PM_OK;
}

/*
 * Type: 1 kind, 2 subtypes (packed or not), 3 fieldNames, 4 maximumLength,
 * 5 precision, 6 scale, 7 attributes (ignored).
 */
static pm_code
parse_type(pb b, pm_arena *arena, orc_type *t, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			nsub,
				nnames;
	uint64_t	v;

	if (!pb_count_uints(b, 2, &nsub) || !pb_count_records(b, 3, &nnames))
		return bad(err, "type");

	memset(t, 0, sizeof(*t));
	t->kind = -1;
	t->subtypes = pm_arena_alloc(arena, sizeof(uint32_t) * (nsub + 1));
	t->names = pm_arena_zalloc(arena, sizeof(char *) * (nnames + 1));
	if (t->subtypes == NULL || t->names == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc footer");
	nnames = 0;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok = true;

		/* a value is stored only once read: v is unset after a failed read */
		if (f == 1)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				t->kind = v > 1000 ? 1000 : (int) v;
		}
		else if (f == 2 && wt == WT_LEN)
		{
			pb			s;

			ok = pb_len(&b, &s);
			while (ok && s.p < s.end && (ok = pb_varint(&s, &v)))
				t->subtypes[t->nsubtypes++] = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else if (f == 2)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				t->subtypes[t->nsubtypes++] = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else if (f == 3 && wt == WT_LEN)
		{
			pb			s;

			ok = pb_len(&b, &s);
			if (ok && (t->names[nnames++] = pb_strdup(arena, &s)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc footer");
		}
		else if (f == 4 || f == 5 || f == 6)
		{
			uint32_t   *dst = f == 4 ? &t->max_length : f == 5 ? &t->precision : &t->scale;

			if ((ok = pb_uint(&b, wt, &v)))
				*dst = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "type");
	}
	if (t->kind < 0)
		return bad(err, "type: kind missing");
	if (t->kind == ORC_STRUCT && nnames != t->nsubtypes)
		return bad(err, "struct type: field names do not match subtypes");
	return PM_OK;
}

/* StripeInformation: 1 offset, 2 indexLength, 3 dataLength, 4 footerLength, 5 numberOfRows */
static pm_code
parse_stripe_info(pb b, orc_stripe_info *s, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;

	memset(s, 0, sizeof(*s));
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok;

		if (f >= 1 && f <= 5)
		{
			uint64_t   *dst[] = {&s->offset, &s->index_length, &s->data_length,
			&s->footer_length, &s->nrows};

			ok = pb_uint(&b, wt, dst[f - 1]);
		}
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "stripe information");
	}
	return malformed ? bad(err, "stripe information") : PM_OK;
}

/* Footer: 3 stripes, 4 types, 6 numberOfRows; the rest is skipped. */
pm_code
orc_parse_footer(const uint8_t *buf, size_t len, pm_arena *arena, orc_footer *ft,
				 pm_error *err)
{
	pb			b = {buf, buf + len};
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			nstripes,
				ntypes;

	memset(ft, 0, sizeof(*ft));
	if (!pb_count_records(b, 3, &nstripes) || !pb_count_records(b, 4, &ntypes))
		return bad(err, "footer");
	ft->stripes = pm_arena_zalloc(arena, sizeof(orc_stripe_info) * (nstripes + 1));
	ft->types = pm_arena_zalloc(arena, sizeof(orc_type) * (ntypes + 1));
	if (ft->stripes == NULL || ft->types == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc footer");
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;

		if (f == 3 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "footer");
			PM_TRY(parse_stripe_info(s, &ft->stripes[ft->nstripes++], err));
		}
		else if (f == 4 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "footer");
			PM_TRY(parse_type(s, arena, &ft->types[ft->ntypes++], err));
		}
		else if (f == 6)
		{
			if (!pb_uint(&b, wt, &ft->nrows))
				return bad(err, "footer");
		}
		else if (f == 8)
		{
			if (!pb_uint(&b, wt, &ft->row_index_stride))
				return bad(err, "footer");
		}
		else if (!pb_skip(&b, wt))
			return bad(err, "footer");
	}
	if (ft->ntypes == 0)
		return bad(err, "footer: no types");
	/* subtypes must point forward (types are a pre-order tree): no cycles */
	for (int i = 0; i < ft->ntypes; i++)
		for (int j = 0; j < ft->types[i].nsubtypes; j++)
			if (ft->types[i].subtypes[j] <= (uint32_t) i ||
				ft->types[i].subtypes[j] >= (uint32_t) ft->ntypes)
				return bad(err, "footer: subtype out of range");
	return PM_OK;
}

/* Stream: 1 kind, 2 column, 3 length */
static pm_code
parse_stream(pb b, orc_stream_info *s, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	uint64_t	v;

	memset(s, 0, sizeof(*s));
	s->kind = -1;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok;

		/* a value is stored only once read: v is unset after a failed read */
		if (f == 1)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				s->kind = v > 1000 ? 1000 : (int) v;
		}
		else if (f == 2)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				s->column = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else if (f == 3)
			ok = pb_uint(&b, wt, &s->length);
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "stream");
	}
	return malformed ? bad(err, "stream") : PM_OK;
}

/* ColumnEncoding: 1 kind, 2 dictionarySize, 3 bloomEncoding */
static pm_code
parse_encoding(pb b, int *kind, uint32_t *dict_size, uint32_t *bloom_encoding, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	uint64_t	v;

	*kind = ORC_E_DIRECT;
	*dict_size = 0;
	*bloom_encoding = 0;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok;

		/* a value is stored only once read: v is unset after a failed read */
		if (f == 1)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				*kind = v > 3 ? 1000 : (int) v;
		}
		else if (f == 2)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				*dict_size = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else if (f == 3)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				*bloom_encoding = (uint32_t) (v > UINT32_MAX ? UINT32_MAX : v);
		}
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "column encoding");
	}
	return malformed ? bad(err, "column encoding") : PM_OK;
}

/* StripeFooter: 1 streams, 2 columns, 3 writerTimezone */
pm_code
orc_parse_stripe_footer(const uint8_t *buf, size_t len, pm_arena *arena,
						orc_stripe_footer *sf, pm_error *err)
{
	pb			b = {buf, buf + len};
	pb			scan = b;
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			nstreams = 0,
				ncols = 0;

	memset(sf, 0, sizeof(*sf));
	while (pb_tag(&scan, &f, &wt, &malformed))
	{
		if (f == 1 && wt == WT_LEN)
			nstreams++;
		else if (f == 2 && wt == WT_LEN)
			ncols++;
		if (!pb_skip(&scan, wt))
			return bad(err, "stripe footer");
	}
	if (malformed)
		return bad(err, "stripe footer");
	sf->streams = pm_arena_alloc(arena, sizeof(orc_stream_info) * (nstreams + 1));
	sf->encodings = pm_arena_alloc(arena, sizeof(int) * (ncols + 1));
	sf->dict_sizes = pm_arena_alloc(arena, sizeof(uint32_t) * (ncols + 1));
	sf->bloom_encodings = pm_arena_alloc(arena, sizeof(uint32_t) * (ncols + 1));
	sf->writer_timezone = pm_arena_strdup(arena, "");
	if (!sf->streams || !sf->encodings || !sf->dict_sizes || !sf->bloom_encodings ||
		!sf->writer_timezone)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc stripe footer");
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;

		if (f == 1 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "stripe footer");
			PM_TRY(parse_stream(s, &sf->streams[sf->nstreams++], err));
		}
		else if (f == 2 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "stripe footer");
			PM_TRY(parse_encoding(s, &sf->encodings[sf->ncolumns],
								  &sf->dict_sizes[sf->ncolumns],
								  &sf->bloom_encodings[sf->ncolumns], err));
			sf->ncolumns++;
		}
		else if (f == 3 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "stripe footer");
			if ((sf->writer_timezone = pb_strdup(arena, &s)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc stripe footer");
		}
		else if (!pb_skip(&b, wt))
			return bad(err, "stripe footer");
	}
	return malformed ? bad(err, "stripe footer") : PM_OK;
}

/* ---- stripe statistics (Metadata) ------------------------------------- */

static int64_t
pb_unzigzag(uint64_t v)
{
	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

static bool
pb_double(pb *b, int wt, double *out)
{
	uint64_t	u = 0;

	if (wt != WT_64 || b->end - b->p < 8)
		return false;
	for (int i = 7; i >= 0; i--)
		u = (u << 8) | b->p[i];
	memcpy(out, &u, sizeof(u));
	b->p += 8;
	return true;
}

/* Min and max of Integer/Double/Date statistics; false on bad structure. */
static bool
parse_min_max(pb b, int kind, orc_col_stats *cs)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	bool		has_min = false,
				has_max = false;
	uint64_t	v;
	double		d;

	while (pb_tag(&b, &f, &wt, &malformed))
	{
		if ((f == 1 || f == 2) && kind == 3 && wt == WT_64)
		{
			if (!pb_double(&b, wt, &d))
				return false;
			if (f == 1)
				cs->double_min = d, has_min = true;
			else
				cs->double_max = d, has_max = true;
		}
		else if ((f == 1 || f == 2) && kind != 3 && wt == WT_VARINT)
		{
			int64_t		x;

			if (!pb_varint(&b, &v))
				return false;
			x = pb_unzigzag(v);
			if (kind == 2)
			{
				if (f == 1)
					cs->int_min = x, has_min = true;
				else
					cs->int_max = x, has_max = true;
			}
			else if (x >= INT32_MIN && x <= INT32_MAX)
			{
				if (f == 1)
					cs->date_min = (int32_t) x, has_min = true;
				else
					cs->date_max = (int32_t) x, has_max = true;
			}
		}
		else if (!pb_skip(&b, wt))
			return false;
	}
	if (malformed)
		return false;
	if (kind == 2)
		cs->has_int = has_min && has_max;
	else if (kind == 3)
		cs->has_double = has_min && has_max;
	else
		cs->has_date = has_min && has_max;
	return true;
}

/*
 * String (kind 4: minimum 1, maximum 2, lowerBound 4, upperBound 5) and
 * decimal (kind 6: minimum 1, maximum 2) statistics.
 */
static bool
parse_text_min_max(pb b, int kind, orc_col_stats *cs)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	pb			mn = {NULL, NULL},
				mx = {NULL, NULL},
				lo = {NULL, NULL},
				hi = {NULL, NULL};

	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;

		if (wt == WT_LEN && (f == 1 || f == 2 || (kind == 4 && (f == 4 || f == 5))))
		{
			if (!pb_len(&b, &s))
				return false;
			if (f == 1)
				mn = s;
			else if (f == 2)
				mx = s;
			else if (f == 4)
				lo = s;
			else
				hi = s;
		}
		else if (!pb_skip(&b, wt))
			return false;
	}
	if (malformed)
		return false;
	if (mn.p == NULL)
		mn = lo;
	if (mx.p == NULL)
		mx = hi;
	if (mn.p == NULL || mx.p == NULL)
		return true;
	if (kind == 4)
	{
		cs->str_min = mn.p;
		cs->str_min_len = (uint32_t) (mn.end - mn.p);
		cs->str_max = mx.p;
		cs->str_max_len = (uint32_t) (mx.end - mx.p);
	}
	else
	{
		cs->dec_min = mn.p;
		cs->dec_min_len = (uint32_t) (mn.end - mn.p);
		cs->dec_max = mx.p;
		cs->dec_max_len = (uint32_t) (mx.end - mx.p);
	}
	return true;
}

static bool
parse_col_stats(pb b, orc_col_stats *cs)
{
	uint32_t	f;
	int			wt;
	bool		malformed;

	memset(cs, 0, sizeof(*cs));
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;
		bool		ok = true;

		if (f == 1 && wt == WT_VARINT)
		{
			if (!pb_varint(&b, &cs->nvalues))
				return false;
			cs->has_nvalues = true;
			continue;
		}
		if (wt != WT_LEN || (f != 2 && f != 3 && f != 4 && f != 6 && f != 7))
		{
			if (!pb_skip(&b, wt))
				return false;
			continue;
		}
		if (!pb_len(&b, &s))
			return false;
		if (f == 4 || f == 6)
			ok = parse_text_min_max(s, (int) f, cs);
		else
			ok = parse_min_max(s, (int) f, cs);
		if (!ok)
			return false;
	}
	return !malformed;
}

/* Metadata: 1 repeated StripeStatistics { 1 repeated ColumnStatistics } */
pm_code
orc_parse_metadata(const uint8_t *buf, size_t len, pm_arena *arena, int *nstripes,
				   orc_stripe_stats **out, pm_error *err)
{
	pb			b = {buf, buf + len};
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			n;
	orc_stripe_stats *ss;

	*nstripes = 0;
	*out = NULL;
	if (!pb_count_records(b, 1, &n))
		return bad(err, "metadata");
	ss = pm_arena_zalloc(arena, sizeof(orc_stripe_stats) * (size_t) (n + 1));
	if (ss == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc metadata");
	n = 0;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			st,
					cs;
		uint32_t	g;
		int			gwt;
		int			ncols;

		if (!(f == 1 && wt == WT_LEN))
		{
			if (!pb_skip(&b, wt))
				return bad(err, "metadata");
			continue;
		}
		if (!pb_len(&b, &st))
			return bad(err, "metadata");
		if (!pb_count_records(st, 1, &ncols))
			return bad(err, "stripe statistics");
		ss[n].cols = pm_arena_zalloc(arena, sizeof(orc_col_stats) * (size_t) (ncols + 1));
		if (ss[n].cols == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc metadata");
		while (pb_tag(&st, &g, &gwt, &malformed))
		{
			if (g == 1 && gwt == WT_LEN)
			{
				if (!pb_len(&st, &cs) || !parse_col_stats(cs, &ss[n].cols[ss[n].ncols]))
					return bad(err, "column statistics");
				ss[n].ncols++;
			}
			else if (!pb_skip(&st, gwt))
				return bad(err, "stripe statistics");
		}
		n++;
	}
	if (malformed)
		return bad(err, "metadata");
	*nstripes = n;
	*out = ss;
	return PM_OK;
}

/* BloomFilter: 1 numHashFunctions, 3 utf8bitset (2, the original bitset, is skipped) */
static pm_code
parse_bloom(pb b, pm_arena *arena, orc_bloom *out, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	uint64_t	v;
	pb			bits = {NULL, NULL};

	memset(out, 0, sizeof(*out));
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		bool		ok;

		if (f == 1)
		{
			if ((ok = pb_uint(&b, wt, &v)))
				out->nhash = (int32_t) (v > 1000 ? 0 : v);
		}
		else if (f == 3 && wt == WT_LEN)
			ok = pb_len(&b, &bits);
		else
			ok = pb_skip(&b, wt);
		if (!ok)
			return bad(err, "bloom filter");
	}
	if (malformed)
		return bad(err, "bloom filter");
	if (bits.p != NULL && out->nhash > 0)
	{
		size_t		blen = (size_t) (bits.end - bits.p);

		/* unusable (then nbits stays 0): empty, odd-sized or huge */
		if (blen == 0 || blen % 8 != 0 || blen > (size_t) INT32_MAX / 8)
			return PM_OK;
		out->words = pm_arena_alloc(arena, blen);
		if (out->words == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading an orc bloom filter");
		for (size_t w = 0; w < blen / 8; w++)
		{
			uint64_t	x = 0;

			for (int k = 7; k >= 0; k--)
				x = (x << 8) | bits.p[w * 8 + (size_t) k];
			out->words[w] = x;
		}
		out->nbits = (int32_t) (blen * 8);
	}
	return PM_OK;
}

/* one element of a repeated message field, parsed into out (of the field's type) */
typedef pm_code (*pb_element_fn) (pb b, pm_arena *arena, void *out, pm_error *err);

/*
 * The records of repeated message field 1 of buf (BloomFilterIndex,
 * RowIndex): *n elements of elem_size bytes in arena, each parsed by parse.
 */
static pm_code
parse_repeated(const uint8_t *buf, size_t len, pm_arena *arena, size_t elem_size,
			   pb_element_fn parse, const char *what, int *n, void **out, pm_error *err)
{
	pb			b = {buf, buf + len};
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			count;
	char	   *elems;

	*n = 0;
	*out = NULL;
	if (!pb_count_records(b, 1, &count))
		return bad(err, what);
	elems = pm_arena_zalloc(arena, elem_size * (size_t) (count + 1));
	if (elems == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading an orc %s", what);
	*out = elems;
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;

		if (f == 1 && wt == WT_LEN && *n < count)
		{
			if (!pb_len(&b, &s))
				return bad(err, what);
			PM_TRY(parse(s, arena, elems + elem_size * (size_t) (*n)++, err));
		}
		else if (!pb_skip(&b, wt))
			return bad(err, what);
	}
	return malformed ? bad(err, what) : PM_OK;
}

static pm_code
bloom_element(pb b, pm_arena *arena, void *out, pm_error *err)
{
	return parse_bloom(b, arena, out, err);
}

/* BloomFilterIndex: 1 bloomFilter (repeated) */
pm_code
orc_parse_bloom_index(const uint8_t *buf, size_t len, pm_arena *arena, int *n,
					  orc_bloom **out, pm_error *err)
{
	void	   *elems;
	pm_code		rc = parse_repeated(buf, len, arena, sizeof(orc_bloom), bloom_element,
									"bloom filter index", n, &elems, err);

	*out = elems;
	return rc;
}

/* RowIndexEntry: 1 positions (packed or not), 2 statistics */
static pm_code
parse_row_index_entry(pb b, pm_arena *arena, orc_row_index_entry *e, pm_error *err)
{
	uint32_t	f;
	int			wt;
	bool		malformed;
	int			npos;

	memset(e, 0, sizeof(*e));
	if (!pb_count_uints(b, 1, &npos))
		return bad(err, "row index entry");
	e->pos = pm_arena_alloc(arena, sizeof(uint64_t) * (size_t) (npos + 1));
	if (e->pos == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading an orc row index");
	while (pb_tag(&b, &f, &wt, &malformed))
	{
		pb			s;

		if (f == 1 && (wt == WT_LEN || wt == WT_VARINT))
		{
			if (!pb_read_uints(&b, wt, e->pos, &e->npos, npos))
				return bad(err, "row index entry");
		}
		else if (f == 2 && wt == WT_LEN)
		{
			if (!pb_len(&b, &s))
				return bad(err, "row index entry");
			/* statistics it cannot decode: none (the group is kept) */
			e->has_stats = parse_col_stats(s, &e->stats);
			if (!e->has_stats)
				memset(&e->stats, 0, sizeof(e->stats));
		}
		else if (!pb_skip(&b, wt))
			return bad(err, "row index entry");
	}
	return malformed ? bad(err, "row index entry") : PM_OK;
}

static pm_code
row_index_element(pb b, pm_arena *arena, void *out, pm_error *err)
{
	return parse_row_index_entry(b, arena, out, err);
}

/* RowIndex: 1 entry (repeated) */
pm_code
orc_parse_row_index(const uint8_t *buf, size_t len, pm_arena *arena, int *n,
					orc_row_index_entry **out, pm_error *err)
{
	void	   *elems;
	pm_code		rc = parse_repeated(buf, len, arena, sizeof(orc_row_index_entry),
									row_index_element, "row index", n, &elems, err);

	*out = elems;
	return rc;
}

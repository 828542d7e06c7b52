/*-------------------------------------------------------------------------
 * external_path.c
 *	  data-file.external-paths for writers (external_path.h).
 *
 * Spec: apache/paimon release-1.4.2 AbstractFileStore.createExternalPaths,
 * CoreOptions.externalPathWeights / ExternalPathStrategy,
 * ExternalPathProvider.create, RoundRobinExternalPathProvider,
 * WeightedExternalPathProvider, EntropyInjectExternalPathProvider.
 *-------------------------------------------------------------------------
 */
#include "table/external_path.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/hash_bits.h"
#include "common/random.h"

typedef enum
{
	EP_ROUND_ROBIN,
	EP_WEIGHTED,
	EP_ENTROPY
} ep_strategy;

typedef struct ep_root
{
	const char *scheme;			/* as written ("file", "FILE") */
	const char *path;			/* normalized local path: no duplicate or trailing slash */
} ep_root;

struct pm_external_paths
{
	ep_strategy strategy;
	ep_root    *roots;
	int			nroots;
	int64_t    *cumulative;		/* weight-robin: running sums of the weights */
	int64_t		total;
	int			position;		/* round-robin and entropy-inject: the last root used */
	int			started;		/* round-robin: the random start was drawn */
};

/* s[0..len) trimmed of Java's String.trim() whitespace (<= ' '). */
static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && (unsigned char) (*s)[0] <= ' ')
		(*s)++, (*len)--;
	while (*len > 0 && (unsigned char) (*s)[*len - 1] <= ' ')
		(*len)--;
}

/* Path.normalizePath: duplicate slashes collapsed, a trailing one dropped. */
static char *
normalize(pm_arena *arena, const char *p)
{
	char	   *out = pm_arena_strdup(arena, p);
	size_t		n = 0;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; p[i] != '\0'; i++)
		if (!(p[i] == '/' && n > 0 && out[n - 1] == '/'))
			out[n++] = p[i];
	if (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
	return out;
}

/*
 * One root as Java's Path(String) parses it: scheme before a ':' that
 * comes before any '/', then "//authority".
 */
static pm_code
parse_root(const char *text, pm_arena *arena, ep_root *r, const char **scheme_out, pm_error *err)
{
	const char *colon = strchr(text, ':');
	const char *slash = strchr(text, '/');
	const char *rest;

	*scheme_out = NULL;
	if (colon == NULL || (slash != NULL && slash < colon))
		return pm_fail(err, PM_ERR_INVALID,
					   "table option data-file.external-paths: scheme should not be null: %s", text);
	if ((r->scheme = pm_arena_strndup(arena, text, (size_t) (colon - text))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*scheme_out = r->scheme;
	rest = colon + 1;
	if (strncmp(rest, "//", 2) == 0 && strlen(rest) > 2)
	{
		const char *next = strchr(rest + 2, '/');

		if (next != rest + 2)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option data-file.external-paths: %s is not written: only local paths (file:/...) are, with no host",
						   text);
		rest = next;
	}
	if (rest[0] != '/')
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option data-file.external-paths: %s is not written: only absolute local paths are",
					   text);
	if ((r->path = normalize(arena, rest)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static pm_code
parse_weights(const char *weights, pm_arena *arena, int64_t **out, int *n, pm_error *err)
{
	int			cap = 1;
	const char *p;

	for (p = weights; *p; p++)
		cap += *p == ',';
	if ((*out = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*n = 0;
	p = weights;
	for (;;)
	{
		const char *end = strchr(p, ',');
		size_t		len = end ? (size_t) (end - p) : strlen(p);
		const char *s = p;
		char		buf[32];
		char	   *e;
		long long	v;

		trim(&s, &len);
		/* Integer.parseInt: optional sign, decimal digits, within int */
		if (len == 0 || len >= sizeof(buf))
			goto bad;
		memcpy(buf, s, len);
		buf[len] = '\0';
		for (size_t i = (buf[0] == '+' || buf[0] == '-') ? 1 : 0; i < len; i++)
			if (!isdigit((unsigned char) buf[i]))
				goto bad;
		errno = 0;
		v = strtoll(buf, &e, 10);
		if (errno != 0 || *e != '\0' || v > INT_MAX || v < INT_MIN)
			goto bad;
		if (v <= 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option data-file.external-paths.weights = \"%s\": Weight must be positive, got: %lld",
						   weights, v);
		(*out)[(*n)++] = v;
		if (end == NULL)
			break;
		p = end + 1;
	}
	return PM_OK;
bad:
	return pm_fail(err, PM_ERR_INVALID,
				   "table option data-file.external-paths.weights = \"%s\": not a list of integers",
				   weights);
}

pm_code
pm_external_paths_parse(const char *paths, const char *strategy, const char *specific_fs,
						const char *weights, pm_arena *arena, pm_external_paths **out,
						pm_error *err)
{
	pm_external_paths *x;
	int64_t    *w = NULL;
	int			nw = 0;
	bool		specific = false;
	int			cap = 1;

	*out = NULL;
	/* CoreOptions.externalPathWeights is parsed whenever the path factory is made */
	if (weights != NULL)
		PM_TRY(parse_weights(weights, arena, &w, &nw, err));
	if ((x = pm_arena_zalloc(arena, sizeof(*x))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (strategy == NULL || strcasecmp(strategy, "none") == 0)
		return PM_OK;
	else if (strcasecmp(strategy, "round-robin") == 0)
		x->strategy = EP_ROUND_ROBIN;
	else if (strcasecmp(strategy, "specific-fs") == 0)
		x->strategy = EP_ROUND_ROBIN, specific = true;
	else if (strcasecmp(strategy, "weight-robin") == 0)
		x->strategy = EP_WEIGHTED;
	else if (strcasecmp(strategy, "entropy-inject") == 0)
		x->strategy = EP_ENTROPY;
	else
		return pm_fail(err, PM_ERR_INVALID,
					   "table option data-file.external-paths.strategy = \"%s\": expected one of none, specific-fs, round-robin, entropy-inject, weight-robin",
					   strategy);
	if (paths == NULL || paths[0] == '\0')
		return PM_OK;
	if (specific && specific_fs == NULL)
		return pm_fail(err, PM_ERR_INVALID,
					   "table option data-file.external-paths.strategy = specific-fs: External path specificFS should not be null when strategy is specificFS.");
	for (const char *p = paths; *p; p++)
		cap += *p == ',';
	if ((x->roots = pm_arena_alloc(arena, sizeof(ep_root) * (size_t) cap)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (const char *p = paths;;)
	{
		const char *end = strchr(p, ',');
		size_t		len = end ? (size_t) (end - p) : strlen(p);
		const char *s = p;
		char	   *text;
		const char *scheme;
		ep_root		r;
		pm_code		rc;

		trim(&s, &len);
		if ((text = pm_arena_strndup(arena, s, len)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (len == 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option data-file.external-paths = \"%s\": an empty path", paths);
		rc = parse_root(text, arena, &r, &scheme, err);
		if (scheme != NULL && strcasecmp(scheme, "file") != 0)
		{
			/* a root specific-fs leaves out is never written to */
			if (!(specific && strcasecmp(scheme, specific_fs) != 0))
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "table option data-file.external-paths: %s is not written: object storage is not supported, only local paths (file:/...)",
							   text);
		}
		else if (rc != PM_OK)
			return rc;
		else if (!specific || strcasecmp(scheme, specific_fs) == 0)
			x->roots[x->nroots++] = r;
		if (end == NULL)
			break;
		p = end + 1;
	}
	if (x->nroots == 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "table option data-file.external-paths = \"%s\": External paths should not be empty",
					   paths);
	if (x->strategy == EP_WEIGHTED)
	{
		if (x->nroots < 2 || w == NULL)
			x->strategy = EP_ROUND_ROBIN;
		else if (nw != x->nroots)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option data-file.external-paths.weights: The number of external paths and weights should be the same. Paths: %d, Weights: %d",
						   x->nroots, nw);
		else
		{
			if ((x->cumulative = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) nw)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			for (int i = 0; i < nw; i++)
				x->cumulative[i] = (x->total += w[i]);
		}
	}
	*out = x;
	return PM_OK;
}

bool
pm_external_paths_active(const char *paths, const char *strategy)
{
	return paths != NULL && paths[0] != '\0' && strategy != NULL && strcasecmp(strategy, "none") != 0;
}

int
pm_external_paths_count(const pm_external_paths *x)
{
	return x ? x->nroots : 0;
}

int32_t
pm_murmur3_32(const uint8_t *data, size_t len)
{
	uint32_t	h = 0;
	size_t		i;
	uint32_t	k = 0;

	for (i = 0; i + 4 <= len; i += 4)
		h = pm_murmur3_mix(h, (uint32_t) data[i] | (uint32_t) data[i + 1] << 8 |
						   (uint32_t) data[i + 2] << 16 | (uint32_t) data[i + 3] << 24);
	/* the standard tail (Guava's): the last bytes as one block, h not rotated */
	switch (len & 3)
	{
		case 3:
			k ^= (uint32_t) data[i + 2] << 16;
			/* fall through */
		case 2:
			k ^= (uint32_t) data[i + 1] << 8;
			/* fall through */
		case 1:
			k ^= data[i];
			k *= 0xcc9e2d51u;
			k = pm_rotl32(k, 15);
			k *= 0x1b873593u;
			h ^= k;
	}
	return (int32_t) pm_murmur3_final(h, (uint32_t) len);
}

char *
pm_entropy_dirs(const char *file_name, pm_arena *arena)
{
	uint32_t	h = (uint32_t) pm_murmur3_32((const uint8_t *) file_name, strlen(file_name));
	char		bits[21];
	char	   *out;

	for (int i = 0; i < 20; i++)
		bits[i] = (h >> (19 - i)) & 1 ? '1' : '0';
	bits[20] = '\0';
	out = pm_arena_sprintf(arena, "%.4s/%.4s/%.4s/%s", bits, bits + 4, bits + 8, bits + 12);
	return out;
}

pm_code
pm_external_paths_next(pm_external_paths *x, const char *relative_bucket_dir,
					   const char *file_name, pm_arena *arena, char **local_path,
					   char **recorded, pm_error *err)
{
	const ep_root *r;
	const char *entropy = NULL;
	char	   *rel;

	if (x->strategy == EP_WEIGHTED)
	{
		/* cumulativeWeightMap.higherEntry(random * total) */
		uint32_t	u;
		double		v;
		int			i = 0;

		PM_TRY(pm_random_u32(&u, err));
		v = (double) u / 4294967296.0 * (double) x->total;
		while (i < x->nroots - 1 && (double) x->cumulative[i] <= v)
			i++;
		r = &x->roots[i];
	}
	else
	{
		if (x->strategy == EP_ROUND_ROBIN && !x->started)
		{
			uint32_t	u;

			PM_TRY(pm_random_u32(&u, err));
			x->position = (int) (u % (uint32_t) x->nroots);
			x->started = 1;
		}
		/* entropy-inject starts at 0, so its first file goes to the second root */
		if (++x->position == x->nroots)
			x->position = 0;
		r = &x->roots[x->position];
		if (x->strategy == EP_ENTROPY && (entropy = pm_entropy_dirs(file_name, arena)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	rel = entropy ? pm_arena_sprintf(arena, "%s/%s/%s", relative_bucket_dir, entropy, file_name)
		: pm_arena_sprintf(arena, "%s/%s", relative_bucket_dir, file_name);
	if (rel == NULL ||
		(*local_path = pm_arena_sprintf(arena, "%s%s%s", r->path,
										strcmp(r->path, "/") == 0 ? "" : "/", rel)) == NULL ||
		(*recorded = pm_arena_sprintf(arena, "%s:%s", r->scheme, *local_path)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

const char *
pm_path_last_components(const char *dir, int ncomponents)
{
	size_t		len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (size_t i = len; i > 0; i--)
		if (dir[i - 1] == '/' && --ncomponents == 0)
			return dir + i;
	return NULL;
}

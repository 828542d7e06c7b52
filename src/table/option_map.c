/*-------------------------------------------------------------------------
 * option_map.c
 *	  Java's map-typed option values, split (option_map.h). Hand-written:
 *	  the splitting rules are Paimon's own (StructuredOptionsSplitter).
 *-------------------------------------------------------------------------
 */
#include "table/option_map.h"

#include <ctype.h>
#include <string.h>

/*
 * StructuredOptionsSplitter.splitEscaped(s, delim) of s[0..len): the parts,
 * in arena. false with *bad set for Java's IllegalArgumentException.
 */
static bool
split_escaped(const char *s, size_t len, char delim, pm_arena *arena, char ***parts, int *n,
			  const char **bad)
{
	char	  **out = pm_arena_alloc(arena, sizeof(char *) * (len + 2));
	char	   *buf = pm_arena_alloc(arena, len + 1);
	bool		prev_delim = false;	/* the token before was a delimiter */
	bool		prev_quoted = false;	/* ... a quoted string */

	*n = 0;
	*parts = out;
	if (out == NULL || buf == NULL)
	{
		*bad = "out of memory";
		return false;
	}
	for (size_t i = 0; i < len;)
	{
		char		c = s[i];
		size_t		b = 0;

		if (prev_quoted && c != delim && !isspace((unsigned char) c))
		{
			*bad = "Could not split string. Illegal quoting";
			return false;
		}
		if (c == '\'' || c == '"')
		{
			size_t		j;

			for (j = i + 1; j < len; j++)
			{
				if (s[j] != c)
					buf[b++] = s[j];
				else if (j + 1 < len && s[j + 1] == c)
					buf[b++] = s[j++];
				else
					break;
			}
			if (j >= len)
			{
				*bad = "Could not split string. Quoting was not closed properly.";
				return false;
			}
			buf[b] = '\0';
			if ((out[(*n)++] = pm_arena_strdup(arena, buf)) == NULL)
				return (*bad = "out of memory", false);
			i = j + 1;
			prev_delim = false;
			prev_quoted = true;
			continue;
		}
		if (isspace((unsigned char) c))
		{
			i++;				/* whitespace between tokens is no token */
			continue;
		}
		prev_quoted = false;
		if (c == delim)
		{
			/* DELIMITER followed by DELIMITER: an empty part */
			if (prev_delim)
				out[(*n)++] = "";
			prev_delim = true;
			i++;
			continue;
		}
		prev_delim = false;
		{
			size_t		j = i;
			size_t		start,
						end;

			while (j < len && s[j] != delim)
				j++;
			/* the unquoted token, trimmed */
			start = i;
			end = j;
			while (end > start && isspace((unsigned char) s[end - 1]))
				end--;
			if ((out[*n] = pm_arena_strndup(arena, s + start, end - start)) == NULL)
				return (*bad = "out of memory", false);
			(*n)++;
			i = j;
		}
	}
	return true;
}

pm_code
pm_option_map_parse(const char *key, const char *value, pm_arena *arena,
					const char ***keys, const char ***values, int *n, pm_error *err)
{
	char	  **items;
	int			nitems;
	const char *bad = NULL;

	*n = 0;
	if (!split_escaped(value, strlen(value), ',', arena, &items, &nitems, &bad))
		return pm_fail(err, PM_ERR_INVALID, "table option %s = \"%s\": %s", key, value, bad);
	*keys = pm_arena_alloc(arena, sizeof(char *) * (size_t) (nitems + 1));
	*values = pm_arena_alloc(arena, sizeof(char *) * (size_t) (nitems + 1));
	if (*keys == NULL || *values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nitems; i++)
	{
		char	  **pair;
		int			npair;

		if (!split_escaped(items[i], strlen(items[i]), ':', arena, &pair, &npair, &bad))
			return pm_fail(err, PM_ERR_INVALID, "table option %s = \"%s\": %s", key, value, bad);
		if (npair != 2)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option %s = \"%s\": Map item is not a key-value pair (missing ':'?)",
						   key, value);
		for (int k = 0; k < *n; k++)
			if (strcmp((*keys)[k], pair[0]) == 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "table option %s = \"%s\": Duplicate key %s", key, value, pair[0]);
		(*keys)[*n] = pair[0];
		(*values)[*n] = pair[1];
		(*n)++;
	}
	return PM_OK;
}

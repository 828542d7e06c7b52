/*-------------------------------------------------------------------------
 * unit.c
 *	  Shared helpers of the core unit tests.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *
unit_corpus_path(const char *relative)
{
	static char buf[4096];
	const char *root = getenv("PAIMON_CORPUS");

	if (root == NULL || root[0] == '\0')
		root = "../shared/corpus";
	snprintf(buf, sizeof(buf), "%s/%s", root, relative);
	return buf;
}

void
unit_require_corpus(void)
{
	struct stat st;

	if (stat(unit_corpus_path("tables"), &st) != 0)
	{
		print_message("corpus not found (set PAIMON_CORPUS)\n");
		skip();
	}
}

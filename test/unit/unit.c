/*-------------------------------------------------------------------------
 * unit.c
 *	  Shared helpers of the core unit tests.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

bool
unit_input_required(void)
{
	const char *ci = getenv("CI");
	const char *req = getenv("PAIMON_REQUIRE_CORPUS");

	return (ci != NULL && strcmp(ci, "true") == 0) || (req != NULL && strcmp(req, "1") == 0);
}

void
unit_missing_input(const char *reason)
{
	if (unit_input_required())
		fail_msg("%s (input is required: CI=true or PAIMON_REQUIRE_CORPUS=1)", reason);
	print_message("SKIPPED: %s\n", reason);
	skip();
}

void
unit_require_corpus(void)
{
	struct stat st;
	char		reason[4200];

	if (stat(unit_corpus_path("tables"), &st) != 0)
	{
		snprintf(reason, sizeof(reason),
				 "Paimon corpus not found at %s (set PAIMON_CORPUS)", unit_corpus_path(""));
		unit_missing_input(reason);
	}
}

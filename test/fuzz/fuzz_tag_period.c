/*-------------------------------------------------------------------------
 * fuzz_tag_period.c
 *	  libFuzzer harness of the auto tag name parser (table/tag_period.c):
 *	  tag names are file names under tag/, written by anyone.
 *
 * The first byte picks the period and formatter, the rest is the name.
 * Properties beyond "no crash": a name that parses prints back to itself
 * (daily: the part before the first space, as Java parses it), and its
 * time is the start of a period for daily / hourly names, and from 1970
 * on the period before the next one starts no later than it.
 *
 * Seeds (test/fuzz/corpus/tag_period/): one valid name per handler.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/tag_period.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const periods[] = {"daily", "hourly", "two-hours", NULL};
	static const char *const formats[] = {"with_dashes", "without_dashes",
	"without_dashes_and_spaces"};
	pm_tag_period p;
	pm_error	err;
	char		name[64];
	char		back[PM_TAG_PERIOD_NAME_MAX];
	int64_t		t;
	size_t		len;
	int			sel;

	if (size < 1)
		return 0;
	sel = data[0];
	len = size - 1 < sizeof(name) - 1 ? size - 1 : sizeof(name) - 1;
	memcpy(name, data + 1, len);
	name[len] = '\0';
	pm_error_clear(&err);
	if (periods[sel % 4] == NULL)
		CHECK(pm_tag_period_init(&p, NULL, formats[(sel / 4) % 3],
								 (int64_t) (sel / 12 + 1) * 60000, true, &err) == PM_OK);
	else
		CHECK(pm_tag_period_init(&p, periods[sel % 4], formats[(sel / 4) % 3],
								 0, false, &err) == PM_OK);
	if (!pm_tag_period_parse(&p, name, &t))
		return 0;
	CHECK(pm_tag_period_name(&p, t, back));
	if (p.kind == PM_TAG_PERIOD_DAILY)
	{
		const char *sp = strchr(name, ' ');

		CHECK(strlen(back) == (sp ? (size_t) (sp - name) : strlen(name)));
		CHECK(strncmp(back, name, strlen(back)) == 0);
	}
	else
		CHECK(strcmp(back, name) == 0);
	if (p.kind == PM_TAG_PERIOD_DAILY || p.kind == PM_TAG_PERIOD_HOURLY)
		CHECK(t % p.period_ms == 0);
	/* Java's normalizeToPreviousTag divides truncating: floors from 1970 on */
	if (t >= 0)
		CHECK(pm_tag_period_previous_start(&p, t + p.period_ms) <= t);
	return 0;
}

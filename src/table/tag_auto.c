/*-------------------------------------------------------------------------
 * tag_auto.c
 *	  TagAutoCreation's tag decision, process-time mode (tag_auto.h).
 *-------------------------------------------------------------------------
 */
#include "table/tag_auto.h"

#include <string.h>

bool
pm_tag_auto_init(pm_tag_auto *a, const pm_tag_period *period, int64_t delay_ms,
				 bool completion, const char *last_auto_tag)
{
	int64_t		t;

	memset(a, 0, sizeof(*a));
	a->period = *period;
	a->delay_ms = delay_ms;
	a->completion = completion;
	if (last_auto_tag == NULL)
		return true;
	if (!pm_tag_period_parse(period, last_auto_tag, &t))
		return false;
	a->has_next = true;
	a->next_tag = pm_tag_period_next(period, t);
	return true;
}

bool
pm_tag_auto_step(pm_tag_auto *a, int64_t local_ms, char out[PM_TAG_PERIOD_NAME_MAX])
{
	int64_t		this_tag;

	/* nextTag == null || !(time - delay).isBefore(nextTagTime(nextTag)) */
	if (a->has_next &&
		local_ms - a->delay_ms < pm_tag_period_next(&a->period, a->next_tag))
		return false;
	this_tag = pm_tag_period_previous_start(&a->period, local_ms);
	if (a->completion && a->has_next)
		this_tag = a->next_tag;
	if (!pm_tag_period_name(&a->period, this_tag, out))
		return false;
	a->next_tag = pm_tag_period_next(&a->period, this_tag);
	a->has_next = true;
	return true;
}

/* The shared failure builder of the rules code. */
#include "rules/er.h"

#include <stdarg.h>
#include <stdio.h>

er_result er_fail(const char *rule, const char *fmt, ...)
{
	er_result r;
	va_list ap;
	r.rule = rule;
	va_start(ap, fmt);
	vsnprintf(r.detail, sizeof r.detail, fmt, ap);
	va_end(ap);
	r.step = -1;
	return r;
}

/* Success: only the detail's first byte is written (an empty sentence). Zeroing all of it made
 * this the hottest function of the coach's search, which checks millions of moves. */
er_result er_ok(void)
{
	er_result r;
	r.rule = NULL;
	r.detail[0] = '\0';
	r.step = -1;
	return r;
}

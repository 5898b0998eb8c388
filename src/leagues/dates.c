/* Every date that comes in (dates.h): local dates and times as other apps write them, and
 * strict RFC 3339, with UTC offsets up to PostgreSQL's own ±15:59. */
#include "base/oom.h"
#include "leagues/dates.h"

#include <stdio.h>
#include <string.h>

/* ---- dates ---- */

static bool digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* A calendar date at s ("YYYY-MM-DD"). */
static bool parse_date(const char *s, int *y, int *mo, int *d)
{
	static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (!digits(s, 4, y) || s[4] != '-' || !digits(s + 5, 2, mo) || s[7] != '-' ||
	    !digits(s + 8, 2, d))
		return false;
	bool leap = (*y % 4 == 0 && *y % 100 != 0) || *y % 400 == 0;
	return *y >= 1900 && *mo >= 1 && *mo <= 12 && *d >= 1 && *d <= mdays[*mo - 1] &&
	       !(*mo == 2 && *d == 29 && !leap);
}

/* "HH:MM" then ":SS" (required when need_seconds) and a fraction; advances *t past it. */
static bool parse_clock(const char **t, bool need_seconds)
{
	const char *s = *t;
	int h, mi, se;
	if (!digits(s, 2, &h) || s[2] != ':' || !digits(s + 3, 2, &mi) || h > 23 || mi > 59)
		return false;
	s += 5;
	if (*s == ':') {
		if (!digits(s + 1, 2, &se) || se > 59) /* :60 (a leap second) is refused */
			return false;
		s += 3;
		if (*s == '.') {
			if (s[1] < '0' || s[1] > '9')
				return false;
			for (s++; *s >= '0' && *s <= '9'; s++)
				;
		}
	} else if (need_seconds) {
		return false;
	}
	*t = s;
	return true;
}

/* A UTC offset "+HH:MM" or "-HH:MM" that ends the string at t → minutes east of UTC in *min
 * ("-00:00", an unknown offset: 0). PostgreSQL takes offsets up to ±15:59 (its timestamptz
 * input refuses more with SQLSTATE 22009), and so do we: the one check every date of a client,
 * an import or a backup passes (dates_parse_when, dates_parse_rfc3339). */
static bool parse_offset(const char *t, int *min)
{
	int oh, om;
	if ((*t != '+' && *t != '-') || !digits(t + 1, 2, &oh) || t[3] != ':' ||
	    !digits(t + 4, 2, &om) || t[6] != '\0' || oh * 60 + om > LEAGUE_MAX_OFFSET_MIN ||
	    om > 59)
		return false;
	*min = (*t == '-' ? -1 : 1) * (oh * 60 + om);
	return true;
}

bool dates_parse_when(const char *s, char out[64])
{
	int y, mo, d;
	size_t n = strlen(s);
	if (n < 10 || n > 40 || !parse_date(s, &y, &mo, &d))
		return false;
	if (n == 10) {
		snprintf(out, 64, "%sT00:00:00Z", s);
		return true;
	}
	const char *t = s + 11;
	int off;
	if ((s[10] != 'T' && s[10] != ' ') || !parse_clock(&t, false))
		return false;
	int clock = (int)(t - (s + 11));
	if (*t == '\0' || ((*t == 'Z' || *t == 'z') && t[1] == '\0')) {
		snprintf(out, 64, "%.10sT%.*sZ", s, clock, s + 11);
		return true;
	}
	if (!parse_offset(t, &off))
		return false;
	snprintf(out, 64, "%.10sT%.*s%s", s, clock, s + 11, t); /* the instant it names */
	return true;
}

bool dates_parse_rfc3339(const char *s, char out[64], int *offset_min)
{
	int y, mo, d;
	size_t n = strlen(s);
	*offset_min = 0;
	if (n < 10 || n > 40 || !parse_date(s, &y, &mo, &d))
		return false;
	if (n == 10) {
		snprintf(out, 64, "%sT00:00:00Z", s);
		return true;
	}
	const char *t = s + 11;
	if ((s[10] != 'T' && s[10] != 't') || !parse_clock(&t, true))
		return false;
	int clock = (int)(t - (s + 11));
	if ((*t == 'Z' || *t == 'z') && t[1] == '\0') {
		snprintf(out, 64, "%.10sT%.*sZ", s, clock, s + 11);
		return true;
	}
	if (!parse_offset(t, offset_min))
		return false;
	snprintf(out, 64, "%.10sT%.*s%s", s, clock, s + 11, t);
	return true;
}

bool dates_is_local(const char *s)
{
	return strlen(s) <= 10 || strpbrk(s + 11, "Zz+-") == NULL;
}

bool dates_parse_play(const char *s, char out[64], int *offset_min, bool *local)
{
	*local = false;
	if (dates_parse_rfc3339(s, out, offset_min))
		return true;
	size_t n = strlen(s);
	int y, mo, d;
	const char *t = s + 11;
	if (n < 19 || n > 40 || !parse_date(s, &y, &mo, &d) || (s[10] != 'T' && s[10] != 't') ||
	    !parse_clock(&t, true) || *t != '\0')
		return false;
	snprintf(out, 64, "%.10sT%sZ", s, s + 11); /* the wall time, kept at offset 0 */
	*offset_min = 0;
	*local = true;
	return true;
}

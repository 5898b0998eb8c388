/* Every date that comes in (dates.c): a play's date, a backup's plays and seasons, BG Stats'
 * playDate, a BGG date, a season's bounds. */
#ifndef LEAGUES_DATES_H
#define LEAGUES_DATES_H

#include <stdbool.h>

/* The largest UTC offset a date may carry, in minutes: ±15:59, PostgreSQL's own limit. */
enum { LEAGUE_MAX_OFFSET_MIN = 15 * 60 + 59 };

/* A local date or time as other apps write it ("YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS]", or
 * with "T") → a timestamptz literal of that wall time at offset 0 (BG Stats' playDate is the
 * phone's local time, a BGG date a local date); a time with a zone names that instant. false
 * when malformed, not a calendar date, a leap second or an offset beyond ±15:59. */
bool dates_parse_when(const char *s, char out[64]);

/* Strict RFC 3339 (section 5.6: "T" or "t", seconds required, "Z", "z" or ±HH:MM up to
 * ±15:59, no leap second) or a bare date "YYYY-MM-DD" (local midnight, offset 0) → a timestamptz
 * literal of the instant into out and the offset in minutes into *offset_min. */
bool dates_parse_rfc3339(const char *s, char out[64], int *offset_min);

/* Does s, a date dates_parse_when took, carry no zone ("Z" or an offset)? A local time whose
 * offset the file never gave (BG Stats' playDate, a BGG date). */
bool dates_is_local(const char *s);

/* A play's date as the API and a backup take it: what dates_parse_rfc3339 takes (*local false),
 * or a local time without an offset ("2024-12-07T22:08:41": *local true, kept as that wall time
 * at offset 0). */
bool dates_parse_play(const char *s, char out[64], int *offset_min, bool *local);

#endif

/* The ER coach's reply as JSON (static/openapi.json, CoachAnalysis): built from the pure
 * analysis (rules/er_coach.h). Used by coach_api.c only. */
#ifndef ER_COACH_JSON_H
#define ER_COACH_JSON_H

#include "rules/er_coach.h"

struct json_object;

typedef struct {
	const char *game; /* NULL: POST /er/analysis (no game, no seat) */
	int seat;
	int width;
	long elapsed_ms, deadline_ms;
} er_coach_reply_info;

/* The whole reply (caller owns it). */
struct json_object *er_coach_reply(const er_data *d, const er_coach_game *g,
                                   const er_coach_result *r, const er_coach_reply_info *info);

#endif

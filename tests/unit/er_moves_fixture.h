/* Shared by the er_move_apply / er_move_options tests (test_er_moves_apply.c,
 * test_er_moves_options.c): the steps of a move written compactly, wards 1-based as printed.
 *
 * Citations: "seed003 SECTION" = ER rulebook ../shared/seeds/003_1582640d1cd95055.txt by
 * section heading; "seed002" = the summary 002_f6123e7c1d21d798.txt.
 *
 * Printed data the tests use (game-data.md §1): bed colours lobby → clipboard
 *   W1 wild green wild red | W2 green yellow wild green yellow | W3 red wild red yellow red
 *   W4 yellow yellow wild green | W5 green wild yellow red wild
 *   W6 red green green red red green | W7 yellow wild yellow
 * cards (red | yellow | green): 1 critical|extra red 1/2|blood_bag, 3 blood_bag|screen|nurse,
 *   9 screen|nurse|critical, 10 stethoscopes|critical|blood_bag, 16 stethoscopes|critical|nurse,
 *   21 blood_bag|screen|extra green 3/4. */
#ifndef ER_MOVES_FIXTURE_H
#define ER_MOVES_FIXTURE_H

#include "rules/er.h"

#define ADMIT(p, w, v)                                                                             \
	{                                                                                          \
		.kind = ER_STEP_ADMIT, .patient = (p), .ward = (w)-1, .value = (v),                \
		.recolour = ER_NO_COLOUR                                                           \
	}
#define ADMIT_RC(p, w, v, c)                                                                       \
	{                                                                                          \
		.kind = ER_STEP_ADMIT, .patient = (p), .ward = (w)-1, .value = (v),                \
		.recolour = (c)                                                                    \
	}
#define SCREEN(w)                                                                                  \
	{                                                                                          \
		.kind = ER_STEP_SCREEN, .ward = (w)-1, .recolour = ER_NO_COLOUR                    \
	}
#define MORGUE(p)                                                                                  \
	{                                                                                          \
		.kind = ER_STEP_MORGUE, .patient = (p), .recolour = ER_NO_COLOUR                   \
	}
#define STEPS(...)                                                                                 \
	.nsteps = (int)(sizeof((er_step[]){__VA_ARGS__}) / sizeof(er_step)), .steps = {__VA_ARGS__}
#define DIE   ER_PT_DIE
#define EXTRA ER_PT_EXTRA

#endif

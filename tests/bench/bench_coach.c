/* Coach benchmark (make bench, not a test): the ER coach (src/rules/er_coach.h) over seeded
 * games played through er_game by the fixture's scripted player (tests/unit/coach_fixture.h),
 * solo against ALICAT and 2–4 seats. Prints
 *   - the time of a whole analysis (best line and every turn's cost) per 24-turn game at the
 *     default width (COACH_WIDTH, default 64, the server's): median, p90, max;
 *   - the best total found at widths 1, 8, 64, 256 (best line only, no costs) next to the
 *     player's, the greedy line's and, in solo games, ALICAT's real sheet on the same draw;
 *     and the mean gain of each wider search (more width "stops helping" below 1 point).
 * COACH_BENCH_GAMES (default 200) sets the number of games; COACH_BENCH_TIME_ONLY=1 skips the
 * widths' table (the timing only). */
#include "coach_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static er_data D;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	if (er_fixture_load(&D) != 0)
		return 1;
	int ngames = getenv("COACH_BENCH_GAMES") ? atoi(getenv("COACH_BENCH_GAMES")) : 200;
	int width = getenv("COACH_WIDTH") ? atoi(getenv("COACH_WIDTH")) : 64;
	if (ngames < 1)
		ngames = 1;
	bool time_only = getenv("COACH_BENCH_TIME_ONLY") != NULL;
	static coach_fixture_game fg;
	static er_coach_game cg;
	er_coach_result *res = malloc(sizeof *res);
	double *ms = calloc((size_t)ngames, sizeof *ms);
	static const int widths[] = {1, 8, 64, 256};
	double sum_best[4] = {0}, sum_player = 0, sum_greedy = 0, sum_alicat = 0,
	       sum_best_solo[4] = {0};
	double width_ms[4] = {0};
	int nsolo = 0, better_than_alicat[4] = {0};
	int below_greedy = 0, below_player = 0, narrower_better = 0; /* games, over the widths */
	for (int i = 0; i < ngames; i++) {
		bool solo = i % 2 == 0;
		int nseats = 2 + i % 3;
		if (coach_fixture_play(&D, &fg, nseats, solo, 5000 + (uint64_t)i) != 0 ||
		    er_coach_game_from_log(&D, &fg.cfg, fg.ev, fg.n, 1, &cg) != fg.cfg.nturns) {
			printf("game %d could not be played\n", i);
			return 1;
		}
		er_coach_opts o = {.width = width, .costs = true};
		double t0 = now_ms();
		er_coach_analyse(&D, &cg, &o, res);
		ms[i] = now_ms() - t0;
		int alicat = 0;
		if (solo) {
			er_breakdown sc[ER_MAX_SEATS];
			er_game_scores(&fg.g, &D, sc, NULL);
			alicat = sc[1].total;
			sum_alicat += alicat;
			nsolo++;
		}
		int prev = -1000;
		for (int w = 0; w < (time_only ? 0 : 4); w++) {
			er_coach_opts ow = {.width = widths[w]};
			t0 = now_ms();
			er_coach_analyse(&D, &cg, &ow, res);
			width_ms[w] += now_ms() - t0;
			sum_best[w] += res->best.score.total;
			if (solo) {
				sum_best_solo[w] += res->best.score.total;
				better_than_alicat[w] += res->best.score.total > alicat;
			}
			if (w == 0) {
				sum_player += res->player.score.total;
				sum_greedy += res->greedy.score.total;
			}
			below_greedy += res->best.score.total < res->greedy.score.total;
			below_player += res->best.score.total < res->player.score.total;
			narrower_better += res->best.score.total < prev;
			prev = res->best.score.total;
		}
	}
	qsort(ms, (size_t)ngames, sizeof *ms, cmp_double);
	printf("## ER coach (%d games: %d solo against ALICAT, %d with 2-4 seats)\n\n", ngames,
	       nsolo, ngames - nsolo);
	printf("Whole analysis (best line and every turn's cost) at width %d, one thread: "
	       "median %.0f ms, p90 %.0f ms, max %.0f ms per game\n\n",
	       width, ms[ngames / 2], ms[ngames * 9 / 10], ms[ngames - 1]);
	printf("| line | mean total (all games) | mean total (solo) | solo games above ALICAT | "
	       "ms per game (best line only) |\n|---|---|---|---|---|\n");
	printf("| player (scripted) | %.2f | | | |\n", sum_player / ngames);
	printf("| greedy | %.2f | | | |\n", sum_greedy / ngames);
	if (nsolo)
		printf("| ALICAT's real sheet | | %.2f | | |\n", sum_alicat / nsolo);
	int stop = 0;
	for (int w = 0; w < 4; w++) {
		printf("| best, width %d | %.2f | %.2f | %d of %d | %.1f |\n", widths[w],
		       sum_best[w] / ngames, nsolo ? sum_best_solo[w] / nsolo : 0.0,
		       better_than_alicat[w], nsolo, width_ms[w] / ngames);
	}
	printf("\nMean gain per game of each wider search:");
	for (int w = 1; w < 4; w++) {
		double gain = (sum_best[w] - sum_best[w - 1]) / ngames;
		printf(" %d → %d: %+.2f;", widths[w - 1], widths[w], gain);
		if (!stop && gain < 1.0)
			stop = widths[w - 1];
	}
	if (stop)
		printf("\nMore width stops helping (< 1 point a game) after width %d\n\n", stop);
	else
		printf("\nMore width still helps at 256 (≥ 1 point a game from 64 to 256)\n\n");
	int met = ms[ngames - 1] < 2000;
	printf("VERDICT | coach analysis of every 24-turn game at width %d < 2 s (the slowest) | "
	       "%.0f ms | %s |\n",
	       width, ms[ngames - 1], met ? "met" : "NOT met");
	if (!time_only) {
		printf(
		    "VERDICT | best ≥ the player's sheet and ≥ the greedy line in every game and "
		    "width | %d below the player, %d below greedy | %s |\n",
		    below_player, below_greedy, below_player + below_greedy ? "NOT met" : "met");
		printf("VERDICT | best at width 64 beats greedy on average | %+.2f points a game | "
		       "%s |\n",
		       (sum_best[2] - sum_greedy) / ngames,
		       sum_best[2] > sum_greedy ? "met" : "NOT met");
		printf("VERDICT | best never decreases as width grows (1, 8, 64, 256; every game) "
		       "| %d "
		       "games where it did | %s |\n",
		       narrower_better, narrower_better ? "NOT met" : "met");
	}
	free(ms);
	free(res);
	return 0;
}

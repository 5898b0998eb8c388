/* The ER coach's analysis (er_coach.h; how it works: src/rules/README.md "The coach").
 *
 * Lines: the player's own (the real moves), the greedy one (the best score now, turn by turn),
 * the narrower search's best (width 1 → 8 → 64 → 256, each forced into the next), the beam
 * search's best with those three forced in, and the per-turn cost analysis backwards from the
 * player's sheets, whose C(0) may improve the best once more. Every line is replayed through
 * er_move_apply and the race from a fresh sheet and scored by er_score, so every total reported
 * is the rules engine's own. */
#include <stdlib.h>
#include <string.h>

#include "rules/er_coach_search.h"

/* Replays moves 0..T-1 from a fresh sheet with the race of each turn; scores the end. Returns
 * the 1-based turn of the first illegal move with its rule in *r, or 0. */
static int replay(const er_data *d, const er_coach_game *g, const er_move *moves,
                  er_coach_line *line, er_result *r)
{
	er_sheet s;
	er_sheet_init(&s, d, false, 0);
	coach_race rs;
	coach_race_init(g, &rs);
	for (int t = 0; t < g->nturns; t++) {
		er_result m = er_move_apply(d, &g->turns[t], &moves[t], false, &s);
		if (m.rule) {
			*r = m;
			return t + 1;
		}
		coach_race_turn(d, g, t, &rs, &s);
		line->moves[t] = moves[t];
		line->sheets[t] = s;
	}
	*r = er_score(d, &s, g->radiologist, g->epidemiologist, false, 0, &line->score,
	              &line->details);
	return r->rule ? g->nturns : 0;
}

/* The player's sheet and race state after t turns. */
static void player_at(const er_data *d, const er_coach_game *g, int t, er_sheet *s, coach_race *rs)
{
	er_sheet_init(s, d, false, 0);
	coach_race_init(g, rs);
	for (int i = 0; i < t; i++) {
		er_move_apply(d, &g->turns[i], &g->moves[i], false, s); /* checked by replay */
		coach_race_turn(d, g, i, rs, s);
	}
}

/* Sheets equal at the end: the same final sheet is the same line for the reader. */
static bool same_end(const er_coach_game *g, const er_coach_line *a, const er_coach_line *b)
{
	return er_coach_sheet_eq(&a->sheets[g->nturns - 1], &b->sheets[g->nturns - 1]);
}

static int narrower_width(int w)
{
	/* "the next smaller of 1, 8, 64, 256": the widths the benchmark compares */
	static const int chain[] = {256, 64, 8, 1};
	for (int i = 0; i < 4; i++)
		if (chain[i] < w)
			return chain[i];
	return 0;
}

static er_result check_game(const er_coach_game *g, const er_coach_opts *o)
{
	if (g->nturns < 1 || g->nturns > ER_COACH_MAX_TURNS)
		return er_fail(ER_RULE_INVALID_MOVE, "a game has 1-%d turns, not %d",
		               ER_COACH_MAX_TURNS, g->nturns);
	if (o->width < 1 || o->width > ER_COACH_MAX_WIDTH)
		return er_fail(ER_RULE_INVALID_MOVE, "width %d is outside 1-%d", o->width,
		               ER_COACH_MAX_WIDTH);
	if (g->nothers < 0 || g->nothers > ER_COACH_MAX_OTHERS)
		return er_fail(ER_RULE_INVALID_MOVE, "at most %d other goals", ER_COACH_MAX_OTHERS);
	for (int e = 0; e < g->nothers; e++)
		if (g->others[e].card < 0 || g->others[e].card > 1)
			return er_fail(ER_RULE_INVALID_MOVE, "a Cardiologist card is 0 or 1");
	return er_ok();
}

/* The search proper for one width, the narrower result (or NULL) forced in. */
static bool analyse_width(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                          coach_search *cs, int width, const er_coach_result *narrower,
                          er_coach_result *res)
{
	er_move moves[ER_COACH_MAX_TURNS];
	er_result r;
	er_sheet s0;
	coach_race rs0;
	er_sheet_init(&s0, d, false, 0);
	coach_race_init(g, &rs0);
	const int T = g->nturns;

	/* the greedy line: width 1, the score now only */
	if (!coach_search_run(cs, 0, &s0, &rs0, 1, true, NULL, 0, moves))
		return false;
	replay(d, g, moves, &res->greedy, &r);

	const er_move *forced[3] = {g->moves, res->greedy.moves, NULL};
	int nforced = 2;
	if (narrower)
		forced[nforced++] = narrower->best.moves;
	if (!coach_search_run(cs, 0, &s0, &rs0, width, false, forced, nforced, moves))
		return false;
	replay(d, g, moves, &res->best, &r);
	res->best_complete = true;
	res->best_kind = ER_COACH_LINE_SEARCH;
	if (narrower && same_end(g, &res->best, &narrower->best))
		res->best_kind = ER_COACH_LINE_NARROWER;
	if (same_end(g, &res->best, &res->greedy))
		res->best_kind = ER_COACH_LINE_GREEDY;
	if (same_end(g, &res->best, &res->player))
		res->best_kind = ER_COACH_LINE_PLAYER;
	if (!o->costs)
		return true;

	/* Costs, backwards: C(T) is the player's line; C(t) searches from the player's sheet
	 * after t turns with "the player's move t+1, then C(t+1)'s line" forced in. */
	er_coach_line *cont = malloc(sizeof *cont);
	if (!cont)
		return false;
	*cont = res->player;
	int after = res->player.score.total;
	er_breakdown after_b = res->player.score;
	for (int t = T - 1; t >= 0; t--) {
		er_sheet s;
		coach_race rs;
		player_at(d, g, t, &s, &rs);
		const er_move *f[1] = {cont->moves};
		/* cont->moves holds the player's moves up to t+1 and C(t+1)'s after: forced */
		if (!coach_search_run(cs, t, &s, &rs, width, false, f, 1, moves)) {
			free(cont);
			return false;
		}
		for (int i = 0; i < t; i++)
			moves[i] = g->moves[i];
		er_coach_line *line = malloc(sizeof *line);
		if (!line) {
			free(cont);
			return false;
		}
		replay(d, g, moves, line, &r);
		if (t == 0 && res->best.score.total > line->score.total)
			*line = res->best; /* C(0) is at least the search's best */
		res->has_cost[t] = true;
		res->cost[t] = line->score.total - after;
		res->cont_before[t] = line->score;
		res->cont_after[t] = after_b;
		res->cont_move[t] = line->moves[t];
		res->searched_turns = T - t;
		after = line->score.total;
		after_b = line->score;
		if (t == 0 && line->score.total > res->best.score.total) {
			res->best = *line; /* C(0): the cost analysis found a better line */
			res->best_kind = ER_COACH_LINE_SEARCH;
		}
		/* the next search forces the player's move t, then this line */
		*cont = *line;
		for (int i = 0; i < t; i++)
			cont->moves[i] = g->moves[i];
		free(line);
	}
	free(cont);
	return true;
}

static er_result run(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                     er_coach_result *res, long *nodes)
{
	memset(res, 0, sizeof *res);
	er_result r = check_game(g, o);
	if (r.rule)
		return r;
	res->bad_turn = replay(d, g, g->moves, &res->player, &r);
	if (r.rule)
		return r;
	/* until a search finishes, the best line is the player's own */
	res->best = res->player;
	res->greedy = res->player;
	res->best_kind = ER_COACH_LINE_PLAYER;

	er_coach_result *narrower = NULL;
	int nw = narrower_width(o->width);
	if (nw > 0) {
		narrower = malloc(sizeof *narrower);
		if (!narrower)
			return er_fail(ER_RULE_INVALID_MOVE, "out of memory");
		/* the same options, costs too: a width's answer with costs is at least the narrower
		 * width's answer with costs, whose C(0) may beat its search's best */
		er_coach_opts no = *o;
		no.width = nw;
		r = run(d, g, &no, narrower, nodes);
		if (r.rule || !narrower->best_complete) {
			/* stopped inside the narrower search: its lines are what there is */
			if (!r.rule) {
				res->greedy = narrower->greedy;
				res->best = narrower->best;
				res->best_kind = narrower->best_kind;
			}
			free(narrower);
			return r;
		}
	}
	er_coach_opts oo = *o;
	if (oo.node_budget > 0)
		oo.node_budget = oo.node_budget > *nodes ? oo.node_budget - *nodes : 1;
	coach_search *cs = coach_search_new(d, g, &oo, o->width);
	if (!cs) {
		free(narrower);
		return er_fail(ER_RULE_INVALID_MOVE, "out of memory");
	}
	bool done = analyse_width(d, g, &oo, cs, o->width, narrower, res);
	*nodes += coach_search_nodes(cs);
	coach_search_free(cs);
	if (!res->best_complete) {
		/* stopped before the search's end: the best of the lines at hand */
		if (narrower && narrower->best.score.total > res->best.score.total) {
			res->best = narrower->best;
			res->best_kind = ER_COACH_LINE_NARROWER;
		}
		if (res->greedy.score.total > res->best.score.total) {
			res->best = res->greedy;
			res->best_kind = ER_COACH_LINE_GREEDY;
		}
	}
	res->complete = done;
	free(narrower);
	return er_ok();
}

er_result er_coach_analyse(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                           er_coach_result *res)
{
	long nodes = 0;
	er_result r = run(d, g, o, res, &nodes);
	res->nodes = nodes;
	return r;
}

/* The coach's beam search (er_coach.h; how it works: src/rules/README.md "The coach").
 *
 * Layer k holds the sheets after t0 + k turns. Every node of a layer is expanded by every whole
 * move of the next turn (er_moves_all: legal by er_move_apply), the turn's Cardiologist race is
 * run on each child ("CARDIOLOGISTS", "SOLO MODE / CARDIOLOGISTS"), and the children are ranked
 * by 100 × the exact score now (er_score, race points included) plus an estimate of what the
 * still open wards and the unspent stethoscopes and blood bags may bring ("END OF THE GAME":
 * only filled wards score their clipboard). The best `width` distinct children (identical
 * sheets and race states once) form the next layer; forced lines are added to every layer
 * beside them. Ties: the child first in (estimate, hash, parent, move) order — deterministic.
 *
 * Pure: the working memory is allocated by coach_search_new and freed by coach_search_free. */
#include <stdlib.h>
#include <string.h>

#include "rules/er_coach_search.h"

typedef struct {
	er_sheet sheet;
	coach_race rs;
	int32_t parent;
	int32_t est;
	uint64_t hash;
	er_move move;
} node;

typedef struct {
	int32_t est;
	int32_t parent;
	int32_t midx;
	uint64_t hash;
	er_move move;
} cand;

struct coach_search {
	const er_data *d;
	const er_coach_game *g;
	const er_coach_opts *o;
	int cap; /* nodes per layer: width + forced */
	node *layers;
	int count[ER_COACH_MAX_TURNS + 1];
	cand *cands;
	size_t ncands, capc;
	er_move *mv;
	er_sheet *sh;
	long nodes;
	bool stopped;
};

coach_search *coach_search_new(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                               int width)
{
	coach_search *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->d = d;
	s->g = g;
	s->o = o;
	s->cap = width + COACH_MAX_FORCED;
	s->layers = calloc((size_t)(ER_COACH_MAX_TURNS + 1) * (size_t)s->cap, sizeof *s->layers);
	s->mv = calloc(ER_COACH_MAX_MOVES, sizeof *s->mv);
	s->sh = calloc(ER_COACH_MAX_MOVES, sizeof *s->sh);
	s->capc = 4096;
	s->cands = malloc(s->capc * sizeof *s->cands);
	if (!s->layers || !s->mv || !s->sh || !s->cands) {
		coach_search_free(s);
		return NULL;
	}
	return s;
}

void coach_search_free(coach_search *s)
{
	if (!s)
		return;
	free(s->layers);
	free(s->mv);
	free(s->sh);
	free(s->cands);
	free(s);
}

long coach_search_nodes(const coach_search *s)
{
	return s->nodes;
}

bool coach_search_stopped(const coach_search *s)
{
	return s->stopped;
}

void coach_race_init(const er_coach_game *g, coach_race *r)
{
	memset(r, 0, sizeof *r);
	/* "GETTING READY" step 4: '8/5' side up, 2 players the '5' side. */
	er_cardio_race_init(&r->race, g->nplayers);
	er_solo_race_init(&r->solo);
}

void coach_race_turn(const er_data *d, const er_coach_game *g, int t, coach_race *r, er_sheet *s)
{
	bool me[2];
	for (int k = 0; k < 2; k++)
		me[k] = er_cardio_goal_met(d, s, g->cardio[k]);
	if (g->solo) {
		/* "SOLO MODE / CARDIOLOGISTS": ALICAT's real fills, the human's logged discard. */
		int16_t human[2], alicat[2];
		er_solo_race_turn(&r->solo, me, g->alicat_fills[t], g->alicat_discard[t], human,
		                  alicat);
		for (int k = 0; k < 2; k++)
			s->cardiologists[k] = (int16_t)(s->cardiologists[k] + human[k]);
		return;
	}
	/* "CARDIOLOGISTS": this seat and every other seat's goal as it was reached at the table;
	 * each other goal is a seat of its own for one card. */
	bool met[1 + ER_COACH_MAX_OTHERS][2];
	int16_t already[1 + ER_COACH_MAX_OTHERS][2], award[1 + ER_COACH_MAX_OTHERS][2];
	int n = 1 + g->nothers;
	memset(met, 0, sizeof met);
	memset(already, 0, sizeof already);
	for (int k = 0; k < 2; k++) {
		met[0][k] = me[k];
		already[0][k] = s->cardiologists[k];
	}
	for (int e = 0; e < g->nothers; e++) {
		int k = g->others[e].card;
		met[1 + e][k] = t + 1 >= g->others[e].turn;
		already[1 + e][k] = (int16_t)((r->others_scored >> e) & 1);
	}
	er_cardio_race_turn(&r->race, n, (const bool(*)[2])met, (const int16_t(*)[2])already,
	                    award);
	for (int k = 0; k < 2; k++)
		s->cardiologists[k] = (int16_t)(s->cardiologists[k] + award[0][k]);
	for (int e = 0; e < g->nothers; e++)
		if (award[1 + e][g->others[e].card] > 0)
			r->others_scored = (uint16_t)(r->others_scored | 1u << e);
}

static uint64_t node_hash(const er_sheet *sh, const coach_race *r)
{
	uint64_t h = er_coach_sheet_hash(sh);
	uint64_t x = (uint64_t)r->others_scored | (uint64_t)(uint8_t)r->race.offer[0] << 16 |
	             (uint64_t)(uint8_t)r->race.offer[1] << 24 |
	             (uint64_t)r->solo.remaining[0] << 32 | (uint64_t)r->solo.remaining[1] << 33;
	return (h ^ (x * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xC2B2AE3D27D4EB4F);
}

/* 100 × the exact score of the sheet now ("END OF THE GAME"), the race's points included. */
static int score100(const coach_search *s, const er_sheet *sh)
{
	er_breakdown b;
	if (er_score(s->d, sh, s->g->radiologist, s->g->epidemiologist, false, 0, &b, NULL).rule)
		return -100000;
	return 100 * b.total;
}

/* What the open part may still bring, in hundredths of a point (an estimate, not a bound):
 * part of each open ward's clipboard by the share of its beds filled, when its remaining beds
 * still fit in the remaining turns (at most two patients a turn, "EXTRA PATIENT"), less when
 * the values left above its last patient are fewer than its empty beds ("ADMIT PATIENT /
 * Value"); and the unspent stethoscopes and blood bags. */
static int potential(const coach_search *s, const er_sheet *sh, int remaining)
{
	if (remaining <= 0)
		return 0;
	const er_data *d = s->d;
	int pot = 0;
	for (int w = 0; w < ER_WARDS; w++) {
		int n = d->wards[w].nbeds, c = sh->count[w];
		if (c >= n || c == 0)
			continue;
		int need = n - c;
		if (need > 2 * remaining)
			continue;
		const er_patient *last = &sh->ward[w][c - 1];
		int room = last->screen ? 6 : 6 - last->value;
		int credit = d->wards[w].clipboard * 60 * c / n;
		if (need > remaining)
			credit /= 2;
		if (room < need)
			credit /= 4;
		pot += credit;
	}
	pot +=
	    25 * (sh->steth_circled - sh->steth_used) + 50 * (sh->blood_circled - sh->blood_used);
	return pot;
}

static int cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->est != y->est)
		return x->est > y->est ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return (x->midx > y->midx) - (x->midx < y->midx);
}

static bool push_cand(coach_search *s, const cand *c)
{
	if (s->ncands == s->capc) {
		size_t nc = s->capc * 2;
		cand *p = realloc(s->cands, nc * sizeof *p);
		if (!p)
			return false;
		s->cands = p;
		s->capc = nc;
	}
	s->cands[s->ncands++] = *c;
	return true;
}

static bool should_stop(coach_search *s)
{
	if (s->stopped)
		return true;
	const er_coach_opts *o = s->o;
	if (o->node_budget > 0 && s->nodes >= o->node_budget)
		s->stopped = true;
	else if (o->expired && (s->nodes & 7) == 0 && o->expired(o->ctx))
		s->stopped = true;
	return s->stopped;
}

static node *layer(coach_search *s, int k)
{
	return s->layers + (size_t)k * (size_t)s->cap;
}

/* The child of parent p by move m in turn t (0-based), or false if m is illegal there. */
static bool make_child(coach_search *s, const node *p, int t, const er_move *m, node *out)
{
	out->sheet = p->sheet;
	if (er_move_apply(s->d, &s->g->turns[t], m, false, &out->sheet).rule)
		return false;
	out->rs = p->rs;
	coach_race_turn(s->d, s->g, t, &out->rs, &out->sheet);
	out->move = *m;
	out->hash = node_hash(&out->sheet, &out->rs);
	return true;
}

/* Expands layer k (the sheets after turn t0 + k) into the candidates of layer k + 1. */
static bool expand(coach_search *s, int k, int t, bool greedy)
{
	const er_coach_game *g = s->g;
	node *L = layer(s, k);
	s->ncands = 0;
	for (int i = 0; i < s->count[k]; i++) {
		if (should_stop(s))
			return false;
		s->nodes++;
		int n =
		    er_moves_all(s->d, &g->turns[t], &L[i].sheet, s->mv, s->sh, ER_COACH_MAX_MOVES);
		for (int j = 0; j < n; j++) {
			coach_race rs = L[i].rs;
			coach_race_turn(s->d, g, t, &rs, &s->sh[j]);
			int est = score100(s, &s->sh[j]);
			if (!greedy)
				est += potential(s, &s->sh[j], g->nturns - t - 1);
			cand c = {est, i, j, node_hash(&s->sh[j], &rs), s->mv[j]};
			if (!push_cand(s, &c))
				return false;
		}
	}
	return true;
}

bool coach_search_run(coach_search *s, int t0, const er_sheet *start, const coach_race *rs,
                      int width, bool greedy, const er_move *const *forced, int nforced,
                      er_move *moves)
{
	const er_coach_game *g = s->g;
	int T = g->nturns, nl = T - t0;
	if (width > s->cap - COACH_MAX_FORCED)
		width = s->cap - COACH_MAX_FORCED;
	if (nforced > COACH_MAX_FORCED)
		nforced = COACH_MAX_FORCED;
	int fidx[COACH_MAX_FORCED];
	node *root = layer(s, 0);
	memset(root, 0, sizeof *root);
	root->sheet = *start;
	root->rs = *rs;
	root->parent = -1;
	root->hash = node_hash(start, rs);
	s->count[0] = 1;
	for (int f = 0; f < nforced; f++)
		fidx[f] = 0;
	for (int k = 0; k < nl; k++) {
		int t = t0 + k;
		if (!expand(s, k, t, greedy))
			return false;
		qsort(s->cands, s->ncands, sizeof *s->cands, cand_cmp);
		node *P = layer(s, k), *N = layer(s, k + 1);
		int n = 0;
		for (size_t c = 0; c < s->ncands && n < width; c++) {
			const cand *x = &s->cands[c];
			if (n > 0 && N[n - 1].hash == x->hash && N[n - 1].est == x->est)
				continue; /* the same sheet and race by another move: listed once */
			if (!make_child(s, &P[x->parent], t, &x->move, &N[n]))
				continue;
			N[n].parent = x->parent;
			N[n].est = x->est;
			n++;
		}
		/* forced lines: kept beside the beam (or found in it) */
		for (int f = 0; f < nforced; f++) {
			if (fidx[f] < 0)
				continue;
			node tmp;
			if (!make_child(s, &P[fidx[f]], t, &forced[f][t], &tmp)) {
				fidx[f] = -1;
				continue;
			}
			int at = -1;
			for (int i = 0; i < n && at < 0; i++)
				if (N[i].hash == tmp.hash &&
				    er_coach_sheet_eq(&N[i].sheet, &tmp.sheet))
					at = i;
			if (at < 0) {
				tmp.parent = fidx[f];
				tmp.est = score100(s, &tmp.sheet);
				if (!greedy)
					tmp.est += potential(s, &tmp.sheet, T - t - 1);
				N[n] = tmp;
				at = n++;
			}
			fidx[f] = at;
		}
		s->count[k + 1] = n;
		if (n == 0)
			return false; /* cannot happen: the morgue is always open */
	}
	/* the last layer's estimates are exact: 100 × the final score */
	node *last = layer(s, nl);
	int best = 0;
	for (int i = 1; i < s->count[nl]; i++)
		if (last[i].est > last[best].est)
			best = i;
	for (int k = nl; k > 0; k--) {
		node *x = &layer(s, k)[best];
		moves[t0 + k - 1] = x->move;
		best = x->parent;
	}
	return true;
}

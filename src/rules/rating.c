/* Weng-Lin Plackett-Luce, as openskill.py's PlackettLuce (see rating.h). Over the k teams of a
 * game (after σ² += τ² for every player), a team's μ_t and σ_t² the sums of its players':
 *
 *   c      = sqrt(Σ_t (σ_t² + β²))
 *   sum_q  = Σ_{t : rank_t ≥ rank_q} exp(μ_t / c)           (the teams q did not beat)
 *   a_q    = #{t : rank_t = rank_q}                         (ties share the outcome)
 *   for each team t, over q with rank_q ≤ rank_t, p = exp(μ_t / c) / sum_q:
 *     Ω_t += (q == t ? 1 − p : −p) / a_q
 *     Δ_t += p (1 − p) / a_q
 *   Ω_t *= σ_t² / c;  Δ_t *= σ_t² / c² · γ_t  with γ_t = σ_t / c
 *   each player i of t, w = σ_i² / σ_t²:
 *     μ_i' = μ_i + w Ω_t;  σ_i' = σ_i · sqrt(max(1 − w Δ_t, κ))
 *
 * A team of one has w = 1: the free-for-all update. */
#include "rules/rating.h"

#include <math.h>

rating rating_default(void)
{
	return (rating){RATING_MU, RATING_SIGMA};
}

double rating_ordinal(rating r)
{
	return r.mu - 3.0 * r.sigma;
}

bool rating_provisional(rating r)
{
	return r.sigma >= RATING_PROVISIONAL_SIGMA;
}

/* The teams of a game: of[i] is player i's team (0..k-1, in order of first seat). */
typedef struct {
	size_t k, of[RATING_MAX_PLAYERS];
	int rank[RATING_MAX_PLAYERS];
	double mu[RATING_MAX_PLAYERS], s2[RATING_MAX_PLAYERS];
} game_teams;

/* Groups the players into teams (s2: each player's σ² after τ) and sums them. */
static void teams_build(game_teams *g, const rating *r, const double *s2, const int *rank,
                        const int *team, size_t n)
{
	g->k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t t, j = 0; /* the first earlier player of the same team gives its index */
		while (j < i && team[j] != team[i])
			j++;
		if (j < i) {
			t = g->of[j];
			g->mu[t] += r[i].mu;
			g->s2[t] += s2[i];
			if (rank[i] < g->rank[t])
				g->rank[t] = rank[i];
		} else {
			t = g->k++;
			g->mu[t] = r[i].mu;
			g->s2[t] = s2[i];
			g->rank[t] = rank[i];
		}
		g->of[i] = t;
	}
}

/* Ω and Δ of every team (omega, delta: k entries). */
static void teams_update(const game_teams *g, double *omega, double *delta)
{
	size_t k = g->k;
	double e[RATING_MAX_PLAYERS], sum_q[RATING_MAX_PLAYERS];
	int a[RATING_MAX_PLAYERS];
	double c2 = 0;
	for (size_t t = 0; t < k; t++)
		c2 += g->s2[t] + RATING_BETA * RATING_BETA;
	double c = sqrt(c2);
	for (size_t t = 0; t < k; t++)
		e[t] = exp(g->mu[t] / c);
	for (size_t q = 0; q < k; q++) {
		sum_q[q] = 0;
		a[q] = 0;
		for (size_t t = 0; t < k; t++) {
			if (g->rank[t] >= g->rank[q])
				sum_q[q] += e[t];
			if (g->rank[t] == g->rank[q])
				a[q]++;
		}
	}
	for (size_t t = 0; t < k; t++) {
		double om = 0, de = 0;
		for (size_t q = 0; q < k; q++) {
			if (g->rank[q] > g->rank[t])
				continue;
			double p = e[t] / sum_q[q];
			de += p * (1 - p) / a[q];
			om += (q == t ? 1 - p : -p) / a[q];
		}
		double gamma = sqrt(g->s2[t]) / c;
		omega[t] = om * g->s2[t] / c;
		delta[t] = de * g->s2[t] / c2 * gamma;
	}
}

int rating_rate_teams(rating *r, const int *rank, const int *team, size_t n)
{
	if (n < 2 || n > RATING_MAX_PLAYERS)
		return -1;
	double s2[RATING_MAX_PLAYERS];
	for (size_t i = 0; i < n; i++)
		s2[i] = r[i].sigma * r[i].sigma + RATING_TAU * RATING_TAU;
	game_teams g;
	teams_build(&g, r, s2, rank, team, n);
	if (g.k < 2)
		return -1;
	double omega[RATING_MAX_PLAYERS], delta[RATING_MAX_PLAYERS];
	teams_update(&g, omega, delta);
	for (size_t i = 0; i < n; i++) {
		size_t t = g.of[i];
		double w = s2[i] / g.s2[t];
		r[i].mu += w * omega[t];
		r[i].sigma = sqrt(s2[i]) * sqrt(fmax(1 - w * delta[t], RATING_KAPPA));
	}
	return 0;
}

int rating_rate(rating *r, const int *rank, size_t n)
{
	int team[RATING_MAX_PLAYERS];
	for (size_t i = 0; i < n && i < RATING_MAX_PLAYERS; i++)
		team[i] = (int)i;
	return rating_rate_teams(r, rank, team, n);
}

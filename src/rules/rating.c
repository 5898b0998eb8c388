/* Weng-Lin Plackett-Luce, as openskill.py's PlackettLuce (see rating.h). With one player per
 * team, a team's μ and σ² are the player's. For the n players (after σ² += τ²):
 *
 *   c      = sqrt(Σ_i (σ_i² + β²))
 *   sum_q  = Σ_{i : rank_i ≥ rank_q} exp(μ_i / c)           (the players q did not beat)
 *   a_q    = #{i : rank_i = rank_q}                         (ties share the outcome)
 *   for each i, over q with rank_q ≤ rank_i, p = exp(μ_i / c) / sum_q:
 *     Ω_i += (q == i ? 1 − p : −p) / a_q
 *     Δ_i += p (1 − p) / a_q
 *   Ω_i *= σ_i² / c;  Δ_i *= σ_i² / c² · γ_i  with γ_i = σ_i / c
 *   μ_i' = μ_i + Ω_i;  σ_i' = σ_i · sqrt(max(1 − Δ_i, κ))
 */
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

int rating_rate(rating *r, const int *rank, size_t n)
{
	if (n < 2 || n > RATING_MAX_PLAYERS)
		return -1;
	double s2[RATING_MAX_PLAYERS], e[RATING_MAX_PLAYERS], sum_q[RATING_MAX_PLAYERS];
	int a[RATING_MAX_PLAYERS];
	double c2 = 0;
	for (size_t i = 0; i < n; i++) {
		s2[i] = r[i].sigma * r[i].sigma + RATING_TAU * RATING_TAU;
		c2 += s2[i] + RATING_BETA * RATING_BETA;
	}
	double c = sqrt(c2);
	for (size_t i = 0; i < n; i++)
		e[i] = exp(r[i].mu / c);
	for (size_t q = 0; q < n; q++) {
		sum_q[q] = 0;
		a[q] = 0;
		for (size_t i = 0; i < n; i++) {
			if (rank[i] >= rank[q])
				sum_q[q] += e[i];
			if (rank[i] == rank[q])
				a[q]++;
		}
	}
	rating out[RATING_MAX_PLAYERS];
	for (size_t i = 0; i < n; i++) {
		double omega = 0, delta = 0;
		for (size_t q = 0; q < n; q++) {
			if (rank[q] > rank[i])
				continue;
			double p = e[i] / sum_q[q];
			delta += p * (1 - p) / a[q];
			omega += (q == i ? 1 - p : -p) / a[q];
		}
		double gamma = sqrt(s2[i]) / c;
		omega *= s2[i] / c;
		delta *= s2[i] / c2 * gamma;
		out[i].mu = r[i].mu + omega;
		out[i].sigma = sqrt(s2[i]) * sqrt(fmax(1 - delta, RATING_KAPPA));
	}
	for (size_t i = 0; i < n; i++)
		r[i] = out[i];
	return 0;
}

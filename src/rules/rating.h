/* Skill ratings: the Weng-Lin Bayesian approximation with the Plackett-Luce model, exactly as
 * the OpenSkill library computes it (Weng & Lin, "A Bayesian Approximation Method for Online
 * Ranking", JMLR 12, 2011, algorithm 4; openskill.py's PlackettLuce.rate with its defaults):
 * μ = 25, σ = 25/3, β = 25/6, τ = 25/300 (added to σ before every game), κ = 0.0001, ties
 * allowed (equal ranks). Players may play in teams: a team's μ and σ² are the sums of its
 * players', and the team's update is shared out to each player in proportion to their σ²
 * (openskill.py's PlackettLuce._compute). Pure C, no I/O, no allocation.
 *
 * A league shows ordinal = μ − 3σ and calls a rating provisional while σ ≥ 4. Solo and
 * cooperative plays are not rated (the caller does not pass them). */
#ifndef RULES_RATING_H
#define RULES_RATING_H

#include <stdbool.h>
#include <stddef.h>

#define RATING_MU                25.0
#define RATING_SIGMA             (25.0 / 3.0)
#define RATING_BETA              (25.0 / 6.0)
#define RATING_TAU               (25.0 / 300.0)
#define RATING_KAPPA             0.0001
#define RATING_PROVISIONAL_SIGMA 4.0

enum { RATING_MAX_PLAYERS = 64 };

typedef struct {
	double mu, sigma;
} rating;

/* A new player's rating (μ, σ). */
rating rating_default(void);
/* μ − 3σ */
double rating_ordinal(rating r);
/* σ ≥ 4 */
bool rating_provisional(rating r);

/* Rates one game of n players (2 ≤ n ≤ RATING_MAX_PLAYERS): r[i] is player i's rating before
 * the game and is replaced by the rating after it; rank[i] is their place (1 is best, equal
 * ranks are a tie; any integers, only their order counts). Returns 0, or -1 (nothing changed)
 * when n is out of range. */
int rating_rate(rating *r, const int *rank, size_t n);

/* The same in teams: players i and j are teammates when team[i] == team[j] (any integers;
 * give each lone player a value of their own). A team's rank is the best (smallest) rank of
 * its players. Returns 0, or -1 (nothing changed) when n is out of range or the players make
 * fewer than two teams. With every player alone it rates exactly as rating_rate. */
int rating_rate_teams(rating *r, const int *rank, const int *team, size_t n);

#endif

/* Weng-Lin Plackett-Luce ratings (rules/rating.c) against values computed by hand, step by
 * step, from the published model (Weng & Lin 2011, algorithm 4, as openskill.py computes it:
 * σ² += τ² first, then c, sum_q, a_q, Ω, Δ with γ = σ/c, κ floor). The intermediate numbers
 * below were worked out with a python3 one-off (plain arithmetic, no rating library). */
#include "rules/rating.h"
#include "test.h"

#include <math.h>

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Four players, B and C tied for second:
 *   A μ=25 σ=25/3 rank 1;  B μ=28 σ=5 rank 2;  C μ=22 σ=7 rank 2;  D μ=25 σ=25/3 rank 4.
 * τ² = (25/300)² = 0.0069444…:
 *   σ²+τ²: A 69.4513888889, B 25.0069444444, C 49.0069444444, D 69.4513888889
 *   c = sqrt(Σ(σ²+τ² + β²)), β² = (25/6)² = 17.3611111 → c = 16.803604110758833
 *   exp(μ/c): A 4.427238671083362, B 5.292597746276678, C 3.703368967446053, D = A
 *   sum_q (players ranked at or below q): A 17.850444055889454 (all four),
 *     B = C = 13.423205384806094 (B, C, D), D 4.427238671083362 (D alone)
 *   a_q: A 1, B 2, C 2, D 1
 *   A: q ∈ {A}: p = 4.4272/17.8504 = 0.24802; Ω = (1 − p)·σ²/c = 3.108033599044723;
 *      Δ = p(1−p)·σ²/c²·(σ/c) = 0.022751246791724; μ' = 28.108033599044724,
 *      σ' = sqrt(69.4514)·sqrt(1 − Δ) = 8.23840295204415
 *   B: q ∈ {A, B, C}: Ω = (−e_B/sum_A + (1 − e_B/sum_B)/2 − e_B/sum_C/2)·σ²/c
 *      = −0.2839225291771901; Δ = 0.011792081647025256
 *      → μ' = 27.71607747082281, σ' = 4.971122661312325
 *   C: same q set → Ω = 0.048531166270211284, Δ = 0.02633415058267565
 *      → μ' = 22.048531166270212, σ' = 6.90770498717538
 *   D: q ∈ all → Ω = −2.3882772048290244, Δ = 0.04971512669029931
 *      → μ' = 22.611722795170976, σ' = 8.123952504259274 */
static void four_players_with_a_tie(void)
{
	rating r[4] = {{25, 25.0 / 3}, {28, 5}, {22, 7}, {25, 25.0 / 3}};
	int rank[4] = {1, 2, 2, 4};
	CHECK_EQ_INT(rating_rate(r, rank, 4), 0);
	CHECK(near(r[0].mu, 28.108033599044724) && near(r[0].sigma, 8.23840295204415));
	CHECK(near(r[1].mu, 27.71607747082281) && near(r[1].sigma, 4.971122661312325));
	CHECK(near(r[2].mu, 22.048531166270212) && near(r[2].sigma, 6.90770498717538));
	CHECK(near(r[3].mu, 22.611722795170976) && near(r[3].sigma, 8.123952504259274));
}

/* The ranks are an order, not positions: 1,2,2,4 and 10,20,20,99 rate the same; the input
 * order of the players does not matter. */
static void ranks_are_an_order(void)
{
	rating a[4] = {{25, 25.0 / 3}, {28, 5}, {22, 7}, {25, 25.0 / 3}};
	rating b[4] = {{25, 25.0 / 3}, {22, 7}, {25, 25.0 / 3}, {28, 5}};
	int ra[4] = {1, 2, 2, 4}, rb[4] = {10, 20, 99, 20};
	rating_rate(a, ra, 4);
	rating_rate(b, rb, 4);
	CHECK(near(a[0].mu, b[0].mu) && near(a[1].mu, b[3].mu) && near(a[2].mu, b[1].mu) &&
	      near(a[3].mu, b[2].mu));
	CHECK(near(a[1].sigma, b[3].sigma));
}

/* Two new players, a win: c = sqrt(2(σ²+τ²+β²)) = 13.176…, p = 1/2:
 * Ω = ½·69.4514/13.17664 = 2.6353895; Δ = ¼·69.4514/173.6181·(8.33375/13.17664) = 0.0632475
 * → winner μ 27.635389493140497, loser 22.364610506859503, both σ 8.06590141354368. */
static void two_new_players(void)
{
	rating r[2] = {rating_default(), rating_default()};
	int rank[2] = {1, 2};
	rating_rate(r, rank, 2);
	CHECK(near(r[0].mu, 27.635389493140497) && near(r[1].mu, 22.364610506859503));
	CHECK(near(r[0].sigma, 8.06590141354368) && near(r[1].sigma, 8.06590141354368));
	/* a draw of equals moves nobody's μ */
	rating d[2] = {rating_default(), rating_default()};
	int tie[2] = {1, 1};
	rating_rate(d, tie, 2);
	CHECK(near(d[0].mu, 25) && near(d[1].mu, 25));
}

static void ordinal_and_provisional(void)
{
	rating r = rating_default();
	CHECK(near(rating_ordinal(r), 0));
	CHECK(rating_provisional(r));
	CHECK(rating_provisional((rating){30, 4.0}));
	CHECK(!rating_provisional((rating){30, 3.99}));
	int rank[1] = {1};
	CHECK_EQ_INT(rating_rate(&r, rank, 1), -1); /* solo plays are not rated */
}

/* ---- teams, against OpenSkill's own numbers ----
 * The values below are openskill.js 5.0.1's (the npm package "openskill", OpenSkill's
 * reference implementation; defaults: Plackett-Luce, μ 25, σ 25/3, β 25/6, κ 0.0001, τ 25/300):
 *   import * as os from 'openskill'; const r = (mu, sigma) => os.rating({mu, sigma});
 *   os.rate([[r(25,25/3), r(25,25/3)], [r(25,25/3), r(25,25/3)]])                   // A
 *   os.rate([[r(30,6), r(22,7.5), r(27,4)], [r(35,3)], [r(20,8), r(24,5.5)]],
 *           {rank: [2, 1, 2]})                                                      // B
 *   os.rate([[r(25,25/3), r(28,5)], [r(22,7)], [r(25,25/3)],
 *            [r(31,2.5), r(18,6), r(26,8)]], {rank: [3, 1, 4, 2]})                  // C
 * and an independent Python transcription of openskill.py's PlackettLuce._compute
 * (openskill/models/weng_lin/plackett_luce.py, vivekjoshy/openskill.py commit 061f71f6) gives
 * the same digits. Here the seats of a team are not side by side: the team values group them. */

static int near_r(rating r, double mu, double sigma)
{
	return near(r.mu, mu) && near(r.sigma, sigma);
}

/* A: two new players beat two new players. */
static void teams_two_against_two(void)
{
	rating r[4] = {rating_default(), rating_default(), rating_default(), rating_default()};
	int rank[4] = {1, 2, 1, 2}, team[4] = {7, 3, 7, 3};
	CHECK_EQ_INT(rating_rate_teams(r, rank, team, 4), 0);
	CHECK(near_r(r[0], 26.964294621803063, 8.177962604389991));
	CHECK(near_r(r[2], 26.964294621803063, 8.177962604389991));
	CHECK(near_r(r[1], 23.035705378196937, 8.177962604389991));
	CHECK(near_r(r[3], 23.035705378196937, 8.177962604389991));
}

/* B: a trio, a lone player and a pair; the lone player wins, the trio and the pair tie. */
static void teams_uneven_with_a_tie(void)
{
	/* seats: trio[0], pair[0], lone, trio[1], pair[1], trio[2] */
	rating r[6] = {{30, 6}, {20, 8}, {35, 3}, {22, 7.5}, {24, 5.5}, {27, 4}};
	int rank[6] = {2, 2, 1, 2, 2, 2}, team[6] = {1, 2, 3, 1, 2, 1};
	CHECK_EQ_INT(rating_rate_teams(r, rank, team, 6), 0);
	CHECK(near_r(r[0], 27.24578465858657, 5.941598444326827));
	CHECK(near_r(r[3], 17.696837322894847, 7.384955852578753));
	CHECK(near_r(r[5], 25.77560918766481, 3.9834339482759114));
	CHECK(near_r(r[2], 35.52351421470601, 3.0006538448526547));
	CHECK(near_r(r[1], 21.175668589643923, 7.89438106405253));
	CHECK(near_r(r[4], 24.55575437182148, 5.466284207356949));
}

/* C: four teams, ranks 3, 1, 4, 2; a team's rank is its best player's (the trio's seats say 2,
 * 2 and 5: the team is second). */
static void teams_four_ranked(void)
{
	rating r[7] = {{25, 25.0 / 3}, {28, 5}, {22, 7}, {25, 25.0 / 3},
	               {31, 2.5},      {18, 6}, {26, 8}};
	int rank[7] = {3, 3, 1, 4, 2, 5, 2}, team[7] = {0, 0, 1, 2, 3, 3, 3};
	CHECK_EQ_INT(rating_rate_teams(r, rank, team, 7), 0);
	CHECK(near_r(r[0], 24.082604340959808, 8.145054837692522));
	CHECK(near_r(r[1], 27.669678855294098, 4.960223157730111));
	CHECK(near_r(r[2], 24.371327851101565, 6.993600163615403));
	CHECK(near_r(r[3], 23.92704846194834, 8.25129578834557));
	CHECK(near_r(r[4], 30.876553899495136, 2.496921795212772));
	CHECK(near_r(r[5], 17.289602629170115, 5.9386513387412885));
	CHECK(near_r(r[6], 24.737177904158333, 7.85306189533864));
}

/* Every player alone is the free-for-all, bit for bit; one team alone is no game. */
static void teams_alone_and_one_team(void)
{
	rating a[4] = {{25, 25.0 / 3}, {28, 5}, {22, 7}, {25, 25.0 / 3}};
	rating b[4] = {{25, 25.0 / 3}, {28, 5}, {22, 7}, {25, 25.0 / 3}};
	int rank[4] = {1, 2, 2, 4}, team[4] = {40, 10, 30, 20};
	rating_rate(a, rank, 4);
	rating_rate_teams(b, rank, team, 4);
	for (int i = 0; i < 4; i++)
		CHECK(a[i].mu == b[i].mu && a[i].sigma == b[i].sigma);
	rating c[3] = {{25, 5}, {26, 6}, {27, 7}};
	int one[3] = {5, 5, 5}, rk[3] = {1, 2, 3};
	CHECK_EQ_INT(rating_rate_teams(c, rk, one, 3), -1);
	CHECK(c[0].mu == 25 && c[1].sigma == 6 && c[2].mu == 27); /* unchanged */
}

int main(void)
{
	TEST("rating: 4 players, B and C tied (Weng-Lin PL, hand-computed)",
	     four_players_with_a_tie);
	TEST("rating: ranks are an order, input order irrelevant", ranks_are_an_order);
	TEST("rating: two new players, a win and a draw", two_new_players);
	TEST("rating: ordinal mu-3sigma, provisional until sigma < 4, solo not rated",
	     ordinal_and_provisional);
	TEST("rating: teams, 2 v 2 (OpenSkill's numbers)", teams_two_against_two);
	TEST("rating: teams of 3, 1 and 2 with a tie (OpenSkill's numbers)",
	     teams_uneven_with_a_tie);
	TEST("rating: four teams, a team ranks as its best player (OpenSkill's numbers)",
	     teams_four_ranked);
	TEST("rating: lone players rate as free-for-all, one team is no game",
	     teams_alone_and_one_team);
	TEST_MAIN_END();
}

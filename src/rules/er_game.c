/* An ER game at the table as a pure state machine over its event log.
 *
 * Rulebook: seed 003 (cited by section heading). Pure: no I/O, no allocation. An er_game is a
 * plain value; er_game_apply() either applies an event completely (version++) or leaves the game
 * untouched and names the broken rule.
 *
 * Readings of the rulebook and of api.md (see also the comments at each function):
 * - Turn flow ("HOW TO PLAY", api.md "Games"): the chief reveals turn n+1 only once turn n is
 *   closed (every seat moved); the chief moves first, then the others in any order; the turn
 *   closes when the last seat moves, at which point the Cardiologists are checked ("4
 *   Cardiologists"), the chief passes clockwise ("END OF TURN") and, after the last card, the
 *   game ends ("END OF THE GAME"). A closed turn cannot be undone.
 * - Undo: a seat may take back its move while the turn is open; the chief only while no other
 *   seat has moved (the others chose knowing the chief's die). ALICAT's moves are never undone.
 * - Solo ("SOLO MODE"): seat 1 is the human, seat 2 ALICAT; the chief alternates (the clockwise
 *   formula with 2 seats), and a tie goes to ALICAT ("END OF THE GAME").
 * - App deck ("GETTING READY" step 2): the 27 cards are shuffled once from the seed; the deck is
 *   the first nturns of them (3 returned unseen, 2 with 5 players). Each turn's dice are rolled
 *   from (seed, turn), so revealing is reproducible and independent of the order of requests. */
#include <stdio.h>
#include <string.h>

#include "rules/er_game.h"

/* Configuration rule ids (er_game_config_finish); er_game_rule_status() maps them to 422. */
static const char RULE_PLAYERS[] = "players-out-of-range";
static const char RULE_SPECIALIST[] = "specialist-invalid";
static const char RULE_CARDIO_SAME[] = "cardiologists-same";
static const char RULE_MODIFIERS[] = "modifiers-invalid";

enum { ALICAT_SEAT = 2, SOLO_CARDIO_POINTS = 5, MAX_MODIFIERS = 2 };

/* ---- helpers ---- */

static er_result ok(void)
{
	return er_ok();
}

/* splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed PRNG whose whole state is one
 * uint64_t, so every draw is reproducible from the seed. */
static uint64_t sm64_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n ≥ 1) without modulo bias: reject the lowest 2^64 mod n outputs. */
static uint64_t sm64_below(uint64_t *s, uint64_t n)
{
	uint64_t threshold = (0 - n) % n;
	for (;;) {
		uint64_t r = sm64_next(s);
		if (r >= threshold)
			return r % n;
	}
}

/* Independent streams per purpose (domain separation of one seed). */
#define DOMAIN_SPECIALISTS UINT64_C(0x50454349414C4953) /* "SPECIALS" */
#define DOMAIN_DECK        UINT64_C(0x414D42554C414E43) /* "AMBULANC" */
#define DOMAIN_DICE        UINT64_C(0x4449434552524F4C) /* "DICEROLL" */

static bool is_alicat(const er_game *g, int seat)
{
	return g->cfg.solo && seat == ALICAT_SEAT;
}

static bool all_moved(const er_game *g)
{
	for (int i = 0; i < g->cfg.nseats; i++)
		if (!g->moved[i])
			return false;
	return true;
}

/* The current turn is closed: nothing revealed yet, or every seat has moved. */
static bool turn_closed(const er_game *g)
{
	return g->turn == 0 || !g->revealed || all_moved(g);
}

/* The chief of the current turn: once the turn has closed, the card has already passed on. */
static int turn_chief(const er_game *g)
{
	int n = g->cfg.nseats;
	if (g->turn > 0 && all_moved(g))
		return (g->chief_seat + n - 2) % n + 1;
	return g->chief_seat;
}

static bool others_moved(const er_game *g, int seat)
{
	for (int i = 0; i < g->cfg.nseats; i++)
		if (i + 1 != seat && g->moved[i])
			return true;
	return false;
}

/* Copies a move field by field into a zeroed struct, so that the game's bytes (padding
 * included) depend only on the move's values: replaying a log gives a memcmp-identical game. */
static void copy_move(er_move *dst, const er_move *src)
{
	memset(dst, 0, sizeof *dst);
	dst->die = src->die;
	dst->nsteps = src->nsteps;
	for (int i = 0; i < src->nsteps && i < ER_MAX_STEPS; i++) {
		dst->steps[i].kind = src->steps[i].kind;
		dst->steps[i].patient = src->steps[i].patient;
		dst->steps[i].ward = src->steps[i].ward;
		dst->steps[i].value = src->steps[i].value;
		dst->steps[i].recolour = src->steps[i].recolour;
	}
}

static void update_cardio_state(er_game *g)
{
	for (int k = 0; k < 2; k++) {
		if (g->cfg.solo)
			g->cardio_state[k] =
			    (int8_t)(g->solo_race.remaining[k] ? SOLO_CARDIO_POINTS : 0);
		else
			g->cardio_state[k] = g->race.offer[k];
	}
}

/* ---- configuration ---- */

int er_game_rule_status(const char *rule)
{
	if (!rule)
		return 200;
	/* 409: the move may be fine but the game is not where the client thinks it is (api.md
	 * "Conventions": "409 state conflict (stale turn, duplicate submission)"). not-chief is a
	 * conflict too: who is chief changes every turn, so a seat that believes it is chief holds
	 * a stale view; it is not a permission problem (403 is for writing another seat). */
	static const char *const conflict[] = {
	    ER_RULE_GAME_FINISHED,         ER_RULE_TURN_STALE,    ER_RULE_TURN_NOT_REVEALED,
	    ER_RULE_TURN_ALREADY_REVEALED, ER_RULE_CARD_USED,     ER_RULE_NOT_CHIEF,
	    ER_RULE_CHIEF_FIRST,           ER_RULE_ALREADY_MOVED, ER_RULE_NOTHING_TO_UNDO,
	    ER_RULE_UNDO_AFTER_OTHERS,
	};
	for (size_t i = 0; i < sizeof conflict / sizeof conflict[0]; i++)
		if (strcmp(rule, conflict[i]) == 0)
			return 409;
	if (strcmp(rule, ER_RULE_BOT_SEAT) == 0)
		return 403; /* ALICAT's seat belongs to the server */
	if (strcmp(rule, ER_RULE_NO_SUCH_SEAT) == 0)
		return 404;
	return 422;
}

static bool spec_of_kind(const er_data *d, er_spec_id id, er_spec_kind kind)
{
	return (int)id >= 0 && (int)id < (int)ER_SPECIALISTS && d->specialists[id].kind == kind;
}

static int popcount4(unsigned m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

er_result er_game_config_finish(const er_data *d, er_game_config *cfg)
{
	/* "1-6 PLAYERS" (box); engineering.md: ≤ 6 players at an ER table. */
	if (cfg->nseats < 1 || cfg->nseats > ER_MAX_SEATS)
		return er_fail(RULE_PLAYERS, "an ER game has 1-%d players, not %d", ER_MAX_SEATS,
		               cfg->nseats);
	/* "SOLO MODE": one human against ALICAT, set up as a 2-player game. */
	if (cfg->solo && cfg->nseats != 2)
		return er_fail(RULE_PLAYERS, "a solo game has 2 seats (you and ALICAT), not %d",
		               cfg->nseats);
	/* "GETTING READY" step 4: 2 Cardiologists, 1 Radiologist, 1 Epidemiologist. */
	for (int k = 0; k < 2; k++)
		if (!spec_of_kind(d, cfg->cardio[k], ER_KIND_CARDIOLOGIST))
			return er_fail(RULE_SPECIALIST, "Cardiologist %d is not a Cardiologist",
			               k + 1);
	if (cfg->cardio[0] == cfg->cardio[1])
		return er_fail(RULE_CARDIO_SAME, "the two Cardiologists must be different cards");
	if (!spec_of_kind(d, cfg->radiologist, ER_KIND_RADIOLOGIST))
		return er_fail(RULE_SPECIALIST, "the Radiologist is not a Radiologist");
	if (!spec_of_kind(d, cfg->epidemiologist, ER_KIND_EPIDEMIOLOGIST))
		return er_fail(RULE_SPECIALIST, "the Epidemiologist is not an Epidemiologist");
	/* "ADJUSTING THE DIFFICULTY": "pick 1 or 2 of the following modifiers" — solo only. */
	unsigned known = ER_MOD_PREPARATION | ER_MOD_EQUIPMENT | ER_MOD_ISOLATION | ER_MOD_CAPACITY;
	if (cfg->modifiers & ~known)
		return er_fail(RULE_MODIFIERS, "unknown ALICAT modifier bits 0x%x",
		               cfg->modifiers & ~known);
	if (cfg->modifiers && !cfg->solo)
		return er_fail(RULE_MODIFIERS, "ALICAT's modifiers apply to solo games only");
	if (popcount4(cfg->modifiers) > MAX_MODIFIERS)
		return er_fail(RULE_MODIFIERS, "pick 1 or 2 ALICAT modifiers, not %d",
		               popcount4(cfg->modifiers));
	/* "HOW TO PLAY": 24 turns (5 players: 25). */
	cfg->nturns = cfg->nseats == 5 ? d->turns_five_players : d->turns_default;
	return ok();
}

void er_game_draw_specialists(const er_data *d, uint64_t seed, er_game_config *cfg)
{
	er_spec_id by_kind[3][ER_SPECIALISTS];
	int n[3] = {0, 0, 0};
	for (int i = 0; i < ER_SPECIALISTS; i++) {
		int k = (int)d->specialists[i].kind;
		if (k >= 0 && k < 3)
			by_kind[k][n[k]++] = (er_spec_id)i;
	}
	uint64_t s = seed ^ DOMAIN_SPECIALISTS;
	cfg->cardio[0] = cfg->cardio[1] = ER_SPEC_NONE;
	cfg->radiologist = cfg->epidemiologist = ER_SPEC_NONE;
	int nc = n[ER_KIND_CARDIOLOGIST];
	if (nc >= 2) {
		/* two different Cardiologists: a uniform ordered pair */
		int a = (int)sm64_below(&s, (uint64_t)nc);
		int b = (int)sm64_below(&s, (uint64_t)(nc - 1));
		if (b >= a)
			b++;
		cfg->cardio[0] = by_kind[ER_KIND_CARDIOLOGIST][a];
		cfg->cardio[1] = by_kind[ER_KIND_CARDIOLOGIST][b];
	}
	if (n[ER_KIND_RADIOLOGIST] > 0)
		cfg->radiologist =
		    by_kind[ER_KIND_RADIOLOGIST][sm64_below(&s, (uint64_t)n[ER_KIND_RADIOLOGIST])];
	if (n[ER_KIND_EPIDEMIOLOGIST] > 0)
		cfg->epidemiologist = by_kind[ER_KIND_EPIDEMIOLOGIST]
		                             [sm64_below(&s, (uint64_t)n[ER_KIND_EPIDEMIOLOGIST])];
}

void er_game_app_reveal(const er_game_config *cfg, int turn, int *card, int8_t dice[ER_DICE])
{
	*card = 0;
	for (int c = 0; c < ER_DICE; c++)
		dice[c] = 0;
	int deck_len = cfg->nturns < ER_CARDS ? cfg->nturns : ER_CARDS;
	if (turn < 1 || turn > deck_len)
		return; /* no such turn: card 0, dice 0 (rejected by er_game_apply) */
	/* "GETTING READY" step 2: shuffle the 27 cards (Fisher–Yates), the deck is the top
	 * nturns; the rest go back to the box unseen. */
	int ids[ER_CARDS];
	for (int i = 0; i < ER_CARDS; i++)
		ids[i] = i + 1;
	uint64_t s = cfg->seed ^ DOMAIN_DECK;
	for (int i = ER_CARDS - 1; i > 0; i--) {
		int j = (int)sm64_below(&s, (uint64_t)i + 1);
		int tmp = ids[i];
		ids[i] = ids[j];
		ids[j] = tmp;
	}
	*card = ids[turn - 1];
	/* "FLIP & ROLL": three dice, each 1..6, from (seed, turn). */
	uint64_t base = cfg->seed ^ DOMAIN_DICE;
	uint64_t d = sm64_next(&base) ^ ((uint64_t)turn * UINT64_C(0xD6E8FEB86659FD93));
	for (int c = 0; c < ER_DICE; c++)
		dice[c] = (int8_t)(1 + sm64_below(&d, 6));
}

/* ---- the game ---- */

void er_game_init(er_game *g, const er_data *d, const er_game_config *cfg)
{
	/* Zero everything, padding included: equal logs give memcmp-equal games. */
	memset(g, 0, sizeof *g);
	/* field by field: the caller's padding bytes must not reach the game */
	g->cfg.nseats = cfg->nseats;
	g->cfg.solo = cfg->solo;
	g->cfg.modifiers = cfg->modifiers;
	g->cfg.cardio[0] = cfg->cardio[0];
	g->cfg.cardio[1] = cfg->cardio[1];
	g->cfg.radiologist = cfg->radiologist;
	g->cfg.epidemiologist = cfg->epidemiologist;
	g->cfg.app_deck = cfg->app_deck;
	g->cfg.seed = cfg->seed;
	g->cfg.nturns = cfg->nturns;
	g->turn = 0;
	g->revealed = false;
	g->chief_seat = 1; /* api.md: seat 1 is the first Chief Physician; "SOLO MODE /
	                      GETTING READY" step 4: the human leads the first round */
	g->chief_die = ER_NO_COLOUR;
	g->alicat_discard = -1;
	for (int i = 0; i < cfg->nseats && i < ER_MAX_SEATS; i++) {
		/* "SOLO MODE / GETTING READY" step 3: ALICAT starts with 2 nurses circled. */
		er_sheet_init(&g->sheets[i], d, is_alicat(g, i + 1),
		              is_alicat(g, i + 1) ? cfg->modifiers : 0);
		g->before[i] = g->sheets[i];
	}
	/* "GETTING READY" step 4: the '8/5' side, with 2 players the '5' side. */
	er_cardio_race_init(&g->race, cfg->nseats);
	er_solo_race_init(&g->solo_race);
	update_cardio_state(g);
}

void er_game_turn_for(const er_game *g, int seat, er_turn *t)
{
	memset(t, 0, sizeof *t);
	t->card = g->card;
	for (int c = 0; c < ER_DICE; c++)
		t->dice[c] = g->dice[c];
	t->chief = seat == g->chief_seat;
	t->chief_die = t->chief ? ER_NO_COLOUR : g->chief_die;
}

/* "CARDIOLOGISTS" / "SOLO MODE / CARDIOLOGISTS" at the end of the turn ("4 Cardiologists"),
 * then "END OF TURN" and "END OF THE GAME". */
static void close_turn(er_game *g, const er_data *d)
{
	int n = g->cfg.nseats;
	if (g->cfg.solo) {
		bool human_met[2];
		for (int k = 0; k < 2; k++)
			human_met[k] = er_cardio_goal_met(d, &g->sheets[0], g->cfg.cardio[k]);
		/* "If ALICAT fills a ward …": wards ALICAT completed during this turn. */
		int filled = 0;
		for (int w = 0; w < ER_WARDS; w++)
			if (er_ward_full(d, &g->sheets[ALICAT_SEAT - 1], w) &&
			    !er_ward_full(d, &g->before[ALICAT_SEAT - 1], w))
				filled++;
		/* "You choose which Cardiologist to discard": the human's choice, else card 1. */
		int discard = g->alicat_discard >= 0 ? g->alicat_discard : 0;
		int16_t human[2], alicat[2];
		er_solo_race_turn(&g->solo_race, human_met, filled, discard, human, alicat);
		for (int k = 0; k < 2; k++) {
			g->sheets[0].cardiologists[k] =
			    (int16_t)(g->sheets[0].cardiologists[k] + human[k]);
			g->sheets[ALICAT_SEAT - 1].cardiologists[k] =
			    (int16_t)(g->sheets[ALICAT_SEAT - 1].cardiologists[k] + alicat[k]);
		}
	} else {
		bool met[ER_MAX_SEATS][2];
		int16_t already[ER_MAX_SEATS][2], award[ER_MAX_SEATS][2];
		for (int i = 0; i < n; i++)
			for (int k = 0; k < 2; k++) {
				met[i][k] = er_cardio_goal_met(d, &g->sheets[i], g->cfg.cardio[k]);
				already[i][k] = g->sheets[i].cardiologists[k];
			}
		er_cardio_race_turn(&g->race, n, (const bool(*)[2])met,
		                    (const int16_t(*)[2])already, award);
		for (int i = 0; i < n; i++)
			for (int k = 0; k < 2; k++)
				g->sheets[i].cardiologists[k] =
				    (int16_t)(g->sheets[i].cardiologists[k] + award[i][k]);
	}
	update_cardio_state(g);
	/* "END OF TURN": pass the Chief Physician card clockwise; solo: alternate. */
	g->chief_seat = g->chief_seat % n + 1;
	/* "If there are no more ambulance cards to flip, the game ends immediately." */
	if (g->turn >= g->cfg.nturns)
		g->finished = true;
}

static er_result check_seat(const er_game *g, int seat)
{
	if (seat < 1 || seat > g->cfg.nseats)
		return er_fail(ER_RULE_NO_SUCH_SEAT, "seat %d does not exist (1-%d)", seat,
		               g->cfg.nseats);
	return ok();
}

/* "FLIP & ROLL": the Chief Physician reveals the next card and rolls the dice. */
static er_result apply_reveal(er_game *g, const er_event *ev)
{
	er_result r = check_seat(g, ev->seat);
	if (r.rule)
		return r;
	if (ev->turn == g->turn + 1 && !turn_closed(g))
		return er_fail(ER_RULE_TURN_ALREADY_REVEALED,
		               "turn %d is still being played: turn %d cannot be revealed yet",
		               g->turn, ev->turn);
	if (ev->turn == g->turn && g->revealed)
		return er_fail(ER_RULE_TURN_ALREADY_REVEALED, "turn %d is already revealed",
		               g->turn);
	if (ev->turn != g->turn + 1)
		return er_fail(ER_RULE_TURN_STALE, "the next turn to reveal is %d, not %d",
		               g->turn + 1, ev->turn);
	if (ev->turn > g->cfg.nturns) /* unreachable: the game finishes after nturns */
		return er_fail(ER_RULE_GAME_FINISHED, "the game has %d turns", g->cfg.nturns);
	/* "FLIP & ROLL": the Chief Physician. Solo: the human also flips and rolls for ALICAT
	 * ("SOLO MODE / HOW TO PLAY": "When you take ALICAT's actions, …"). */
	if (ev->seat != g->chief_seat && !(g->cfg.solo && ev->seat == 1))
		return er_fail(ER_RULE_NOT_CHIEF, "seat %d is the Chief Physician, not seat %d",
		               g->chief_seat, ev->seat);
	if (ev->card < 1 || ev->card > ER_CARDS)
		return er_fail(ER_RULE_UNKNOWN_CARD, "card %d is not an ambulance card (1-%d)",
		               ev->card, ER_CARDS);
	if (g->card_used[ev->card])
		return er_fail(ER_RULE_CARD_USED, "card %d was already flipped in this game",
		               ev->card);
	for (int c = 0; c < ER_DICE; c++)
		if (ev->dice[c] < 1 || ev->dice[c] > 6)
			return er_fail(ER_RULE_DIE_OUT_OF_RANGE, "the %s die shows %d, outside 1-6",
			               er_colour_name((er_colour)c), ev->dice[c]);

	g->turn = ev->turn;
	g->revealed = true;
	g->card = ev->card;
	g->card_used[ev->card] = true;
	for (int c = 0; c < ER_DICE; c++)
		g->dice[c] = ev->dice[c];
	g->chief_die = ER_NO_COLOUR;
	g->alicat_discard = -1;
	for (int i = 0; i < ER_MAX_SEATS; i++) {
		g->moved[i] = false;
		memset(&g->moves[i], 0, sizeof g->moves[i]);
		g->before[i] = g->sheets[i];
	}
	return ok();
}

/* "CHOOSE PATIENT" / "ADMIT PATIENT": the chief first, then everyone else. */
static er_result apply_move(er_game *g, const er_data *d, const er_event *ev)
{
	er_result r = check_seat(g, ev->seat);
	if (r.rule)
		return r;
	int seat = ev->seat;
	if (ev->turn != g->turn)
		return er_fail(ER_RULE_TURN_STALE, "the current turn is %d, not %d", g->turn,
		               ev->turn);
	if (!g->revealed)
		return er_fail(ER_RULE_TURN_NOT_REVEALED, "turn %d has not been revealed yet",
		               ev->turn);
	if (g->moved[seat - 1])
		return er_fail(ER_RULE_ALREADY_MOVED, "seat %d has already moved in turn %d", seat,
		               g->turn);
	/* "CHOOSE PATIENT": the others choose from the dice the chief left (api.md: "the chief's
	 * move comes first"; "SOLO MODE / HOW TO PLAY": "Complete the actions of the player with
	 * the Chief Physician's card first"). */
	if (seat != g->chief_seat && !g->moved[g->chief_seat - 1])
		return er_fail(ER_RULE_CHIEF_FIRST,
		               "the Chief Physician (seat %d) chooses a die before seat %d",
		               g->chief_seat, seat);
	bool human_solo = g->cfg.solo && seat == 1;
	if (human_solo && (ev->alicat_discard < -1 || ev->alicat_discard > 1))
		return er_fail(ER_RULE_INVALID_MOVE,
		               "alicat_discard names Cardiologist 0 or 1 (or -1), not %d",
		               ev->alicat_discard);
	er_turn t;
	er_game_turn_for(g, seat, &t);
	r = er_move_apply(d, &t, &ev->move, is_alicat(g, seat), &g->sheets[seat - 1]);
	if (r.rule)
		return r; /* er_move_apply left the sheet untouched */

	g->moved[seat - 1] = true;
	copy_move(&g->moves[seat - 1], &ev->move);
	if (seat == g->chief_seat)
		g->chief_die = ev->move.die;
	if (human_solo && ev->alicat_discard >= 0)
		g->alicat_discard = ev->alicat_discard;
	if (all_moved(g))
		close_turn(g, d);
	return ok();
}

/* api.md: "undo while the turn is still open". */
static er_result apply_undo(er_game *g, const er_event *ev)
{
	er_result r = check_seat(g, ev->seat);
	if (r.rule)
		return r;
	int seat = ev->seat;
	if (is_alicat(g, seat))
		return er_fail(ER_RULE_BOT_SEAT, "ALICAT's moves cannot be undone");
	if (ev->turn != g->turn)
		return er_fail(ER_RULE_TURN_STALE, "the current turn is %d, not %d", g->turn,
		               ev->turn);
	if (!g->moved[seat - 1])
		return er_fail(ER_RULE_NOTHING_TO_UNDO, "seat %d has not moved in turn %d", seat,
		               g->turn);
	/* The others chose their dice knowing the chief's: the chief's choice stands once any
	 * other seat has moved. Checked before "closed" so that the solo human chief, whose turn
	 * ALICAT's move closes, hears the reason that applies (ALICAT acted on the die). */
	if (seat == turn_chief(g) && others_moved(g, seat))
		return er_fail(
		    ER_RULE_UNDO_AFTER_OTHERS,
		    "the Chief Physician cannot take back the die once others have chosen");
	/* Closing ran the Cardiologist check and passed the chief on: a closed turn stands. */
	if (all_moved(g))
		return er_fail(ER_RULE_TURN_STALE, "turn %d is closed: every seat has moved",
		               g->turn);

	g->sheets[seat - 1] = g->before[seat - 1];
	g->moved[seat - 1] = false;
	memset(&g->moves[seat - 1], 0, sizeof g->moves[seat - 1]);
	if (seat == g->chief_seat)
		g->chief_die = ER_NO_COLOUR;
	if (g->cfg.solo && seat == 1)
		g->alicat_discard = -1; /* the new move states its preference again */
	return ok();
}

er_result er_game_apply(er_game *g, const er_data *d, const er_event *ev)
{
	if (g->finished)
		return er_fail(ER_RULE_GAME_FINISHED, "the game is over after %d turns",
		               g->cfg.nturns);
	er_result r;
	switch (ev->kind) {
	case ER_EV_REVEAL:
		r = apply_reveal(g, ev);
		break;
	case ER_EV_MOVE:
		r = apply_move(g, d, ev);
		break;
	case ER_EV_UNDO:
		r = apply_undo(g, ev);
		break;
	default:
		return er_fail(ER_RULE_INVALID_MOVE, "unknown event kind %d", (int)ev->kind);
	}
	if (!r.rule)
		g->version++;
	return r;
}

/* "SOLO MODE / HOW TO PLAY": ALICAT acts after the human chief, or first when it is chief. */
bool er_game_alicat_next(const er_game *g, const er_data *d, er_event *ev)
{
	if (!g->cfg.solo || g->finished || !g->revealed || g->turn < 1)
		return false;
	if (g->moved[ALICAT_SEAT - 1])
		return false;
	if (g->chief_seat != ALICAT_SEAT && !g->moved[g->chief_seat - 1])
		return false;
	er_turn t;
	er_game_turn_for(g, ALICAT_SEAT, &t);
	er_move m;
	memset(&m, 0, sizeof m);
	/* "Final turn: On the final turn of the game only, …" */
	er_result r =
	    er_alicat_move(d, &g->sheets[ALICAT_SEAT - 1], &t, g->turn == g->cfg.nturns, &m);
	if (r.rule)
		return false;
	memset(ev, 0, sizeof *ev);
	ev->kind = ER_EV_MOVE;
	ev->seat = ALICAT_SEAT;
	ev->turn = g->turn;
	ev->alicat_discard = -1;
	copy_move(&ev->move, &m);
	return true;
}

/* "END OF THE GAME": the most points wins; "SOLO MODE / END OF THE GAME": "If there is a tie,
 * ALICAT wins." */
void er_game_scores(const er_game *g, const er_data *d, er_breakdown *scores, int *ranks)
{
	int n = g->cfg.nseats;
	for (int i = 0; i < n; i++) {
		bool alicat = is_alicat(g, i + 1);
		memset(&scores[i], 0, sizeof scores[i]);
		er_details details;
		er_result r = er_score(d, &g->sheets[i], g->cfg.radiologist, g->cfg.epidemiologist,
		                       alicat, alicat ? g->cfg.modifiers : 0, &scores[i], &details);
		if (r.rule) /* cannot happen for sheets reached by legal moves */
			memset(&scores[i], 0, sizeof scores[i]);
	}
	if (!ranks)
		return;
	for (int i = 0; i < n; i++) {
		int better = 0;
		for (int j = 0; j < n; j++)
			if (scores[j].total > scores[i].total)
				better++;
		ranks[i] = better + 1; /* equal totals share a rank: 1, 1, 3 */
	}
	if (g->cfg.solo && n == 2 && scores[0].total == scores[1].total) {
		ranks[ALICAT_SEAT - 1] = 1;
		ranks[0] = 2;
	}
}

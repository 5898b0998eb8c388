/* ER game data and geometry (er_data.c, er_geom.c) against shared/game-data.md §1 and the
 * ER rulebook (seed 003). */
#include "er_fixture.h"
#include "test.h"

static er_data D;
static int loaded;

static void t_load(void)
{
	CHECK_EQ_INT(loaded, 0);
	for (int i = 0; i < ER_CARDS; i++)
		CHECK_EQ_INT(D.cards[i].id, i + 1);
	for (int i = 0; i < ER_SPECIALISTS; i++) {
		CHECK_EQ_INT(D.specialists[i].id, i);
		CHECK_EQ_INT(er_spec_from_code(&D, D.specialists[i].code), i);
	}
	CHECK_EQ_INT(D.start_stethoscopes, 1);
	CHECK_EQ_INT(D.morgue_boxes, 4);
	CHECK_EQ_INT(D.alicat_start_nurses, 2);
	CHECK_EQ_INT(D.alicat_max_extra_nurses, 5);
	CHECK_EQ_INT(D.turns_default, 24);
	CHECK_EQ_INT(D.turns_five_players, 25);
	static const int track[ER_NURSE_SPACES] = {2, 5, 9, 14, 20, 27, 35};
	for (int i = 0; i < ER_NURSE_SPACES; i++)
		CHECK_EQ_INT(D.nurse_track[i], track[i]);
	CHECK_EQ_INT(D.lab_hex[0], 102);
	CHECK_EQ_INT(D.lab_hex[1], 405);
}

static void t_names(void)
{
	CHECK_STR(er_colour_name(ER_RED), "red");
	CHECK_STR(er_colour_name(ER_YELLOW), "yellow");
	CHECK_STR(er_colour_name(ER_GREEN), "green");
	CHECK_STR(er_colour_name(ER_WILD), "wild");
	CHECK(er_colour_name(ER_NO_COLOUR) == NULL);
	CHECK_EQ_INT(er_colour_from_name("green"), ER_GREEN);
	CHECK_EQ_INT(er_colour_from_name("wild"), ER_WILD);
	CHECK_EQ_INT(er_colour_from_name("Green"), ER_NO_COLOUR);
	CHECK_EQ_INT(er_colour_from_name(""), ER_NO_COLOUR);
	CHECK_EQ_INT(er_colour_from_name(NULL), ER_NO_COLOUR);
	CHECK_STR(er_bonus_name(ER_BONUS_STETHOSCOPES), "stethoscopes");
	CHECK_STR(er_bonus_name(ER_BONUS_BLOOD_BAG), "blood_bag");
	CHECK_STR(er_bonus_name(ER_BONUS_EXTRA), "extra");
	CHECK_EQ_INT(er_spec_from_code(&D, "stethoscopes-8"), ER_CARDIO_STETHOSCOPES_8);
	CHECK_EQ_INT(er_spec_from_code(&D, "xray-matching-set"), ER_RADIO_MATCHING_SET);
	CHECK_EQ_INT(er_spec_from_code(&D, "odd-even-triangles"), ER_EPI_ODD_EVEN_TRIANGLES);
	CHECK_EQ_INT(er_spec_from_code(&D, "nope"), ER_SPEC_NONE);
	CHECK_EQ_INT(er_spec_from_code(&D, NULL), ER_SPEC_NONE);
	CHECK_EQ_INT(D.specialists[ER_CARDIO_NURSES_3].kind, ER_KIND_CARDIOLOGIST);
	CHECK_EQ_INT(D.specialists[ER_RADIO_CRITICAL_HALF].kind, ER_KIND_RADIOLOGIST);
	CHECK_EQ_INT(D.specialists[ER_EPI_SEQUENCE_1_6].kind, ER_KIND_EPIDEMIOLOGIST);
}

/* game-data.md §1.5 ALICAT column. */
static void t_alicat_points(void)
{
	static const struct {
		const char *code;
		int pts;
	} want[] = {
	    {"xray-critical-half", 8},  {"xray-extreme-total", 10}, {"xray-high-values", 8},
	    {"xray-opposite-pairs", 8}, {"xray-matching-set", 10},  {"sequence-1-6", 10},
	    {"line-of-3", 10},          {"largest-group", 9},       {"most-least-common", 9},
	    {"odd-even-triangles", 8},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		er_spec_id id = er_spec_from_code(&D, want[i].code);
		CHECK(id != ER_SPEC_NONE);
		if (id != ER_SPEC_NONE)
			CHECK_EQ_INT(D.specialists[id].alicat_points, want[i].pts);
	}
}

/* game-data.md §1.1: ward layout, bed order, colours, clipboards. */
static void t_sheet_layout(void)
{
	static const int nbeds[ER_WARDS] = {4, 5, 5, 4, 5, 6, 3};
	static const int clip[ER_WARDS] = {5, 7, 8, 6, 9, 10, 4};
	int first = 0, clipsum = 0, colours[4] = {0};
	for (int w = 0; w < ER_WARDS; w++) {
		CHECK_EQ_INT(D.wards[w].nbeds, nbeds[w]);
		CHECK_EQ_INT(D.wards[w].clipboard, clip[w]);
		CHECK_EQ_INT(D.wards[w].first_bed, first);
		for (int p = 0; p < nbeds[w]; p++) {
			int b = er_bed_index(&D, w, p);
			CHECK_EQ_INT(b, first + p);
			CHECK_EQ_INT(D.beds[b].ward, w);
			CHECK_EQ_INT(D.beds[b].pos, p);
		}
		CHECK_EQ_INT(er_bed_index(&D, w, nbeds[w]), -1);
		first += nbeds[w];
		clipsum += clip[w];
	}
	CHECK_EQ_INT(first, ER_BEDS);
	CHECK_EQ_INT(clipsum, 49);
	CHECK_EQ_INT(er_bed_index(&D, -1, 0), -1);
	CHECK_EQ_INT(er_bed_index(&D, 7, 0), -1);
	CHECK_EQ_INT(er_bed_index(&D, 0, -1), -1);
	for (int b = 0; b < ER_BEDS; b++)
		colours[D.beds[b].colour]++;
	CHECK_EQ_INT(colours[ER_RED], 8);
	CHECK_EQ_INT(colours[ER_YELLOW], 8);
	CHECK_EQ_INT(colours[ER_GREEN], 8);
	CHECK_EQ_INT(colours[ER_WILD], 8);
	/* spot checks: ward 1 lobby bed wild 301, ward 6 clipboard bed green 407 */
	CHECK_EQ_INT(D.beds[0].hex, 301);
	CHECK_EQ_INT(D.beds[0].colour, ER_WILD);
	CHECK_EQ_INT(D.beds[er_bed_index(&D, 5, 5)].hex, 407);
	CHECK_EQ_INT(D.beds[er_bed_index(&D, 5, 5)].colour, ER_GREEN);
	CHECK_EQ_INT(D.beds[er_bed_index(&D, 6, 2)].hex, 506);
}

/* game-data.md §1.4 "Checks for a test". */
static void t_cards(void)
{
	int totals[6] = {0};
	int extras[3][3] = {{0}}; /* colour × {1/2, 3/4, 5/6} */
	for (int i = 0; i < ER_CARDS; i++) {
		const er_card *c = &D.cards[i];
		CHECK(c->bay[0].kind != c->bay[1].kind);
		CHECK(c->bay[0].kind != c->bay[2].kind);
		CHECK(c->bay[1].kind != c->bay[2].kind);
		for (int b = 0; b < ER_DICE; b++) {
			totals[c->bay[b].kind]++;
			if (c->bay[b].kind == ER_BONUS_EXTRA) {
				int lo = c->bay[b].extra_values[0], hi = c->bay[b].extra_values[1];
				CHECK(lo % 2 == 1 && hi == lo + 1);
				CHECK(c->bay[b].extra_colour >= ER_RED &&
				      c->bay[b].extra_colour <= ER_GREEN);
				if (lo % 2 == 1 && hi == lo + 1 &&
				    c->bay[b].extra_colour >= ER_RED &&
				    c->bay[b].extra_colour <= ER_GREEN)
					extras[c->bay[b].extra_colour][lo / 2]++;
			} else {
				CHECK_EQ_INT(c->bay[b].extra_colour, ER_NO_COLOUR);
			}
		}
		for (int j = 0; j < i; j++) {
			const er_card *o = &D.cards[j];
			bool same = true;
			for (int b = 0; b < ER_DICE; b++)
				if (o->bay[b].kind != c->bay[b].kind ||
				    (c->bay[b].kind == ER_BONUS_EXTRA &&
				     (o->bay[b].extra_colour != c->bay[b].extra_colour ||
				      o->bay[b].extra_values[0] != c->bay[b].extra_values[0])))
					same = false;
			if (same)
				printf("  cards %d and %d share a triple\n", j + 1, i + 1);
			CHECK(!same);
		}
	}
	CHECK_EQ_INT(totals[ER_BONUS_CRITICAL], 15);
	CHECK_EQ_INT(totals[ER_BONUS_NURSE], 15);
	CHECK_EQ_INT(totals[ER_BONUS_BLOOD_BAG], 15);
	CHECK_EQ_INT(totals[ER_BONUS_SCREEN], 15);
	CHECK_EQ_INT(totals[ER_BONUS_STETHOSCOPES], 12);
	CHECK_EQ_INT(totals[ER_BONUS_EXTRA], 9);
	for (int c = 0; c < 3; c++)
		for (int v = 0; v < 3; v++)
			CHECK_EQ_INT(extras[c][v], 1);
	/* spot checks from the §1.4 table */
	CHECK_EQ_INT(D.cards[0].bay[ER_RED].kind, ER_BONUS_CRITICAL);
	CHECK_EQ_INT(D.cards[0].bay[ER_YELLOW].kind, ER_BONUS_EXTRA);
	CHECK_EQ_INT(D.cards[0].bay[ER_YELLOW].extra_colour, ER_RED);
	CHECK_EQ_INT(D.cards[0].bay[ER_YELLOW].extra_values[0], 1);
	CHECK_EQ_INT(D.cards[0].bay[ER_YELLOW].extra_values[1], 2);
	CHECK_EQ_INT(D.cards[26].bay[ER_GREEN].kind, ER_BONUS_STETHOSCOPES);
	CHECK_EQ_INT(D.cards[20].bay[ER_GREEN].extra_colour, ER_GREEN);
	CHECK_EQ_INT(D.cards[20].bay[ER_GREEN].extra_values[0], 3);
}

static int hex_of(int b)
{
	return b < 0 ? -1 : D.beds[b].hex;
}

/* game-data.md §1.2: 65 edges, 40 lines, 32 triangles; the lab tables. */
static void t_geometry(void)
{
	CHECK_EQ_INT(D.nedges, 65);
	CHECK_EQ_INT(D.nlines, 40);
	CHECK_EQ_INT(D.ntriangles, 32);
	int degsum = 0;
	for (int b = 0; b < ER_BEDS; b++) {
		CHECK(!(D.adj[b] >> b & 1u));
		for (int j = 0; j < ER_BEDS; j++)
			CHECK_EQ_INT(D.adj[b] >> j & 1u, D.adj[j] >> b & 1u);
		degsum += __builtin_popcount(D.adj[b]);
	}
	CHECK_EQ_INT(degsum, 2 * 65);
	for (int i = 0; i < D.nlines; i++) {
		int a = D.lines[i][0], m = D.lines[i][1], c = D.lines[i][2];
		CHECK(D.adj[m] >> a & 1u);
		CHECK(D.adj[m] >> c & 1u);
		CHECK(!(D.adj[a] >> c & 1u)); /* straight, not a triangle */
	}
	for (int i = 0; i < D.ntriangles; i++) {
		int a = D.triangles[i][0], b = D.triangles[i][1], c = D.triangles[i][2];
		CHECK((D.adj[a] >> b & 1u) && (D.adj[a] >> c & 1u) && (D.adj[b] >> c & 1u));
	}
	static const int lab[ER_LABS][6] = {{1, 2, 103, 202, 201, 101},
	                                    {305, 306, 406, 506, 505, 404}};
	for (int l = 0; l < ER_LABS; l++)
		for (int k = 0; k < 6; k++)
			CHECK_EQ_INT(hex_of(D.lab_adj[l][k]), lab[l][k]);
	/* no bed is adjacent to both labs (so "adjacent to a lab" never counts a bed twice) */
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 6; j++)
			CHECK(D.lab_adj[0][i] != D.lab_adj[1][j]);
	/* spot checks: 0–1 adjacent (row 0 neighbours), 0–100 adjacent, 200–301 adjacent */
	int b0 = er_fixture_bed_at_hex(&D, 0), b1 = er_fixture_bed_at_hex(&D, 1);
	int b100 = er_fixture_bed_at_hex(&D, 100), b200 = er_fixture_bed_at_hex(&D, 200);
	int b301 = er_fixture_bed_at_hex(&D, 301), b407 = er_fixture_bed_at_hex(&D, 407);
	CHECK(D.adj[b0] >> b1 & 1u);
	CHECK(D.adj[b0] >> b100 & 1u);
	CHECK(D.adj[b200] >> b301 & 1u);
	CHECK(!(D.adj[b0] >> b407 & 1u));
}

/* Loader rejects malformed templates. */
static json_object *load_doc(const char *name)
{
	const char *dir = getenv("TEMPLATES_DIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "templates/er", name);
	return json_object_from_file(path);
}

static int reload(json_object *sh, json_object *ca, json_object *sp, char *err, size_t n)
{
	er_data tmp;
	return er_data_from_json(&tmp, sh, ca, sp, err, n);
}

static void t_loader_rejects(void)
{
	json_object *sh = load_doc("sheet.json"), *ca = load_doc("cards.json"),
	            *sp = load_doc("specialists.json");
	CHECK(sh && ca && sp);
	if (!sh || !ca || !sp)
		goto out;
	char err[256];
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), 0);
	CHECK_EQ_INT(reload(NULL, ca, sp, err, sizeof err), -1);

	/* unknown specialist code */
	json_object *s0 = json_object_array_get_idx(json_object_object_get(sp, "specialists"), 0);
	json_object_object_add(s0, "id", json_object_new_string("stethoscopes-9"));
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), -1);
	CHECK(strstr(err, "stethoscopes-9") != NULL);
	json_object_object_add(s0, "id", json_object_new_string("stethoscopes-8"));
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), 0);

	/* a number given as a string is a type error, not coerced */
	json_object *w0 = json_object_array_get_idx(json_object_object_get(sh, "wards"), 0);
	json_object_object_add(w0, "clipboard", json_object_new_string("5"));
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), -1);
	CHECK(strstr(err, "clipboard") != NULL);
	json_object_object_add(w0, "clipboard", json_object_new_int(5));

	/* nurse track must have 7 values */
	json_object *nt = json_object_object_get(sh, "nurse_track");
	json_object_array_add(nt, json_object_new_int(44));
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), -1);
	json_object_array_del_idx(nt, 7, 1);
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), 0);

	/* unknown colour on a bed */
	json_object *bed0 = json_object_array_get_idx(json_object_object_get(w0, "beds"), 0);
	json_object_object_add(bed0, "colour", json_object_new_string("blue"));
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), -1);
	json_object_object_add(bed0, "colour", json_object_new_string("wild"));

	/* a missing card */
	json_object *cards = json_object_object_get(ca, "cards");
	json_object *last = json_object_get(json_object_array_get_idx(cards, 26));
	json_object_array_del_idx(cards, 26, 1);
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), -1);
	json_object_array_add(cards, last);
	CHECK_EQ_INT(reload(sh, ca, sp, err, sizeof err), 0);
out:
	json_object_put(sh);
	json_object_put(ca);
	json_object_put(sp);
}

/* The fixture's own parser (used by every ER test). */
static void t_fixture(void)
{
	er_sheet s;
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "1,3!,5s|2||||4,4s|6"), 0);
	CHECK_EQ_INT(s.count[0], 3);
	CHECK_EQ_INT(s.ward[0][1].value, 3);
	CHECK(s.ward[0][1].critical && !s.ward[0][1].screen);
	CHECK(s.ward[0][2].screen && !s.ward[0][2].critical);
	CHECK_EQ_INT(s.count[1], 1);
	CHECK_EQ_INT(s.count[4], 0);
	CHECK_EQ_INT(s.count[5], 2);
	CHECK_EQ_INT(s.count[6], 1);
	CHECK_EQ_INT(s.steth_circled, 1);
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "1,2,3,4,5"), -1); /* ward 1 has 4 beds */
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "7"), -1);
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "|||||||1"), -1);
	int v[ER_BEDS] = {0};
	v[er_bed_index(&D, 2, 0)] = 4;
	CHECK_EQ_INT(er_fixture_sheet_beds(&D, &s, v), 0);
	CHECK_EQ_INT(s.count[2], 1);
	v[er_bed_index(&D, 3, 1)] = 4; /* gap at the lobby bed of ward 4 */
	CHECK_EQ_INT(er_fixture_sheet_beds(&D, &s, v), -1);
}

int main(void)
{
	loaded = er_fixture_load(&D);
	TEST("seed003 YOUR HOSPITAL / data: templates load", t_load);
	if (loaded != 0)
		TEST_MAIN_END();
	TEST("game-data §1: colour, bonus and specialist names round-trip", t_names);
	TEST("seed003 SOLO MODE / ALICAT fixed specialist points (game-data §1.5)",
	     t_alicat_points);
	TEST("game-data §1.1: 7 wards, 32 beds, colours 8/8/8/8, clipboards sum 49",
	     t_sheet_layout);
	TEST("game-data §1.4 / seed003 AMBULANCE BONUS: card bonus totals, extras, unique triples",
	     t_cards);
	TEST("game-data §1.2: 65 edges, 40 lines, 32 triangles, X-ray lab neighbours", t_geometry);
	TEST("data: loader rejects unknown codes, coerced types, wrong counts", t_loader_rejects);
	TEST("fixture: compact sheet spec parser", t_fixture);
	TEST_MAIN_END();
}

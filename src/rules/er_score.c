/* ER end-of-game scoring (ER rulebook "END OF THE GAME", "SPECIALIST CARDS", "SOLO MODE /
 * END OF THE GAME", "ADJUSTING THE DIFFICULTY") and the Cardiologist goals as predicates.
 *
 * Pure: no I/O, no allocation; every working set lives on the stack. Bed sets are uint32_t
 * masks over global bed indexes (ER_BEDS == 32).
 *
 * "Each patient can only count in one sequence/line/triple" is scored as the exact maximum
 * number of pairwise-disjoint candidate sets (maximum set packing), by a branch-and-bound over
 * bit masks: take the lowest-indexed bed that some still-possible candidate covers, and either
 * use one of the candidates through it or leave that bed out; prune when the candidates still
 * possible cannot beat the best found (count + coverable beds / set size). */
#include <string.h>

#include "rules/er.h"

_Static_assert(ER_BEDS <= 32, "bed masks are 32 bits");

/* Upper bound on candidate 1-6 paths kept. A path is fixed by its bed set (values 1..6 each
 * once); a hill-climb over all 6^32 value assignments of the real sheet found at most 84 paths,
 * so this cap (16 KiB of stack) is never reached in practice. Were it reached, the extra paths
 * would be ignored and the score would be a lower bound. */
enum { MAX_PATHS = 4096 };

typedef struct {
	int8_t val[ER_BEDS]; /* 0 = empty */
	uint32_t filled;
	uint32_t critical, screen;
} view;

static void view_of(const er_data *d, const er_sheet *s, view *v)
{
	memset(v, 0, sizeof *v);
	for (int b = 0; b < ER_BEDS; b++) {
		int w = d->beds[b].ward, p = d->beds[b].pos;
		if (w < 0 || w >= ER_WARDS || p < 0 || p >= ER_MAX_BEDS || p >= s->count[w])
			continue;
		const er_patient *pt = &s->ward[w][p];
		if (pt->value < 1 || pt->value > 6)
			continue;
		v->val[b] = pt->value;
		v->filled |= 1u << b;
		if (pt->critical)
			v->critical |= 1u << b;
		if (pt->screen)
			v->screen |= 1u << b;
	}
}

static uint32_t lab_mask(const er_data *d, int lab)
{
	uint32_t m = 0;
	for (int k = 0; k < 6; k++)
		if (d->lab_adj[lab][k] >= 0)
			m |= 1u << d->lab_adj[lab][k];
	return m;
}

static int lowest(uint32_t m)
{
	return __builtin_ctz(m);
}

/* ---- exact maximum set packing ---- */

typedef struct {
	const uint32_t *sets;
	int n, size;
	int best;
	uint32_t best_union;
} packer;

static void pack(packer *p, uint32_t avail, int count, uint32_t used)
{
	uint32_t cover = 0;
	for (int i = 0; i < p->n; i++)
		if ((p->sets[i] & ~avail) == 0)
			cover |= p->sets[i];
	if (count > p->best) {
		p->best = count;
		p->best_union = used;
	}
	if (cover == 0 || count + __builtin_popcount(cover) / p->size <= p->best)
		return;
	uint32_t bit = 1u << lowest(cover);
	for (int i = 0; i < p->n; i++)
		if ((p->sets[i] & bit) && (p->sets[i] & ~avail) == 0)
			pack(p, avail & ~p->sets[i], count + 1, used | p->sets[i]);
	pack(p, avail & ~bit, count, used);
}

/* Maximum number of pairwise-disjoint sets among sets[0..n) (each of `size` beds); *beds gets
 * the union of one optimal choice. */
static int max_packing(const uint32_t *sets, int n, int size, uint32_t *beds)
{
	packer p = {.sets = sets, .n = n, .size = size, .best = 0, .best_union = 0};
	uint32_t all = 0;
	for (int i = 0; i < n; i++)
		all |= sets[i];
	if (n > 0)
		pack(&p, all, 0, 0);
	*beds = p.best_union;
	return p.best;
}

/* ---- Radiologists ---- */

static int radio_critical_half(const er_data *d, const view *v, uint32_t *beds)
{
	/* No bed touches both labs (tests pin it); the union counts a bed once regardless. */
	uint32_t m = (lab_mask(d, 0) | lab_mask(d, 1)) & v->critical & v->filled;
	int sum = 0;
	for (uint32_t r = m; r; r &= r - 1)
		sum += v->val[lowest(r)];
	*beds = m;
	return (sum + 1) / 2;
}

static int radio_extreme_total(const er_data *d, const view *v, uint32_t *beds)
{
	int pts = 0;
	for (int l = 0; l < ER_LABS; l++) {
		bool full = true;
		int sum = 0;
		for (int k = 0; k < 6; k++) {
			int b = d->lab_adj[l][k];
			if (b < 0 || !(v->filled >> b & 1u)) {
				full = false;
				break;
			}
			sum += v->val[b];
		}
		if (full && (sum <= 12 || sum >= 30)) {
			pts += 10;
			*beds |= lab_mask(d, l);
		}
	}
	return pts;
}

static int radio_high_values(const er_data *d, const view *v, uint32_t *beds)
{
	uint32_t m = (lab_mask(d, 0) | lab_mask(d, 1)) & v->filled, hi = 0;
	for (uint32_t r = m; r; r &= r - 1)
		if (v->val[lowest(r)] >= 4)
			hi |= 1u << lowest(r);
	*beds = hi;
	return 2 * __builtin_popcount(hi);
}

static int radio_opposite_pairs(const er_data *d, const view *v, uint32_t *beds)
{
	int pts = 0;
	for (int l = 0; l < ER_LABS; l++)
		for (int k = 0; k < 3; k++) {
			int a = d->lab_adj[l][k], b = d->lab_adj[l][k + 3];
			if (a < 0 || b < 0 || !(v->filled >> a & 1u) || !(v->filled >> b & 1u) ||
			    v->val[a] != v->val[b])
				continue;
			pts += 4;
			*beds |= 1u << a | 1u << b;
		}
	return pts;
}

static int radio_matching_set(const er_data *d, const view *v, uint32_t *beds)
{
	int pts = 0;
	for (int l = 0; l < ER_LABS; l++) {
		uint32_t m = lab_mask(d, l) & v->filled, by_val[7] = {0};
		for (uint32_t r = m; r; r &= r - 1)
			by_val[v->val[lowest(r)]] |= 1u << lowest(r);
		int best = 0, best_v = 0;
		for (int x = 1; x <= 6; x++)
			if (__builtin_popcount(by_val[x]) > best) {
				best = __builtin_popcount(by_val[x]);
				best_v = x;
			}
		if (best >= 3) {
			pts += 5 * (best - 2);
			*beds |= by_val[best_v];
		}
	}
	return pts;
}

/* ---- Epidemiologists ---- */

typedef struct {
	uint32_t paths[MAX_PATHS];
	int n;
} path_list;

static void extend_path(const er_data *d, const view *v, int bed, uint32_t path, path_list *pl)
{
	int want = v->val[bed] + 1;
	if (want > 6) {
		if (pl->n < MAX_PATHS)
			pl->paths[pl->n++] = path;
		return;
	}
	for (uint32_t r = d->adj[bed] & v->filled & ~path; r; r &= r - 1) {
		int nb = lowest(r);
		if (v->val[nb] == want)
			extend_path(d, v, nb, path | 1u << nb, pl);
	}
}

static int epi_sequence(const er_data *d, const view *v, uint32_t *beds)
{
	path_list pl;
	pl.n = 0;
	for (uint32_t r = v->filled; r; r &= r - 1) {
		int b = lowest(r);
		if (v->val[b] == 1)
			extend_path(d, v, b, 1u << b, &pl);
	}
	return 10 * max_packing(pl.paths, pl.n, 6, beds);
}

static int epi_line_of_3(const er_data *d, const view *v, uint32_t *beds)
{
	uint32_t sets[ER_MAX_LINES];
	int n = 0;
	for (int i = 0; i < d->nlines; i++) {
		int a = d->lines[i][0], b = d->lines[i][1], c = d->lines[i][2];
		uint32_t m = 1u << a | 1u << b | 1u << c;
		if ((m & ~v->filled) == 0 && v->val[a] == v->val[b] && v->val[b] == v->val[c])
			sets[n++] = m;
	}
	return 5 * max_packing(sets, n, 3, beds);
}

static int epi_triangles(const er_data *d, const view *v, uint32_t *beds)
{
	uint32_t sets[ER_MAX_TRIANGLES];
	int n = 0;
	for (int i = 0; i < d->ntriangles; i++) {
		int a = d->triangles[i][0], b = d->triangles[i][1], c = d->triangles[i][2];
		uint32_t m = 1u << a | 1u << b | 1u << c;
		if ((m & ~v->filled) == 0 && v->val[a] % 2 == v->val[b] % 2 &&
		    v->val[b] % 2 == v->val[c] % 2)
			sets[n++] = m;
	}
	return 4 * max_packing(sets, n, 3, beds);
}

static int epi_largest_group(const er_data *d, const view *v, uint32_t *beds)
{
	uint32_t seen = 0, best = 0;
	for (uint32_t r = v->filled; r; r &= r - 1) {
		int b = lowest(r);
		if (seen >> b & 1u)
			continue;
		uint32_t group = 1u << b, frontier = group;
		while (frontier) {
			int x = lowest(frontier);
			frontier &= frontier - 1;
			for (uint32_t nr = d->adj[x] & v->filled & ~group; nr; nr &= nr - 1) {
				int y = lowest(nr);
				if (v->val[y] == v->val[b]) {
					group |= 1u << y;
					frontier |= 1u << y;
				}
			}
		}
		seen |= group;
		if (__builtin_popcount(group) > __builtin_popcount(best))
			best = group;
	}
	*beds = best;
	return 3 * __builtin_popcount(best);
}

static int epi_most_least(const view *v, uint32_t *beds)
{
	uint32_t by_val[7] = {0};
	for (uint32_t r = v->filled; r; r &= r - 1)
		by_val[v->val[lowest(r)]] |= 1u << lowest(r);
	if (v->filled == 0)
		return 0;
	int most = 0, most_v = 0, least = ER_BEDS + 1;
	bool all = true;
	for (int x = 1; x <= 6; x++) {
		int c = __builtin_popcount(by_val[x]);
		if (c > most) {
			most = c;
			most_v = x;
		}
		if (c < least)
			least = c;
		if (c == 0)
			all = false;
	}
	*beds = by_val[most_v];
	return 3 * most - (all ? 3 * least : 0);
}

int er_score_specialist(const er_data *d, const er_sheet *s, er_spec_id id, uint32_t *beds)
{
	uint32_t dummy = 0;
	if (!beds)
		beds = &dummy;
	*beds = 0;
	if (!d || !s)
		return 0;
	view v;
	view_of(d, s, &v);
	switch (id) {
	case ER_RADIO_CRITICAL_HALF:
		return radio_critical_half(d, &v, beds);
	case ER_RADIO_EXTREME_TOTAL:
		return radio_extreme_total(d, &v, beds);
	case ER_RADIO_HIGH_VALUES:
		return radio_high_values(d, &v, beds);
	case ER_RADIO_OPPOSITE_PAIRS:
		return radio_opposite_pairs(d, &v, beds);
	case ER_RADIO_MATCHING_SET:
		return radio_matching_set(d, &v, beds);
	case ER_EPI_SEQUENCE_1_6:
		return epi_sequence(d, &v, beds);
	case ER_EPI_LINE_OF_3:
		return epi_line_of_3(d, &v, beds);
	case ER_EPI_LARGEST_GROUP:
		return epi_largest_group(d, &v, beds);
	case ER_EPI_MOST_LEAST_COMMON:
		return epi_most_least(&v, beds);
	case ER_EPI_ODD_EVEN_TRIANGLES:
		return epi_triangles(d, &v, beds);
	default: /* ER_SPEC_NONE, Cardiologists (scored during play), unknown */
		return 0;
	}
}

/* ---- Cardiologist goals (ER rulebook "SPECIALIST CARDS / CARDIOLOGIST") ---- */

static int full_wards(const er_data *d, const er_sheet *s)
{
	int n = 0;
	for (int w = 0; w < ER_WARDS; w++)
		if (s->count[w] >= d->wards[w].nbeds)
			n++;
	return n;
}

bool er_cardio_goal_met(const er_data *d, const er_sheet *s, er_spec_id goal)
{
	if (!d || !s)
		return false;
	switch (goal) {
	case ER_CARDIO_STETHOSCOPES_8: /* gained: the pre-circled one does not count */
		return s->steth_circled - d->start_stethoscopes >= 8;
	case ER_CARDIO_SURROUND_XRAY: {
		view v;
		view_of(d, s, &v);
		for (int l = 0; l < ER_LABS; l++) {
			uint32_t m = lab_mask(d, l);
			if (__builtin_popcount(m) == 6 && (m & ~v.filled) == 0)
				return true;
		}
		return false;
	}
	case ER_CARDIO_NURSES_3:
		return s->nurse_track >= 3;
	case ER_CARDIO_BLOOD_BAGS_4: /* gained, used or not */
		return s->blood_circled >= 4;
	case ER_CARDIO_ALL_WARDS:
		for (int w = 0; w < ER_WARDS; w++)
			if (s->count[w] < 1)
				return false;
		return true;
	case ER_CARDIO_FILL_2_WARDS:
		return full_wards(d, s) >= 2;
	default:
		return false;
	}
}

/* ---- the score row ---- */

er_result er_score(const er_data *d, const er_sheet *s, er_spec_id radiologist,
                   er_spec_id epidemiologist, bool alicat, unsigned modifiers, er_breakdown *out,
                   er_details *details)
{
	er_result r = er_sheet_validate(d, s, alicat, modifiers);
	if (r.rule)
		return r;
	er_breakdown b;
	er_details det;
	memset(&b, 0, sizeof b);
	memset(&det, 0, sizeof det);
	det.nurse_space = -1;
	view v;
	view_of(d, s, &v);

	/* "Filled wards": clipboards of every completely filled ward. */
	int in_incomplete = 0;
	for (int w = 0; w < ER_WARDS; w++) {
		const er_ward_layout *wl = &d->wards[w];
		if (s->count[w] >= wl->nbeds) {
			b.filled_wards += wl->clipboard;
			for (int p = 0; p < wl->nbeds; p++)
				det.filled_wards |= 1u << (wl->first_bed + p);
		} else {
			in_incomplete += s->count[w];
		}
	}
	/* "Critical patients": their values, anywhere. */
	det.critical = v.critical & v.filled;
	for (uint32_t m = det.critical; m; m &= m - 1)
		b.critical += v.val[lowest(m)];
	/* "Nurses": the highest circled space (ALICAT's 2 starting spaces included). */
	if (s->nurse_track > 0) {
		int n = s->nurse_track > ER_NURSE_SPACES ? ER_NURSE_SPACES : s->nurse_track;
		b.nurses = d->nurse_track[n - 1];
		det.nurse_space = n - 1;
	}
	b.cardiologists = s->cardiologists[0] + s->cardiologists[1];
	/* "Radiologist & Epidemiologist"; ALICAT: the card's fixed points ("SOLO MODE"). */
	const er_spec_id spec[2] = {radiologist, epidemiologist};
	int *pts[2] = {&b.radiologist, &b.epidemiologist};
	uint32_t *masks[2] = {&det.radiologist, &det.epidemiologist};
	for (int i = 0; i < 2; i++) {
		if ((int)spec[i] < 0 || (int)spec[i] >= (int)ER_SPECIALISTS)
			continue;
		if (alicat)
			*pts[i] = d->specialists[spec[i]].alicat_points;
		else
			*pts[i] = er_score_specialist(d, s, spec[i], masks[i]);
	}
	/* "Morgue": −1 per circled box; no further penalty once full. */
	b.morgue = -(s->morgue < d->morgue_boxes ? s->morgue : d->morgue_boxes);
	/* "ADJUSTING THE DIFFICULTY" (ALICAT only). */
	if (alicat) {
		if (modifiers & ER_MOD_EQUIPMENT)
			b.modifiers += s->steth_circled + s->blood_circled;
		if (modifiers & ER_MOD_ISOLATION)
			b.modifiers += __builtin_popcount(v.screen & v.filled);
		if (modifiers & ER_MOD_CAPACITY)
			b.modifiers += in_incomplete;
	}
	b.total = b.filled_wards + b.critical + b.nurses + b.cardiologists + b.radiologist +
	          b.epidemiologist + b.morgue + b.modifiers;
	if (out)
		*out = b;
	if (details)
		*details = det;
	return r;
}

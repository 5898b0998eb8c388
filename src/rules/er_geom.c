/* ER sheet geometry derived from the beds' hex ids (game-data.md §1.2): adjacency, edges,
 * straight lines of 3, triangles and the beds round each X-ray lab. Directions are the six
 * neighbour offsets clockwise from upper-left; direction k and k+3 are opposite. */
#include <string.h>

#include "rules/er.h"

static int bed_at(const er_data *d, int hex)
{
	for (int i = 0; i < ER_BEDS; i++)
		if (d->beds[i].hex == hex)
			return i;
	return -1;
}

/* Hex of the neighbour of hex in direction k (0..5). Rows are hex/100. */
static int neighbour_hex(const er_data *d, int hex, int k)
{
	int row = hex / 100;
	return hex + (row % 2 == 0 ? d->neighbour_even[k] : d->neighbour_odd[k]);
}

static int neighbour_bed(const er_data *d, int bed, int k)
{
	return bed_at(d, neighbour_hex(d, d->beds[bed].hex, k));
}

void er_geom_build(er_data *d)
{
	memset(d->adj, 0, sizeof d->adj);
	d->nedges = d->nlines = d->ntriangles = 0;
	for (int b = 0; b < ER_BEDS; b++)
		for (int k = 0; k < 6; k++) {
			int n = neighbour_bed(d, b, k);
			if (n >= 0) {
				d->adj[b] |= 1u << n;
				d->adj[n] |= 1u << b; /* keep symmetric whatever the offsets */
			}
		}
	for (int i = 0; i < ER_BEDS; i++)
		for (int j = i + 1; j < ER_BEDS; j++)
			if ((d->adj[i] >> j & 1u) && d->nedges < ER_MAX_EDGES) {
				d->edges[d->nedges][0] = (int8_t)i;
				d->edges[d->nedges][1] = (int8_t)j;
				d->nedges++;
			}
	/* A straight line of 3 is identified by its middle bed and an axis (k, k+3). */
	for (int m = 0; m < ER_BEDS; m++)
		for (int k = 0; k < 3; k++) {
			int a = neighbour_bed(d, m, k + 3), c = neighbour_bed(d, m, k);
			if (a >= 0 && c >= 0 && d->nlines < ER_MAX_LINES) {
				d->lines[d->nlines][0] = (int8_t)a;
				d->lines[d->nlines][1] = (int8_t)m;
				d->lines[d->nlines][2] = (int8_t)c;
				d->nlines++;
			}
		}
	for (int i = 0; i < ER_BEDS; i++)
		for (int j = i + 1; j < ER_BEDS; j++) {
			if (!(d->adj[i] >> j & 1u))
				continue;
			for (int k = j + 1; k < ER_BEDS; k++)
				if ((d->adj[i] >> k & 1u) && (d->adj[j] >> k & 1u) &&
				    d->ntriangles < ER_MAX_TRIANGLES) {
					d->triangles[d->ntriangles][0] = (int8_t)i;
					d->triangles[d->ntriangles][1] = (int8_t)j;
					d->triangles[d->ntriangles][2] = (int8_t)k;
					d->ntriangles++;
				}
		}
	for (int l = 0; l < ER_LABS; l++)
		for (int k = 0; k < 6; k++)
			d->lab_adj[l][k] = (int8_t)bed_at(d, neighbour_hex(d, d->lab_hex[l], k));
}

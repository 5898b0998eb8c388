/* Shared by the import fuzz targets (fuzz_bgstats.c, fuzz_bggxml.c, fuzz_backup.c, fuzz_csv.c): the
 * bytes go through import_parse, the entry point the import route uses, and what it accepts must be
 * what the transaction can store. Nothing may crash, leak or trip a sanitizer. */
#ifndef FUZZ_IMPORT_H
#define FUZZ_IMPORT_H

#include "leagues/import.h"
#include "leagues/io.h"

#include <libxml/parser.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fz_check(int ok)
{
	if (!ok)
		abort();
}

/* Invariants of a parsed import: an error has a detail; every accepted play has an id, a
 * game, up to 64 distinct named players (none: a BGG play logged without players) with finite
 * scores, scores as typed of 1 to 256 bytes and ranks from 1; every skipped play a reason and a
 * sentence. */
static void fz_import_mapped(import_format format, const uint8_t *data, size_t size,
                             const char *columns, const char *dates, const char *game)
{
	league_import im;
	memset(&im, 0, sizeof im);
	im.csv_columns = columns; /* a spreadsheet's mapping (NULL: the proposed one) */
	im.csv_dates = dates;
	im.csv_game = game;
	int rc = import_parse(&im, format, (const char *)data, size);
	if (rc != 0) {
		fz_check(rc == -1 && im.detail[0] != '\0');
	} else {
		for (int i = 0; i < im.nplays; i++) {
			const imp_play *p = &im.plays[i];
			fz_check(p->p.uuid && *p->p.uuid && p->p.game && *p->p.game && p->p.source);
			fz_check(p->nres >= 0 && p->nres <= RATING_MAX_PLAYERS);
			for (int k = 0; k < p->nres; k++) {
				const imp_result *r = &p->res[k];
				fz_check(r->name && *r->name && strlen(r->name) <= 256);
				fz_check(!r->r.has_score || isfinite(r->r.score));
				fz_check(!r->r.score_text ||
				         (*r->r.score_text && strlen(r->r.score_text) <= 256));
				fz_check(r->r.rank >= 1);
				for (int j = 0; j < k; j++)
					fz_check(strcmp(p->res[j].name, r->name) != 0);
			}
		}
		for (int i = 0; i < im.nmembers; i++)
			fz_check(im.members[i] && *im.members[i]);
		for (int i = 0; i < im.nskips; i++)
			fz_check(im.skips[i].reason && *im.skips[i].reason && im.skips[i].detail &&
			         *im.skips[i].detail);
		fz_check(im.nplays + im.nskips <= 100000);
	}
	io_import_free(&im);
}

static inline void fz_import(import_format format, const uint8_t *data, size_t size)
{
	fz_import_mapped(format, data, size, NULL, NULL, NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	xmlInitParser(); /* as main() does, before any parse */
	return 0;
}

#endif

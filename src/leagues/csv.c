/* A league as CSV for spreadsheets: one row per player per play, one row with empty player
 * columns for a play without players (GET …/export.csv). Read back by format=csv (csvin.h). */
#include "leagues/csv.h"
#include "leagues/access.h"
#include "leagues/io.h"

#include <stdio.h>
#include <string.h>

/* The day (YYYY-MM-DD) and time of day (HH:MM:SS) of a play, as spreadsheets read them: the
 * parts of its local time (x->date, RFC 3339 with the play's own offset), so a game at 23:30
 * on 31 December is on that day in the sheet. The one place that chooses which time of the
 * play the file shows. */
static void play_day_time(const db_export_row *x, char day[11], char time[9])
{
	if (x->date == NULL) { /* undated: empty cells */
		day[0] = time[0] = '\0';
		return;
	}
	snprintf(day, 11, "%.10s", x->date);
	snprintf(time, 9, "%.8s", strlen(x->date) >= 19 ? x->date + 11 : "00:00:00");
}

/* Seat detail k of d (io_seat_details) as a cell's text ("true"/"false" for a flag), NULL
 * (empty) when unknown; borrowed from d. */
static const char *seat_text(json_object *d, const char *k)
{
	json_object *v;
	if (!json_object_object_get_ex(d, k, &v) || v == NULL)
		return NULL;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v) ? "true" : "false";
	return json_object_get_string(v);
}

static int export_csv_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	db_export_rows rs;
	if (!io_export_rows_all(req, resp, c, acc, &a, &rs))
		return 0;
	sbuf s = {0};
	/* the UTF-8 byte order mark: Excel reads the file as UTF-8 (accents) only with it */
	sb_str(&s, "\xEF\xBB\xBF");
	sb_str(&s, "play,date,day,time,game,bgg_id,duration_min,cooperative,location,player,seat,"
	           "score,rank,winner,rating_mu,rating_sigma,notes,ignored,incomplete,unrated,role,"
	           "team,start_player,new_player,start_position\r\n");
	for (int i = 0; i < rs.n; i++) {
		const db_export_row *x = &rs.rows[i];
		char seat[16] = "", rank[16] = "", day[11], time[9];
		if (x->has_result) {
			snprintf(seat, sizeof seat, "%d", x->seat);
			snprintf(rank, sizeof rank, "%d", x->rank);
		}
		play_day_time(x, day, time);
		json_object *d = io_seat_details(x->result_extra);
		const struct {
			const char *v; /* NULL: empty */
			bool text;
		} cols[] = {{x->uuid, true}, /* imported files choose it */
		            {x->date, false},
		            {day, false},
		            {time, false},
		            {x->game, true},
		            {x->bgg_id, false},
		            {x->duration_min, false},
		            {x->cooperative ? "true" : "false", false},
		            {x->location, true},
		            {x->name, true},
		            {seat, false},
		            {io_finite_text(x->score), false},
		            {rank, false},
		            {!x->has_result ? ""
		             : x->winner    ? "true"
		                            : "false",
		             false},
		            {io_finite_text(x->mu), false},
		            {io_finite_text(x->sigma), false},
		            {x->notes, true},
		            /* what keeps a play or a seat out of the standings, so the file reads
		             * back as the same league (csvin.h) */
		            {x->ignored ? "true" : "false", false},
		            {x->incomplete ? "true" : "false", false},
		            {!x->has_result               ? ""
		             : x->unrated || x->anonymous ? "true"
		                                          : "false",
		             false},
		            /* the seat's details (io_seat_details); its team as rated */
		            {seat_text(d, "role"), true},
		            {x->team ? x->team : "", true},
		            {seat_text(d, "start_player"), false},
		            {seat_text(d, "new_player"), false},
		            {seat_text(d, "start_position"), true}};
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
			if (k)
				sb_str(&s, ",");
			io_csv_cell(&s, cols[k].v, cols[k].text);
		}
		sb_str(&s, "\r\n");
		json_object_put(d);
	}
	db_rowset_clear(&rs);
	return io_reply_file(resp, "text/csv; charset=utf-8", "league.csv", s.b, s.len);
}

int api_league_export_csv(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, export_csv_read);
}

/* A league import (import.c): parsed and checked completely without the database (the entry
 * point the fuzz targets call: tests/fuzz/fuzz_bgstats.c, fuzz_bggxml.c, fuzz_backup.c), then
 * stored in one transaction by the import route, whose pre-body check refuses a client before
 * 16 MiB are buffered. */
#ifndef LEAGUES_IMPORT_H
#define LEAGUES_IMPORT_H

#include "http/http.h"
#include "leagues/io.h"

#include <stddef.h>

/* Parses body[0..len) in the format into im. Returns 0, or -1 with im->field (a JSON pointer
 * or XPath-like location, "" for the whole file) and im->detail. Either way the caller frees
 * im with io_import_free. */
int import_parse(league_import *im, import_format format, const char *body, size_t len);

int api_league_import(const http_req *req, http_resp *resp);

/* The import's format from its query (format=…) checked against its Content-Type and body
 * (415, 400): false after the reply. */
bool import_format_of(const http_req *req, http_resp *resp, const char *ct, import_format *f);

/* A spreadsheet's mapping from the query (columns, dates, game; absent: the proposed one). */
void import_csv_mapping(const http_req *req, league_import *im);

/* The import's pre-body check (http_route.pre_body): Origin, session and ownership from the
 * headers, so a refused client never gets 16 MiB buffered. */
int api_league_import_pre_body(const http_req *req, http_resp *resp);

#endif

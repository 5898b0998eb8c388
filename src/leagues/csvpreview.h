/* What a spreadsheet would import as (csvpreview.c). */
#ifndef LEAGUES_CSVPREVIEW_H
#define LEAGUES_CSVPREVIEW_H

#include "http/http.h"

/* POST …/import/preview?format=csv: the file's header, the proposed (or given) mapping and its
 * first plays, nothing stored. Its pre-body check is the import's (api_league_import_pre_body). */
int api_league_import_preview(const http_req *req, http_resp *resp);

#endif

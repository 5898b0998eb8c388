/* Our backup: written (backup.json) and read back into an import (backup.c). */
#ifndef LEAGUES_BACKUP_H
#define LEAGUES_BACKUP_H

#include "http/http.h"
#include "leagues/io.h"

int backup_parse(league_import *im);

int api_league_backup(const http_req *req, http_resp *resp);

#endif

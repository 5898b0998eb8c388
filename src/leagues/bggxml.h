/* BoardGameGeek's plays XML read into an import (bggxml.c). */
#ifndef LEAGUES_BGGXML_H
#define LEAGUES_BGGXML_H

#include "leagues/io.h"

#include <stddef.h>

int bggxml_parse(league_import *im, const char *body, size_t len);

#endif

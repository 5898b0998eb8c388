/* BG Stats' JSON export read into an import (bgstats.c). */
#ifndef LEAGUES_BGSTATS_H
#define LEAGUES_BGSTATS_H

#include "leagues/io.h"

int bgstats_parse(league_import *im);

#endif

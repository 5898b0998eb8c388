/* The server's closer of league challenges (challclose.c): a thread that closes every
 * challenge past its closing time, so its league play is recorded when it is due even when
 * nobody reads its board (src/leagues/README.md "Challenges"). */
#ifndef LEAGUES_CHALLCLOSE_H
#define LEAGUES_CHALLCLOSE_H

/* Starts the thread: it looks every CHALLENGE_CLOSE_PERIOD_MS milliseconds (default 10000,
 * 50 at least), the first time one period after the start (reads close what is due before). 0, or
 * -1 (logged) when it cannot start. */
int challclose_start(void);
/* Stops it (waits for a closing under way) and joins it. */
void challclose_stop(void);

#endif

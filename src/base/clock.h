/* Deadlines on the monotonic clock (clock.c), for pthread_cond_timedwait on a condition
 * variable whose clock is CLOCK_MONOTONIC (pthread_condattr_setclock). */
#ifndef BASE_CLOCK_H
#define BASE_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC's now plus ms milliseconds (ms ≥ 0). */
struct timespec clock_in_ms(long ms);

#endif

/* One logger for the whole server: one line per record on stderr, written with a single
 * write(2) so threads never interleave. Each line starts with its kind, so the access log, our
 * own bugs and clients' bad input are told apart by the first word:
 *
 *   info   start, stop, configuration
 *   warn   trouble outside our control (database away, a peer that vanished)
 *   access one line per HTTP request (http/request.c)
 *   client a client's bad input that is worth a line (the access line already names its 4xx)
 *   bug    something that must never happen: a bug of ours or corrupted stored data
 *
 * The logger never allocates; a line longer than LOG_LINE_MAX is cut. */
#ifndef BASE_LOG_H
#define BASE_LOG_H

enum { LOG_LINE_MAX = 1024 };

typedef enum { LOG_INFO, LOG_WARN, LOG_ACCESS, LOG_CLIENT, LOG_BUG } log_kind;

void log_msg(log_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_info(...)   log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...)   log_msg(LOG_WARN, __VA_ARGS__)
#define log_access(...) log_msg(LOG_ACCESS, __VA_ARGS__)
#define log_client(...) log_msg(LOG_CLIENT, __VA_ARGS__)
#define log_bug(...)    log_msg(LOG_BUG, __VA_ARGS__)

#endif

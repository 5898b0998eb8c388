/* The server's logger (log.h). */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static const char *const kind_names[] = {"info", "warn", "access", "client", "bug"};

void log_msg(log_kind kind, const char *fmt, ...)
{
	char buf[LOG_LINE_MAX];
	unsigned k = (unsigned)kind < sizeof kind_names / sizeof kind_names[0] ? (unsigned)kind : 4;
	int n = snprintf(buf, sizeof buf, "%s ", kind_names[k]);
	if (n < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	size_t len = (size_t)n + (size_t)m;
	if (len > sizeof buf - 2)
		len = sizeof buf - 2;
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, buf, len);
	(void)w;
}

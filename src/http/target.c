/* The request target as it may be logged: credentials in the query (token, access_token, data)
 * redacted before anything can log it, control characters made visible; libmicrohttpd's own
 * messages through the same redaction. */
#include "http/server_internal.h"

/* ---- logging ---- */

/* Copies s into dst with control and non-ASCII bytes replaced, at most max bytes. */
void target_sanitize(char *dst, size_t dstlen, const char *s, size_t max)
{
	size_t n = 0;
	for (; s && *s && n + 1 < dstlen && n < max; s++)
		dst[n++] =
		    (*s < 0x20 || *s == 0x7f || (unsigned char)*s >= 0x80 || *s == '"') ? '?' : *s;
	dst[n] = '\0';
}

/* Query parameters whose values are credentials: the seat token (the event stream takes it as
 * ?token=, EventSource cannot send headers), its usual other spelling, and qr.svg's data (the
 * seat links that the front end draws as QR codes carry seat tokens). */
static const char *const SECRET_PARAMS[] = {"token", "access_token", "data"};
static const char REDACTED[] = "REDACTED";

static int hex_digit(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Is the query parameter name n[0..len) one of SECRET_PARAMS? libmicrohttpd decodes a name
 * and looks it up without regard to case, so "%54oken" names the token too. */
static bool secret_name(const char *n, size_t len)
{
	char dec[16];
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		if (k + 1 >= sizeof dec)
			return false; /* longer than any secret name */
		int hi = n[i] == '%' && i + 2 < len ? hex_digit((unsigned char)n[i + 1]) : -1;
		int lo = hi >= 0 ? hex_digit((unsigned char)n[i + 2]) : -1;
		if (hi >= 0 && lo >= 0) {
			dec[k++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			dec[k++] = n[i];
		}
	}
	dec[k] = '\0';
	for (size_t j = 0; j < sizeof SECRET_PARAMS / sizeof SECRET_PARAMS[0]; j++)
		if (strcasecmp(dec, SECRET_PARAMS[j]) == 0)
			return true;
	return false;
}

/* Copies src into dst (dstlen > 0 bytes, always NUL-terminated, cut to fit) with the value of
 * every credential query parameter replaced by REDACTED. A parameter starts after each '?'
 * or '&' (a superset of libmicrohttpd's split, which starts at the first '?' only); its value
 * runs from the '=' to the next '&' or, when text is a log message rather than a request
 * target, to the next blank or quote too. Returns the length written. */
static size_t redact(char *dst, size_t dstlen, const char *src, bool text)
{
	const char *stops = text ? "& \t\r\n'\"`" : "&";
	size_t n = 0;
	const char *p = src;
	while (*p && n + 1 < dstlen) {
		char ch = *p++;
		dst[n++] = ch;
		if (ch != '?' && ch != '&')
			continue;
		size_t name = strcspn(p, text ? "=&? \t\r\n'\"`" : "=&");
		if (p[name] != '=' || !secret_name(p, name))
			continue;
		size_t keep = name + 1 < dstlen - 1 - n ? name + 1 : dstlen - 1 - n;
		memcpy(dst + n, p, keep);
		n += keep;
		size_t r =
		    sizeof REDACTED - 1 < dstlen - 1 - n ? sizeof REDACTED - 1 : dstlen - 1 - n;
		memcpy(dst + n, REDACTED, r);
		n += r;
		p += name + 1;
		p += strcspn(p, stops);
	}
	dst[n] = '\0';
	return n;
}

/* The request target as the server keeps it (for routing and the access log): src with its
 * credential query values redacted, cut after HTTP_MAX_URL + 1 bytes (longer is a 414). The
 * raw target is never stored, so no log line can carry a token. Owned by the caller. */
char *target_capture(const char *src)
{
	size_t eq = 0, len = strnlen(src, HTTP_MAX_URL + 1);
	for (size_t i = 0; i < len; i++)
		eq += src[i] == '=';
	size_t cap = len + 1 + eq * (sizeof REDACTED - 1);
	char *t = xmalloc(cap);
	size_t n = redact(t, cap, src, false);
	if (n > HTTP_MAX_URL + 1)
		t[HTTP_MAX_URL + 1] = '\0';
	return t;
}

void target_mhd_logger(void *cls, const char *fm, va_list ap)
{
	char buf[512], clean[512];
	(void)cls;
	vsnprintf(buf, sizeof buf, fm, ap);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	/* its messages name a request by libmicrohttpd's path, without the query; redacted
	 * anyway, so that no version of the library can put a token in the log */
	redact(clean, sizeof clean, buf, true);
	log_warn("mhd: %s", clean);
}
